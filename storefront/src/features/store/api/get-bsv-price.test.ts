import { afterEach, describe, expect, it, vi } from 'vitest'

import { stubApi } from '../testing/render-store'
import { getBsvPrice } from './get-bsv-price'

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('getBsvPrice', () => {
  it('returns the rate in EUR per BSV', async () => {
    stubApi({ '/api/bsv-price': { body: { rate: 41.5 } } })
    await expect(getBsvPrice()).resolves.toBe(41.5)
  })

  it.each([[{ rate: '41.5' }], [{ price: 41.5 }], [{ rate: -1 }], [null]])(
    'refuses %j as an invalid format',
    async (body) => {
      stubApi({ '/api/bsv-price': { body } })
      await expect(getBsvPrice()).rejects.toThrow('Invalid price data format received from API.')
    },
  )

  it("falls back to 'Failed to fetch BSV price.' when the server gives no message", async () => {
    stubApi({ '/api/bsv-price': { status: 503, body: null } })
    await expect(getBsvPrice()).rejects.toThrow('Failed to fetch BSV price.')
  })
})

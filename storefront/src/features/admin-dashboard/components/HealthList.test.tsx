import { describe, expect, it } from 'vitest'

import { healthOf } from './HealthList'

describe('the shop health', () => {
  const health = {
    worker: { running: true, leaseUntil: '2026-11-24T10:00:00Z' },
    chain: {
      source: 'whatsonchain' as const,
      origin: 'https://api.whatsonchain.com',
      lastCheckAt: null,
    },
    email: { delivery: 'smtp' as const, pending: 0, failed: 0, lastSentAt: null, lastError: null },
  }

  it('is all right when the worker runs and no e-mail failed', () => {
    expect(healthOf(health).map((part) => part.ok)).toEqual([true, true, true])
  })

  it('says what to check: a stopped worker, failed or turned-off e-mail', () => {
    const parts = healthOf({
      ...health,
      worker: { running: false, leaseUntil: '2026-11-24T10:00:00Z' },
      email: { ...health.email, failed: 2, lastError: '550 mailbox unavailable' },
    })
    expect(parts[0]).toMatchObject({ ok: false, text: expect.stringMatching(/^Not running since/) })
    expect(parts[2]).toMatchObject({
      ok: false,
      text: expect.stringContaining('2 failed. None sent yet. Last error: 550 mailbox unavailable'),
    })
    expect(healthOf({ ...health, email: { ...health.email, delivery: 'off' } })[2]!.ok).toBe(false)
  })
})

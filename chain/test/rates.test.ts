import http from 'node:http'
import type { AddressInfo } from 'node:net'

import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { RateUnavailableError, createRateProvider } from '../src/rates'

// Local servers speaking the CoinGecko and CoinPaprika APIs (the network edge, not our modules).
let gecko: { status: number; body: unknown; calls: number }
let paprika: { status: number; body: unknown; calls: number }
let server: http.Server
let base: string

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const target = req.url?.startsWith('/gecko/simple/price?ids=bitcoin-cash-sv&vs_currencies=eur')
      ? gecko
      : req.url?.startsWith('/paprika/tickers/bsv-bitcoin-sv?quotes=EUR')
        ? paprika
        : null
    if (!target) {
      res.writeHead(404).end()
      return
    }
    target.calls += 1
    res
      .writeHead(target.status, { 'content-type': 'application/json' })
      .end(JSON.stringify(target.body))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

const BOUNDS = { rateMinEUR: 1, rateMaxEUR: 10_000, rateMaxSpread: 0.1 }

const live = (now: () => number) =>
  createRateProvider(
    {
      rateSource: 'live',
      fixedRateEUR: 40,
      coingeckoUrl: `${base}/gecko`,
      coinpaprikaUrl: `${base}/paprika`,
      rateCacheSeconds: 60,
      ...BOUNDS,
    },
    now,
  )

describe('the BSV rate', () => {
  it('uses CoinGecko and caches the answer for the cache time', async () => {
    gecko = { status: 200, body: { 'bitcoin-cash-sv': { eur: 42.5 } }, calls: 0 }
    paprika = { status: 200, body: { quotes: { EUR: { price: 41 } } }, calls: 0 }
    let clock = 0
    const provider = live(() => clock)
    expect(await provider.getRate()).toBe(42.5)
    clock = 59_000
    expect(await provider.getRate()).toBe(42.5)
    expect(gecko.calls).toBe(1)
    clock = 61_000
    gecko.body = { 'bitcoin-cash-sv': { eur: 43 } }
    expect(await provider.getRate()).toBe(43)
    expect(gecko.calls).toBe(2)
  })

  it('falls back to CoinPaprika when CoinGecko throttles or answers nonsense', async () => {
    gecko = { status: 429, body: {}, calls: 0 }
    paprika = { status: 200, body: { quotes: { EUR: { price: 41.25 } } }, calls: 0 }
    expect(await live(() => 0).getRate()).toBe(41.25)
    gecko = { status: 200, body: { 'bitcoin-cash-sv': { eur: -1 } }, calls: 0 }
    expect(await live(() => 0).getRate()).toBe(41.25)
  })

  it('refuses to make up a rate when no source answers', async () => {
    gecko = { status: 500, body: {}, calls: 0 }
    paprika = { status: 503, body: {}, calls: 0 }
    await expect(live(() => 0).getRate()).rejects.toBeInstanceOf(RateUnavailableError)
  })

  it('never prices with a rate outside the bounds: 1e12 or 1e-9 EUR/BSV from a source is not used', async () => {
    gecko = { status: 200, body: { 'bitcoin-cash-sv': { eur: 1e12 } }, calls: 0 }
    paprika = { status: 200, body: { quotes: { EUR: { price: 1e-9 } } }, calls: 0 }
    const failure = await live(() => 0)
      .getRate()
      .catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(RateUnavailableError)
    expect((failure as RateUnavailableError).causes.join(' ')).toMatch(
      /coingecko: 1000000000000 EUR\/BSV is outside 1\.\.10000.*coinpaprika: 1e-9 EUR\/BSV is outside/,
    )
    // One believable source is enough: the other's nonsense is left out.
    paprika = { status: 200, body: { quotes: { EUR: { price: 41.5 } } }, calls: 0 }
    expect(await live(() => 0).getRate()).toBe(41.5)
  })

  it('asks both sources and stops pricing when they disagree by more than the allowed share', async () => {
    gecko = { status: 200, body: { 'bitcoin-cash-sv': { eur: 40 } }, calls: 0 }
    paprika = { status: 200, body: { quotes: { EUR: { price: 52 } } }, calls: 0 }
    const failure = await live(() => 0)
      .getRate()
      .catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(RateUnavailableError)
    expect((failure as RateUnavailableError).causes.at(-1)).toMatch(/disagree by 30\.0 %/)
    expect(gecko.calls + paprika.calls).toBe(2)

    paprika.body = { quotes: { EUR: { price: 41 } } }
    expect(await live(() => 0).getRate()).toBe(40)
  })

  it('refuses a fixed rate outside the bounds too', async () => {
    const fixed = createRateProvider({
      rateSource: 'fixed',
      fixedRateEUR: 1e-9,
      coingeckoUrl: base,
      coinpaprikaUrl: base,
      rateCacheSeconds: 60,
      ...BOUNDS,
    })
    await expect(fixed.getRate()).rejects.toBeInstanceOf(RateUnavailableError)
  })

  it('uses the fixed rate in test mode without any call', async () => {
    gecko = { status: 200, body: {}, calls: 0 }
    const fixed = createRateProvider({
      rateSource: 'fixed',
      fixedRateEUR: 40,
      coingeckoUrl: base,
      coinpaprikaUrl: base,
      rateCacheSeconds: 60,
      ...BOUNDS,
    })
    expect(await fixed.getRate()).toBe(40)
    expect(gecko.calls).toBe(0)
  })
})

import { PrivateKey, Transaction } from '@bsv/sdk'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'

import { ChainSourceError } from '../types'
import { createWhatsOnChainClient } from './index'
import type { ChainSimulator } from '../simulator'
import { payFromTestWallet, startChainSimulator } from '../simulator'

/**
 * The WhatsOnChain client against the simulator keeping WhatsOnChain's documented limits and
 * failure answers: cut pages, an error for one address, a transaction between indexes, 429s
 * with Retry-After, a daily cap, and the API key it reads.
 */

let sim: ChainSimulator

const newAddress = () => PrivateKey.fromRandom().toAddress('testnet')
const client = (options: Partial<Parameters<typeof createWhatsOnChainClient>[0]> = {}) =>
  createWhatsOnChainClient({ baseUrl: sim.wocUrl, maxRequestsPerSecond: 100, ...options })
/** The simulator's record of the API requests whose path starts with `prefix`. */
const requestsTo = (prefix: string) => sim.requests().filter((r) => r.path.startsWith(prefix))

afterEach(async () => {
  await sim?.close()
})

describe('a payment among dust in one block', () => {
  beforeEach(async () => {
    sim = await startChainSimulator()
  })

  /** The payment, then 25 dust outputs to the same address, all mined in one block. */
  function dustedPayment() {
    const address = newAddress()
    const payment = sim.state.mint(address, 25_000_000)
    for (let i = 0; i < 25; i += 1) sim.state.mint(address, 546)
    const other = newAddress()
    const otherTx = sim.state.mint(other, 10_000)
    const height = sim.state.mine(1)
    return { address, payment, other, otherTx, height }
  }

  it('is found with its height by a confirmed look, past the 20-item page', async () => {
    const { address, payment, other, otherTx, height } = dustedPayment()
    const histories = await client().getAddressHistories([address, other], 'confirmed')
    expect(histories.get(address)).toContainEqual({ txid: payment, height })
    expect(histories.get(address)).toHaveLength(26)
    // The address after it in the request, cut to nothing, is read too.
    expect(histories.get(other)).toEqual([{ txid: otherTx, height }])
  })

  it('is found with its height by a full look, in one call', async () => {
    const { address, payment, height } = dustedPayment()
    const histories = await client().getAddressHistories([address], 'all')
    expect(histories.get(address)).toContainEqual({ txid: payment, height })
    expect(requestsTo('/address')).toEqual([
      expect.objectContaining({ method: 'POST', path: '/addresses/history/all' }),
    ])
  })

  it('is found when a cut page comes without a token (the cap counted another way)', async () => {
    await sim.close()
    sim = await startChainSimulator({ pages: { omitTokens: true } })
    const { address, payment, other, otherTx, height } = dustedPayment()
    const histories = await client().getAddressHistories([address, other], 'confirmed')
    expect(histories.get(address)).toContainEqual({ txid: payment, height })
    expect(histories.get(other)).toEqual([{ txid: otherTx, height }])
  })

  it('is found past every page of a full look, through the single-address pages', async () => {
    await sim.close()
    sim = await startChainSimulator({ pages: { historyAll: 5 } })
    const address = newAddress()
    const payment = sim.state.mint(address, 25_000_000)
    for (let i = 0; i < 11; i += 1) sim.state.mint(address, 546)
    const height = sim.state.mine(1)
    const waiting = Array.from({ length: 7 }, (_, i) => sim.state.mint(address, 600 + i))
    const histories = await client().getAddressHistories([address], 'all')
    expect(histories.get(address)).toHaveLength(19)
    expect(histories.get(address)).toContainEqual({ txid: payment, height })
    for (const txid of waiting)
      expect(histories.get(address)).toContainEqual({ txid, height: null })
    expect(requestsTo('/address/').length).toBeGreaterThan(0)
  })
})

describe('an address whose history always answers an error', () => {
  beforeEach(async () => {
    sim = await startChainSimulator()
  })

  it('is left out and reported, and the other addresses of the batch come back', async () => {
    const [good, bad, alsoGood] = [newAddress(), newAddress(), newAddress()]
    const goodTx = sim.state.mint(good, 1000)
    sim.state.mint(bad, 1000)
    const minedHeight = sim.state.mine(1)
    const alsoGoodTx = sim.state.mint(alsoGood, 1000)
    const response = await fetch(`${sim.url}/simulator/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ historyErrorAddresses: [bad] }),
    })
    expect(response.status).toBe(200)
    const woc = client()
    for (const scope of ['all', 'confirmed', 'unconfirmed'] as const) {
      const histories = await woc.getAddressHistories([good, bad, alsoGood], scope)
      expect(histories.has(bad)).toBe(false)
      if (scope !== 'unconfirmed')
        expect(histories.get(good)).toEqual([{ txid: goodTx, height: minedHeight }])
      if (scope !== 'confirmed')
        expect(histories.get(alsoGood)).toEqual([{ txid: alsoGoodTx, height: null }])
      const detailed = await woc.getAddressHistoriesDetailed!([good, bad, alsoGood], scope)
      expect(detailed.failed).toEqual(new Map([[bad, 'Failed to get history']]))
      expect([...detailed.histories.keys()].sort()).toEqual([good, alsoGood].sort())
    }
    const stats = woc.stats!()
    expect(stats.failingAddresses.map((f) => f.address)).toEqual([bad])
    expect(stats.errorsByKind.address).toBeGreaterThan(0)
  })
})

describe('a transaction every index loses for a while (between mempool and block)', () => {
  beforeEach(async () => {
    sim = await startChainSimulator()
  })

  it('is looked up again, and is not reported unknown on the first 404', async () => {
    const txid = sim.state.mint(newAddress(), 1000)
    sim.state.mine(1)
    sim.setFaults({ loseTxid: { txid, seconds: 1 } })
    const woc = client({ notFoundDelayMs: () => 450 })
    expect(await woc.getTransactionStatus(txid)).toBe('confirmed')
    const lookups = requestsTo(`/tx/hash/${txid}`)
    expect(lookups[0]?.status).toBe(404)
    expect(lookups.at(-1)?.status).toBe(200)
    sim.setFaults({ loseTxid: { txid, seconds: 1 } })
    expect(Transaction.fromHex(await woc.getTransactionHex(txid)).id('hex')).toBe(txid)
    expect(requestsTo(`/tx/${txid}/hex`)[0]?.status).toBe(404)
  })

  it('is reported unknown only after every retry found nothing', async () => {
    const woc = client({ notFoundRetries: 2, notFoundDelayMs: () => 10 })
    const nowhere = 'ab'.repeat(32)
    expect(await woc.getTransactionStatus(nowhere)).toBe('unknown')
    expect(requestsTo(`/tx/hash/${nowhere}`)).toHaveLength(3)
  })
})

describe('429 answers with Retry-After', () => {
  beforeEach(async () => {
    sim = await startChainSimulator()
  })

  it('are waited out: no request inside the window, and the call succeeds after', async () => {
    sim.setFaults({ burst429: { count: 2, retryAfterSeconds: 1 } })
    const woc = client()
    expect(await woc.getTipHeight()).toBe(sim.state.height)
    const asked = requestsTo('/chain/info')
    expect(asked.map((r) => r.status)).toEqual([429, 429, 200])
    expect(asked.some((r) => r.insideRetryAfter)).toBe(false)
    for (let i = 1; i < asked.length; i += 1)
      expect(asked[i]!.at - asked[i - 1]!.at).toBeGreaterThanOrEqual(1000)
    expect(woc.stats!().errorsByKind.throttled).toBe(2)
  })

  it('hold back every other call until the window has passed', async () => {
    sim.setFaults({ burst429: { count: 1, retryAfterSeconds: 1 } })
    const woc = client()
    const tip = woc.getTipHeight()
    // Once the client has its 429 (the simulator's own record may come first).
    while (woc.stats().throttledUntil === null)
      await new Promise((resolve) => setTimeout(resolve, 5))
    // Asked for while the first call waits out its 429.
    const look = woc.getAddressHistories([newAddress()], 'unconfirmed')
    await Promise.all([tip, look])
    const asked = sim.requests()
    expect(asked.some((r) => r.insideRetryAfter)).toBe(false)
    const refusedAt = asked.find((r) => r.status === 429)!.at
    const lookAt = asked.find((r) => r.path.startsWith('/addresses'))!.at
    expect(lookAt - refusedAt).toBeGreaterThanOrEqual(1000)
  })

  it('for the day (the daily cap) fail the call at once, and no more is asked', async () => {
    sim.setLimits({ perDay: 2 })
    const woc = client({ dailyCap: 2, maxRetryAfterMs: 5_000 })
    await woc.getTipHeight()
    await woc.getTipHeight()
    const started = Date.now()
    const refused = await woc.getTipHeight().catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(ChainSourceError)
    expect((refused as ChainSourceError).status).toBe(429)
    expect(Date.now() - started).toBeLessThan(1000)
    const asked = sim.requests().length
    await expect(woc.getTipHeight()).rejects.toThrow(ChainSourceError)
    expect(sim.requests()).toHaveLength(asked)
    const stats = woc.stats!()
    expect(stats).toMatchObject({ callsToday: 3, capPerDay: 2 })
    expect(stats.errorsByKind['daily-cap']).toBe(1)
    expect(stats.throttledUntil!.getTime()).toBeGreaterThan(Date.now() + 60_000)
  })
})

describe('the API key', () => {
  beforeEach(async () => {
    sim = await startChainSimulator()
  })

  it('arrives in Authorization (and in woc-api-key, for older servers)', async () => {
    await client({ apiKey: 'mainnet_0123456789abcdef' }).getTipHeight()
    expect(requestsTo('/chain/info')[0]).toMatchObject({
      authorization: 'mainnet_0123456789abcdef',
      wocApiKey: 'mainnet_0123456789abcdef',
    })
  })
})

describe('where outputs were spent', () => {
  beforeEach(async () => {
    sim = await startChainSimulator()
  })

  it('is the spending transaction, unspent, or unknown (never spent) — 20 outputs a call', async () => {
    const woc = client()
    const paid = await payFromTestWallet({
      chain: woc,
      wocUrl: sim.wocUrl,
      network: 'test',
      address: newAddress(),
      satoshis: 5000,
    })
    const input = Transaction.fromHex(sim.state.getHex(paid)!).inputs[0]!
    const funding = { txid: input.sourceTXID!, vout: input.sourceOutputIndex }
    const unknown = Array.from({ length: 22 }, (_, i) => ({
      txid: i.toString(16).padStart(64, 'c'),
      vout: 0,
    }))
    const spent = await woc.getSpentBy!([funding, { txid: paid, vout: 0 }, ...unknown])
    expect(spent.get(`${funding.txid}:${funding.vout}`)).toBe(paid)
    expect(spent.get(`${paid}:0`)).toBe('unspent')
    for (const { txid } of unknown) expect(spent.get(`${txid}:0`)).toBe('unknown')
    expect(requestsTo('/utxos/spent')).toHaveLength(2)
  })

  it('is unknown when the answer fails', async () => {
    sim.setOutage(true)
    const spent = await client({ retries: 0 }).getSpentBy!([{ txid: 'ab'.repeat(32), vout: 1 }])
    expect(spent.get(`${'ab'.repeat(32)}:1`)).toBe('unknown')
  })
})

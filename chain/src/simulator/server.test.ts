import { PrivateKey } from '@bsv/sdk'
import { afterEach, describe, expect, it } from 'vitest'

import type { ChainSimulator } from './server'
import { startChainSimulator } from './server'

/**
 * The simulator keeps WhatsOnChain's documented limits and failure answers, asked over HTTP as
 * a client would: page caps and tokens, the single-address parameters, per-address errors,
 * 429 with Retry-After, a daily cap, the faults a test switches on, and the spent lookups.
 */

let sim: ChainSimulator

afterEach(async () => {
  await sim?.close()
})

const newAddress = () => PrivateKey.fromRandom().toAddress('testnet')

async function call(
  method: 'GET' | 'POST' | 'DELETE',
  route: string,
  {
    body,
    headers = {},
    base,
  }: { body?: unknown; headers?: Record<string, string>; base?: string } = {},
) {
  const response = await fetch(`${base ?? sim.wocUrl}${route}`, {
    method,
    headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
    body: body ? JSON.stringify(body) : undefined,
  })
  const text = await response.text()
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    json = text
  }
  return { status: response.status, json, retryAfter: response.headers.get('retry-after') }
}

type Entry = {
  address: string
  result: { tx_hash: string; height?: number }[]
  nextPageToken?: string
  error: string
}

describe('history pages', () => {
  it('cut a bulk confirmed answer at 20 items over the whole request, with tokens to read on', async () => {
    sim = await startChainSimulator()
    const [a, b] = [newAddress(), newAddress()]
    for (let i = 0; i < 15; i += 1) sim.state.mint(a, 1000 + i)
    const bTxs = Array.from({ length: 10 }, (_, i) => sim.state.mint(b, 1000 + i))
    sim.state.mine(1)
    const { json } = await call('POST', '/addresses/confirmed/history', {
      body: { addresses: [a, b] },
    })
    const [first, second] = json as Entry[]
    expect(first!.result).toHaveLength(15)
    expect(first!.nextPageToken).toBeUndefined()
    expect(second!.result).toHaveLength(5)
    expect(second!.nextPageToken).toBeTruthy()
    // Newest first, and the token carries on where the page stopped.
    expect(second!.result.map((t) => t.tx_hash)).toEqual(bTxs.toReversed().slice(0, 5))
    const rest = await call('GET', `/address/${b}/confirmed/history?token=${second!.nextPageToken}`)
    expect((rest.json as Entry).result.map((t) => t.tx_hash)).toEqual(bTxs.toReversed().slice(5))
    expect((rest.json as Entry).nextPageToken).toBeUndefined()
  })

  it('take limit (1-1000, 100 by default), order (newest first by default) and token on one address', async () => {
    sim = await startChainSimulator()
    const a = newAddress()
    const txs = Array.from({ length: 105 }, (_, i) => sim.state.mint(a, 1000 + i))
    sim.state.mine(1)
    const first = (await call('GET', `/address/${a}/confirmed/history`)).json as Entry
    expect(first.result).toHaveLength(100)
    expect(first.result[0]!.tx_hash).toBe(txs.at(-1))
    const second = (
      await call('GET', `/address/${a}/confirmed/history?token=${first.nextPageToken}`)
    ).json as Entry
    expect(second.result.map((t) => t.tx_hash)).toEqual(txs.slice(0, 5).toReversed())
    const oldest = (await call('GET', `/address/${a}/confirmed/history?order=asc&limit=2`))
      .json as Entry
    expect(oldest.result.map((t) => t.tx_hash)).toEqual(txs.slice(0, 2))
    for (const bad of ['limit=0', 'limit=1001', 'order=up', 'token=nonsense'])
      expect((await call('GET', `/address/${a}/confirmed/history?${bad}`)).status).toBe(400)
  })

  it('give history/all up to its cap of each kind, with tokens beyond', async () => {
    sim = await startChainSimulator({ pages: { historyAll: 3 } })
    const a = newAddress()
    for (let i = 0; i < 4; i += 1) sim.state.mint(a, 1000 + i)
    sim.state.mine(1)
    sim.state.mint(a, 5)
    const { json } = await call('POST', '/addresses/history/all', { body: { addresses: [a] } })
    const [entry] = json as { confirmed: Entry; unconfirmed: Entry }[]
    expect(entry!.confirmed.result).toHaveLength(3)
    expect(entry!.confirmed.nextPageToken).toBeTruthy()
    expect(entry!.unconfirmed.result).toHaveLength(1)
    expect(entry!.unconfirmed.nextPageToken).toBeUndefined()
  })

  it('cap a bulk unconfirmed answer at 100 items', async () => {
    sim = await startChainSimulator()
    const a = newAddress()
    for (let i = 0; i < 101; i += 1) sim.state.mint(a, 1000 + i)
    const { json } = await call('POST', '/addresses/unconfirmed/history', {
      body: { addresses: [a] },
    })
    expect((json as Entry[])[0]!.result).toHaveLength(100)
    expect((json as Entry[])[0]!.nextPageToken).toBeTruthy()
  })
})

describe('faults switched on over HTTP', () => {
  it("give an address's history an error in every answer, until cleared", async () => {
    sim = await startChainSimulator()
    const [good, bad] = [newAddress(), newAddress()]
    sim.state.mint(good, 1000)
    sim.state.mint(bad, 1000)
    expect(
      (
        await call('POST', '/simulator/faults', {
          base: sim.url,
          body: { historyErrorAddresses: [bad] },
        })
      ).status,
    ).toBe(200)
    const bulk = (
      await call('POST', '/addresses/unconfirmed/history', { body: { addresses: [good, bad] } })
    ).json as Entry[]
    expect(bulk.map((e) => [e.error, e.result.length])).toEqual([
      ['', 1],
      ['Failed to get history', 0],
    ])
    const all = (await call('POST', '/addresses/history/all', { body: { addresses: [bad] } }))
      .json as { confirmed: Entry; unconfirmed: Entry }[]
    expect(all[0]!.unconfirmed.error).toBe('Failed to get history')
    expect(((await call('GET', `/address/${bad}/unconfirmed/history`)).json as Entry).error).toBe(
      'Failed to get history',
    )
    await call('DELETE', '/simulator/faults', { base: sim.url })
    const after = (
      await call('POST', '/addresses/unconfirmed/history', { body: { addresses: [bad] } })
    ).json as Entry[]
    expect(after[0]!.error).toBe('')
  })

  it('lose a transaction from every index for a while', async () => {
    sim = await startChainSimulator()
    const a = newAddress()
    const txid = sim.state.mint(a, 1000)
    sim.state.mine(1)
    await call('POST', '/simulator/faults', {
      base: sim.url,
      body: { loseTxid: { txid, seconds: 0.3 } },
    })
    expect((await call('GET', `/tx/hash/${txid}`)).status).toBe(404)
    expect((await call('GET', `/tx/${txid}/hex`)).status).toBe(404)
    const history = (await call('GET', `/address/${a}/confirmed/history`)).json as Entry
    expect(history.result).toEqual([])
    await new Promise((resolve) => setTimeout(resolve, 350))
    expect((await call('GET', `/tx/hash/${txid}`)).status).toBe(200)
  })

  it('answer a burst of 429s with Retry-After, and 429 to whatever comes inside it', async () => {
    sim = await startChainSimulator()
    await call('POST', '/simulator/faults', {
      base: sim.url,
      body: { burst429: { count: 1, retryAfterSeconds: 1 } },
    })
    const refused = await call('GET', '/chain/info')
    expect(refused).toMatchObject({ status: 429, retryAfter: '1' })
    expect((await call('GET', '/chain/info')).status).toBe(429)
    expect(sim.requests().map((r) => r.insideRetryAfter)).toEqual([false, true])
    await new Promise((resolve) => setTimeout(resolve, 1000))
    expect((await call('GET', '/chain/info')).status).toBe(200)
  })
})

describe('limits', () => {
  it('answer 429 with Retry-After past the requests of one second', async () => {
    sim = await startChainSimulator({ limits: { perSecond: 3 } })
    const statuses = []
    for (let i = 0; i < 4; i += 1) statuses.push((await call('GET', '/chain/info')).status)
    expect(statuses).toEqual([200, 200, 200, 429])
    expect(sim.requests().at(-1)).toMatchObject({ status: 429 })
  })

  it('answer 429 until the next day once the daily cap is spent', async () => {
    sim = await startChainSimulator({ limits: { perDay: 1 } })
    expect((await call('GET', '/chain/info')).status).toBe(200)
    const capped = await call('GET', '/chain/info')
    expect(capped.status).toBe(429)
    expect(Number(capped.retryAfter)).toBeGreaterThan(0)
  })

  it('read the API key from Authorization, and from woc-api-key', async () => {
    sim = await startChainSimulator()
    await call('GET', '/chain/info', { headers: { authorization: 'key-a' } })
    await call('GET', '/chain/info', { headers: { 'woc-api-key': 'key-b' } })
    expect(sim.requests().map((r) => [r.authorization, r.wocApiKey])).toEqual([
      ['key-a', undefined],
      [undefined, 'key-b'],
    ])
  })
})

describe('where an output was spent', () => {
  it('is its spender, 404 while unspent, 400 for an output that does not exist', async () => {
    sim = await startChainSimulator()
    const key = PrivateKey.fromRandom()
    const from = key.toAddress('testnet')
    const funding = sim.state.mint(from, 10_000)
    const { P2PKH, Transaction } = await import('@bsv/sdk')
    const tx = new Transaction()
    tx.addInput({
      sourceTransaction: Transaction.fromHex(sim.state.getHex(funding)!),
      sourceOutputIndex: 0,
      unlockingScriptTemplate: new P2PKH().unlock(key),
    })
    tx.addOutput({ lockingScript: new P2PKH().lock(newAddress()), satoshis: 9_000 })
    await tx.sign()
    const spender = sim.state.submit(tx.toHex())
    expect((await call('GET', `/tx/${funding}/0/spent`)).json).toEqual({
      txid: spender,
      vin: 0,
      status: 'unconfirmed',
    })
    expect((await call('GET', `/tx/${spender}/0/spent`)).status).toBe(404)
    expect((await call('GET', `/tx/${spender}/5/spent`)).status).toBe(400)
    const bulk = await call('POST', '/utxos/spent', {
      body: {
        utxos: [
          { txid: funding, vout: 0 },
          { txid: spender, vout: 0 },
          { txid: 'ab'.repeat(32), vout: 0 },
        ],
      },
    })
    expect(bulk.json).toEqual([
      {
        utxo: { txid: funding, vout: 0 },
        spentIn: { txid: spender, vin: 0, status: 'unconfirmed' },
        error: '',
      },
      { utxo: { txid: spender, vout: 0 }, error: '' },
      { utxo: { txid: 'ab'.repeat(32), vout: 0 }, error: 'unknown utxo' },
    ])
    const tooMany = Array.from({ length: 21 }, () => ({ txid: funding, vout: 0 }))
    expect((await call('POST', '/utxos/spent', { body: { utxos: tooMany } })).status).toBe(400)
  })
})

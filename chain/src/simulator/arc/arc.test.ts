import { MerklePath, P2PKH, PrivateKey, Transaction, UnlockingScript } from '@bsv/sdk'
import { afterEach, describe, expect, it } from 'vitest'

import { createArcClient } from '../../arc'
import { ChainSourceError } from '../../types'
import type { ChainSimulator } from '../server'
import { startChainSimulator } from '../server'

/**
 * The simulator's ARC stand-in follows what is submitted to it through the chain's own doings,
 * asked through the shop's ARC client as the worker would: a payment seen, double-spent and
 * rejected; seen, mined, orphaned by a reorg and mined again; and ARC's refusals, key, limit,
 * outage and forgetting.
 */

let sim: ChainSimulator

afterEach(async () => {
  await sim?.close()
})

const arc = (options: Partial<Parameters<typeof createArcClient>[0]> = {}) =>
  createArcClient({ baseUrl: sim.arcUrl, maxRequestsPerSecond: 100, retries: 0, ...options })

const newAddress = () => PrivateKey.fromRandom().toAddress('testnet')

/** A signed payment from fresh funding, not yet on the chain: its hex and txid. */
async function payment({ fee = 500, satoshis = 20_000 } = {}) {
  const key = PrivateKey.fromRandom()
  const funding = sim.state.mint(key.toAddress('testnet'), satoshis + fee)
  const spend = async (to: string) => {
    const tx = new Transaction()
    tx.addInput({
      sourceTransaction: Transaction.fromHex(sim.state.getHex(funding)!),
      sourceOutputIndex: 0,
      unlockingScriptTemplate: new P2PKH().unlock(key),
    })
    tx.addOutput({ lockingScript: new P2PKH().lock(to), satoshis })
    await tx.sign()
    return { hex: tx.toHex(), txid: tx.id('hex') }
  }
  return { ...(await spend(newAddress())), spendAgain: () => spend(newAddress()) }
}

async function post(route: string, body: unknown = {}) {
  const response = await fetch(`${sim.url}${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  return { status: response.status, json: (await response.json()) as Record<string, unknown> }
}

async function arcPost(route: string, body: unknown) {
  const response = await fetch(`${sim.arcUrl}${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  return { status: response.status, json: (await response.json()) as Record<string, unknown> }
}

describe('a payment submitted to ARC', () => {
  it('is seen, then double-spent with its competitor named, then rejected once that is mined', async () => {
    sim = await startChainSimulator({ backgroundTxPerSecond: 0 })
    const client = arc()
    const { hex, txid } = await payment()
    expect(await client.submit(hex)).toMatchObject({
      txid,
      state: 'seen',
      sourceStatus: 'SEEN_ON_NETWORK',
      competingTxs: [],
    })
    expect(sim.state.status(txid)).toEqual({ height: null })
    const seen = await client.getTransaction(txid)
    expect(seen).toMatchObject({ state: 'seen', blockHeight: null, merklePath: null })

    const { json } = await post('/simulator/double-spend', { txid })
    const competitor = json.txid as string
    // The chain no longer has it; ARC answers from its own record.
    expect(sim.state.status(txid)).toBeUndefined()
    expect(await client.getTransaction(txid)).toMatchObject({
      txid,
      state: 'double-spend',
      sourceStatus: 'DOUBLE_SPEND_ATTEMPTED',
      competingTxs: [competitor],
    })

    const height = sim.state.mine(1)
    expect(sim.state.status(competitor)).toEqual({ height })
    expect(await client.getTransaction(txid)).toMatchObject({
      state: 'rejected',
      sourceStatus: 'REJECTED',
      competingTxs: [competitor],
      extraInfo: 'double spend attempted',
      blockHeight: null,
    })
  })

  it('spending an output another transaction spends is a double-spend attempt at once', async () => {
    sim = await startChainSimulator({ backgroundTxPerSecond: 0 })
    const client = arc()
    const first = await payment()
    sim.state.submit(first.hex)
    const second = await first.spendAgain()
    expect(await client.submit(second.hex)).toMatchObject({
      txid: second.txid,
      state: 'double-spend',
      competingTxs: [first.txid],
    })
    expect(sim.state.status(second.txid)).toBeUndefined()
    sim.state.mine(1)
    expect(await client.getTransaction(second.txid)).toMatchObject({
      state: 'rejected',
      extraInfo: 'double spend attempted',
    })
  })

  it('is mined with its block and a merkle path to its root, stale after a reorg, mined again', async () => {
    sim = await startChainSimulator({ backgroundTxPerSecond: 0 })
    const client = arc()
    const { hex, txid } = await payment()
    await client.submit(hex)
    const height = sim.state.mine(1)
    const header = sim.state.header(height)!
    const mined = await client.getTransaction(txid)
    expect(mined).toMatchObject({
      state: 'mined',
      sourceStatus: 'MINED',
      blockHash: header.hash,
      blockHeight: height,
      extraInfo: null,
    })
    const path = MerklePath.fromHex(mined.merklePath!)
    expect(path.blockHeight).toBe(height)
    expect(path.computeRoot(txid)).toBe(header.merkleRoot)

    sim.state.reorg(1)
    expect(sim.state.status(txid)).toEqual({ height: null })
    // Block data of the block that left the chain, as ARC keeps it.
    expect(await client.getTransaction(txid)).toMatchObject({
      state: 'stale',
      sourceStatus: 'MINED_IN_STALE_BLOCK',
      blockHash: header.hash,
      blockHeight: height,
      merklePath: mined.merklePath,
    })

    const again = sim.state.mine(1)
    expect(again).toBe(height)
    const remined = await client.getTransaction(txid)
    expect(remined).toMatchObject({ state: 'mined', blockHeight: again })
    expect(remined.blockHash).toBe(sim.state.header(again)!.hash)
    expect(remined.blockHash).not.toBe(header.hash)
    expect(MerklePath.fromHex(remined.merklePath!).computeRoot(txid)).toBe(
      sim.state.header(again)!.merkleRoot,
    )
  })

  it('already in a block elsewhere is announced first, then mined, as ARC answers it', async () => {
    sim = await startChainSimulator({ backgroundTxPerSecond: 0 })
    const client = arc()
    const { hex, txid } = await payment()
    sim.state.submit(hex)
    const height = sim.state.mine(1)
    expect(await client.getTransaction(txid)).toMatchObject({ state: 'unknown' })
    expect(await client.submit(hex)).toMatchObject({
      state: 'pending',
      sourceStatus: 'ANNOUNCED_TO_NETWORK',
      blockHeight: null,
    })
    expect(await client.getTransaction(txid)).toMatchObject({ state: 'mined', blockHeight: height })
    // A second submission answers the status now.
    expect(await client.submit(hex)).toMatchObject({ state: 'mined', blockHeight: height })
  })

  it('is known only once submitted: any other txid answers 404, as an unknown report', async () => {
    sim = await startChainSimulator({ backgroundTxPerSecond: 0 })
    const { hex, txid } = await payment()
    sim.state.submit(hex)
    const response = await fetch(`${sim.arcUrl}/v1/tx/${txid}`)
    expect(response.status).toBe(404)
    expect(await response.json()).toMatchObject({ status: 404, title: 'Not found', txid })
    expect(await arc().getTransaction(txid)).toMatchObject({ txid, state: 'unknown' })
  })
})

describe("ARC's refusals", () => {
  it('answer the codes of doc/errors.md, and ARC then knows nothing of the transaction', async () => {
    sim = await startChainSimulator({ backgroundTxPerSecond: 0 })
    const client = arc()
    const refusal = async (hex: string) => {
      const error = await client.submit(hex).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(ChainSourceError)
      return error as ChainSourceError
    }

    const cheap = await payment({ fee: 0 })
    const fee = await refusal(cheap.hex)
    expect(fee.status).toBe(465)
    expect(fee.message).toContain('Fee too low')
    expect(sim.state.status(cheap.txid)).toBeUndefined()

    // Spending an output of a transaction the chain does not have: ARC cannot extend it.
    const parentless = new Transaction()
    parentless.addInput({
      sourceTXID: 'cd'.repeat(32),
      sourceOutputIndex: 0,
      unlockingScript: new UnlockingScript([{ op: 0 }]),
      sequence: 0xffffffff,
    })
    parentless.addOutput({ lockingScript: new P2PKH().lock(newAddress()), satoshis: 1 })
    expect((await refusal(parentless.toHex())).status).toBe(460)

    // A signature for other outputs than these does not unlock the input.
    const signed = Transaction.fromHex((await payment()).hex)
    const tampered = new Transaction()
    tampered.addInput({
      sourceTXID: signed.inputs[0]!.sourceTXID,
      sourceOutputIndex: 0,
      unlockingScript: signed.inputs[0]!.unlockingScript,
      sequence: 0xffffffff,
    })
    tampered.addOutput({ lockingScript: signed.outputs[0]!.lockingScript, satoshis: 19_000 })
    expect((await refusal(tampered.toHex())).status).toBe(461)

    const empty = new Transaction()
    empty.addOutput({ lockingScript: new P2PKH().lock(newAddress()), satoshis: 1 })
    empty.addOutput({ lockingScript: new P2PKH().lock(newAddress()), satoshis: 1 })
    // The client sends no such transaction: asked directly.
    expect(await arcPost('/v1/tx', { rawTx: empty.toHex() })).toMatchObject({
      status: 462,
      json: { status: 462, title: 'Invalid inputs', txid: empty.id('hex') },
    })

    const tooSmall = await arcPost('/v1/tx', { rawTx: '0100000000000000000000' })
    expect(tooSmall).toMatchObject({
      status: 463,
      json: { status: 463, title: 'Malformed transaction' },
    })
    expect((await arcPost('/v1/tx', { rawTx: 'not hex' })).status).toBe(400)

    for (const txid of [cheap.txid, tampered.id('hex')])
      expect(await client.getTransaction(txid)).toMatchObject({ state: 'unknown' })
  })

  it('come one by one from /v1/txs, beside the transactions taken', async () => {
    sim = await startChainSimulator({ backgroundTxPerSecond: 0 })
    const taken = await payment()
    const cheap = await payment({ fee: 0 })
    const { status, json } = await arcPost('/v1/txs', [{ rawTx: taken.hex }, { rawTx: cheap.hex }])
    expect(status).toBe(200)
    expect(json).toMatchObject([
      { txid: taken.txid, txStatus: 'SEEN_ON_NETWORK', status: 200, title: 'OK' },
      { txid: cheap.txid, status: 465, title: 'Fee too low' },
    ])
  })
})

describe("the stand-in's key, limit, outage and forgetting", () => {
  it('answers 401 to a request without the Bearer key, which the client does not retry', async () => {
    sim = await startChainSimulator({ backgroundTxPerSecond: 0, arcApiKey: 'arc-key' })
    const txid = 'ab'.repeat(32)
    for (const apiKey of [undefined, 'wrong-key']) {
      const before = sim.arcRequests()
      const error = await arc({ apiKey, retries: 2 })
        .getTransaction(txid)
        .catch((e: unknown) => e)
      expect(error).toBeInstanceOf(ChainSourceError)
      expect((error as ChainSourceError).status).toBe(401)
      expect(sim.arcRequests()).toBe(before + 1)
    }
    expect(await arc({ apiKey: 'arc-key' }).getTransaction(txid)).toMatchObject({
      state: 'unknown',
    })
  })

  it('answers 429 with Retry-After over its limit, and the client waits it out', async () => {
    sim = await startChainSimulator({ backgroundTxPerSecond: 0, arcLimits: { perSecond: 2 } })
    const client = arc({ retries: 2 })
    const txid = 'ab'.repeat(32)
    // The client's own budget is higher: the third request in a second meets the stand-in's.
    const reports = await Promise.all([1, 2, 3].map(() => client.getTransaction(txid)))
    expect(reports.map((r) => r.state)).toEqual(['unknown', 'unknown', 'unknown'])
    const asked = sim.arcRequestRecords()
    expect(asked.map((r) => r.status)).toEqual([404, 404, 429, 404])
    expect(asked.some((r) => r.insideRetryAfter)).toBe(false)
    expect(asked[3]!.at - asked[2]!.at).toBeGreaterThanOrEqual(1000)
    expect(client.stats().errorsByKind.throttled).toBe(1)

    // Over the limit again: without the limit the window still holds, until faults are cleared.
    const statuses = []
    for (let i = 0; i < 3; i += 1)
      statuses.push((await fetch(`${sim.arcUrl}/v1/tx/${txid}`)).status)
    expect(statuses).toContain(429)
    sim.setArcLimits({})
    const inside = await fetch(`${sim.arcUrl}/v1/tx/${txid}`)
    expect(inside.status).toBe(429)
    expect(Number(inside.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
    sim.clearFaults()
    expect((await fetch(`${sim.arcUrl}/v1/tx/${txid}`)).status).toBe(404)
  })

  it('answers 503 to everything while in outage, and the client says so after its retries', async () => {
    sim = await startChainSimulator({ backgroundTxPerSecond: 0 })
    expect((await post('/simulator/arc/outage', { on: true })).status).toBe(200)
    const client = arc({ retries: 1, retryDelayMs: () => 10 })
    const error = await client.getTransaction('ab'.repeat(32)).catch((e: unknown) => e)
    expect((error as ChainSourceError).status).toBe(503)
    expect(sim.arcRequests()).toBe(2)
    expect(client.stats().errorsByKind.server).toBe(2)
    sim.setArcOutage(false)
    expect(await client.getTransaction('ab'.repeat(32))).toMatchObject({ state: 'unknown' })
  })

  it('forgets the transactions a fault names until they are submitted again', async () => {
    sim = await startChainSimulator({ backgroundTxPerSecond: 0 })
    const client = arc()
    const { hex, txid } = await payment()
    await client.submit(hex)
    expect(await post('/simulator/faults', { arcForgotten: ['nope'] })).toMatchObject({
      status: 400,
      json: { error: 'arcForgotten must be a list of txids' },
    })
    const { json } = await post('/simulator/faults', { arcForgotten: [txid.toUpperCase()] })
    expect(json).toMatchObject({ arcForgotten: [txid] })
    expect(await client.getTransaction(txid)).toMatchObject({ state: 'unknown' })
    expect(await client.submit(hex)).toMatchObject({ state: 'seen' })
    expect(await client.getTransaction(txid)).toMatchObject({ state: 'seen' })
    sim.setFaults({ arcForgotten: [txid] })
    sim.clearFaults()
    expect(await client.getTransaction(txid)).toMatchObject({ state: 'seen' })
  })
})

import { P2PKH, PrivateKey, Transaction } from '@bsv/sdk'
import { afterEach, describe, expect, it } from 'vitest'
import WebSocket from 'ws'

import type { ChainSimulator } from './server'
import { startChainSimulator } from './server'

/**
 * The simulator's push stream as a raw websocket client hears it: mainnet-like background
 * traffic on the mempool channel, and the deaf fault (connected, pongs and blocks, no mempool).
 */

let sim: ChainSimulator | undefined
let sockets: WebSocket[] = []

afterEach(async () => {
  for (const ws of sockets) ws.terminate()
  sockets = []
  await sim?.close()
  sim = undefined
})

async function until(check: () => boolean, timeoutMs = 5000) {
  const started = Date.now()
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error(`not met within ${timeoutMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

type MempoolData = {
  txid: string
  hex: string
  vout: { n: number; value: number; scriptPubKey: { hex: string; addresses: string[] } }[]
}
type Heard = { at: number; channel?: string; data?: Record<string, unknown>; text: string }

/** A push client on both channels, recording every frame it hears. */
async function listen(simulator: ChainSimulator) {
  const ws = new WebSocket(`${simulator.socketUrl}?channels=woc:mempoolTx,woc:blockHeader`)
  sockets.push(ws)
  const heard: Heard[] = []
  ws.on('message', (raw) => {
    const text = String(raw)
    let frame: { channel?: string; pub?: { data?: Record<string, unknown> } } = {}
    try {
      frame = JSON.parse(text) as typeof frame
    } catch {
      // 'pong'
    }
    heard.push({ at: Date.now(), channel: frame.channel, data: frame.pub?.data, text })
  })
  await new Promise((resolve, reject) => {
    ws.once('open', resolve)
    ws.once('error', reject)
  })
  ws.send('{}')
  const mempool = (from = 0) =>
    heard.slice(from).filter((h) => h.channel === 'woc:mempoolTx') as (Heard & {
      data: MempoolData
    })[]
  /**
   * A 'ping' answered: every frame the server sent before it read the ping has been heard
   * (one connection keeps its frames in order).
   */
  const roundTrip = async () => {
    const before = heard.filter((h) => h.text === 'pong').length
    ws.send('ping')
    await until(() => heard.filter((h) => h.text === 'pong').length > before)
  }
  return { ws, heard, mempool, roundTrip }
}

async function post(base: string, route: string, body: unknown, method = 'POST') {
  const response = await fetch(`${base}${route}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: method === 'DELETE' ? undefined : JSON.stringify(body),
  })
  const text = await response.text()
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    json = text
  }
  return { status: response.status, json }
}

/** A payment spending a faucet output: signed, as a wallet sends it to POST /tx/raw. */
async function payment(simulator: ChainSimulator) {
  const key = PrivateKey.fromRandom()
  const { json } = await post(simulator.url, '/simulator/faucet', {
    address: key.toAddress('testnet'),
    satoshis: 20_000,
  })
  const funding = (json as { txid: string }).txid
  const tx = new Transaction()
  tx.addInput({
    sourceTransaction: Transaction.fromHex(simulator.state.getHex(funding)!),
    sourceOutputIndex: 0,
    unlockingScriptTemplate: new P2PKH().unlock(key),
  })
  tx.addOutput({
    lockingScript: new P2PKH().lock(PrivateKey.fromRandom().toAddress('testnet')),
    satoshis: 19_000,
  })
  await tx.sign()
  return { funding, hex: tx.toHex(), txid: tx.id('hex') }
}

/** Keeps the connection talking (ping, pong) until `ms` have passed since `since`. */
async function observeUntil(roundTrip: () => Promise<void>, since: number, ms: number) {
  while (Date.now() - since < ms) await roundTrip()
}

describe('background mempool traffic', () => {
  it("carries strangers' valid transactions at about the asked rate, in the mempool frame shape", async () => {
    sim = await startChainSimulator({ backgroundTxPerSecond: 20 })
    const client = await listen(sim)
    await until(() => client.mempool().length >= 21)
    const frames = client.mempool().slice(0, 21)
    // Counted on the wall clock: a stalled event loop delays frames, it never adds any.
    const perSecond = (20 * 1000) / (frames.at(-1)!.at - frames[0]!.at)
    expect(perSecond).toBeGreaterThan(10)
    expect(perSecond).toBeLessThan(40)
    const kinds = new Set<string>()
    for (const { data } of frames) {
      expect(Object.keys(data).sort()).toEqual(['hex', 'txid', 'vout'])
      // A real transaction: its txid is the hash of its hex, it spends an input.
      const tx = Transaction.fromHex(data.hex)
      expect(tx.id('hex')).toBe(data.txid)
      expect(tx.inputs).toHaveLength(1)
      expect(tx.inputs[0]!.unlockingScript?.toHex().length).toBeGreaterThan(100)
      expect(data.vout).toHaveLength(1)
      const [out] = data.vout
      expect(out).toMatchObject({
        n: 0,
        scriptPubKey: { hex: tx.outputs[0]!.lockingScript.toHex() },
      })
      if (out!.scriptPubKey.hex.startsWith('006a')) {
        kinds.add('data')
        expect(out!.scriptPubKey.addresses).toEqual([])
      } else {
        kinds.add('p2pkh')
        expect(out!.scriptPubKey.addresses).toHaveLength(1)
        expect(out!.scriptPubKey.addresses[0]).toMatch(/^[mn]/)
      }
      // Published only: the chain state never holds them.
      expect(sim.state.getHex(data.txid)).toBeUndefined()
    }
    expect([...kinds].sort()).toEqual(['data', 'p2pkh'])
  })

  it('runs at 2 a second by default', async () => {
    sim = await startChainSimulator()
    const client = await listen(sim)
    // Seven frames, three seconds: a timer late on a loaded machine moves the rate little.
    await until(() => client.mempool().length >= 7, 8000)
    const frames = client.mempool()
    const perSecond = (6 * 1000) / (frames[6]!.at - frames[0]!.at)
    expect(perSecond).toBeGreaterThan(1)
    expect(perSecond).toBeLessThan(4)
  })

  it('is off at 0 a second: only the chain’s own transactions are published', async () => {
    sim = await startChainSimulator({ backgroundTxPerSecond: 0 })
    const client = await listen(sim)
    const started = Date.now()
    const { json } = await post(sim.url, '/simulator/faucet', {
      address: PrivateKey.fromRandom().toAddress('testnet'),
      satoshis: 1000,
    })
    // Long enough for the default rate to have published at least one.
    await observeUntil(client.roundTrip, started, 1200)
    expect(client.mempool().map((h) => h.data.txid)).toEqual([(json as { txid: string }).txid])
    await expect(startChainSimulator({ backgroundTxPerSecond: -1 })).rejects.toThrow(RangeError)
  })
})

describe('a deaf push stream', () => {
  it('stays connected, pongs and carries blocks, but publishes no mempool frame until turned off', async () => {
    sim = await startChainSimulator({ backgroundTxPerSecond: 20 })
    const client = await listen(sim)
    await until(() => client.mempool().length >= 2)

    const on = await post(sim.url, '/simulator/faults', { deafStream: true })
    expect(on).toMatchObject({ status: 200, json: { deafStream: true } })
    await client.roundTrip()
    const deafFrom = client.heard.length
    const deafAt = Date.now()

    // A real payment (POST /tx/raw) and a faucet payment, then a block.
    const pay = await payment(sim)
    const sent = await post(sim.wocUrl, '/tx/raw', { txhex: pay.hex })
    expect(sent).toEqual({ status: 200, json: pay.txid })
    const { json: mined } = await post(sim.url, '/simulator/mine', {})
    const height = (mined as { height: number }).height
    await until(() =>
      client.heard.some((h) => h.channel === 'woc:blockHeader' && h.data?.height === height),
    )
    // Twenty background transactions a second would have shown by now.
    await observeUntil(client.roundTrip, deafAt, 700)
    expect(client.mempool(deafFrom)).toEqual([])
    expect(client.ws.readyState).toBe(WebSocket.OPEN)
    expect(sim.pushClients()).toBe(1)

    const off = await post(sim.url, '/simulator/faults', { deafStream: false })
    expect(off).toMatchObject({ status: 200, json: { deafStream: false } })
    const after = client.heard.length
    const again = await payment(sim)
    await post(sim.wocUrl, '/tx/raw', { txhex: again.hex })
    await until(() => client.mempool(after).some((h) => h.data.txid === again.txid))
    await until(() => client.mempool(after).length >= 5)
  })

  it('is cleared with the other faults by DELETE /simulator/faults', async () => {
    sim = await startChainSimulator({ backgroundTxPerSecond: 20 })
    const client = await listen(sim)
    sim.setFaults({ deafStream: true })
    await client.roundTrip()
    const from = client.heard.length
    const deafAt = Date.now()
    await observeUntil(client.roundTrip, deafAt, 500)
    expect(client.mempool(from)).toEqual([])
    expect((await post(sim.url, '/simulator/faults', {}, 'DELETE')).status).toBe(200)
    expect((await post(sim.url, '/simulator/faults', {})).json).toMatchObject({ deafStream: false })
    await until(() => client.mempool(from).length >= 3)
  })
})

describe('a double-spend', () => {
  it('carries the competitor, unless it is not relayed (as WhatsOnChain keeps the first spend)', async () => {
    sim = await startChainSimulator({ backgroundTxPerSecond: 0 })
    const client = await listen(sim)
    const relayed = await payment(sim)
    await post(sim.wocUrl, '/tx/raw', { txhex: relayed.hex })
    const { json } = await post(sim.url, '/simulator/double-spend', { txid: relayed.txid })
    const competitor = (json as { txid: string }).txid
    await until(() => client.mempool().some((h) => h.data.txid === competitor))

    const held = await payment(sim)
    await post(sim.wocUrl, '/tx/raw', { txhex: held.hex })
    await until(() => client.mempool().some((h) => h.data.txid === held.txid))
    const quiet = await post(sim.url, '/simulator/double-spend', {
      txid: held.txid,
      relayed: false,
    })
    expect(quiet.status).toBe(200)
    const unrelayed = (quiet.json as { txid: string }).txid
    // The chain has it (WhatsOnChain's API and ARC know it); the stream did not carry it.
    expect(sim.state.status(unrelayed)).toEqual({ height: null })
    await client.roundTrip()
    expect(client.mempool().some((h) => h.data.txid === unrelayed)).toBe(false)
    expect(
      (await post(sim.url, '/simulator/double-spend', { txid: held.txid, relayed: 'no' })).status,
    ).toBe(400)
  })
})

describe('the faults endpoint', () => {
  it('refuses a deafStream that is not true or false, and says when it is on', async () => {
    sim = await startChainSimulator({ backgroundTxPerSecond: 0 })
    for (const deafStream of ['yes', 1, null, {}])
      expect(await post(sim.url, '/simulator/faults', { deafStream })).toEqual({
        status: 400,
        json: { error: 'deafStream must be true or false' },
      })
    expect((await post(sim.url, '/simulator/faults', {})).json).toMatchObject({ deafStream: false })
    expect((await post(sim.url, '/simulator/faults', { deafStream: true })).json).toEqual({
      historyErrorAddresses: [],
      lostTxids: [],
      burst429Left: 0,
      deafStream: true,
      arcForgotten: [],
      forgedProofs: [],
      forgedHeaders: [],
    })
    // Another fault leaves it as it was; `clear` starts from none.
    const other = await post(sim.url, '/simulator/faults', {
      burst429: { count: 0, retryAfterSeconds: 1 },
    })
    expect(other.json).toMatchObject({ deafStream: true })
    expect((await post(sim.url, '/simulator/faults', { clear: true })).json).toMatchObject({
      deafStream: false,
    })
  })
})

import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import type { ChainFeed, PushedTransaction } from './feed'
import { P2PKH, Transaction } from '@bsv/sdk'

import { connectChainFeed, feedUrl, parseFeedMessage, verifiedHex } from './feed'
import type { ChainSimulator } from './simulator'
import { startChainSimulator } from './simulator'

const TXID = 'a1'.repeat(32)
const ADDRESS = 'mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn'

async function until(check: () => boolean, timeoutMs = 5000) {
  const started = Date.now()
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error(`not met within ${timeoutMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

describe('a message of the push stream', () => {
  const vout = [
    { n: 0, value: 0.25, scriptPubKey: { hex: '76a9', addresses: [ADDRESS] } },
    { n: 1, value: 0.1, scriptPubKey: { hex: '6a', addresses: [] } },
  ]

  it('is read in the V2 shape ({ channel, pub: { data } }) and the V1 one ({ data: { data } })', () => {
    const v2 = JSON.stringify({ channel: 'woc:mempoolTx', pub: { data: { txid: TXID, vout } } })
    const v1 = JSON.stringify({ channel: 'woc:mempoolTx', data: { data: { txid: TXID, vout } } })
    for (const text of [v2, v1])
      expect(parseFeedMessage(text)).toEqual({
        kind: 'tx',
        tx: { txid: TXID, addresses: [ADDRESS] },
      })
    expect(
      parseFeedMessage(
        JSON.stringify({ channel: 'woc:blockHeader', pub: { data: { height: 892466 } } }),
      ),
    ).toEqual({ kind: 'block', height: 892466 })
  })

  it('is ignored when it is not one the shop reads, or not what it says it is', () => {
    for (const text of [
      'not json',
      'null',
      JSON.stringify({ channel: 'woc:chainStats', pub: { data: { blocks: 1 } } }),
      JSON.stringify({ channel: 'woc:mempoolTx', pub: { data: { txid: 'short', vout } } }),
      JSON.stringify({ channel: 'woc:blockHeader', pub: { data: { height: 'tall' } } }),
      JSON.stringify({ channel: 'woc:mempoolTx' }),
    ])
      expect(parseFeedMessage(text)).toBeNull()
  })

  it("carries a transaction's raw hex, trusted only when it is the transaction it names", () => {
    const tx = new Transaction()
    tx.addOutput({ lockingScript: new P2PKH().lock(ADDRESS), satoshis: 1000 })
    const txid = tx.id('hex')
    const pushed = parseFeedMessage(
      JSON.stringify({ channel: 'woc:mempoolTx', pub: { data: { txid, hex: tx.toHex(), vout } } }),
    )
    expect(pushed?.kind === 'tx' && verifiedHex(pushed.tx)).toBe(tx.toHex())
    expect(verifiedHex({ txid: TXID, addresses: [], hex: tx.toHex() })).toBeUndefined()
    expect(verifiedHex({ txid, addresses: [], hex: 'zz' })).toBeUndefined()
    expect(verifiedHex({ txid, addresses: [] })).toBeUndefined()
  })

  it('comes from the channels the shop asks for', () => {
    const url = new URL(feedUrl('wss://socket-v2.whatsonchain.com/websocket'))
    expect(url.searchParams.get('channels')).toBe('woc:mempoolTx,woc:blockHeader')
  })
})

describe('the stream from the chain simulator', () => {
  let simulator: ChainSimulator
  let feed: ChainFeed
  const txs: PushedTransaction[] = []
  const blocks: number[] = []

  beforeAll(async () => {
    simulator = await startChainSimulator({ network: 'test' })
    feed = connectChainFeed({
      url: simulator.socketUrl,
      onTransaction: (tx) => txs.push(tx),
      onBlock: ({ height }) => blocks.push(height),
      reconnectDelayMs: () => 20,
    })
    await until(() => feed.connected())
  })

  afterAll(async () => {
    feed?.close()
    await simulator?.close()
  })

  it('carries each new transaction with the addresses it pays, and each block', async () => {
    const txid = simulator.state.mint(ADDRESS, 5000)
    await until(() => txs.some((t) => t.txid === txid))
    expect(txs.find((t) => t.txid === txid)?.addresses).toEqual([ADDRESS])
    const height = simulator.state.mine(1)
    await until(() => blocks.includes(height))
  })

  it('comes back by itself after it dropped, and carries on', async () => {
    simulator.setPush(false)
    await until(() => !feed.connected())
    expect(simulator.pushClients()).toBe(0)
    // While it is down nothing arrives (the worker's polling carries on alone).
    const missed = simulator.state.mint(ADDRESS, 6000)
    simulator.setPush(true)
    await until(() => feed.connected())
    const txid = simulator.state.mint(ADDRESS, 7000)
    await until(() => txs.some((t) => t.txid === txid))
    expect(txs.some((t) => t.txid === missed)).toBe(false)
  })

  it('stops for good when closed', async () => {
    feed.close()
    await until(() => simulator.pushClients() === 0)
    // A second listener shows when the simulator has published; the closed feed hears nothing.
    const witnessed: string[] = []
    const witness = connectChainFeed({
      url: simulator.socketUrl,
      onTransaction: (tx) => witnessed.push(tx.txid),
      onBlock: ({ height }) => witnessed.push(String(height)),
    })
    try {
      await until(() => witness.connected())
      const txid = simulator.state.mint(ADDRESS, 8000)
      const height = simulator.state.mine(1)
      await until(() => witnessed.includes(txid) && witnessed.includes(String(height)))
      expect(txs.some((t) => t.txid === txid)).toBe(false)
      expect(blocks).not.toContain(height)
      expect(feed.connected()).toBe(false)
    } finally {
      witness.close()
    }
  })
})

import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import type { ChainFeed, PushedTransaction } from './feed'
import type { AddressInfo } from 'node:net'

import { P2PKH, Transaction } from '@bsv/sdk'
import { WebSocketServer } from 'ws'
import type { WebSocket } from 'ws'

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

describe('a stream that stalls without closing', () => {
  it('is dropped and connected again', async () => {
    // A server that accepts and then says nothing, not even 'pong'.
    const server = new WebSocketServer({ port: 0, host: '127.0.0.1' })
    let connections = 0
    server.on('connection', () => (connections += 1))
    await new Promise((resolve) => server.once('listening', resolve))
    const { port } = server.address() as AddressInfo
    const feed = connectChainFeed({
      url: `ws://127.0.0.1:${port}/websocket`,
      onTransaction: () => {},
      onBlock: () => {},
      pingEveryMs: 20,
      reconnectDelayMs: () => 10,
    })
    try {
      await until(() => connections >= 2)
    } finally {
      feed.close()
      for (const ws of server.clients) ws.terminate()
      await new Promise((resolve) => server.close(resolve))
    }
  })
})

describe('a handler that throws', () => {
  it('is reported, and the stream goes on', async () => {
    const simulator = await startChainSimulator({ network: 'test' })
    const errors: unknown[] = []
    const heard: string[] = []
    const feed = connectChainFeed({
      url: simulator.socketUrl,
      onTransaction: (tx) => {
        heard.push(tx.txid)
        if (heard.length === 1) throw new Error('handler failed')
      },
      onBlock: () => {},
      onError: (error) => errors.push(error),
    })
    try {
      await until(() => feed.connected())
      simulator.state.mint(ADDRESS, 1000)
      const second = simulator.state.mint(ADDRESS, 2000)
      await until(() => heard.includes(second))
      expect(errors).toHaveLength(1)
      expect(feed.connected()).toBe(true)
    } finally {
      feed.close()
      await simulator.close()
    }
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

/** A local push server; `onConnection` is told which connection (1, 2, ...) it is. */
async function localPushServer(onConnection: (ws: WebSocket, n: number, url: string) => void) {
  const server = new WebSocketServer({ port: 0, host: '127.0.0.1' })
  let connections = 0
  server.on('connection', (ws, req) => onConnection(ws, (connections += 1), req.url ?? ''))
  await new Promise((resolve) => server.once('listening', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `ws://127.0.0.1:${port}/websocket`,
    connections: () => connections,
    close: async () => {
      for (const ws of server.clients) ws.terminate()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}

const pushed = (txid: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ channel: 'woc:mempoolTx', pub: { data: { txid, vout: [], ...extra } } })

describe('the handshake', () => {
  it("sends WoC's connect command ({}) first, on the channels the shop listens to", async () => {
    const first: string[] = []
    let asked = ''
    const server = await localPushServer((ws, _n, url) => {
      asked = url
      ws.once('message', (data) => first.push(String(data)))
    })
    const feed = connectChainFeed({ url: server.url, onTransaction: () => {}, onBlock: () => {} })
    try {
      await until(() => first.length === 1)
      expect(first).toEqual(['{}'])
      expect(new URL(asked, 'ws://x').searchParams.get('channels')).toBe(
        'woc:mempoolTx,woc:blockHeader',
      )
    } finally {
      feed.close()
      await server.close()
    }
  })

  it('starts again when the server says it ends the stream', async () => {
    const heard: string[] = []
    const server = await localPushServer((ws, n) => {
      // WoC's server (centrifugo) ends a stream with a disconnect push, code and reason.
      if (n === 1) ws.send(JSON.stringify({ type: 7, data: { code: 3001, reason: 'shutdown' } }))
      else ws.send(pushed(TXID))
    })
    const feed = connectChainFeed({
      url: server.url,
      onTransaction: (tx) => heard.push(tx.txid),
      onBlock: () => {},
      reconnectDelayMs: () => 10,
    })
    try {
      await until(() => heard.includes(TXID))
      expect(server.connections()).toBe(2)
    } finally {
      feed.close()
      await server.close()
    }
  })
})

describe('a frame larger than the stream takes (10 MB)', () => {
  it('is dropped and reported, and a normal frame afterwards is still handled', async () => {
    const BIG = 'b1'.repeat(32)
    const server = await localPushServer((ws, n) => {
      if (n === 1) ws.send(pushed(BIG, { padding: 'x'.repeat(10 * 1024 * 1024) }))
      ws.send(pushed(TXID))
    })
    const heard: string[] = []
    const errors: unknown[] = []
    const feed = connectChainFeed({
      url: server.url,
      onTransaction: (tx) => heard.push(tx.txid),
      onBlock: () => {},
      onError: (error) => errors.push(error),
      reconnectDelayMs: () => 10,
    })
    try {
      await until(() => heard.includes(TXID))
      expect(heard).not.toContain(BIG)
      expect(errors).toHaveLength(1)
      expect(String(errors[0])).toMatch(/larger than/)
    } finally {
      feed.close()
      await server.close()
    }
  })
})

describe('what the stream hears of the mempool', () => {
  it('hands every mempool frame to onTransaction, watched address or not, and nothing else', async () => {
    const server = await localPushServer((ws) => {
      ws.send(pushed(TXID))
      ws.send('ping')
      ws.send(JSON.stringify({ channel: 'woc:blockHeader', pub: { data: { height: 7 } } }))
      // A data carrier: no address at all.
      ws.send(
        pushed('b2'.repeat(32), { vout: [{ n: 0, scriptPubKey: { hex: '006a', addresses: [] } }] }),
      )
      ws.send('{}')
      ws.send(pushed('c3'.repeat(32)))
      ws.send(JSON.stringify({ channel: 'woc:blockHeader', pub: { data: { height: 8 } } }))
    })
    const heard: string[] = []
    const blocks: number[] = []
    const feed = connectChainFeed({
      url: server.url,
      onTransaction: (tx) => heard.push(tx.txid),
      onBlock: ({ height }) => blocks.push(height),
    })
    try {
      await until(() => blocks.includes(8))
      expect(heard).toEqual([TXID, 'b2'.repeat(32), 'c3'.repeat(32)])
    } finally {
      feed.close()
      await server.close()
    }
  })

  it("follows the simulator's background traffic, and hears none of it while the stream is deaf", async () => {
    const simulator = await startChainSimulator({ network: 'test', backgroundTxPerSecond: 20 })
    const heard: string[] = []
    const blocks: number[] = []
    const feed = connectChainFeed({
      url: simulator.socketUrl,
      onTransaction: (tx) => heard.push(tx.txid),
      onBlock: ({ height }) => blocks.push(height),
    })
    try {
      await until(() => heard.length >= 5)

      simulator.setFaults({ deafStream: true })
      // A block published after the fault: every mempool frame sent before it has arrived.
      const height = simulator.state.mine(1)
      await until(() => blocks.includes(height))
      const count = heard.length
      const deafAt = Date.now()
      const missed = simulator.state.mint(ADDRESS, 4000)
      // Blocks keep coming while the mempool is silent (twenty a second would have shown).
      while (Date.now() - deafAt < 700) {
        const next = simulator.state.mine(1)
        await until(() => blocks.includes(next))
      }
      expect(feed.connected()).toBe(true)
      expect(heard).toHaveLength(count)
      expect(heard).not.toContain(missed)

      simulator.clearFaults()
      await until(() => heard.length >= count + 3)
    } finally {
      feed.close()
      await simulator.close()
    }
  })
})

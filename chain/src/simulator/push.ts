import crypto from 'node:crypto'
import type http from 'node:http'

import { LockingScript, P2PKH, PrivateKey, Transaction } from '@bsv/sdk'
import { WebSocketServer } from 'ws'
import type { WebSocket } from 'ws'

import { addressOfScript } from './chain-state'
import type { ChainEvent, createChainState } from './chain-state'
import { blockHeaderFrameData } from './routes/blocks'

/**
 * The simulator's push stream, as WhatsOnChain's WoC Sockets V2 speaks it:
 *   /websocket?channels=woc:mempoolTx,woc:blockHeader -> { channel, pub: { data } } per event
 * Each client hears the channels it asked for. It answers a client's first message (`{}`, the
 * connect command) with `{ connect: ... }` and 'ping' with 'pong'; it publishes from the start,
 * so tests need not wait for the handshake.
 *
 * Mainnet's mempool channel never rests (many transactions a second), so while a client listens
 * the stream also carries background traffic on `woc:mempoolTx` at a steady rate: real signed
 * transactions of strangers, each with its txid (the hash of its hex), alternately carrying data
 * (one OP_RETURN output, no address) and paying a fresh random P2PKH address nobody watches.
 * They are published only: the chain state never holds them, so no history, lookup or block
 * shows them (their inputs spend outputs the simulator never had).
 *
 * A block header frame carries the block as WhatsOnChain's docs show it (hash, height, version,
 * merkleroot, time, nonce, bits as hex, previousblockhash, the coinbase...), built from the
 * chain's own header.
 *
 * A deaf stream (the `deafStream` fault) stays connected, answers pings and publishes block
 * headers, but publishes no mempool transaction at all, neither background nor real.
 */

export type PushServer = {
  /** Off: every client is dropped and new ones are refused. */
  setPush: (on: boolean) => void
  /** Clients connected now. */
  clients: () => number
  close: () => void
}

/** Clients send nothing large (the connect command, 'ping'). */
const MAX_CLIENT_FRAME = 64 * 1024

/** A transaction as a `woc:mempoolTx` frame carries it. */
export function mempoolFrameData(
  tx: Transaction,
  network: 'main' | 'test',
  txid: string = tx.id('hex'),
) {
  return {
    txid,
    hex: tx.toHex(),
    vout: tx.outputs.map((output, n) => {
      const address = addressOfScript(output.lockingScript, network)
      return {
        n,
        value: (output.satoshis ?? 0) / 1e8,
        scriptPubKey: { hex: output.lockingScript.toHex(), addresses: address ? [address] : [] },
      }
    }),
  }
}

/**
 * A stranger's transaction: one input signed by `key` (spending an output the simulator never
 * had), and either a data carrier (`OP_FALSE OP_RETURN <data>`, the input left as its fee) or a
 * payment to a random P2PKH address.
 */
export async function backgroundTransaction(key: PrivateKey, data: boolean): Promise<Transaction> {
  const satoshis = 500 + crypto.randomInt(100_000)
  const tx = new Transaction()
  tx.addInput({
    sourceTXID: crypto.randomBytes(32).toString('hex'),
    sourceOutputIndex: crypto.randomInt(4),
    unlockingScriptTemplate: new P2PKH().unlock(
      key,
      'all',
      false,
      satoshis,
      new P2PKH().lock(key.toPublicKey().toHash()),
    ),
  })
  if (data) {
    const note = Buffer.concat([Buffer.from('simulated data '), crypto.randomBytes(16)])
    const push = note.length.toString(16).padStart(2, '0')
    tx.addOutput({
      lockingScript: LockingScript.fromHex(`006a${push}${note.toString('hex')}`),
      satoshis: 0,
    })
  } else {
    const hash = [...crypto.randomBytes(20)]
    tx.addOutput({ lockingScript: new P2PKH().lock(hash), satoshis: satoshis - 100 })
  }
  await tx.sign()
  return tx
}

/**
 * Publishes `perSecond` background transactions a second through `publish` while `listening()`
 * (counted on the wall clock, so a late tick catches up, by at most one second's worth). The
 * timer is unref'd; the returned function stops it.
 */
function startBackgroundTraffic(
  perSecond: number,
  listening: () => boolean,
  publish: (tx: Transaction) => void,
): () => void {
  if (!(perSecond > 0)) return () => {}
  const key = PrivateKey.fromRandom()
  const started = Date.now()
  let due = 0
  let made = 0
  let stopped = false
  const timer = setInterval(
    () => {
      const now = Math.floor(((Date.now() - started) * perSecond) / 1000)
      const count = Math.min(now - due, Math.ceil(perSecond))
      due = now
      if (!listening()) return
      for (let i = 0; i < count; i += 1)
        void backgroundTransaction(key, (made += 1) % 2 === 1).then((tx) => {
          if (!stopped) publish(tx)
        })
    },
    Math.max(20, Math.min(1000, 1000 / perSecond)),
  )
  timer.unref()
  return () => {
    stopped = true
    clearInterval(timer)
  }
}

/** Answers one client: 'pong' to 'ping', and its connect command once. */
function serveClient(ws: WebSocket, channels: Set<string>) {
  let connected = false
  ws.on('message', (data) => {
    const text = String(data)
    if (text === 'ping') return ws.send('pong')
    // The connect command (WoC's clients send `{}` on open) is answered once.
    if (!connected && text.startsWith('{')) {
      connected = true
      ws.send(
        JSON.stringify({
          connect: {
            client: crypto.randomUUID(),
            subs: Object.fromEntries([...channels].map((c) => [c, {}])),
          },
        }),
      )
    }
  })
}

/**
 * The push stream on `server` (path /websocket): the chain state's events as they happen, the
 * background traffic, and the deaf fault (`deaf()` is asked at each publication).
 */
export function startPushServer({
  server,
  state,
  network,
  backgroundTxPerSecond,
  deaf,
  relays = () => true,
}: {
  server: http.Server
  state: ReturnType<typeof createChainState>
  network: 'main' | 'test'
  backgroundTxPerSecond: number
  deaf: () => boolean
  /** Whether a transaction spending these outputs (`txid:vout`) is carried (the faults'). */
  relays?: (inputs: readonly string[]) => boolean
}): PushServer {
  let on = true
  const sockets = new WebSocketServer({
    server,
    path: '/websocket',
    maxPayload: MAX_CLIENT_FRAME,
    verifyClient: (_info, done) => done(on, 503, 'push stream off'),
  })
  const channelsOf = new WeakMap<WebSocket, Set<string>>()
  sockets.on('connection', (ws, req) => {
    const asked = new URL(req.url ?? '/', 'http://simulator').searchParams.get('channels') ?? ''
    const channels = new Set(asked.split(',').filter(Boolean))
    channelsOf.set(ws, channels)
    serveClient(ws, channels)
  })
  const listeners = (channel: string) =>
    [...sockets.clients].filter(
      (ws) => ws.readyState === ws.OPEN && channelsOf.get(ws)?.has(channel),
    )
  const publish = (channel: string, data: unknown) => {
    if (channel === 'woc:mempoolTx' && deaf()) return
    const text = JSON.stringify({ channel, pub: { data } })
    for (const ws of listeners(channel)) ws.send(text)
  }
  const unsubscribe = state.subscribe((event: ChainEvent) => {
    if (event.kind === 'block')
      return publish('woc:blockHeader', blockHeaderFrameData({ state, network }, event.header))
    const inputs = event.tx.inputs.map((i) => `${i.sourceTXID}:${i.sourceOutputIndex}`)
    if (relays(inputs)) publish('woc:mempoolTx', mempoolFrameData(event.tx, network, event.txid))
  })
  const stopBackground = startBackgroundTraffic(
    backgroundTxPerSecond,
    () => !deaf() && listeners('woc:mempoolTx').length > 0,
    (tx) => publish('woc:mempoolTx', mempoolFrameData(tx, network)),
  )

  return {
    setPush: (next) => {
      on = next
      if (!next) for (const ws of sockets.clients) ws.terminate()
    },
    clients: () => sockets.clients.size,
    close: () => {
      stopBackground()
      unsubscribe()
      for (const ws of sockets.clients) ws.terminate()
      sockets.close()
    },
  }
}

import type { BlockHeader } from './types'
import { readHeader } from './whatsonchain/blocks'
import { Transaction } from '@bsv/sdk'
import WebSocket from 'ws'

/**
 * WhatsOnChain's push notifications (WoC Sockets V2, beta): a websocket carrying every new
 * mempool transaction (`woc:mempoolTx`) and every new block header (`woc:blockHeader`). WoC
 * offers no subscription by address, so the stream carries the whole mempool and the worker
 * picks out its own addresses. It is a hint, never a record: a pushed transaction is fetched and
 * judged like one a look found (exact satoshis from its raw hex), and the worker keeps polling
 * within its budget whether the stream is up or not, so a stream that drops, stalls or never
 * connects costs speed, never a payment.
 *
 * Messages are JSON, as text or binary frames: `{ channel, pub: { data } }` (V2) or
 * `{ channel, data: { data } }` (V1); 'ping' is answered 'pong', empty frames and `{}` are
 * keep-alives.
 *
 * The handshake follows WhatsOnChain's docs (docs.taal.com → WhatsOnChain → WebSockets → WoC
 * Sockets V2) and bsv-blockchain's wallet-toolbox (its WhatsOnChain socket ingestor,
 * `WhatsOnChainIngestorWs.ts`): the channels go in the URL's `channels` query, as the V2 page
 * lists them (`/websocket?channels=woc:blockHeader`; several are comma-separated, as WoC's V1
 * examples subscribe); the first message is the connect command `{}` ("required to trigger
 * connect on server side"); a 'ping' goes every 25 s and a server 'ping' is answered 'pong';
 * the server's own frames (a connect reply, subscription notices) are not events, and a
 * disconnect push (`type` 7, with a code and reason) ends the stream, which then starts again.
 *
 * A frame larger than `maxPayloadBytes` (4 MiB by default; a mempool transaction with its hex
 * is far smaller) is never read: `ws` refuses it while it arrives and closes the connection,
 * the drop is reported through `onError`, and the stream connects again.
 *
 * A connected stream may still be deaf (carrying blocks and pongs but no transaction), so every
 * mempool transaction frame goes to `onTransaction`, whether or not it pays an address the shop
 * watches (a data carrier pays none): the worker judges from them whether the stream carries
 * payments (payment-worker/src/watch/stream.ts).
 */

export type PushedTransaction = {
  txid: string
  /** The addresses its outputs pay (as WoC's `scriptPubKey.addresses` lists them). */
  addresses: string[]
  /** Its raw hex when the message carries it (trusted only once it hashes to `txid`). */
  hex?: string
}

export type ChainFeed = {
  /** Whether the stream is connected now. */
  connected: () => boolean
  close: () => void
}

export type ChainFeedOptions = {
  /** e.g. wss://socket-v2.whatsonchain.com/websocket (channels are added to it). */
  url: string
  onTransaction: (tx: PushedTransaction) => void
  onBlock: (block: { height: number; header?: BlockHeader }) => void
  onStatus?: (status: { connected: boolean; error?: string }) => void
  /**
   * A handler that threw (the stream goes on: an event handler's throw would end the process),
   * or a message dropped for its size (a PushMessageTooLargeError; the stream connects again).
   */
  onError?: (error: unknown) => void
  /** Backoff before reconnect n (1-based). */
  reconnectDelayMs?: (attempt: number) => number
  /**
   * A 'ping' is sent this often, as WoC asks of its clients; a stream silent for three times
   * as long (not even a 'pong') is dropped and connected again.
   */
  pingEveryMs?: number
  /** The largest frame read; a larger one is dropped and the stream starts again. */
  maxPayloadBytes?: number
}

export const FEED_MAX_PAYLOAD_BYTES = 4 * 1024 * 1024

/** A pushed message too large to read, dropped with its connection. */
export class PushMessageTooLargeError extends Error {
  constructor(readonly limitBytes: number) {
    super(
      `A pushed message larger than ${limitBytes} bytes was dropped; the push stream connects again.`,
    )
    this.name = 'PushMessageTooLargeError'
  }
}

export const FEED_CHANNELS = ['woc:mempoolTx', 'woc:blockHeader'] as const

const defaultDelay = (attempt: number) => Math.min(30_000, 1000 * 2 ** Math.min(attempt - 1, 5))

/** The stream's address, with the channels the shop listens to. */
export function feedUrl(url: string): string {
  const u = new URL(url)
  u.searchParams.set('channels', FEED_CHANNELS.join(','))
  u.searchParams.set('format', 'json')
  return u.toString()
}

type Pushed = {
  channel?: unknown
  pub?: { data?: unknown }
  data?: { data?: unknown; code?: unknown; reason?: unknown }
  type?: unknown
}

/**
 * Whether a message is the server ending the stream: a centrifugo disconnect push, `type` 7
 * (wallet-toolbox closes on it: "If you don't close after unsubscribe or end of headers, after
 * a delay, this is received"), or `{ disconnect: ... }` in the newer protocol.
 */
export function isDisconnect(text: string): boolean {
  if (!text.startsWith('{')) return false
  try {
    const message = JSON.parse(text) as Pushed & { disconnect?: unknown }
    return message?.type === 7 || (message?.disconnect !== undefined && message.disconnect !== null)
  } catch {
    return false
  }
}

/** A pushed message's channel and data, or null for what the shop does not read. */
export function parseFeedMessage(
  text: string,
):
  | { kind: 'tx'; tx: PushedTransaction }
  | { kind: 'block'; height: number; header?: BlockHeader }
  | null {
  let message: Pushed
  try {
    message = JSON.parse(text) as Pushed
  } catch {
    return null
  }
  if (!message || typeof message !== 'object') return null
  const data = (message.pub?.data ?? message.data?.data) as Record<string, unknown> | undefined
  if (!data || typeof data !== 'object') return null
  if (message.channel === 'woc:blockHeader') {
    const height = Number(data.height)
    if (!Number.isSafeInteger(height) || height <= 0) return null
    // The frame carries the block's header fields (WoC's block shape): kept when every field
    // reads, for proofs checked while WhatsOnChain's API is down.
    let header: BlockHeader | undefined
    try {
      header = readHeader(data, String(height)).header
    } catch {
      header = undefined
    }
    return header ? { kind: 'block', height, header } : { kind: 'block', height }
  }
  if (message.channel === 'woc:mempoolTx') {
    const txid = typeof data.txid === 'string' ? data.txid.toLowerCase() : ''
    if (!/^[0-9a-f]{64}$/.test(txid)) return null
    const addresses = new Set<string>()
    for (const output of Array.isArray(data.vout) ? data.vout : []) {
      const listed = (output as { scriptPubKey?: { addresses?: unknown } })?.scriptPubKey?.addresses
      if (Array.isArray(listed))
        for (const a of listed) if (typeof a === 'string' && a) addresses.add(a)
    }
    const hex = typeof data.hex === 'string' && /^[0-9a-f]+$/i.test(data.hex) ? data.hex : undefined
    return { kind: 'tx', tx: { txid, addresses: [...addresses], ...(hex ? { hex } : {}) } }
  }
  return null
}

/**
 * A pushed transaction's raw hex, if it carries one that is the transaction it names: the
 * worker then judges it without asking WhatsOnChain for it (a request at the budget's pace).
 */
export function verifiedHex(tx: PushedTransaction): string | undefined {
  if (!tx.hex) return undefined
  try {
    return Transaction.fromHex(tx.hex).id('hex') === tx.txid ? tx.hex.toLowerCase() : undefined
  } catch {
    return undefined
  }
}

/** A frame's text, whichever way `ws` delivered it. */
function frameText(raw: WebSocket.RawData): string {
  return Buffer.isBuffer(raw)
    ? raw.toString('utf8')
    : Array.isArray(raw)
      ? Buffer.concat(raw).toString('utf8')
      : Buffer.from(raw).toString('utf8')
}

/**
 * Handles one frame of `ws`: keep-alives and pings answered, a disconnect push ends the
 * connection, an event goes to its handler (a handler's throw goes to onError).
 */
function handleFrame(ws: WebSocket, text: string, options: ChainFeedOptions) {
  if (text === '' || text === 'pong' || text === '{}') return
  if (text === 'ping') {
    ws.send('pong')
    return
  }
  if (isDisconnect(text)) {
    ws.terminate()
    return
  }
  const message = parseFeedMessage(text)
  try {
    if (message?.kind === 'tx') options.onTransaction(message.tx)
    else if (message?.kind === 'block')
      options.onBlock({ height: message.height, header: message.header })
  } catch (error) {
    options.onError?.(error)
  }
}

/** Connects to the stream and stays connected (reconnecting with backoff) until closed. */
export function connectChainFeed(options: ChainFeedOptions): ChainFeed {
  const delay = options.reconnectDelayMs ?? defaultDelay
  const pingEveryMs = options.pingEveryMs ?? 25_000
  const maxPayload = options.maxPayloadBytes ?? FEED_MAX_PAYLOAD_BYTES
  let socket: WebSocket | undefined
  let open = false
  let closed = false
  let failures = 0
  let retry: NodeJS.Timeout | undefined
  let ping: NodeJS.Timeout | undefined

  const status = (connected: boolean, error?: string) => {
    if (open === connected && !error) return
    open = connected
    options.onStatus?.({ connected, error })
  }

  const connect = () => {
    if (closed) return
    const ws = new WebSocket(feedUrl(options.url), { maxPayload })
    socket = ws
    let heardAt = Date.now()
    ws.on('open', () => {
      failures = 0
      heardAt = Date.now()
      // WoC's connect command: its server starts sending once it has it.
      ws.send('{}')
      status(true)
      ping = setInterval(() => {
        if (ws.readyState !== WebSocket.OPEN) return
        // A connection that stalled without closing looks up, and says nothing: start again.
        if (Date.now() - heardAt > 3 * pingEveryMs) ws.terminate()
        else ws.send('ping')
      }, pingEveryMs)
      ping.unref()
    })
    ws.on('message', (raw) => {
      heardAt = Date.now()
      handleFrame(ws, frameText(raw), options)
    })
    ws.on('error', (error: Error & { code?: string }) => {
      if (closed) return
      // 'close' follows and reconnects; the error is said once per failed attempt.
      if (error.code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH')
        options.onError?.(new PushMessageTooLargeError(maxPayload))
      else status(false, error.message)
    })
    ws.on('close', () => {
      clearInterval(ping)
      if (socket === ws) socket = undefined
      status(false)
      if (closed) return
      failures += 1
      retry = setTimeout(connect, delay(failures))
      retry.unref()
    })
  }
  connect()

  return {
    connected: () => open,
    close: () => {
      closed = true
      clearTimeout(retry)
      clearInterval(ping)
      socket?.terminate()
      socket = undefined
      open = false
    },
  }
}

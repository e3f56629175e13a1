import http from 'node:http'
import type { AddressInfo } from 'node:net'

import type { ArcLimits, SentCallback } from './arc'
import { ARC_PREFIX } from './arc'
import type { ChainState } from './chain-state'
import type { SimulatorContext } from './context'
import { createSimulatorContext } from './context'
import type { ApiRequestRecord } from './http'
import { BadRequest, createRouter, send } from './http'
import { startPushServer } from './push'
import type { SimulatorLimits } from './rate-limit'
import type { SimulatorPages } from './routes/addresses'
import { mountAddressRoutes } from './routes/addresses'
import { mountBlockRoutes } from './routes/blocks'
import { mountControlRoutes } from './routes/control'
import type { SimulatorFaults } from './routes/faults'
import { mountFaultRoutes } from './routes/faults'
import { mountTransactionRoutes } from './routes/transactions'

export type { ArcLimits, SentCallback } from './arc'
export type { ApiRequestRecord } from './http'
export type { SimulatorLimits } from './rate-limit'
export type { SimulatorPages } from './routes/addresses'
export { HISTORY_ERROR } from './routes/addresses'
export type { SimulatorFaults } from './routes/faults'

/**
 * The local chain simulator: an HTTP server speaking the part of WhatsOnChain's API the shop
 * uses, under /v1/bsv/{network}, with the limits and failure answers WhatsOnChain documents
 * (docs.taal.com → WhatsOnChain → Address, Block, Transaction, (Un)Spent Transaction Outputs,
 * WebSockets); the docs' own example answers are in fixtures/woc-docs and the tests hold both
 * to them:
 *   GET  /chain/info                        -> { chain, blocks, headers, bestblockhash, ... }
 *   POST /addresses/confirmed/history       -> [{ address, script, result: [{ tx_hash, height }],
 *                                               nextPageToken?, error }] at most 20 items
 *   POST /addresses/unconfirmed/history     -> the same, [{ tx_hash }], at most 100 items
 *   POST /addresses/history/all             -> [{ address, script, unconfirmed: { result, error,
 *                                               nextPageToken? }, confirmed: { ... } }] at most
 *                                               1,000 of each
 *   GET  /address/{a}/confirmed/history     -> { address, script, result, nextPageToken?, error }
 *   GET  /address/{a}/unconfirmed/history      with limit (1-1000, 100), order (desc), token
 *   GET  /block/height/{h}                  -> { hash, confirmations, size, height, version,
 *   GET  /block/hash/{hash}                     versionHex, merkleroot, txcount, nTx, num_tx, tx,
 *                                               time, mediantime, nonce, bits (hex), difficulty,
 *                                               chainwork, previousblockhash, nextblockhash,
 *                                               coinbaseTx }, 404 when not on the chain
 *   GET  /block/{hash or height}/header     -> the same without tx, txcount and coinbaseTx
 *   GET  /tx/{txid}/proof/tsc               -> [{ index, txOrId, target (the block's hash),
 *                                               nodes (`*` for a duplicated one) }]; null while
 *                                               in the mempool, 404 when unknown
 *   GET  /tx/hash/{txid}                    -> the decoded transaction (no block fields while
 *                                               unconfirmed), 404 when unknown
 *   GET  /tx/{txid}/hex                     -> raw hex, 404 when unknown
 *   GET  /tx/{txid}/{vout}/spent            -> { txid, vin, status }; 404 unspent, 400 unknown
 *   POST /utxos/spent { utxos }             -> [{ utxo, spentIn?, error }] at most 20 outputs
 *   POST /tx/raw { txhex }                  -> "txid"
 * Every address's entry in a bulk answer carries its own `error`. A bulk answer's item cap is
 * counted over the whole request (or per address, by option), and an address cut short gets a
 * `nextPageToken` that the single-address endpoints take as `token`. Over its per-second or
 * daily limit (both off unless set) it answers 429 with Retry-After, and answers 429 to every
 * request that comes before the Retry-After has passed. The API key is read from
 * `Authorization` (and `woc-api-key`, which older clients send).
 *
 * WhatsOnChain's push stream (WoC Sockets V2) is a websocket (push.ts):
 *   /websocket?channels=woc:mempoolTx,woc:blockHeader -> { channel, pub: { data } } per event
 * It answers a client's first message (`{}`, the connect command) with `{ connect: ... }` and
 * 'ping' with 'pong'; it publishes from the start, so tests need not wait for the handshake.
 * A `woc:blockHeader` frame carries the block as the docs' example does (hash, height, version,
 * merkleroot, time, nonce, bits, previousblockhash, ..., coinbaseTx). Like mainnet's, its
 * mempool channel never rests: while a client listens it also carries
 * `backgroundTxPerSecond` (2 by default, 0 for none) strangers' transactions, published only
 * (never in the chain state: no history or lookup shows them).
 *
 * ARC's API (bitcoin-sv/arc, doc/arc.json) is served by a stand-in under /arc (arc/), with
 * ARC's documented answers (fixtures/arc-docs); it knows only what was submitted to it:
 *   GET  /arc/v1/tx/{txid}      -> { txid, txStatus, blockHash, blockHeight, merklePath,
 *                                  extraInfo, competingTxs?, timestamp }; 404 never submitted
 *   POST /arc/v1/tx { rawTx }   -> the same with { status: 200, title: 'OK' }, or an error
 *                                  { type, title, status, detail, instance, txid, extraInfo }
 *                                  with ARC's code (460-465, 400, 409)
 *   POST /arc/v1/txs [{ rawTx }] -> [answer or error, ...]
 *   GET  /arc/v1/policy         -> { timestamp, policy: { maxscriptsizepolicy, ..., miningFee } }
 *   GET  /arc/v1/health         -> { healthy, version, reason }
 * It follows each submitted transaction through the chain's events: SEEN_ON_NETWORK,
 * DOUBLE_SPEND_ATTEMPTED with `competingTxs`, REJECTED once a competitor is mined, MINED with
 * the block's hash, height and merkle path, MINED_IN_STALE_BLOCK after a reorg until mined
 * again (arc/ledger.ts). A submission with X-CallbackUrl (X-CallbackToken,
 * X-FullStatusUpdates) has its status changes posted there as ARC's Callbacker posts them
 * (arc/callbacker.ts). With `arcApiKey` every ARC request without `Authorization: Bearer
 * <key>` answers 401; with `arcLimits.perSecond` it answers 429 with Retry-After over it.
 *
 * For tests and the dev tools only, under /simulator:
 *   POST /simulator/mine { blocks? }            -> { height }
 *   POST /simulator/faucet { address, satoshis } -> { txid } (coinbase-style funding)
 *   POST /simulator/double-spend { txid, relayed? } -> { txid } (the conflicting transaction;
 *                                                  `relayed: false`: the push stream does not
 *                                                  carry it, as WhatsOnChain's node, which keeps
 *                                                  the spend it saw first, relays no competitor)
 *   POST /simulator/reorg { blocks }             -> { height }
 *   POST /simulator/outage { on }               -> {} (answers 503 to the WoC API while on)
 *   POST /simulator/arc/outage { on }           -> {} (answers 503 to the ARC API while on)
 *   POST /simulator/arc/callbacks { on }        -> {} (off: ARC's Callbacker sends nothing)
 *   GET  /simulator/arc/callbacks               -> { sending, sent: [{ url, body, attempts,
 *                                                  outcome }] } (the last 1,000, oldest first)
 *   POST /simulator/push { on }                 -> {} (off: the push stream drops and refuses)
 *   POST /simulator/faults { ...SimulatorFaults, clear? } -> the faults now on:
 *     { historyErrorAddresses, lostTxids, burst429Left, deafStream, arcForgotten, forgedProofs,
 *     forgedHeaders };
 *     `deafStream: true` leaves the push stream connected, answering 'ping' and carrying block
 *     headers, with no mempool transaction at all (background or real) until `deafStream:
 *     false` or DELETE; `arcForgotten: [txid]` makes the ARC stand-in answer 404 for those
 *     until they are submitted to it again; `forgedProofs: [txid]` serves those transactions'
 *     TSC proofs with one node changed; `forgedHeaders: [height]` answers those blocks and
 *     headers with another merkle root under the same hash (it no longer hashes to it)
 *   DELETE /simulator/faults                    -> {} (every fault off)
 *   GET  /healthz                                -> { ok, height, apiRequests }
 *
 * This file starts the server and puts it together: the routes are in routes/ by family
 * (addresses, transactions, blocks, faults, control), the ARC stand-in in arc/, the limits in
 * rate-limit.ts, the shared HTTP plumbing in http.ts, the chain itself in chain-state.ts.
 */

export type ChainSimulator = {
  url: string
  /** The WhatsOnChain base URL of this simulator, e.g. http://127.0.0.1:3100/v1/bsv/test */
  wocUrl: string
  state: ChainState
  setOutage: (on: boolean) => void
  /** The push stream's address, e.g. ws://127.0.0.1:3100/websocket */
  socketUrl: string
  /** Off: every push client is dropped and new ones are refused (polling must carry on). */
  setPush: (on: boolean) => void
  /** Push clients connected now. */
  pushClients: () => number
  /** WhatsOnChain API calls answered so far. */
  apiRequests: () => number
  /** Switches faults on (each one given replaces the one before). */
  setFaults: (faults: SimulatorFaults) => void
  clearFaults: () => void
  setLimits: (limits: SimulatorLimits) => void
  /** The last API requests answered (up to 5,000), oldest first. */
  requests: () => ApiRequestRecord[]
  /** The ARC stand-in's base URL (ARC_URL), e.g. http://127.0.0.1:3100/arc */
  arcUrl: string
  /** While on, the ARC stand-in answers 503 to everything. */
  setArcOutage: (on: boolean) => void
  setArcLimits: (limits: ArcLimits) => void
  /** ARC API calls answered so far. */
  arcRequests: () => number
  /** The last ARC requests answered (up to 5,000), oldest first; paths below /arc. */
  arcRequestRecords: () => ApiRequestRecord[]
  /** Off: the ARC stand-in's Callbacker sends no callback (what changes meanwhile is lost). */
  setArcCallbacks: (on: boolean) => void
  /** The callbacks the ARC stand-in queued or sent (the last 1,000), oldest first. */
  arcCallbacks: () => SentCallback[]
  close: () => Promise<void>
}

export async function startChainSimulator({
  network = 'test',
  port = 0,
  host = '127.0.0.1',
  stateFile,
  limits = {},
  pages = {},
  backgroundTxPerSecond = 2,
  arcApiKey,
  arcLimits = {},
  arcCallbackPauseMs,
}: {
  network?: 'main' | 'test'
  port?: number
  host?: string
  stateFile?: string
  limits?: SimulatorLimits
  pages?: SimulatorPages
  /**
   * Strangers' transactions the push stream's mempool channel carries each second while a
   * client listens, as mainnet's does (2 by default; 0 for none).
   */
  backgroundTxPerSecond?: number
  /** When set, the ARC stand-in answers 401 to every request without this Bearer key. */
  arcApiKey?: string
  /** The ARC stand-in's own request limit (none unless set). */
  arcLimits?: ArcLimits
  /** The pause between two callbacks to one receiver (ARC's `pause`, 1 s by default). */
  arcCallbackPauseMs?: number
} = {}): Promise<ChainSimulator> {
  if (!Number.isFinite(backgroundTxPerSecond) || backgroundTxPerSecond < 0)
    throw new RangeError('backgroundTxPerSecond must be a number of transactions, 0 or more')
  const ctx = createSimulatorContext({
    network,
    stateFile,
    limits,
    pages,
    arc: { apiKey: arcApiKey, limits: arcLimits, callbackPauseMs: arcCallbackPauseMs },
  })
  const server = http.createServer(requestListener(ctx))
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, resolve)
  })
  const { port: actual } = server.address() as AddressInfo
  const url = `http://${host}:${actual}`

  const push = startPushServer({
    server,
    state: ctx.state,
    network,
    backgroundTxPerSecond,
    deaf: ctx.faults.deafStream,
    relays: ctx.faults.relays,
  })
  ctx.push = push

  return {
    url,
    wocUrl: `${url}${ctx.prefix}`,
    socketUrl: `ws://${host}:${actual}/websocket`,
    setPush: push.setPush,
    pushClients: push.clients,
    state: ctx.state,
    setOutage: (on) => {
      ctx.outage = on
    },
    apiRequests: ctx.log.count,
    setFaults: ctx.faults.set,
    clearFaults: ctx.clearFaults,
    setLimits: ctx.gate.setLimits,
    requests: ctx.log.records,
    arcUrl: `${url}${ARC_PREFIX}`,
    setArcOutage: ctx.arc.setOutage,
    setArcLimits: ctx.arc.setLimits,
    arcRequests: ctx.arc.requests,
    arcRequestRecords: ctx.arc.records,
    setArcCallbacks: ctx.arc.callbacker.setSending,
    arcCallbacks: ctx.arc.callbacker.sent,
    close: () =>
      new Promise<void>((resolve) => {
        push.close()
        ctx.arc.close()
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/**
 * Serves a request: the simulator's own routes first, then the ARC stand-in's under /arc; then,
 * under the WhatsOnChain API's prefix, each request is counted and recorded, refused while in
 * outage or over a limit, and routed.
 */
function requestListener(ctx: SimulatorContext): http.RequestListener {
  const control = createRouter()
  mountControlRoutes(control, ctx)
  mountFaultRoutes(control, ctx)
  const api = createRouter()
  mountBlockRoutes(api, ctx)
  mountAddressRoutes(api, ctx)
  mountTransactionRoutes(api, ctx)

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://simulator')
    const path = url.pathname
    const method = req.method ?? 'GET'
    if (await control.serve(method, path, { req, res, url })) return
    if (await ctx.arc.serve(req, res, url)) return
    if (!path.startsWith(`${ctx.prefix}/`)) return send(res, 404, 'Not found', 'text')

    const route = path.slice(ctx.prefix.length)
    const record = ctx.log.note({ req, res, method, path: `${route}${url.search}` })
    if (ctx.outage) return send(res, 503, 'Service unavailable (simulated outage)', 'text')
    if (!ctx.gate.admit(res, record)) return
    if (!(await api.serve(method, route, { req, res, url }))) send(res, 404, 'Not found', 'text')
  }

  return (req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (res.headersSent) return
      if (error instanceof BadRequest) send(res, 400, error.message, 'text')
      else send(res, 500, `simulator error: ${(error as Error).message}`, 'text')
    })
  }
}

import crypto from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'

import { Hash, P2PKH, Transaction, Utils } from '@bsv/sdk'

import { addressOfScript, ChainRejection, createChainState } from './chain-state'
import type { AddressEntry } from './chain-state'
import { startPushServer } from './push'

/**
 * The local chain simulator: an HTTP server speaking the part of WhatsOnChain's API the shop
 * uses, under /v1/bsv/{network}, with the limits and failure answers WhatsOnChain documents
 * (docs.taal.com → WhatsOnChain → Address, Transaction, (Un)Spent Transaction Outputs); the
 * docs' own example answers are in fixtures/woc-docs and the tests hold both to them:
 *   GET  /chain/info                        -> { chain, blocks, headers, bestblockhash, ... }
 *   POST /addresses/confirmed/history       -> [{ address, script, result: [{ tx_hash, height }],
 *                                               nextPageToken?, error }] at most 20 items
 *   POST /addresses/unconfirmed/history     -> the same, [{ tx_hash }], at most 100 items
 *   POST /addresses/history/all             -> [{ address, script, unconfirmed: { result, error,
 *                                               nextPageToken? }, confirmed: { ... } }] at most
 *                                               1,000 of each
 *   GET  /address/{a}/confirmed/history     -> { address, script, result, nextPageToken?, error }
 *   GET  /address/{a}/unconfirmed/history      with limit (1-1000, 100), order (desc), token
 *   GET  /block/height/{h}                  -> { height, time, confirmations }
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
 * Like mainnet's, its mempool channel never rests: while a client listens it also carries
 * `backgroundTxPerSecond` (2 by default, 0 for none) strangers' transactions, published only
 * (never in the chain state: no history or lookup shows them).
 *
 * For tests and the dev tools only, under /simulator:
 *   POST /simulator/mine { blocks? }            -> { height }
 *   POST /simulator/faucet { address, satoshis } -> { txid } (coinbase-style funding)
 *   POST /simulator/double-spend { txid }        -> { txid } (the conflicting transaction)
 *   POST /simulator/reorg { blocks }             -> { height }
 *   POST /simulator/outage { on }               -> {} (answers 503 to the WoC API while on)
 *   POST /simulator/push { on }                 -> {} (off: the push stream drops and refuses)
 *   POST /simulator/faults { ...SimulatorFaults, clear? } -> the faults now on:
 *     { historyErrorAddresses, lostTxids, burst429Left, deafStream }; `deafStream: true` leaves
 *     the push stream connected, answering 'ping' and carrying block headers, with no mempool
 *     transaction at all (background or real) until `deafStream: false` or DELETE
 *   DELETE /simulator/faults                    -> {} (every fault off)
 *   GET  /healthz                                -> { ok, height, apiRequests }
 */

export type SimulatorFaults = {
  /** Addresses whose history, in every history answer, carries an error and no transactions. */
  historyErrorAddresses?: string[]
  /**
   * A transaction every index loses for `seconds`: histories leave it out, /tx/hash and
   * /tx/{txid}/hex answer 404 (as WhatsOnChain does while a just-mined transaction is between
   * its mempool and block indexes).
   */
  loseTxid?: { txid: string; seconds: number }
  /** The next `count` API requests answer 429 with this Retry-After. */
  burst429?: { count: number; retryAfterSeconds: number }
  /**
   * A deaf push stream: connected, answering pings and publishing block headers, but no
   * `woc:mempoolTx` frame at all (neither background traffic nor the chain's own transactions).
   * False turns it off.
   */
  deafStream?: boolean
}

export type SimulatorLimits = {
  /** API requests answered in any one second; more are answered 429 (no limit unless set). */
  perSecond?: number
  /** API requests answered in a UTC day; then 429 until the next day (no cap unless set). */
  perDay?: number
}

export type SimulatorPages = {
  /** Items a bulk confirmed history answers (WhatsOnChain: 20). */
  bulkConfirmed?: number
  /** Items a bulk unconfirmed history answers (WhatsOnChain: 100). */
  bulkUnconfirmed?: number
  /** Items of each kind /addresses/history/all answers (WhatsOnChain: 1,000). */
  historyAll?: number
  /** Whether a bulk cap counts the items of the whole request (default) or of each address. */
  capCounting?: 'request' | 'address'
  /**
   * Bulk answers cut short without `nextPageToken`, as a server counting its cap another way
   * than its client might (the single-address endpoints still give tokens).
   */
  omitTokens?: boolean
}

/** One WhatsOnChain API request the simulator answered. */
export type ApiRequestRecord = {
  /** When it arrived (ms since the epoch). */
  at: number
  method: string
  /** The path below /v1/bsv/{network}, with its query. */
  path: string
  authorization?: string
  wocApiKey?: string
  status: number
  /** It came before the Retry-After of an earlier 429 had passed. */
  insideRetryAfter: boolean
}

export type ChainSimulator = {
  url: string
  /** The WhatsOnChain base URL of this simulator, e.g. http://127.0.0.1:3100/v1/bsv/test */
  wocUrl: string
  state: ReturnType<typeof createChainState>
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
  close: () => Promise<void>
}

const MAX_BODY = 2 * 1024 * 1024
const MAX_RECORDS = 5_000
/**
 * The error WhatsOnChain's server is reported to write in an address's entry when it cannot read
 * its history (every example in the docs has an empty one).
 */
export const HISTORY_ERROR = 'Failed to get history'

type Kind = 'confirmed' | 'unconfirmed'
type Order = 'asc' | 'desc'
/** Where a page of one address's history ends (absent h and s: before its first item). */
type Cursor = { a: string; k: Kind; o: Order; h?: number | null; s?: number }

class BadRequest extends Error {}

function readJson(req: http.IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    let size = 0
    const parts: Buffer[] = []
    req.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > MAX_BODY) {
        reject(new BadRequest('body too large'))
        req.destroy()
        return
      }
      parts.push(chunk)
    })
    req.on('end', () => {
      try {
        resolve(parts.length ? JSON.parse(Buffer.concat(parts).toString('utf8')) : {})
      } catch {
        reject(new BadRequest('body is not JSON'))
      }
    })
    req.on('error', reject)
  })
}

const encodeToken = (cursor: Cursor) => Buffer.from(JSON.stringify(cursor)).toString('base64url')

function decodeToken(token: string): Cursor | undefined {
  try {
    const c = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as Cursor
    if (typeof c?.a !== 'string' || (c.k !== 'confirmed' && c.k !== 'unconfirmed')) return undefined
    if (c.o !== 'asc' && c.o !== 'desc') return undefined
    return c
  } catch {
    return undefined
  }
}

/** WhatsOnChain's `script`: the SHA-256 of the address's locking script, byte-reversed. */
function scriptHashOf(address: string): string | undefined {
  try {
    const hash = Hash.sha256(new P2PKH().lock(address).toBinary())
    return Utils.toHex(hash.reverse())
  } catch {
    return undefined
  }
}

/** Newest first: in blocks by height, then arrival. Negative when `a` comes before `b`. */
const newestFirst = (a: Pick<AddressEntry, 'height' | 'seq'>, b: typeof a) =>
  (b.height ?? 0) - (a.height ?? 0) || b.seq - a.seq

/** Seconds until the next UTC midnight (when a daily cap starts again). */
const secondsToNextDay = (now: number) => {
  const next = new Date(now)
  next.setUTCHours(24, 0, 0, 0)
  return Math.max(1, Math.ceil((next.getTime() - now) / 1000))
}

export async function startChainSimulator({
  network = 'test',
  port = 0,
  host = '127.0.0.1',
  stateFile,
  limits: startLimits = {},
  pages: pageOptions = {},
  backgroundTxPerSecond = 2,
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
} = {}): Promise<ChainSimulator> {
  if (!Number.isFinite(backgroundTxPerSecond) || backgroundTxPerSecond < 0)
    throw new RangeError('backgroundTxPerSecond must be a number of transactions, 0 or more')
  const state = createChainState({ network, file: stateFile })
  const pages = {
    bulkConfirmed: pageOptions.bulkConfirmed ?? 20,
    bulkUnconfirmed: pageOptions.bulkUnconfirmed ?? 100,
    historyAll: pageOptions.historyAll ?? 1000,
    capCounting: pageOptions.capCounting ?? 'request',
    omitTokens: pageOptions.omitTokens ?? false,
  }
  let limits: SimulatorLimits = { ...startLimits }
  let outage = false
  /** WhatsOnChain API calls answered so far (the benchmark's calls-per-minute count). */
  let apiRequests = 0
  const prefix = `/v1/bsv/${network}`
  const records: ApiRequestRecord[] = []

  // Faults and limits.
  let erroring = new Set<string>()
  const lost = new Map<string, number>()
  let burst = { count: 0, retryAfterSeconds: 1 }
  let deafStream = false
  /** No request is answered before this time (the Retry-After of the last 429). */
  let throttledUntil = 0
  /** Start times of the requests answered in the last second. */
  const lastSecond: number[] = []
  let day = { start: 0, count: 0 }

  const isLost = (txid: string) => {
    const until = lost.get(txid)
    if (until === undefined) return false
    if (until > Date.now()) return true
    lost.delete(txid)
    return false
  }

  const setFaults = (faults: SimulatorFaults) => {
    if (faults.historyErrorAddresses) erroring = new Set(faults.historyErrorAddresses)
    if (faults.loseTxid)
      lost.set(faults.loseTxid.txid.toLowerCase(), Date.now() + faults.loseTxid.seconds * 1000)
    if (faults.burst429) burst = { ...faults.burst429 }
    if (faults.deafStream !== undefined) deafStream = faults.deafStream
  }
  const clearFaults = () => {
    erroring = new Set()
    lost.clear()
    burst = { count: 0, retryAfterSeconds: 1 }
    throttledUntil = 0
    deafStream = false
  }

  const send = (
    res: http.ServerResponse,
    status: number,
    body: unknown,
    type: 'json' | 'text' = 'json',
    headers: Record<string, string> = {},
  ) => {
    res.writeHead(status, {
      'content-type': type === 'json' ? 'application/json' : 'text/plain',
      ...headers,
    })
    res.end(type === 'json' ? JSON.stringify(body) : String(body))
  }

  const tooMany = (res: http.ServerResponse, seconds: number, why: string) => {
    throttledUntil = Math.max(throttledUntil, Date.now() + seconds * 1000)
    send(res, 429, why, 'text', { 'retry-after': String(seconds) })
  }

  /**
   * Whether a request may be answered now; otherwise it has been answered 429. A refused
   * request does not count against the limits.
   */
  const admit = (res: http.ServerResponse, record: ApiRequestRecord): boolean => {
    const now = Date.now()
    if (now < throttledUntil) {
      record.insideRetryAfter = true
      send(res, 429, 'Too Many Requests', 'text', {
        'retry-after': String(Math.ceil((throttledUntil - now) / 1000)),
      })
      return false
    }
    if (burst.count > 0) {
      burst.count -= 1
      tooMany(res, burst.retryAfterSeconds, 'Too Many Requests')
      return false
    }
    const today = Math.floor(now / 86_400_000) * 86_400_000
    if (day.start !== today) day = { start: today, count: 0 }
    if (limits.perDay !== undefined && day.count >= limits.perDay) {
      tooMany(res, secondsToNextDay(now), 'Daily request limit reached')
      return false
    }
    while (lastSecond.length > 0 && lastSecond[0]! <= now - 1000) lastSecond.shift()
    if (limits.perSecond !== undefined && lastSecond.length >= limits.perSecond) {
      tooMany(res, 1, 'Too Many Requests')
      return false
    }
    lastSecond.push(now)
    day.count += 1
    return true
  }

  /** A page of one address's history, after `after`, in its order. */
  const page = (
    address: string,
    kind: Kind,
    {
      order,
      limit,
      after,
      fromHeight,
    }: { order: Order; limit: number; after?: Cursor; fromHeight?: number },
  ) => {
    let list = state
      .entries(address, kind)
      .filter((e) => !isLost(e.txid) && (fromHeight === undefined || (e.height ?? 0) >= fromHeight))
    if (order === 'asc') list = list.reverse()
    if (after && after.s !== undefined) {
      const mark = { height: after.h ?? null, seq: after.s }
      const direction = order === 'desc' ? 1 : -1
      list = list.filter((e) => direction * newestFirst(e, mark) > 0)
    }
    const items = list.slice(0, Math.max(0, limit))
    const last = items.at(-1)
    const next: Cursor | undefined =
      list.length > items.length
        ? { a: address, k: kind, o: order, ...(last ? { h: last.height, s: last.seq } : {}) }
        : undefined
    return {
      result: items.map((e) =>
        kind === 'confirmed' ? { tx_hash: e.txid, height: e.height } : { tx_hash: e.txid },
      ),
      ...(next ? { nextPageToken: encodeToken(next) } : {}),
    }
  }

  /** One address's part of a bulk history answer, within what is left of the request's cap. */
  const bulkPart = (address: string, kind: Kind, budget: { left: number }, cap: number) => {
    if (erroring.has(address)) return { result: [], error: HISTORY_ERROR }
    if (scriptHashOf(address) === undefined) return { result: [], error: 'Invalid address' }
    const limit = pages.capCounting === 'address' ? cap : budget.left
    const { result, nextPageToken } = page(address, kind, { order: 'desc', limit })
    budget.left -= result.length
    return {
      result,
      ...(nextPageToken && !pages.omitTokens ? { nextPageToken } : {}),
      error: '',
    }
  }

  const addressesOf = async (req: http.IncomingMessage) => {
    const body = (await readJson(req)) as { addresses?: unknown }
    const addresses = Array.isArray(body.addresses)
      ? body.addresses.filter((a): a is string => typeof a === 'string')
      : []
    if (addresses.length === 0 || addresses.length > 20)
      throw new BadRequest('between 1 and 20 addresses')
    return addresses
  }

  /**
   * A bulk history answer: for each address of the request's body (in its order), the address,
   * its script hash and its `part` of the history.
   */
  const sendBulk = async (
    req: http.IncomingMessage,
    res: http.ServerResponse,
    part: (address: string) => object,
  ) => {
    const addresses = await addressesOf(req)
    send(
      res,
      200,
      addresses.map((address) => ({
        address,
        script: scriptHashOf(address) ?? '',
        ...part(address),
      })),
    )
  }

  const blockHash = (height: number) =>
    crypto.createHash('sha256').update(`simulated block ${network} ${height}`).digest('hex')

  /** A transaction as /tx/hash/{txid} describes it. */
  const describe = (txid: string, hex: string, height: number | null) => {
    const tx = Transaction.fromHex(hex)
    const time = height !== null ? (state.blockTime(height) ?? 0) : undefined
    return {
      txid,
      hash: txid,
      version: tx.version,
      size: hex.length / 2,
      locktime: tx.lockTime,
      vin: tx.inputs.map((input) =>
        input.sourceTXID === '00'.repeat(32) && input.sourceOutputIndex === 0xffffffff
          ? {
              coinbase: input.unlockingScript?.toHex() ?? '',
              txid: '',
              vout: 0,
              scriptSig: { asm: '', hex: '' },
              sequence: input.sequence ?? 0xffffffff,
            }
          : {
              txid: input.sourceTXID ?? '',
              vout: input.sourceOutputIndex,
              scriptSig: {
                asm: input.unlockingScript?.toASM() ?? '',
                hex: input.unlockingScript?.toHex() ?? '',
              },
              sequence: input.sequence ?? 0xffffffff,
            },
      ),
      vout: tx.outputs.map((output, n) => {
        const address = addressOfScript(output.lockingScript, network)
        return {
          value: (output.satoshis ?? 0) / 1e8,
          n,
          scriptPubKey: {
            asm: output.lockingScript.toASM(),
            hex: output.lockingScript.toHex(),
            ...(address
              ? { reqSigs: 1, type: 'pubkeyhash', addresses: [address] }
              : { type: 'nonstandard', addresses: [] }),
            isTruncated: false,
          },
        }
      }),
      ...(height !== null
        ? {
            blockhash: blockHash(height),
            confirmations: state.height - height + 1,
            time,
            blocktime: time,
            blockheight: height,
          }
        : {}),
    }
  }

  /** Where an output was spent, as WhatsOnChain's spent endpoints say it. */
  const spentInfo = (txid: string, vout: number) => {
    if (isLost(txid)) return undefined
    const spender = state.spender(txid, vout)
    if (spender === undefined) return undefined
    // An index that lost the spending transaction says the output is unspent.
    if (spender === null || isLost(spender)) return null
    const hex = state.getHex(spender)
    const vin = hex
      ? Transaction.fromHex(hex).inputs.findIndex(
          (i) => i.sourceTXID === txid && i.sourceOutputIndex === vout,
        )
      : 0
    const where = state.status(spender)
    return {
      txid: spender,
      vin,
      status: where?.height != null ? 'confirmed' : 'unconfirmed',
    }
  }

  const simulatorRoute = async (
    path: string,
    method: string,
    req: http.IncomingMessage,
    res: http.ServerResponse,
  ): Promise<boolean> => {
    if (path === '/simulator/mine' && method === 'POST') {
      const body = (await readJson(req)) as { blocks?: number }
      const blocks =
        Number.isInteger(body.blocks) && body.blocks! > 0 && body.blocks! <= 100 ? body.blocks! : 1
      send(res, 200, { height: state.mine(blocks) })
      return true
    }
    if (path === '/simulator/faucet' && method === 'POST') {
      const body = (await readJson(req)) as { address?: string; satoshis?: number }
      if (
        typeof body.address !== 'string' ||
        !Number.isSafeInteger(body.satoshis) ||
        body.satoshis! <= 0
      ) {
        send(res, 400, { error: 'address and satoshis are required' })
        return true
      }
      try {
        send(res, 200, { txid: state.mint(body.address, body.satoshis!) })
      } catch (error) {
        send(res, 400, { error: (error as Error).message })
      }
      return true
    }
    if (path === '/simulator/double-spend' && method === 'POST') {
      const body = (await readJson(req)) as { txid?: unknown }
      if (typeof body.txid !== 'string' || !/^[0-9a-f]{64}$/i.test(body.txid)) {
        send(res, 400, { error: 'txid is required' })
        return true
      }
      try {
        send(res, 200, { txid: state.doubleSpend(body.txid.toLowerCase()) })
      } catch (error) {
        if (error instanceof ChainRejection) send(res, 400, { error: error.message })
        else throw error
      }
      return true
    }
    if (path === '/simulator/reorg' && method === 'POST') {
      const body = (await readJson(req)) as { blocks?: unknown }
      const blocks = Number(body.blocks ?? 1)
      if (!Number.isInteger(blocks) || blocks < 1 || blocks > state.height)
        send(res, 400, { error: 'blocks must be a whole number of blocks on the chain' })
      else send(res, 200, { height: state.reorg(blocks) })
      return true
    }
    if (path === '/simulator/outage' && method === 'POST') {
      outage = Boolean(((await readJson(req)) as { on?: boolean }).on)
      send(res, 200, {})
      return true
    }
    if (path === '/simulator/push' && method === 'POST') {
      push.setPush(Boolean(((await readJson(req)) as { on?: boolean }).on))
      send(res, 200, {})
      return true
    }
    if (path === '/simulator/faults' && method === 'DELETE') {
      clearFaults()
      send(res, 200, {})
      return true
    }
    if (path === '/simulator/faults' && method === 'POST') {
      const body = (await readJson(req)) as SimulatorFaults & { clear?: unknown }
      const problem = faultsProblem(body)
      if (problem) {
        send(res, 400, { error: problem })
        return true
      }
      if (body.clear === true) clearFaults()
      setFaults(body)
      send(res, 200, {
        historyErrorAddresses: [...erroring],
        lostTxids: [...lost.keys()].filter((txid) => isLost(txid)),
        burst429Left: burst.count,
        deafStream,
      })
      return true
    }
    if (path === '/healthz') {
      send(res, 200, { ok: true, height: state.height, apiRequests })
      return true
    }
    return false
  }

  const apiRoute = async (
    route: string,
    url: URL,
    method: string,
    req: http.IncomingMessage,
    res: http.ServerResponse,
  ) => {
    if (route === '/chain/info' && method === 'GET') {
      return send(res, 200, {
        chain: network,
        blocks: state.height,
        headers: state.height,
        bestblockhash: blockHash(state.height),
        difficulty: 1,
        mediantime: state.blockTime(state.height) ?? Math.floor(Date.now() / 1000),
        verificationprogress: 1,
        pruned: false,
        chainwork: state.height.toString(16).padStart(64, '0'),
      })
    }
    const bulk = /^\/addresses\/(confirmed|unconfirmed)\/history$/.exec(route)
    if (bulk && method === 'POST') {
      const kind = bulk[1] as Kind
      const cap = kind === 'confirmed' ? pages.bulkConfirmed : pages.bulkUnconfirmed
      const budget = { left: cap }
      return sendBulk(req, res, (address) => bulkPart(address, kind, budget, cap))
    }
    if (route === '/addresses/history/all' && method === 'POST') {
      const budgets = {
        confirmed: { left: pages.historyAll },
        unconfirmed: { left: pages.historyAll },
      }
      return sendBulk(req, res, (address) => ({
        unconfirmed: bulkPart(address, 'unconfirmed', budgets.unconfirmed, pages.historyAll),
        confirmed: bulkPart(address, 'confirmed', budgets.confirmed, pages.historyAll),
      }))
    }
    const single = /^\/address\/([^/]+)\/(confirmed|unconfirmed)\/history$/.exec(route)
    if (single && method === 'GET') {
      const address = decodeURIComponent(single[1]!)
      const kind = single[2] as Kind
      const q = url.searchParams
      const limit = q.has('limit') ? Number(q.get('limit')) : 100
      if (!Number.isInteger(limit) || limit < 1 || limit > 1000)
        return send(res, 400, 'limit must be between 1 and 1000', 'text')
      const order = (q.get('order') ?? 'desc') as Order
      if (order !== 'asc' && order !== 'desc')
        return send(res, 400, 'order must be asc or desc', 'text')
      const height = q.has('height') ? Number(q.get('height')) : undefined
      if (height !== undefined && (!Number.isInteger(height) || height < 0))
        return send(res, 400, 'height must be a block height', 'text')
      let after: Cursor | undefined
      if (q.get('token')) {
        after = decodeToken(q.get('token')!)
        if (!after || after.a !== address || after.k !== kind)
          return send(res, 400, 'invalid token', 'text')
      }
      const script = scriptHashOf(address)
      if (script === undefined) return send(res, 400, 'Invalid address', 'text')
      if (erroring.has(address))
        return send(res, 200, { address, script, result: [], error: HISTORY_ERROR })
      const part = page(address, kind, {
        order: after?.o ?? order,
        limit,
        after,
        fromHeight: kind === 'confirmed' ? height : undefined,
      })
      return send(res, 200, { address, script, ...part, error: '' })
    }
    const block = /^\/block\/height\/(\d+)$/.exec(route)
    if (block && method === 'GET') {
      const height = Number(block[1])
      const time = state.blockTime(height)
      if (height > state.height || time === undefined) return send(res, 404, 'Not found', 'text')
      return send(res, 200, { height, time, confirmations: state.height - height + 1 })
    }
    const txInfo = /^\/tx\/hash\/([0-9a-f]{64})$/i.exec(route)
    if (txInfo && method === 'GET') {
      const txid = txInfo[1]!.toLowerCase()
      const found = state.status(txid)
      const hex = state.getHex(txid)
      if (!found || !hex || isLost(txid)) return send(res, 404, 'Not found', 'text')
      return send(res, 200, describe(txid, hex, found.height))
    }
    const raw = /^\/tx\/([0-9a-f]{64})\/hex$/i.exec(route)
    if (raw && method === 'GET') {
      const txid = raw[1]!.toLowerCase()
      const found = state.getHex(txid)
      return found && !isLost(txid)
        ? send(res, 200, found, 'text')
        : send(res, 404, 'Not found', 'text')
    }
    const spent = /^\/tx\/([0-9a-f]{64})\/(\d+)\/spent$/i.exec(route)
    if (spent && method === 'GET') {
      const info = spentInfo(spent[1]!.toLowerCase(), Number(spent[2]))
      if (info === undefined) return send(res, 400, 'Unknown UTXO', 'text')
      if (info === null) return send(res, 404, 'Not found', 'text')
      return send(res, 200, info)
    }
    if (route === '/utxos/spent' && method === 'POST') {
      const body = (await readJson(req)) as { utxos?: unknown }
      const utxos = Array.isArray(body.utxos) ? body.utxos : []
      if (utxos.length === 0 || utxos.length > 20)
        return send(res, 400, 'between 1 and 20 utxos', 'text')
      return send(
        res,
        200,
        utxos.map((u) => {
          const { txid, vout } = (u ?? {}) as { txid?: unknown; vout?: unknown }
          const utxo = { txid, vout }
          if (typeof txid !== 'string' || !/^[0-9a-f]{64}$/i.test(txid) || !Number.isInteger(vout))
            return { utxo, error: 'invalid utxo' }
          const info = spentInfo(txid.toLowerCase(), vout as number)
          if (info === undefined) return { utxo, error: 'unknown utxo' }
          return info === null ? { utxo, error: '' } : { utxo, spentIn: info, error: '' }
        }),
      )
    }
    if (route === '/tx/raw' && method === 'POST') {
      const body = (await readJson(req)) as { txhex?: unknown }
      if (typeof body.txhex !== 'string') return send(res, 400, 'txhex is required', 'text')
      try {
        return send(res, 200, state.submit(body.txhex))
      } catch (error) {
        if (error instanceof ChainRejection) return send(res, 400, error.message, 'text')
        throw error
      }
    }
    return send(res, 404, 'Not found', 'text')
  }

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://simulator')
    const path = url.pathname
    const method = req.method ?? 'GET'
    if (await simulatorRoute(path, method, req, res)) return
    if (!path.startsWith(`${prefix}/`)) return send(res, 404, 'Not found', 'text')

    apiRequests += 1
    const header = (name: string) => {
      const value = req.headers[name]
      return Array.isArray(value) ? value[0] : value
    }
    const record: ApiRequestRecord = {
      at: Date.now(),
      method,
      path: `${path.slice(prefix.length)}${url.search}`,
      authorization: header('authorization'),
      wocApiKey: header('woc-api-key'),
      status: 0,
      insideRetryAfter: false,
    }
    records.push(record)
    if (records.length > MAX_RECORDS) records.shift()
    res.on('finish', () => (record.status = res.statusCode))

    if (outage) return send(res, 503, 'Service unavailable (simulated outage)', 'text')
    if (!admit(res, record)) return
    await apiRoute(path.slice(prefix.length), url, method, req, res)
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (res.headersSent) return
      if (error instanceof BadRequest) send(res, 400, error.message, 'text')
      else send(res, 500, `simulator error: ${(error as Error).message}`, 'text')
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, resolve)
  })
  const { port: actual } = server.address() as AddressInfo
  const url = `http://${host}:${actual}`

  const push = startPushServer({
    server,
    state,
    network,
    backgroundTxPerSecond,
    deaf: () => deafStream,
  })

  return {
    url,
    wocUrl: `${url}${prefix}`,
    socketUrl: `ws://${host}:${actual}/websocket`,
    setPush: push.setPush,
    pushClients: push.clients,
    state,
    setOutage: (on) => {
      outage = on
    },
    apiRequests: () => apiRequests,
    setFaults,
    clearFaults,
    setLimits: (next) => {
      limits = { ...next }
    },
    requests: () => [...records],
    close: () =>
      new Promise<void>((resolve) => {
        push.close()
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** What is wrong with faults asked for over HTTP, if anything. */
function faultsProblem(body: SimulatorFaults & { clear?: unknown }): string | undefined {
  const { historyErrorAddresses, loseTxid, burst429, deafStream } = body
  if (
    historyErrorAddresses !== undefined &&
    (!Array.isArray(historyErrorAddresses) ||
      !historyErrorAddresses.every((a) => typeof a === 'string'))
  )
    return 'historyErrorAddresses must be a list of addresses'
  if (
    loseTxid !== undefined &&
    (typeof loseTxid?.txid !== 'string' ||
      !/^[0-9a-f]{64}$/i.test(loseTxid.txid) ||
      typeof loseTxid.seconds !== 'number' ||
      !(loseTxid.seconds > 0))
  )
    return 'loseTxid must be { txid, seconds }'
  if (
    burst429 !== undefined &&
    (!Number.isInteger(burst429?.count) ||
      burst429.count < 0 ||
      !Number.isInteger(burst429.retryAfterSeconds) ||
      burst429.retryAfterSeconds < 0)
  )
    return 'burst429 must be { count, retryAfterSeconds }'
  if (deafStream !== undefined && typeof deafStream !== 'boolean')
    return 'deafStream must be true or false'
  return undefined
}

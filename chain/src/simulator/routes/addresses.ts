import type http from 'node:http'

import { Hash, P2PKH, Utils } from '@bsv/sdk'

import type { AddressEntry } from '../chain-state'
import type { SimulatorContext } from '../context'
import type { RouteCall, Router } from '../http'
import { BadRequest, readJson, send } from '../http'

/**
 * Address histories as WhatsOnChain pages them (the answers' shapes are in server.ts): the bulk
 * /addresses/{confirmed,unconfirmed}/history and /addresses/history/all, each cut at its cap
 * with a `nextPageToken` per address, and /address/{a}/{confirmed,unconfirmed}/history, which
 * reads on from that token.
 */

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

/** The page options with WhatsOnChain's caps where none is given. */
export const pageSettings = (pages: SimulatorPages) => ({
  bulkConfirmed: pages.bulkConfirmed ?? 20,
  bulkUnconfirmed: pages.bulkUnconfirmed ?? 100,
  historyAll: pages.historyAll ?? 1000,
  capCounting: pages.capCounting ?? 'request',
  omitTokens: pages.omitTokens ?? false,
})

/**
 * The error WhatsOnChain's server is reported to write in an address's entry when it cannot read
 * its history (every example in the docs has an empty one).
 */
export const HISTORY_ERROR = 'Failed to get history'

type Kind = 'confirmed' | 'unconfirmed'
type Order = 'asc' | 'desc'
/** Where a page of one address's history ends (absent h and s: before its first item). */
type Cursor = { a: string; k: Kind; o: Order; h?: number | null; s?: number }

export function mountAddressRoutes(api: Router, ctx: SimulatorContext) {
  api.on('POST', /^\/addresses\/(confirmed|unconfirmed)\/history$/, ({ req, res, params }) => {
    const kind = params[0] as Kind
    const cap = kind === 'confirmed' ? ctx.pages.bulkConfirmed : ctx.pages.bulkUnconfirmed
    const budget = { left: cap }
    return sendBulk(req, res, (address) => bulkPart(ctx, { address, kind, budget, cap }))
  })
  api.on('POST', '/addresses/history/all', ({ req, res }) => {
    const cap = ctx.pages.historyAll
    const budgets = { confirmed: { left: cap }, unconfirmed: { left: cap } }
    return sendBulk(req, res, (address) => ({
      unconfirmed: bulkPart(ctx, {
        address,
        kind: 'unconfirmed',
        budget: budgets.unconfirmed,
        cap,
      }),
      confirmed: bulkPart(ctx, { address, kind: 'confirmed', budget: budgets.confirmed, cap }),
    }))
  })
  api.on('GET', /^\/address\/([^/]+)\/(confirmed|unconfirmed)\/history$/, (call) =>
    sendSingleHistory(ctx, call),
  )
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

/** A page of one address's history, after `after`, in its order. */
function page(
  { state, faults }: SimulatorContext,
  address: string,
  kind: Kind,
  {
    order,
    limit,
    after,
    fromHeight,
  }: { order: Order; limit: number; after?: Cursor; fromHeight?: number },
) {
  let list = state
    .entries(address, kind)
    .filter(
      (e) => !faults.isLost(e.txid) && (fromHeight === undefined || (e.height ?? 0) >= fromHeight),
    )
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
function bulkPart(
  ctx: SimulatorContext,
  {
    address,
    kind,
    budget,
    cap,
  }: { address: string; kind: Kind; budget: { left: number }; cap: number },
) {
  if (ctx.faults.hasHistoryError(address)) return { result: [], error: HISTORY_ERROR }
  if (scriptHashOf(address) === undefined) return { result: [], error: 'Invalid address' }
  const limit = ctx.pages.capCounting === 'address' ? cap : budget.left
  const { result, nextPageToken } = page(ctx, address, kind, { order: 'desc', limit })
  budget.left -= result.length
  return {
    result,
    ...(nextPageToken && !ctx.pages.omitTokens ? { nextPageToken } : {}),
    error: '',
  }
}

async function addressesOf(req: http.IncomingMessage) {
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
async function sendBulk(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  part: (address: string) => object,
) {
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

/** One address's history of one kind, a page at a time (limit, order, token, height). */
function sendSingleHistory(ctx: SimulatorContext, { res, url, params }: RouteCall) {
  const address = decodeURIComponent(params[0]!)
  const kind = params[1] as Kind
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
  if (ctx.faults.hasHistoryError(address))
    return send(res, 200, { address, script, result: [], error: HISTORY_ERROR })
  const part = page(ctx, address, kind, {
    order: after?.o ?? order,
    limit,
    after,
    fromHeight: kind === 'confirmed' ? height : undefined,
  })
  send(res, 200, { address, script, ...part, error: '' })
}

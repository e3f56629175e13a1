import type {
  AddressHistoriesDetailed,
  AddressTransaction,
  ChainSource,
  HistoryScope,
} from '../types'
import { ChainSourceError, MAX_ADDRESSES_PER_CALL, mergeHistories } from '../types'
import type { RequestContext } from './http'
import { TXID } from './transactions'

/**
 * Address histories, every page read: one bulk look (/addresses/{kind}/history, or
 * /addresses/history/all for both kinds), then each address that was cut, left out or may have
 * been cut read on alone (/address/{address}/{kind}/history) from its token or its first page.
 */

type Kind = 'confirmed' | 'unconfirmed'
type Endpoint = Kind | 'all'
/** One address's history (or one half of it) in an answer. */
type HistoryPart = { result?: unknown; error?: unknown; nextPageToken?: unknown }
/** A single-address read still to make: on from a token, or from the first page. */
type ReadOn = { address: string; kind: Kind; token?: string }

/** Items a bulk answer holds at most, by endpoint (WhatsOnChain's Address docs). */
const PAGE_CAPS: Record<Endpoint, number> = { confirmed: 20, unconfirmed: 100, all: 1000 }
/** Items asked for per single-address page (the most the endpoint gives). */
const SINGLE_PAGE_LIMIT = 1000
/** Pages read for one address before it counts as failed (100,000 transactions). */
const MAX_PAGES = 100

/** What one look at a batch of addresses has read so far. */
type Look = {
  http: RequestContext
  background: boolean
  /** Each address's transactions, by kind. */
  found: Map<string, Record<Kind, AddressTransaction[]>>
  /** The addresses that failed, each with its first reason. */
  failedWith: Map<string, string>
  readOn: ReadOn[]
}

export function addressMethods(
  http: RequestContext,
): Pick<ChainSource, 'getAddressHistories'> &
  Required<Pick<ChainSource, 'getAddressHistoriesDetailed'>> {
  return {
    async getAddressHistories(addresses, scope = 'all', { background = false } = {}) {
      return (await readHistories(http, addresses, scope, background)).histories
    },
    getAddressHistoriesDetailed: (addresses, scope = 'all', { background = false } = {}) =>
      readHistories(http, addresses, scope, background),
  }
}

/** A page's transactions, or undefined when the page cannot be read. */
function readTransactions(result: unknown, kind: Kind): AddressTransaction[] | undefined {
  // WhatsOnChain answers `null` for an address with nothing to list.
  if (result === null || result === undefined) return []
  if (!Array.isArray(result)) return undefined
  const transactions: AddressTransaction[] = []
  for (const item of result as { tx_hash?: unknown; height?: unknown }[]) {
    const txid = item?.tx_hash
    if (typeof txid !== 'string' || !TXID.test(txid)) return undefined
    const height = item.height
    transactions.push({
      txid: txid.toLowerCase(),
      height: kind === 'confirmed' && typeof height === 'number' && height > 0 ? height : null,
    })
  }
  return transactions
}

/** Oldest first: in blocks by height, then the mempool; otherwise as WhatsOnChain listed them. */
const oldestFirst = (transactions: AddressTransaction[]) =>
  transactions
    .map((t, i) => ({ t, i }))
    .sort(
      (a, b) =>
        (a.t.height ?? Number.MAX_SAFE_INTEGER) - (b.t.height ?? Number.MAX_SAFE_INTEGER) ||
        a.i - b.i,
    )
    .map(({ t }) => t)

/** Sets an address apart as failed, keeping the first reason it failed for. */
function fail(look: Look, address: string, reason: string) {
  if (!look.failedWith.has(address)) look.failedWith.set(address, reason)
}

function add(look: Look, address: string, kind: Kind, transactions: AddressTransaction[]) {
  look.found.get(address)![kind].push(...transactions)
}

/** One look at up to 20 addresses, every page read, failing addresses set apart. */
async function readHistories(
  http: RequestContext,
  addresses: readonly string[],
  scope: HistoryScope | 'confirmed',
  background: boolean,
): Promise<AddressHistoriesDetailed> {
  if (addresses.length > MAX_ADDRESSES_PER_CALL)
    throw new RangeError(`At most ${MAX_ADDRESSES_PER_CALL} addresses per call.`)
  const unique = [...new Set(addresses)]
  const kinds: Kind[] = scope === 'all' ? ['unconfirmed', 'confirmed'] : [scope]
  const look: Look = {
    http,
    background,
    found: new Map(unique.map((a) => [a, { unconfirmed: [], confirmed: [] }])),
    failedWith: new Map(),
    readOn: [],
  }
  if (unique.length > 0) {
    const endpoint: Endpoint = scope === 'all' ? 'all' : scope
    let unsure = await bulkLook(look, endpoint, unique, kinds)
    // Asked again where the cap is larger: one call for all of them.
    if (unsure.length > 0 && endpoint !== 'all')
      unsure = await bulkLook(
        look,
        'all',
        unsure.map((u) => u.address),
        kinds,
      )
    look.readOn.push(...unsure)
    for (const read of look.readOn) await readPages(look, read)
  }
  return settle(look, unique)
}

/**
 * A bulk look; returns the addresses whose answer looks complete in an answer that reached its
 * cap (it may have been cut without saying so).
 */
async function bulkLook(
  look: Look,
  endpoint: Endpoint,
  asked: string[],
  halves: Kind[],
): Promise<ReadOn[]> {
  const path = endpoint === 'all' ? '/addresses/history/all' : `/addresses/${endpoint}/history`
  const body = await look.http.request(path, {
    method: 'POST',
    body: { addresses: asked },
    as: 'json',
    background: look.background,
  })
  if (!Array.isArray(body)) {
    look.http.calls.noteError('bad-answer')
    throw new ChainSourceError(`WhatsOnChain ${path}: unexpected answer`)
  }
  const cap = PAGE_CAPS[endpoint]
  const total: Record<Kind, number> = { confirmed: 0, unconfirmed: 0 }
  const complete: Record<Kind, string[]> = { confirmed: [], unconfirmed: [] }
  for (const address of asked) {
    const entry = (body as ({ address?: unknown } & HistoryPart)[]).find(
      (e) => e?.address === address,
    )
    // An address the answer left out is read alone.
    if (!entry || typeof entry !== 'object') {
      for (const kind of halves) look.readOn.push({ address, kind })
      continue
    }
    if (typeof entry.error === 'string' && entry.error !== '') {
      fail(look, address, entry.error)
      continue
    }
    for (const kind of halves) {
      const part = (endpoint === 'all' ? (entry as Record<Kind, unknown>)[kind] : entry) as
        HistoryPart | undefined
      const taken = takeBulkPart(look, { path, cap, address, kind, part })
      total[kind] += taken.count
      if (taken.complete) complete[kind].push(address)
    }
  }
  return halves.flatMap((kind) =>
    total[kind] >= cap
      ? complete[kind].filter((a) => !look.failedWith.has(a)).map((address) => ({ address, kind }))
      : [],
  )
}

/**
 * One address's part of a bulk answer: its transactions taken (`count` of them), and whether
 * it looks complete; a part cut short is left to be read on, a failed one sets its address apart.
 */
function takeBulkPart(
  look: Look,
  {
    path,
    cap,
    address,
    kind,
    part,
  }: { path: string; cap: number; address: string; kind: Kind; part: HistoryPart | undefined },
): { count: number; complete: boolean } {
  if (!part || typeof part !== 'object') {
    look.readOn.push({ address, kind })
    return { count: 0, complete: false }
  }
  if (part.error !== undefined && part.error !== '') {
    fail(look, address, String(part.error))
    return { count: 0, complete: false }
  }
  const transactions = readTransactions(part.result, kind)
  if (!transactions) {
    look.http.calls.noteError('bad-answer')
    fail(look, address, `WhatsOnChain ${path}: unreadable history`)
    return { count: 0, complete: false }
  }
  add(look, address, kind, transactions)
  const count = transactions.length
  const token =
    typeof part.nextPageToken === 'string' && part.nextPageToken !== ''
      ? part.nextPageToken
      : undefined
  if (token) look.readOn.push({ address, kind, token })
  else if (count >= cap) look.readOn.push({ address, kind })
  return { count, complete: !token && count < cap }
}

/** One address's history of one kind, page by page from a token (or the start). */
async function readPages(look: Look, { address, kind, token }: ReadOn) {
  let next = token
  for (let page = 0; !look.failedWith.has(address); page += 1) {
    if (page >= MAX_PAGES) return fail(look, address, `more than ${MAX_PAGES} pages of history`)
    const query = new URLSearchParams({ limit: String(SINGLE_PAGE_LIMIT) })
    if (next) query.set('token', next)
    let body: unknown
    try {
      body = await look.http.request(
        `/address/${encodeURIComponent(address)}/${kind}/history?${query.toString()}`,
        { as: 'json', background: look.background },
      )
    } catch (error) {
      // Throttling is the whole source's state, not this address's.
      if (!(error instanceof ChainSourceError) || error.status === 429) throw error
      return fail(look, address, error.message)
    }
    const part = (body ?? {}) as HistoryPart
    if (part.error !== undefined && part.error !== '')
      return fail(look, address, String(part.error))
    const transactions = readTransactions(part.result, kind)
    if (!transactions) {
      look.http.calls.noteError('bad-answer')
      return fail(look, address, `WhatsOnChain ${kind} history of ${address}: unreadable page`)
    }
    add(look, address, kind, transactions)
    next =
      typeof part.nextPageToken === 'string' && part.nextPageToken !== ''
        ? part.nextPageToken
        : undefined
    if (!next) return
  }
}

/**
 * The look's answer: each address read to its end with its transactions oldest first, or
 * failed with its reason (and noted in the health record).
 */
function settle(look: Look, addresses: string[]): AddressHistoriesDetailed {
  const { calls } = look.http
  const histories = new Map<string, AddressTransaction[]>()
  for (const address of addresses) {
    const reason = look.failedWith.get(address)
    if (reason !== undefined) {
      calls.noteError('address')
      calls.noteFailing(address, reason)
      continue
    }
    calls.noteReadable(address)
    const { unconfirmed, confirmed } = look.found.get(address)!
    const merged = mergeHistories(
      new Map([[address, unconfirmed]]),
      new Map([[address, confirmed]]),
    )
    histories.set(address, oldestFirst(merged.get(address) ?? []))
  }
  return { histories, failed: look.failedWith }
}

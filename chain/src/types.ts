/** What the payment worker needs to know about the chain, whatever answers it. */

export type AddressTransaction = {
  txid: string
  /** Block height, or null while the transaction is in the mempool. */
  height: number | null
}

export type HistoryScope = 'all' | 'unconfirmed'

export type ChainSource = {
  /**
   * Requests the source lets begin in any one second (WhatsOnChain: 3 without a key): the
   * worker plans its passes within it.
   */
  requestsPerSecond?: number
  /** Height of the best block. */
  getTipHeight: () => Promise<number>
  /**
   * The transactions touching each address, at most 20 addresses, every page read: confirmed
   * and unconfirmed ('all'), or only those in the mempool ('unconfirmed') or in blocks
   * ('confirmed'); one call each unless a page was cut. An address the source could not read
   * is left out of the map (getAddressHistoriesDetailed says why); the others come back.
   */
  getAddressHistories: (
    addresses: readonly string[],
    scope?: HistoryScope | 'confirmed',
    /**
     * A look at older orders while buyers wait for theirs: it leaves part of the request
     * budget to fresh orders and to fetching the transactions a look found.
     */
    options?: { background?: boolean },
  ) => Promise<Map<string, AddressTransaction[]>>
  /**
   * Whether the chain still knows a transaction (in a block or in the mempool), asked fresh:
   * a double-spent or dropped transaction is 'unknown'.
   */
  getTransactionStatus: (txid: string) => Promise<'confirmed' | 'mempool' | 'unknown'>
  /** When the block at this height was mined (its header's time). */
  getBlockTime: (height: number) => Promise<Date>
  /** Raw transaction hex (exact satoshis come from here, never from float fields). */
  getTransactionHex: (txid: string) => Promise<string>
  /** Broadcasts a signed transaction; returns its txid. */
  broadcast: (txHex: string) => Promise<string>
  /**
   * Resolves once a request could begin now under the source's request limit, and keeps that
   * place for the next request a moment: what to ask is then decided when it can be asked.
   * True when it had to wait.
   */
  waitForRoom?: () => Promise<boolean>
  /**
   * The same look as getAddressHistories, saying which addresses could not be read: each
   * address is in exactly one of `histories` (read to its end) and `failed` (with the reason,
   * e.g. WhatsOnChain's per-address error). A failed address says nothing about its
   * transactions: it is not an empty history.
   */
  getAddressHistoriesDetailed?: (
    addresses: readonly string[],
    scope?: HistoryScope | 'confirmed',
    options?: { background?: boolean },
  ) => Promise<AddressHistoriesDetailed>
  /**
   * Where each output was spent, asked fresh (mempool and blocks): keyed `txid:vout`, the
   * spending transaction's txid, 'unspent', or 'unknown' when the source did not say (a missing
   * or failed answer is never read as spent).
   */
  getSpentBy?: (outpoints: readonly Outpoint[]) => Promise<Map<string, SpentBy>>
  /** How the source is doing: calls against its limits, recent errors, failing addresses. */
  stats?: () => ChainSourceStats
}

export type AddressHistoriesDetailed = {
  /** The addresses read to their end, each with its transactions (oldest first). */
  histories: Map<string, AddressTransaction[]>
  /** The addresses that could not be read, each with the reason. */
  failed: Map<string, string>
}

export type Outpoint = { txid: string; vout: number }

/** The txid of the transaction spending an output, or what is known instead. */
export type SpentBy = string | 'unspent' | 'unknown'

/** What went wrong in a call to the chain source, by kind. */
export type ChainErrorKind =
  /** A 429 answer (the per-second limit, or a burst). */
  | 'throttled'
  /** A 429 once the day's requests are spent. */
  | 'daily-cap'
  /** A 5xx answer. */
  | 'server'
  /** No answer: the connection failed or timed out. */
  | 'network'
  /** A lookup answered 404 (retried before it counts as unknown). */
  | 'not-found'
  /** An address's own error inside a bulk answer, or a page of it that failed. */
  | 'address'
  /** An answer that could not be read. */
  | 'bad-answer'

export type ChainSourceStats = {
  /** Requests sent since midnight UTC. */
  callsToday: number
  /** The plan's daily cap, when known. */
  capPerDay: number | null
  /** Requests begun in the last second, and the most the source begins in one. */
  callsLastSecond: number
  limitPerSecond: number
  /** Until when the source asked not to be called (a 429's Retry-After), if that is now. */
  throttledUntil: Date | null
  /** Errors of the last hour, by kind. */
  errorsByKind: Partial<Record<ChainErrorKind, number>>
  /** Addresses whose last look failed: why, since when, and how many looks in a row. */
  failingAddresses: { address: string; reason: string; since: Date; failures: number }[]
}

export const MAX_ADDRESSES_PER_CALL = 20

/**
 * Two looks at the same addresses as one: each transaction once, with its block height when
 * either look saw it in a block.
 */
export function mergeHistories(
  ...looks: ReadonlyMap<string, readonly AddressTransaction[]>[]
): Map<string, AddressTransaction[]> {
  const merged = new Map<string, AddressTransaction[]>()
  for (const look of looks)
    for (const [address, transactions] of look) {
      const list = merged.get(address) ?? []
      merged.set(address, list)
      for (const { txid, height } of transactions) {
        const known = list.find((t) => t.txid === txid)
        if (!known) list.push({ txid, height })
        else if (known.height === null && height !== null) known.height = height
      }
    }
  return merged
}

export class ChainSourceError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message)
    this.name = 'ChainSourceError'
  }
}

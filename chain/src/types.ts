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
  /**
   * The header of the block at this height, or of the block with this hash (display-order hex),
   * as the source gives it; null when it has no such block.
   */
  getBlockHeader?: (at: number | string) => Promise<BlockHeader | null>
  /** A merkle proof that the transaction is in a block, or null when the source has none. */
  getMerkleProof?: (txid: string) => Promise<MerkleProof | null>
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

/**
 * A source that follows transactions by their id (ARC, the BSV transaction processor): it
 * cannot list an address's transactions, and it knows only the transactions submitted to it.
 * The worker submits a payment once any source has seen it, then asks it by txid.
 */
export type TransactionSource = {
  /** How the owner's chain-health card names it, e.g. 'arc'. */
  name: string
  /**
   * What the source says of one transaction now; a transaction it does not know is 'unknown'.
   * `urgent`: ahead of the routine asks waiting for the request budget (a proof an order's
   * confirmation waits for).
   */
  getTransaction: (txid: string, options?: { urgent?: boolean }) => Promise<TransactionReport>
  /** Hands it a signed transaction (raw hex), which it then follows; its report at once. */
  submit: (txHex: string) => Promise<TransactionReport>
  /**
   * Hands it many at once, in as few calls as it takes: each transaction's report, or the
   * refusal of that one, in the order given. A transaction it has already is answered with its
   * status now (its block and merkle path once mined), so this is also how many are asked at
   * once.
   */
  submitAll?: (
    txHexes: readonly string[],
    options?: { urgent?: boolean },
  ) => Promise<(TransactionReport | ChainSourceError)[]>
  /** How the source is doing: calls against its limits, recent errors. */
  stats?: () => ChainSourceStats
}

/**
 * One source's word on one transaction, in the shop's terms (`state`) beside the source's own
 * (`sourceStatus`, e.g. ARC's txStatus).
 * - 'unknown': never submitted to it, or forgotten.
 * - 'pending': received or stored, not yet seen on the network.
 * - 'seen': in the mempool of the network's nodes.
 * - 'double-spend': a competing transaction spends one of its inputs (`competingTxs`).
 * - 'mined': in a block (`blockHash`, `blockHeight`, `merklePath`).
 * - 'stale': mined in a block that is no longer on the best chain.
 * - 'rejected': the network refused it (`extraInfo` says why).
 */
export type TransactionState =
  'unknown' | 'pending' | 'seen' | 'double-spend' | 'mined' | 'stale' | 'rejected'

export type TransactionReport = {
  txid: string
  state: TransactionState
  sourceStatus: string | null
  blockHash: string | null
  blockHeight: number | null
  /** The merkle path as BRC-74 BUMP hex (what `MerklePath.fromHex` reads), when mined. */
  merklePath: string | null
  competingTxs: string[]
  extraInfo: string | null
  /** When the source last changed its word (its own timestamp), if it says. */
  timestamp: string | null
}

/** A block header as a source gives it; the shop recomputes its hash before trusting it. */
export type BlockHeader = {
  height: number
  /** The block's hash as the source names it (display order, hex). */
  hash: string
  version: number
  /** The previous block's hash (display order, hex). */
  previousHash: string
  /** The merkle root (display order, hex, as `MerklePath.computeRoot` gives it). */
  merkleRoot: string
  /** Unix seconds. */
  time: number
  /** Compact target, as a number (e.g. 0x207fffff). */
  bits: number
  nonce: number
}

/** A merkle proof for one transaction, as one source gives it. */
export type MerkleProof = {
  txid: string
  /** The block the source says it is in (display order, hex). */
  blockHash: string
  blockHeight: number
  /** BRC-74 BUMP hex. */
  merklePath: string
}

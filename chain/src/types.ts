/** What the payment worker needs to know about the chain, whatever answers it. */

export type AddressTransaction = {
  txid: string
  /** Block height, or null while the transaction is in the mempool. */
  height: number | null
}

export type HistoryScope = 'all' | 'unconfirmed'

export type ChainSource = {
  /** Height of the best block. */
  getTipHeight: () => Promise<number>
  /**
   * The transactions touching each address, at most 20 addresses: confirmed and unconfirmed
   * ('all', two calls), or only those in the mempool ('unconfirmed', one call) or in blocks
   * ('confirmed', one call).
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

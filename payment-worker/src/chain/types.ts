/** What the payment worker needs to know about the chain, whatever answers it. */

export type AddressTransaction = {
  txid: string
  /** Block height, or null while the transaction is in the mempool. */
  height: number | null
}

export type ChainSource = {
  /** Height of the best block. */
  getTipHeight: () => Promise<number>
  /** Every transaction touching each address (confirmed and unconfirmed); at most 20 addresses. */
  getAddressHistories: (addresses: readonly string[]) => Promise<Map<string, AddressTransaction[]>>
  /** Raw transaction hex (exact satoshis come from here, never from float fields). */
  getTransactionHex: (txid: string) => Promise<string>
  /** Broadcasts a signed transaction; returns its txid. */
  broadcast: (txHex: string) => Promise<string>
}

export const MAX_ADDRESSES_PER_CALL = 20

export class ChainSourceError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message)
    this.name = 'ChainSourceError'
  }
}

import { Transaction, Utils } from '@bsv/sdk'

/**
 * A raw transaction read from hex, strictly: every byte belongs to it, none is missing (the
 * SDK's own reader takes a short or padded buffer without a word). Undefined for anything else.
 */
export function readRawTransaction(hex: string): Transaction | undefined {
  if (typeof hex !== 'string' || !/^(?:[0-9a-f]{2})+$/i.test(hex)) return undefined
  const bytes = Utils.toArray(hex, 'hex')
  const reader = new Utils.Reader(bytes)
  try {
    const tx = Transaction.fromReader(reader)
    return reader.pos === bytes.length ? tx : undefined
  } catch {
    return undefined
  }
}

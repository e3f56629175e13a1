import { Transaction } from '@bsv/sdk'

import type { ChainSource, Outpoint, SpentBy } from '../types'
import { ChainSourceError, MAX_ADDRESSES_PER_CALL } from '../types'
import type { RequestContext } from './http'

export const TXID = /^[0-9a-f]{64}$/i

/** Raw transactions kept in memory (a few hundred bytes each). */
const TX_CACHE_ENTRIES = 20_000

/** What a bulk spent answer says of one output. */
function spentByOf(entry: unknown): SpentBy {
  if (!entry || typeof entry !== 'object') return 'unknown'
  const { error, spentIn } = entry as { error?: unknown; spentIn?: { txid?: unknown } | null }
  if (error !== undefined && error !== '') return 'unknown'
  if (spentIn === undefined || spentIn === null) return 'unspent'
  return typeof spentIn.txid === 'string' && TXID.test(spentIn.txid)
    ? spentIn.txid.toLowerCase()
    : 'unknown'
}

/**
 * Transactions: whether the chain knows one (/tx/hash), its raw hex (/tx/{txid}/hex, checked
 * against its txid and cached), where outputs were spent (/utxos/spent) and broadcasting
 * (/tx/raw).
 */
export function transactionMethods(
  http: RequestContext,
): Pick<ChainSource, 'getTransactionStatus' | 'getTransactionHex' | 'broadcast'> &
  Required<Pick<ChainSource, 'getSpentBy'>> {
  const { request, lookup } = http
  const txCache = new Map<string, string>()
  return {
    async getTransactionStatus(txid) {
      if (!TXID.test(txid)) throw new ChainSourceError(`Not a txid: ${txid}`)
      const info = (await lookup(`/tx/hash/${txid}`, { as: 'json' })) as
        { blockheight?: unknown } | undefined
      if (info === undefined) return 'unknown'
      return typeof info?.blockheight === 'number' && info.blockheight > 0 ? 'confirmed' : 'mempool'
    },
    async getTransactionHex(txid) {
      if (!TXID.test(txid)) throw new ChainSourceError(`Not a txid: ${txid}`)
      const cached = txCache.get(txid)
      if (cached) return cached
      const answer = await lookup(`/tx/${txid}/hex`, { as: 'text', urgent: true })
      if (answer === undefined)
        throw new ChainSourceError(`WhatsOnChain tx ${txid}: not found`, 404)
      const hex = String(answer).trim()
      if (!/^[0-9a-f]+$/i.test(hex)) throw new ChainSourceError(`WhatsOnChain tx ${txid}: not hex`)
      // A truncated or wrong answer must never be cached (or counted): the bytes must hash to
      // the txid asked for.
      let parsedId: string | undefined
      try {
        parsedId = Transaction.fromHex(hex).id('hex')
      } catch {
        parsedId = undefined
      }
      if (parsedId !== txid.toLowerCase())
        throw new ChainSourceError(`WhatsOnChain tx ${txid}: the answer is not that transaction`)
      // The oldest entry goes first (a Map keeps insertion order): a busy shop's recent
      // payments, looked at again for their confirmations, stay cached.
      if (txCache.size >= TX_CACHE_ENTRIES) txCache.delete(txCache.keys().next().value!)
      txCache.set(txid, hex)
      return hex
    },
    getSpentBy: (outpoints) => spentBy(http, outpoints),
    async broadcast(txHex) {
      const body = await request('/tx/raw', { method: 'POST', body: { txhex: txHex }, as: 'json' })
      if (typeof body !== 'string' || !/^[0-9a-f]{64}$/i.test(body))
        throw new ChainSourceError('WhatsOnChain broadcast: unexpected answer')
      return body
    },
  }
}

/** Where each output was spent, asked 20 at a time; an output no answer speaks of is 'unknown'. */
async function spentBy(
  { request, calls }: RequestContext,
  outpoints: readonly Outpoint[],
): Promise<Map<string, SpentBy>> {
  const answers = new Map<string, SpentBy>()
  const asked: Outpoint[] = []
  for (const { txid, vout } of outpoints) {
    if (typeof txid === 'string' && TXID.test(txid) && Number.isSafeInteger(vout) && vout >= 0)
      asked.push({ txid, vout })
    else answers.set(`${txid}:${vout}`, 'unknown')
  }
  // WhatsOnChain's bulk spent lookup takes at most 20 outputs.
  for (let i = 0; i < asked.length; i += MAX_ADDRESSES_PER_CALL) {
    const chunk = asked.slice(i, i + MAX_ADDRESSES_PER_CALL)
    let body: unknown
    try {
      body = await request('/utxos/spent', {
        method: 'POST',
        body: { utxos: chunk },
        as: 'json',
      })
    } catch (error) {
      // No answer says nothing about these outputs.
      if (!(error instanceof ChainSourceError)) throw error
      body = []
    }
    if (!Array.isArray(body)) calls.noteError('bad-answer')
    const entries = (Array.isArray(body) ? body : []) as { utxo?: Partial<Outpoint> }[]
    for (const { txid, vout } of chunk) {
      const entry = entries.find(
        (e) =>
          typeof e?.utxo?.txid === 'string' &&
          e.utxo.txid.toLowerCase() === txid.toLowerCase() &&
          e.utxo.vout === vout,
      )
      answers.set(`${txid}:${vout}`, spentByOf(entry))
    }
  }
  return answers
}

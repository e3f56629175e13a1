import { Transaction } from '@bsv/sdk'

import { merklePathFromTsc } from '../merkle'
import type { ChainSource, MerkleProof, Outpoint, SpentBy } from '../types'
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
 * against its txid and cached), where outputs were spent (/utxos/spent), its merkle proof
 * (/tx/{txid}/proof/tsc, with the header of its block looked up by hash for the height) and
 * broadcasting (/tx/raw).
 */
export function transactionMethods(
  http: RequestContext,
  { getBlockHeader }: Required<Pick<ChainSource, 'getBlockHeader'>>,
): Pick<ChainSource, 'getTransactionStatus' | 'getTransactionHex' | 'broadcast'> &
  Required<Pick<ChainSource, 'getSpentBy' | 'getMerkleProof'>> {
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
    getMerkleProof: (txid) => merkleProof(http, getBlockHeader, txid),
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

/** One TSC proof of a WhatsOnChain answer, read; throws a ChainSourceError if unreadable. */
function readTscProof(entry: unknown, txid: string) {
  const fault = (what: string) =>
    new ChainSourceError(`WhatsOnChain proof of ${txid}: unreadable answer (${what})`)
  if (!entry || typeof entry !== 'object') throw fault('not an object')
  const { index, txOrId, target, nodes } = entry as Record<string, unknown>
  if (!Number.isSafeInteger(index) || (index as number) < 0) throw fault('index')
  if (typeof target !== 'string' || !TXID.test(target)) throw fault('target')
  if (
    !Array.isArray(nodes) ||
    !nodes.every((n) => n === '*' || (typeof n === 'string' && TXID.test(n)))
  )
    throw fault('nodes')
  // `txOrId` is the txid, or the whole transaction (BRC-10): either way it must be this one.
  let subject: string | undefined
  if (typeof txOrId === 'string' && TXID.test(txOrId)) subject = txOrId.toLowerCase()
  else if (typeof txOrId === 'string' && /^[0-9a-f]+$/i.test(txOrId))
    try {
      subject = Transaction.fromHex(txOrId).id('hex')
    } catch {
      subject = undefined
    }
  if (subject !== txid) throw fault('txOrId is not this transaction')
  return { index: index as number, target: target.toLowerCase(), nodes: nodes as string[] }
}

/**
 * A transaction's merkle proof from WhatsOnChain's TSC answer, as BRC-74 BUMP hex: the block it
 * names (`target`) is looked up for its height. Null when WhatsOnChain has none (404 after the
 * lookup's retries, an empty answer while unconfirmed, or a target it no longer knows).
 */
async function merkleProof(
  { lookup }: RequestContext,
  getBlockHeader: NonNullable<ChainSource['getBlockHeader']>,
  txid: string,
): Promise<MerkleProof | null> {
  if (!TXID.test(txid)) throw new ChainSourceError(`Not a txid: ${txid}`)
  const id = txid.toLowerCase()
  const answer = await lookup(`/tx/${id}/proof/tsc`, { as: 'json' })
  if (answer === undefined || answer === null || answer === '') return null
  // WhatsOnChain answers a list (a transaction may be in more than one block); one object too.
  const entries = Array.isArray(answer) ? answer : [answer]
  for (const entry of entries) {
    const proof = readTscProof(entry, id)
    const header = await getBlockHeader(proof.target)
    if (!header) continue
    let merklePath: string
    try {
      merklePath = merklePathFromTsc({ txid: id, ...proof, blockHeight: header.height }).toHex()
    } catch (error) {
      throw new ChainSourceError(
        `WhatsOnChain proof of ${id}: unreadable answer (${(error as Error).message})`,
      )
    }
    return { txid: id, blockHash: proof.target, blockHeight: header.height, merklePath }
  }
  return null
}

import type { BlockHeader, ChainSource } from '../types'
import { ChainSourceError } from '../types'
import type { RequestContext } from './http'

/** Block times kept in memory (a mined block's time never changes). */
const BLOCK_TIME_ENTRIES = 20_000
/** Headers kept in memory, by hash and by height. */
const HEADER_ENTRIES = 20_000
/**
 * Confirmations after which a height's block is taken as settled and its header is cached by
 * height too (a reorg changes which block a recent height holds; a hash's header never changes).
 */
export const SETTLED_CONFIRMATIONS = 6

const HASH = /^[0-9a-f]{64}$/i

/** Adds to a bounded cache, dropping the oldest entry once full. */
function remember<K, V>(cache: Map<K, V>, key: K, value: V, limit: number) {
  cache.delete(key)
  if (cache.size >= limit) cache.delete(cache.keys().next().value!)
  cache.set(key, value)
}

/**
 * A block header from WhatsOnChain's block or header answer (/block/height/{h},
 * /block/{hash}/header): every field checked, bits read from WoC's hex string. Throws a
 * ChainSourceError naming the field it cannot read.
 */
export function readHeader(
  answer: unknown,
  asked: string,
): { header: BlockHeader; confirmations: number | null } {
  const fault = (what: string) =>
    new ChainSourceError(`WhatsOnChain block ${asked}: unreadable answer (${what})`)
  if (!answer || typeof answer !== 'object' || Array.isArray(answer)) throw fault('not an object')
  const a = answer as Record<string, unknown>
  const uint32 = (name: string) => {
    const v = a[name]
    if (!Number.isInteger(v) || (v as number) < 0 || (v as number) > 0xffffffff) throw fault(name)
    return v as number
  }
  const hash = (name: string, value: unknown = a[name]) => {
    if (typeof value !== 'string' || !HASH.test(value)) throw fault(name)
    return value.toLowerCase()
  }
  const height = a.height
  if (!Number.isSafeInteger(height) || (height as number) < 0) throw fault('height')
  const version = a.version
  if (
    !Number.isInteger(version) ||
    (version as number) < -0x80000000 ||
    (version as number) > 0xffffffff
  )
    throw fault('version')
  const bitsText = a.bits
  const bits =
    typeof bitsText === 'string' && /^[0-9a-f]{1,8}$/i.test(bitsText)
      ? Number.parseInt(bitsText, 16)
      : Number.isInteger(bitsText) &&
          (bitsText as number) >= 0 &&
          (bitsText as number) <= 0xffffffff
        ? (bitsText as number)
        : undefined
  if (bits === undefined) throw fault('bits')
  // The genesis block has no previous block.
  const previous =
    height === 0 && (a.previousblockhash === undefined || a.previousblockhash === '')
      ? '00'.repeat(32)
      : a.previousblockhash
  const confirmations = a.confirmations
  return {
    header: {
      height: height as number,
      hash: hash('hash'),
      version: version as number,
      previousHash: hash('previousblockhash', previous),
      merkleRoot: hash('merkleroot'),
      time: uint32('time'),
      bits,
      nonce: uint32('nonce'),
    },
    confirmations:
      typeof confirmations === 'number' && Number.isFinite(confirmations) ? confirmations : null,
  }
}

/**
 * The chain's tip and its blocks: /chain/info, /block/height/{height} (a block's time, and its
 * header by height) and /block/{hash}/header (a header by hash). Headers are cached by hash, and
 * by height once their block has SETTLED_CONFIRMATIONS.
 */
export function blockMethods({
  request,
  lookup,
}: RequestContext): Pick<ChainSource, 'getTipHeight' | 'getBlockTime'> &
  Required<Pick<ChainSource, 'getBlockHeader'>> {
  const blockTimes = new Map<number, Date>()
  const headersByHash = new Map<string, BlockHeader>()
  const headersByHeight = new Map<number, BlockHeader>()
  return {
    async getTipHeight() {
      const info = (await request('/chain/info', { as: 'json' })) as { blocks?: unknown }
      if (typeof info?.blocks !== 'number')
        throw new ChainSourceError('WhatsOnChain chain/info: no block height')
      return info.blocks
    },
    async getBlockTime(height) {
      if (!Number.isSafeInteger(height) || height < 0)
        throw new ChainSourceError(`Not a block height: ${height}`)
      const cached = blockTimes.get(height)
      if (cached) return cached
      const header = (await lookup(`/block/height/${height}`, { as: 'json' })) as
        { time?: unknown } | undefined
      if (header === undefined)
        throw new ChainSourceError(`WhatsOnChain block ${height}: not found`, 404)
      if (typeof header?.time !== 'number' || !Number.isFinite(header.time))
        throw new ChainSourceError(`WhatsOnChain block ${height}: no time`)
      const time = new Date(header.time * 1000)
      if (blockTimes.size >= BLOCK_TIME_ENTRIES) blockTimes.delete(blockTimes.keys().next().value!)
      blockTimes.set(height, time)
      return time
    },
    async getBlockHeader(at) {
      const byHeight = typeof at === 'number'
      if (byHeight ? !Number.isSafeInteger(at) || at < 0 : typeof at !== 'string' || !HASH.test(at))
        throw new ChainSourceError(`Not a block height or hash: ${String(at)}`)
      const key = byHeight ? at : at.toLowerCase()
      const cached = byHeight ? headersByHeight.get(at) : headersByHash.get(key as string)
      if (cached) return cached
      const answer = await lookup(byHeight ? `/block/height/${at}` : `/block/${key}/header`, {
        as: 'json',
      })
      if (answer === undefined) return null
      const { header, confirmations } = readHeader(answer, String(key))
      if (byHeight ? header.height !== at : header.hash !== key)
        throw new ChainSourceError(
          `WhatsOnChain block ${String(key)}: the answer is block ${header.height} (${header.hash})`,
        )
      remember(headersByHash, header.hash, header, HEADER_ENTRIES)
      if (confirmations !== null && confirmations >= SETTLED_CONFIRMATIONS)
        remember(headersByHeight, header.height, header, HEADER_ENTRIES)
      return header
    },
  }
}

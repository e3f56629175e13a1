import type { ChainSource } from '../types'
import { ChainSourceError } from '../types'
import type { RequestContext } from './http'

/** Block times kept in memory (a mined block's time never changes). */
const BLOCK_TIME_ENTRIES = 20_000

/** The chain's tip and its blocks' times: /chain/info and /block/height/{height}. */
export function blockMethods({
  request,
  lookup,
}: RequestContext): Pick<ChainSource, 'getTipHeight' | 'getBlockTime'> {
  const blockTimes = new Map<number, Date>()
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
  }
}

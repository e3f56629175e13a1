/**
 * @shop/chain: the BSV chain as the shop sees it. No database and no shop settings: callers
 * pass what they need.
 */
export * from './types'
export { createWhatsOnChainClient } from './whatsonchain'
export * from './addresses'
export { xpubProblem } from './xpub'
export * from './rates'
export { connectChainFeed, feedUrl, parseFeedMessage, verifiedHex, FEED_CHANNELS } from './feed'
export type { ChainFeed, ChainFeedOptions, PushedTransaction } from './feed'

/**
 * @shop/chain: the BSV chain as the shop sees it. No database and no shop settings: callers
 * pass what they need.
 */
export * from './types'
export { createWhatsOnChainClient } from './whatsonchain'
export type { WhatsOnChainOptions } from './whatsonchain'
export {
  blockHashOf,
  headerProblem,
  meetsTarget,
  serializeHeader,
  targetOfBits,
  verifyMerkleProof,
} from './proof'
export type { NamedBlock, ProofCheck } from './proof'
export { merklePathFromTsc, merkleRootOf } from './merkle'
export {
  createArcClient,
  ARC_TX_STATES,
  stateOfTxStatus,
  readArcCallbacks,
  UnreadableCallback,
} from './arc'
export type { ArcCallback, ArcCallbackRegistration, ArcClient, ArcOptions } from './arc'
export * from './addresses'
export { xpubProblem } from './xpub'
export * from './rates'
export {
  connectChainFeed,
  feedUrl,
  isDisconnect,
  parseFeedMessage,
  verifiedHex,
  FEED_CHANNELS,
  FEED_MAX_PAYLOAD_BYTES,
  PushMessageTooLargeError,
} from './feed'
export type { ChainFeed, ChainFeedOptions, PushedTransaction } from './feed'
export { createChainSource, withoutQuery, CHAIN_SOURCE_KINDS } from './source'
export type {
  ArcSettings,
  ChainFeedHandlers,
  ChainSourceAdapter,
  ChainSourceDescription,
  ChainSourceKind,
  ChainSourceSettings,
} from './source'

/** Test mode only: a local chain that speaks WhatsOnChain's API, and a wallet that pays from it. */
export { startChainSimulator } from './server'
export type { ChainSimulator } from './server'
export * from './wallet'

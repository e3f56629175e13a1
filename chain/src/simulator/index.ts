/**
 * Test mode only: a local chain that speaks WhatsOnChain's API (and ARC's, under /arc), and a
 * wallet that pays from it.
 */
export { startChainSimulator, HISTORY_ERROR } from './server'
export type {
  ApiRequestRecord,
  ArcLimits,
  ChainSimulator,
  SentCallback,
  SimulatorFaults,
  SimulatorLimits,
  SimulatorPages,
} from './server'
export * from './wallet'

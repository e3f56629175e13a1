import type { ArcLimits, ArcStandIn } from './arc'
import { createArcCallbacker, createArcStandIn } from './arc'
import type { ChainState } from './chain-state'
import { createChainState } from './chain-state'
import type { RequestLog } from './http'
import { createRequestLog } from './http'
import type { PushServer } from './push'
import type { RateGate, SimulatorLimits } from './rate-limit'
import { createRateGate } from './rate-limit'
import type { SimulatorPages } from './routes/addresses'
import { pageSettings } from './routes/addresses'
import type { Faults } from './routes/faults'
import { createFaults } from './routes/faults'

/** What the simulator's routes share: the chain, its settings, faults, limits and switches. */
export type SimulatorContext = {
  network: 'main' | 'test'
  /** Where the WhatsOnChain API is served: /v1/bsv/{network}. */
  prefix: string
  state: ChainState
  pages: ReturnType<typeof pageSettings>
  faults: Faults
  gate: RateGate
  log: RequestLog
  /** Every fault off, and the Retry-After of the last 429 lifted (WhatsOnChain's and ARC's). */
  clearFaults: () => void
  /** While on, the WhatsOnChain API answers 503 to everything. */
  outage: boolean
  /** The push stream, started once the server listens. */
  push?: PushServer
  /** The ARC stand-in, under /arc. */
  arc: ArcStandIn
}

export function createSimulatorContext({
  network,
  stateFile,
  limits,
  pages,
  arc,
}: {
  network: 'main' | 'test'
  stateFile?: string
  limits: SimulatorLimits
  pages: SimulatorPages
  arc: { apiKey?: string; limits?: ArcLimits; callbackPauseMs?: number }
}): SimulatorContext {
  const state = createChainState({ network, file: stateFile })
  const faults = createFaults()
  const gate = createRateGate(limits, faults.takeBurst)
  const arcStandIn = createArcStandIn({
    state,
    faults,
    apiKey: arc.apiKey,
    limits: arc.limits,
    callbacker: createArcCallbacker({ pauseMs: arc.callbackPauseMs }),
  })
  return {
    network,
    prefix: `/v1/bsv/${network}`,
    state,
    pages: pageSettings(pages),
    faults,
    gate,
    log: createRequestLog(),
    clearFaults: () => {
      faults.clear()
      gate.lift()
      arcStandIn.lift()
    },
    outage: false,
    arc: arcStandIn,
  }
}

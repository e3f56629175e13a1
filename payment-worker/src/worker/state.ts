import type { Payload } from 'payload'

import type { BlockHeader, ChainSource, TransactionReport, TransactionSource } from '@shop/chain'
import type { Env } from '@shop/cms/process'

import type { LeaseHolder } from '../lease'
import { mempoolFrameLog } from '../watch/stream'
import type { Watched, WatchSettings } from '../watch/watched'

/** What the worker holds in memory between passes, shared by its modules as one object. */

export type WorkerSettings = Pick<
  Env,
  | 'confirmationsRequired'
  | 'monitoringWindowHours'
  | 'lateWatchDays'
  | 'filesDir'
  | 'mediaDir'
  | 'documentsDir'
  | 'storage'
  | 'downloadTokenTtlHours'
  | 'downloadMaxUses'
  | 'publicUrl'
  | 'workerFastPollMs'
  | 'workerSlowPollMs'
  | 'paymentGraceSeconds'
  | 'paymentMissingMinutes'
  | 'webhook'
  | 'ownerEmail'
  | 'chainAlertMinutes'
  | 'chainSource'
  | 'wocApiUrl'
  | 'emailDelivery'
  | 'bsvXpub'
  | 'bsvNetwork'
>

export type Log = Pick<Payload['logger'], 'info' | 'warn' | 'error' | 'debug'>

/** A payment followed on the second source until its merkle proof is verified (follow.ts). */
export type FollowedPayment = {
  txid: string
  orderId: string
  /** The raw transaction, when in hand (submitted to the second source so it follows it). */
  hex?: string
  /** The outputs it spends ("txid:vout"): a pushed transaction spending one competes with it. */
  spends: string[]
  /** When the worker began to follow it: the schedule of asks counts from here. */
  since: number
  asks: number
  nextAt: number
  submitted: boolean
  /** Asks made because a block came, once the schedule is spent. */
  blockAsks: number
  /** The highest block the worker knew of at its last ask. */
  tipAtAsk: number
  /** The second source's own word at the last ask that was recorded on the payment. */
  recordedStatus: string | null
  doubted: boolean
  /** The next ask was brought forward by a callback: it goes ahead of the routine asks. */
  urgent?: boolean
}

/** Two sources' words on one transaction that do not agree, for the owner's chain-health card. */
export type Disagreement = { txid: string; at: string; whatsonchain: string; arc: string }

/** What the worker is given: the database, the chain, its settings and its clock. */
export type WorkerDeps = {
  payload: Payload
  chain: ChainSource
  settings: WorkerSettings
  logger: Log
  /**
   * The worker's clock, for its schedule and for the moment a look begins. Tests move it to
   * see what happens hours or days later; payments are still judged by the chain's times.
   */
  clock: () => number
  /**
   * The second, independent source that follows each payment by its txid (ARC): asked on a
   * short schedule for double-spends and for its merkle path (follow.ts); none: off.
   */
  txSource?: TransactionSource
  /** Runs passes only while it holds this lease (lease.ts); without one, always. */
  lease?: LeaseHolder
  /** Called after each successful pass, or lease check while standing by (heartbeat.ts). */
  onHeartbeat?: (role: 'active' | 'standby') => void
}

/**
 * A pushed transaction paying a watched order, with when the stream carried it (the moment it
 * is judged on time or late by, as a look's start).
 */
export type PushedPayment = { w: Watched; txid: string; hex?: string; at: number }

export type WorkerContext = WorkerDeps & {
  /** PAYMENT_GRACE_SECONDS in milliseconds. */
  graceMs: number
  watchSettings: WatchSettings
  /** The chain calls one pass may make (the chain source's requests a second over a fast poll). */
  callsPerPass: number
  /** How often the chain's tip is read. */
  tipPollMs: number

  /** The watched orders by id. */
  watch: Map<string, Watched>
  /** The watched orders by payment address, for what the push stream says. */
  byAddress: Map<string, Watched>
  /**
   * Orders whose judgement or delivery threw: how many times in a row, and when each is tried
   * again (`retryDelayMs`). Cleared by the order's next success.
   */
  failing: Map<string, { failures: number; retryAt: number }>
  /** Addresses the chain source could not read, with how many looks in a row. */
  unreadAddresses: Map<string, number>
  list: {
    lastFullReload: number
    /** When the orders changed since the last such read were last read. */
    changesReadAt: number
    /**
     * The newest updatedAt the full reloads and the reads of changes have read: where the next
     * read of changes goes on. (Not the reads of new orders': a change made before their orders
     * would be skipped.)
     */
    newestUpdatedAt: number
    /** The newest order's createdAt the watch list has read. */
    newestCreatedAt: number
    /** When the look-back of new orders last read the orders it watches too. */
    lookBackReadAt: number
  }
  tip: {
    /** The chain's tip as last read (-1 before the first reading). */
    height: number
    /** When this worker last saw the tip change (its first reading counts as one). */
    changedAt: number
    checkedAt: number
    /** The push stream announced a block: the tip is read at the next step, whatever the time. */
    wanted: boolean
  }
  push: {
    /** Pushed transactions paying watched orders, judged at the next step of the loop. */
    queue: PushedPayment[]
    /**
     * Pushed payments to addresses not watched yet, newest last: address -> txid, when, and
     * the raw transaction until the address is looked up among the orders.
     */
    unmatched: Map<string, { txid: string; hex?: string; at: number; keptAt: number }>
    /** Addresses of unmatched pushes, looked up among the orders at the next push work. */
    toLookUp: Set<string>
    /** When unmatched addresses were last looked up. */
    lookedUpAt: number
    /** The stream is connected (it may still be deaf: `trusted` says whether it carries payments). */
    connected: boolean
    /** The mempool transactions it carried lately (watch/stream.ts). */
    frames: ReturnType<typeof mempoolFrameLog>
    /**
     * It carries mempool transactions (streamTrusted in push.ts), as of the last check: the looks
     * are fewer while it does (watched.ts).
     */
    trusted: boolean
    /** When it was last found to carry them after it did not. */
    trustedSince: number
    /** The work pushes ask for beside the loop: one at a time, again if asked meanwhile. */
    work?: Promise<void>
    again: boolean
  }
  /** The orders a look is asking the chain about and judging: pushes for them wait for it. */
  inLook: Map<Watched, number>
  /** Judgements of one order run one after the other (a look's, and a push's beside the loop). */
  judging: Map<string, Promise<void>>
  /** The jobs lane (jobs.ts): one run of the jobs queue at a time, beside the passes. */
  jobs: {
    /** The run under way, and the runs after it while asked. */
    running?: Promise<void>
    /** Those who asked for a run while one was under way: the next run is theirs. */
    next: (() => void)[]
    /** E-mails were left by the last run (its time spent): the next run starts at once. */
    mailBacklog: boolean
  }
  run: {
    passes: number
    /** More is due than the last pass could ask: the next one starts at once. */
    backlog: boolean
    /** The jobs run the last pass asked for: a pass is complete, for a test, once it has run. */
    jobsAsked?: Promise<void>
    /** Failed passes in a row. */
    failures: number
    /** The end of the last pass whose looks all succeeded while orders were watched. */
    lastLookOkAt: Date | null
    stopped: boolean
    /** Standing by while another worker holds the lease: what it knew may be stale on takeover. */
    standingBy: boolean
    /** The lease's epoch the worker's memory belongs to (a new one means read it all afresh). */
    epoch?: number
    /** Jobs a dead holder left marked running were put back since this worker took the lease. */
    orphansReleased: boolean
    timer?: NodeJS.Timeout
    running?: Promise<void>
    passWaiters: (() => void)[]
    /** Wakes a pass sleeping until its next look. */
    wakePass?: () => void
  }
  /** The payments followed on the second source (follow.ts). */
  follow: {
    payments: Map<string, FollowedPayment>
    /** Each output a followed payment spends, and that payment's txid. */
    spends: Map<string, string>
    /** The second source's latest report, by txid. */
    reports: Map<string, TransactionReport>
    disagreements: Disagreement[]
    timer?: NodeJS.Timeout
    running?: Promise<void>
    /** When the second source last answered. */
    lastAnswerAt: Date | null
    /** When the kept callbacks were last pruned (arcCallbacks.ts). */
    callbacksPrunedAt: number
  }
  /** Block headers the push stream carried, by height (proofs.ts). */
  proofs: {
    headers: Map<number, BlockHeader>
    highestHeader: number
    /** WhatsOnChain's headers by height, asked once for every proof of the block (proofs.ts). */
    wocHeaders: Map<number, { tip: number; at: number; header: Promise<BlockHeader | null> }>
  }
  /** Judges pushed payments beside the loop (push.ts). */
  askPushWork: () => void
  /** A pass now, not after the pass's sleep or the wait between passes (run.ts). */
  wake: () => void
}

/** The lease ran out during a pass (the process stalled): another worker may be running. */
export class LeaseLostError extends Error {
  constructor() {
    super('the worker lease was lost during a pass; standing by')
  }
}

/** The request budget of a chain source that does not say its own (WhatsOnChain's free one). */
const DEFAULT_REQUESTS_PER_SECOND = 3

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

export function createContext(
  deps: WorkerDeps,
  signals: Pick<WorkerContext, 'askPushWork' | 'wake'>,
): WorkerContext {
  const { settings } = deps
  const graceMs = settings.paymentGraceSeconds * 1000
  return {
    ...deps,
    ...signals,
    graceMs,
    watchSettings: { ...settings, graceMs },
    callsPerPass: Math.max(
      2,
      Math.round(
        ((deps.chain.requestsPerSecond ?? DEFAULT_REQUESTS_PER_SECOND) *
          Math.max(settings.workerFastPollMs, 1000)) /
          1000,
      ),
    ),
    tipPollMs: Math.min(settings.workerSlowPollMs, 5000),
    watch: new Map(),
    byAddress: new Map(),
    failing: new Map(),
    unreadAddresses: new Map(),
    list: {
      lastFullReload: 0,
      changesReadAt: 0,
      newestCreatedAt: 0,
      newestUpdatedAt: 0,
      lookBackReadAt: 0,
    },
    tip: { height: -1, changedAt: Number.POSITIVE_INFINITY, checkedAt: 0, wanted: false },
    push: {
      queue: [],
      unmatched: new Map(),
      toLookUp: new Set(),
      lookedUpAt: Number.NEGATIVE_INFINITY,
      connected: false,
      frames: mempoolFrameLog(),
      trusted: false,
      trustedSince: Number.POSITIVE_INFINITY,
      again: false,
    },
    inLook: new Map(),
    judging: new Map(),
    follow: {
      payments: new Map(),
      spends: new Map(),
      reports: new Map(),
      disagreements: [],
      lastAnswerAt: null,
      callbacksPrunedAt: Number.NEGATIVE_INFINITY,
    },
    proofs: { headers: new Map(), highestHeader: -1, wocHeaders: new Map() },
    jobs: { next: [], mailBacklog: false },
    run: {
      passes: 0,
      backlog: false,
      failures: 0,
      lastLookOkAt: null,
      stopped: false,
      standingBy: false,
      orphansReleased: false,
      passWaiters: [],
    },
  }
}

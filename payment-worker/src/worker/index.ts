import type { BlockHeader, PushedTransaction } from '@shop/chain'

import { askPushWork, onPushConnected, onPushedBlock, onPushedTransaction } from './push'
import { passNow, runOnce, wake } from './run'
import type { WorkerContext, WorkerDeps } from './state'
import { createContext } from './state'

/**
 * The payment worker: what to watch is a query (watch/query.ts) read into memory
 * (worker/watchList.ts: all watched orders reloaded every minute, new ones picked up every
 * pass), the calls of a pass a pure plan (watch/plan.ts) run one call at a time
 * (worker/calls.ts), each call a look at a batch of addresses (worker/look.ts) whose findings
 * are judged order by order (worker/judge.ts: payments recorded, status settled, the delivery
 * a change to PAID queued run at once), and the jobs queue run beside the passes, asked at the
 * end of every pass and by every change to PAID (worker/jobs.ts). It spends a budget of chain
 * calls per pass, so it never asks WhatsOnChain more than WOC_MAX_REQUESTS_PER_SECOND (3
 * without a key) however many orders are open:
 * - fresh orders (awaiting payment, created in the last 15 minutes) first, every
 *   WORKER_FAST_POLL_MS for their first two minutes and less often as they age
 *   (watch/watched.ts), with one mempool-only call per 20 addresses (a payment shows up there
 *   first; a call's spare room takes fresh orders due soon);
 * - every new block triggers a full look (confirmed and unconfirmed) at the fresh orders, at
 *   those with money on the way and at those seen only in the mempool since (worker/tip.ts); a
 *   newly seen order's first look is a full one too, unless it is younger than the last block
 *   the worker saw (a block since then triggers one anyway);
 * - older, expired, cancelled and already paid orders (late, extra or repeated payments) with
 *   intervals growing with their age (watch/interval.ts: minutes on the first day, then half
 *   an hour, then three hours), from a reserved share of the budget, for LATE_WATCH_DAYS after
 *   their expiry. Money sent to a paid order's address is recorded on it and flagged; the
 *   order's status is never moved back;
 * - an order the owner asked to re-check from the admin (recheckRequestedAt), at once, with a
 *   full look, however old;
 * - what the push stream says is judged at once beside the loop (worker/push.ts); while it is
 *   connected, the looks above are fewer (watch/watched.ts: every 5 minutes for a fresh order,
 *   6 times less often for older ones), since it carries every payment and block first.
 * It queues each new order's "order created" e-mail, records payments, settles statuses, and
 * runs the jobs the shop queued (deliveries of paid orders, e-mails, webhooks); it never
 * delivers an order by itself. A failing chain source is retried with exponential backoff
 * (worker/run.ts); nothing is lost because every decision is re-derived from the database on
 * the next look. One order whose judgement throws is logged, shown to the owner as needing
 * attention and tried again on its own with a growing delay (worker/attention.ts), while the
 * pass goes on with the others; a delivery that fails is retried by its job.
 */

export type { WorkerSettings } from './state'

export type PaymentWorker = {
  /** One pass over the due orders, and the jobs run it asks for (exposed for tests). */
  runOnce: () => Promise<void>
  /**
   * What the chain's push stream said (chain/src/feed.ts): a transaction paying a watched
   * address is judged at once, without waiting for its order's next look (an order not read
   * yet is looked up by its address); a new block asks for the tip at once. Hints only: the
   * looks go on, fewer while the stream is connected.
   */
  pushed: {
    transaction: (tx: PushedTransaction) => void
    block: (height: number, header?: BlockHeader) => void
    /**
     * The stream connected or dropped: while it is connected the looks are fewer (it carries
     * what they would find first); when it drops, the polling schedule comes back at once.
     */
    connected: (connected: boolean) => void
  }
  stop: () => Promise<void>
  /** Resolves after the next complete pass and the jobs run it asked for. */
  nextPass: () => Promise<void>
}

export function startPaymentWorker({
  autoStart = true,
  clock = Date.now,
  ...deps
}: Omit<WorkerDeps, 'clock'> & {
  autoStart?: boolean
  /**
   * The worker's clock, for its schedule and for the moment a look begins. Tests move it to
   * see what happens hours or days later; payments are still judged by the chain's times.
   */
  clock?: () => number
}): PaymentWorker {
  const ctx: WorkerContext = createContext(
    { ...deps, clock },
    { askPushWork: () => askPushWork(ctx), wake: () => wake(ctx) },
  )
  const { run } = ctx
  if (autoStart) passNow(ctx)
  return {
    runOnce: () => {
      const once = () => runOnce(ctx).then(() => run.jobsAsked)
      return run.running ? run.running.then(once) : once()
    },
    pushed: {
      transaction: (tx) => onPushedTransaction(ctx, tx),
      block: (height, header) => onPushedBlock(ctx, height, header),
      connected: (connected) => onPushConnected(ctx, connected),
    },
    nextPass: () => new Promise<void>((resolve) => run.passWaiters.push(resolve)),
    async stop() {
      run.stopped = true
      clearTimeout(run.timer)
      await run.running
      await ctx.jobs.running
      await ctx.lease?.release()
    },
  }
}

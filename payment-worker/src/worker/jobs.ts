import { asOneWorkUnit, releaseOrphanedJobs, runDueJobs } from '@shop/cms/engine'

import type { WorkerContext } from './state'

/**
 * The jobs runner: Payload's jobs queue (e-mails, webhooks, with its retries), run by the lease
 * holder at the end of every pass, whatever its looks did.
 */

/** Jobs a stopped worker left marked running are put back once this worker holds the lease. */
export async function releaseOrphans(ctx: WorkerContext) {
  if (ctx.run.orphansReleased) return
  const released = await asOneWorkUnit(() => releaseOrphanedJobs(ctx.payload))
  if (released > 0) ctx.logger.warn({ released }, 'jobs left running by a stopped worker requeued')
  ctx.run.orphansReleased = true
}

/**
 * The due jobs: e-mails (unless turned off on purpose: they wait in the outbox, never marked
 * sent) and webhooks.
 */
export async function runJobs(ctx: WorkerContext) {
  await runDueJobs(ctx.payload, { email: ctx.settings.emailDelivery !== 'off' })
}

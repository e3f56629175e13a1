import type { JobsConfig, Payload, TaskConfig } from 'payload'

import { nobody } from '../access/nobody'
import { isAdmin } from '../access/isAdmin'
import type { Env } from '../config/env'
import { shopInfoOf } from '../operations/email/renderOrderEmail'
import { sendOutboxEmail } from '../operations/email/sendOutboxEmail'
import { deliverWebhook } from '../operations/webhooks/webhooks'
import { EMAIL_RETRIES, JOB_QUEUES, TASKS, WEBHOOK_RETRIES } from './queues'

type JobLog = { log?: { taskSlug: string; state: string }[] | null }

/**
 * This try is the task's last: Payload gives up when the failed tries before it, counted in the
 * job's log, reach `attempts`.
 */
const isLastTry = (job: JobLog, slug: string, retries: number) =>
  (job.log ?? []).filter((entry) => entry.taskSlug === slug && entry.state === 'failed').length >=
  retries

/**
 * The background work of the shop as jobs on Payload's queue: each outbox row (an e-mail, a
 * webhook delivery) queues its job in the same transaction that inserts it (the collections'
 * afterChange hooks), and the payment worker that holds the lease runs the due ones every pass
 * (`runDueJobs`). Retries and backoff are Payload's; only the lease holder runs jobs, so a job
 * never runs in two processes at once (decision 011). Nobody runs or queues jobs over HTTP.
 */
export function shopJobs(env: Env): JobsConfig {
  const sendEmail: TaskConfig<{ input: { outboxId: string }; output: { sent: boolean } }> = {
    slug: TASKS.sendEmail,
    inputSchema: [{ name: 'outboxId', type: 'text', required: true }],
    outputSchema: [{ name: 'sent', type: 'checkbox' }],
    retries: {
      attempts: EMAIL_RETRIES,
      backoff: { type: 'exponential', delay: env.emailRetryBaseMs },
    },
    handler: async ({ input, job, req }) => ({
      output: await sendOutboxEmail({
        req,
        outboxId: input.outboxId,
        shop: shopInfoOf(env),
        chain: env,
        logToConsole: env.emailDelivery === 'log',
        lastAttempt: isLastTry(job as JobLog, TASKS.sendEmail, EMAIL_RETRIES),
      }),
    }),
  }
  const deliverWebhookTask: TaskConfig<{
    input: { deliveryRowId: string }
    output: { sent: boolean }
  }> = {
    slug: TASKS.deliverWebhook,
    inputSchema: [{ name: 'deliveryRowId', type: 'text', required: true }],
    outputSchema: [{ name: 'sent', type: 'checkbox' }],
    retries: {
      attempts: WEBHOOK_RETRIES,
      backoff: { type: 'exponential', delay: env.webhookRetryBaseMs },
    },
    handler: async ({ input, job, req }) => ({
      output: await deliverWebhook({
        req,
        deliveryRowId: input.deliveryRowId,
        webhook: env.webhook,
        lastAttempt: isLastTry(job as JobLog, TASKS.deliverWebhook, WEBHOOK_RETRIES),
      }),
    }),
  }
  return {
    tasks: [sendEmail, deliverWebhookTask],
    // Only the payment worker holding the lease runs jobs (Local API): Payload's
    // /cms/api/payload-jobs/run would otherwise let any signed-in editor run them in a web
    // process, beside the worker.
    access: { run: () => false, queue: () => false, cancel: () => false },
    // Completed jobs go; the outbox rows keep what was sent. Failed ones stay for the owner.
    deleteJobOnComplete: true,
    jobsCollectionOverrides: ({ defaultJobsCollection }) => ({
      ...defaultJobsCollection,
      lockDocuments: false,
      admin: { ...defaultJobsCollection.admin, group: 'Shop', hidden: false },
      access: { read: isAdmin, create: nobody, update: nobody, delete: nobody },
    }),
  }
}

/** Runs the due jobs of the shop's queues (the payment worker, every pass, while it holds the lease). */
export async function runDueJobs(
  payload: Payload,
  { email, limit = 20 }: { email: boolean; limit?: number },
): Promise<void> {
  if (email) await payload.jobs.run({ queue: JOB_QUEUES.email, limit, silent: { info: true } })
  await payload.jobs.run({ queue: JOB_QUEUES.webhooks, limit, silent: { info: true } })
}

/**
 * Jobs left `processing` by a worker that died mid-job. Only the lease holder runs jobs, so at
 * the moment a worker takes the lease no job is really running: the ones marked so go back to
 * the queue (a message the dead worker had just sent is not sent twice: its row says sent).
 */
export async function releaseOrphanedJobs(payload: Payload): Promise<number> {
  const released = await payload.update({
    collection: 'payload-jobs',
    where: { processing: { equals: true } },
    data: { processing: false },
    depth: 0,
    overrideAccess: true,
  })
  return released.docs.length
}

import type { JobsConfig, Payload, TaskConfig } from 'payload'

import { nobody } from '../access/nobody'
import { isAdmin } from '../access/isAdmin'
import type { Env } from '../config/env'
import { shopInfoOf } from '../email/renderOrderEmail'
import { sendOutboxEmail } from '../email/sendOutboxEmail'
import { sendTogether } from '../email/sendTogether'
import { deliverTogether } from '../operations/fulfilment/deliverTogether'
import type { FulfilmentSettings } from '../operations/fulfilment/fulfilmentJob'
import { deliverPaidOrder } from '../operations/fulfilment/fulfilmentJob'
import { resendDownloadLinksTo } from '../operations/fulfilment/newDownloadLinks'
import { deliverWebhook } from '../operations/webhooks/webhooks'
import {
  EMAIL_RETRIES,
  FULFILMENT_RETRIES,
  FULFILMENT_RETRY_BASE_MS,
  JOB_QUEUES,
  LINK_RESEND_RETRIES,
  TASKS,
  WEBHOOK_RETRIES,
} from './queues'

type JobLog = { log?: { taskSlug: string; state: string }[] | null }

/**
 * This try is the task's last: Payload gives up when the failed tries before it, counted in the
 * job's log, reach `attempts`.
 */
const isLastTry = (job: JobLog, slug: string, retries: number) =>
  (job.log ?? []).filter((entry) => entry.taskSlug === slug && entry.state === 'failed').length >=
  retries

/**
 * The background work of the shop as jobs on Payload's queue: the delivery of a paid order,
 * queued by the Orders seam with the change to PAID, a buyer's request for new download links,
 * and each outbox row (an e-mail, a webhook
 * delivery), whose job is queued in the same transaction that inserts it (the collections'
 * afterChange hooks). The payment worker that holds the lease runs the due ones in its jobs
 * lane, beside its passes (`runDueJobs` runs them the same way). Retries and backoff are
 * Payload's; only the lease holder runs jobs, so a job never runs in two processes at once
 * (decision 011). Nobody runs or queues jobs over HTTP.
 */
export function shopJobs(env: Env): JobsConfig {
  const fulfilOrder: TaskConfig<{ input: { orderId: string }; output: { status: string | null } }> =
    {
      slug: TASKS.fulfilOrder,
      inputSchema: [{ name: 'orderId', type: 'text', required: true }],
      outputSchema: [{ name: 'status', type: 'text' }],
      retries: {
        attempts: FULFILMENT_RETRIES,
        backoff: { type: 'exponential', delay: FULFILMENT_RETRY_BASE_MS },
      },
      handler: async ({ input, job, req }) => ({
        output: await deliverPaidOrder({
          payload: req.payload,
          orderId: input.orderId,
          settings: env,
          lastAttempt: isLastTry(job as JobLog, TASKS.fulfilOrder, FULFILMENT_RETRIES),
        }),
      }),
    }
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
  // A buyer's request for new download links (POST /api/orders/resend-links): the lookup of the
  // address's paid PDF orders and the new tokens happen here, off the request, so its answer
  // cannot tell whether the address bought anything. It runs on the e-mail queue: with e-mail
  // off, the links would wait in the outbox anyway.
  const resendDownloadLinks: TaskConfig<{
    input: { email: string }
    output: { links: number }
  }> = {
    slug: TASKS.resendDownloadLinks,
    inputSchema: [{ name: 'email', type: 'email', required: true }],
    outputSchema: [{ name: 'links', type: 'number' }],
    retries: { attempts: LINK_RESEND_RETRIES, backoff: { type: 'exponential', delay: 2000 } },
    handler: async ({ input, req }) => ({
      output: {
        links: await resendDownloadLinksTo({
          payload: req.payload,
          email: input.email,
          settings: env,
        }),
      },
    }),
  }
  return {
    tasks: [fulfilOrder, sendEmail, deliverWebhookTask, resendDownloadLinks],
    // Only the payment worker holding the lease runs jobs (Local API): Payload's
    // /cms/api/payload-jobs/run would otherwise let any signed-in editor run them in a web
    // process, beside the worker.
    access: { run: () => false, queue: () => false, cancel: () => false },
    // Completed jobs go; the outbox rows keep what was sent, the orders what was delivered.
    // Failed ones stay for the owner.
    deleteJobOnComplete: true,
    jobsCollectionOverrides: ({ defaultJobsCollection }) => ({
      ...defaultJobsCollection,
      lockDocuments: false,
      admin: { ...defaultJobsCollection.admin, group: 'Shop', hidden: false },
      access: { read: isAdmin, create: nobody, update: nobody, delete: nobody },
      // A run reads the due jobs of one queue: bounded by that queue's open jobs, not by every
      // job of every queue (cms/test/db/query-plans.test.ts).
      indexes: [
        ...(defaultJobsCollection.indexes ?? []),
        { fields: ['queue', 'completedAt', 'processing'] },
      ],
    }),
  }
}

/**
 * Runs the due deliveries of paid orders: first tries together (`deliverTogether`, a few
 * transactions for a rush), then whatever is left one after the other through Payload's runner,
 * with its retries.
 */
export async function runFulfilmentJobs(
  payload: Payload,
  {
    limit = 20,
    settings,
    mayGoOn,
  }: { limit?: number; settings?: FulfilmentSettings; mayGoOn?: () => Promise<boolean> } = {},
): Promise<void> {
  await deliverTogether({ payload, settings: settings ?? (await processSettings()), mayGoOn })
  await payload.jobs.run({
    queue: JOB_QUEUES.fulfilment,
    limit,
    sequential: true,
    silent: { info: true },
  })
}

/**
 * Runs the due e-mails (unless `email` is false: they wait), first tries together and paid mail
 * first (`sendTogether`), the retries through Payload's runner; then the webhook deliveries.
 * When first tries are left (the run's time was spent), the runner waits for the next run: it
 * would take them one by one in its own order, "order created" before paid mail. Answers whether
 * e-mails are left for a next run at once.
 */
export async function runMessageJobs(
  payload: Payload,
  {
    email,
    limit = 20,
    mayGoOn,
  }: { email: boolean; limit?: number; mayGoOn?: () => Promise<boolean> },
): Promise<{ more: boolean }> {
  let more = false
  if (email) {
    const env = await processSettings()
    const together = await sendTogether({
      mayGoOn,
      payload,
      shop: shopInfoOf(env),
      chain: env,
      logToConsole: env.emailDelivery === 'log',
    })
    more = together.ended === 'more'
    if (!more) await payload.jobs.run({ queue: JOB_QUEUES.email, limit, silent: { info: true } })
  }
  await payload.jobs.run({ queue: JOB_QUEUES.webhooks, limit, silent: { info: true } })
  return { more }
}

/**
 * Runs the due jobs of every queue, as a run of the payment worker's jobs lane does while it
 * holds the lease: deliveries first, so the paid e-mails they queue go in the same run.
 */
export async function runDueJobs(
  payload: Payload,
  { email, limit = 20 }: { email: boolean; limit?: number },
): Promise<void> {
  await runFulfilmentJobs(payload, { limit })
  await runMessageJobs(payload, { email, limit })
}

/**
 * Jobs left `processing` by a worker that died mid-job, of every queue. Only the lease holder
 * runs jobs, so at the moment a worker takes the lease no job is really running: the ones marked
 * so go back to the queue (a message the dead worker had just sent is not sent twice: its row
 * says sent; an order it had just delivered is not delivered twice: it has fulfilledAt).
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

/**
 * The running process's settings, read when a run asks for them: this module is part of the
 * config, which is loaded before a test shop has set its own settings.
 */
const processSettings = async () => (await import('../config/runtime')).env

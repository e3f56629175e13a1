import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { runDueJobs, slugs } from '@shop/cms/engine'
import { EMAIL_RETRIES } from '@shop/cms/testing'
import type { EmailOutbox } from '@shop/cms/engine'
import { sharedShopEnv, spawnTs } from './spawn'
import type { Received } from './smtpInbox'
import { startSmtpInbox } from './smtpInbox'
import type { PaymentsHarness } from './support'
import { api, createOrder, getOrder, productIdOf, startPaymentsHarness, waitFor } from './support'

/**
 * E-mails are jobs on Payload's queue (decision 011). Each outbox row queues its job in the
 * transaction that inserts it; only the worker that holds the lease runs jobs, so two workers
 * send each message once; a job a dead worker left running is run by the next holder; the last
 * failed retry marks the message failed. The delivery of a paid order is a job too, and a paid
 * order left without one gets one from the worker's jobs step. (Webhook jobs:
 * owner-actions.test.ts; delivery jobs: cms/test/fulfilment/delivery-job.test.ts, a worker killed
 * inside one: worker-restart.test.ts; nobody runs jobs over HTTP:
 * hardening/cms-access-table.test.ts.)
 */
let failing = false
let smtp: Awaited<ReturnType<typeof startSmtpInbox>>
let inbox: Received[]
let h: PaymentsHarness
let pdfId: number
const children: ReturnType<typeof spawnTs>[] = []

beforeAll(async () => {
  smtp = await startSmtpInbox({ refusing: () => failing })
  inbox = smtp.inbox
  h = await startPaymentsHarness({
    worker: false,
    env: {
      SMTP_HOST: '127.0.0.1',
      SMTP_PORT: String(smtp.port),
      CONFIRMATIONS_REQUIRED: '0',
      MAX_OPEN_ORDERS_PER_EMAIL: '50',
      EMAILS_PER_ADDRESS_PER_HOUR: '50',
    },
  })
  pdfId = await productIdOf(h.shop.payload, 'DIGITAL')
})

afterAll(async () => {
  for (const c of children) if (c.child.exitCode === null) c.child.kill('SIGKILL')
  await h?.close()
  await smtp?.close()
})

const outboxOf = async (orderId: string) =>
  (
    await h.shop.payload.find({
      collection: slugs.emailOutbox,
      where: { order: { equals: orderId } },
      depth: 0,
    })
  ).docs as EmailOutbox[]

/** The order's "order created" message, queued by checkout with the order, and its job. */
async function queuedMessage(orderId: string) {
  const row = (
    await h.shop.payload.find({
      collection: slugs.emailOutbox,
      where: { key: { equals: `order-created:${orderId}` } },
    })
  ).docs[0]
  expect(row, 'checkout queued the message').toBeDefined()
  const job = (
    await h.shop.payload.find({
      collection: 'payload-jobs',
      where: { 'input.outboxId': { equals: String(row!.id) } },
    })
  ).docs[0]
  expect(job, 'the row queued its job').toBeDefined()
  return { row: row!, job: job! }
}

describe('e-mail jobs', () => {
  it('are sent once each while two workers share the database (one holds the lease)', async () => {
    // A lease long enough that the holder keeps it on a loaded machine: with 3 s, a CI run
    // starved the first worker past its renewal, the standby rightly took over and sent the
    // rest (each message still once), and the premise of this test (one holder) did not hold.
    // Take-over itself is the next test's and lease.test.ts's.
    const env = { ...sharedShopEnv(), LOG_LEVEL: 'info', WORKER_LEASE_SECONDS: '20' }
    const first = spawnTs('payment-worker/src/main.ts', env)
    children.push(first)
    await waitFor(async () => first.output().includes('holds the lease'), { timeoutMs: 60_000 })
    const second = spawnTs('payment-worker/src/main.ts', env)
    children.push(second)
    await waitFor(async () => second.output().includes('another payment worker holds the lease'), {
      timeoutMs: 60_000,
    })
    const orders: string[] = []
    for (let i = 0; i < 4; i++) {
      const orderId = await createOrder(h.shop, pdfId, { userEmail: `twice-${i}@example.com` })
      await api(h.shop, `/api/test-mode/orders/${orderId}/pay`, { body: {} })
      orders.push(orderId)
    }
    // Created and paid, for each order: two messages. The paid one is sent; the "order created"
    // one is sent, or skipped when its order was paid before it went. Each sent once.
    const rows = await waitFor(
      async () => {
        const all = (await Promise.all(orders.map(outboxOf))).flat()
        const done = all.every(
          (r) => r.status === 'sent' || (r.kind === 'order-created' && r.status === 'skipped'),
        )
        return all.length === 8 && done ? all : null
      },
      { timeoutMs: 60_000 },
    )
    const sentRows = rows.filter((r) => r.status === 'sent')
    expect(sentRows.filter((r) => r.kind === 'order-paid')).toHaveLength(4)
    const received = inbox.filter((m) => m.to.startsWith('twice-'))
    expect(received).toHaveLength(sentRows.length)
    expect(new Set(received.map((m) => `${m.to} ${m.subject}`)).size).toBe(sentRows.length)
    expect(second.output()).not.toContain('e-mail sent')
    for (const c of [first, second]) c.child.kill('SIGTERM')
    await Promise.all([first.exited, second.exited])
  })

  it('left running by a worker that died are run by the next worker to take the lease', async () => {
    const orderId = await createOrder(h.shop, pdfId, { userEmail: 'orphan@example.com' })
    const { row, job } = await queuedMessage(orderId)
    // As a worker killed in the middle of the job leaves it.
    await h.shop.payload.update({
      collection: 'payload-jobs',
      id: job.id,
      data: { processing: true },
    })
    await runDueJobs(h.shop.payload, { email: true })
    expect(inbox.filter((m) => m.to === 'orphan@example.com')).toHaveLength(0)

    // The in-process worker (no lease: it always holds) takes over with its first pass.
    await h.worker.runOnce()
    const sent = (await h.shop.payload.findByID({
      collection: slugs.emailOutbox,
      id: row.id,
    })) as EmailOutbox
    expect(sent.status).toBe('sent')
    expect(inbox.filter((m) => m.to === 'orphan@example.com')).toHaveLength(1)
    const left = await h.shop.payload.find({
      collection: 'payload-jobs',
      where: { id: { equals: job.id } },
    })
    expect(left.totalDocs, 'a completed job is deleted').toBe(0)
  })

  it('give up after the last retry: the message says failed, the job keeps its error', async () => {
    const orderId = await createOrder(h.shop, pdfId, { userEmail: 'never@example.com' })
    const { row, job } = await queuedMessage(orderId)
    failing = true
    try {
      await runDueJobs(h.shop.payload, { email: true })
      const once = (await h.shop.payload.findByID({
        collection: slugs.emailOutbox,
        id: row.id,
      })) as EmailOutbox
      expect(once.status).toBe('pending')
      expect(once.attempts).toBe(1)
      expect(once.lastError).toContain('Mailbox unavailable')
      const retry = await h.shop.payload.findByID({ collection: 'payload-jobs', id: job.id })
      expect(retry.hasError).toBeFalsy()
      expect(new Date(retry.waitUntil!).getTime()).toBeGreaterThan(Date.now() - 1000)

      // As if 15 more retries had failed: the next one is the last.
      const failedTry = retry.log![0]!
      await h.shop.payload.update({
        collection: 'payload-jobs',
        id: job.id,
        data: {
          totalTried: EMAIL_RETRIES,
          waitUntil: null,
          log: Array.from({ length: EMAIL_RETRIES }, () => {
            const { id: _id, ...entry } = failedTry
            return entry
          }),
        },
      })
      await runDueJobs(h.shop.payload, { email: true })
    } finally {
      failing = false
    }
    const failed = (await h.shop.payload.findByID({
      collection: slugs.emailOutbox,
      id: row.id,
    })) as EmailOutbox
    expect(failed.status).toBe('failed')
    const kept = await h.shop.payload.findByID({ collection: 'payload-jobs', id: job.id })
    expect(kept.hasError).toBe(true)
    // Given up: never run again.
    await runDueJobs(h.shop.payload, { email: true })
    expect(inbox.filter((m) => m.to === 'never@example.com')).toHaveLength(0)
  })
})

describe('delivery jobs', () => {
  it('a paid order without one (a row from before deliveries were jobs) gets one from the next pass, delivered once', async () => {
    const orderId = await createOrder(h.shop, pdfId, { userEmail: 'legacy@example.com' })
    // Made PAID without the Orders hooks: no delivery was queued with it.
    await h.shop.payload.db.updateOne({
      collection: slugs.orders,
      where: { id: { equals: orderId } },
      data: { status: 'PAID', paidAt: new Date().toISOString() },
    })
    const deliveries = async () =>
      (
        await h.shop.payload.find({
          collection: 'payload-jobs',
          where: { 'input.orderId': { equals: orderId } },
        })
      ).totalDocs
    expect(await deliveries()).toBe(0)

    // The pass's jobs step queues it (through the shop's operation) and runs it.
    await h.worker.runOnce()
    expect(await deliveries()).toBe(0)
    expect((await getOrder(h.shop.payload, orderId)).fulfilledAt).toEqual(expect.any(String))
    await h.worker.runOnce()
    const tokens = await h.shop.payload.count({
      collection: slugs.downloadTokens,
      where: { order: { equals: orderId } },
    })
    expect(tokens.totalDocs).toBe(1)
    expect((await outboxOf(orderId)).filter((m) => m.kind === 'order-paid')).toHaveLength(1)
  })
})

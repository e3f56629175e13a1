import type { Payload } from 'payload'
import { commitTransaction, createLocalReq, initTransaction, killTransaction } from 'payload'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { slugs } from '../../src/collections/slugs'
import { armFault } from '../../src/faults'
import { NO_COPY_LEFT } from '../../src/collections/Orders/hooks/applyStatusChange'
import { runDueJobs, runFulfilmentJobs } from '../../src/jobs'
import { FULFILMENT_RETRIES, JOB_QUEUES, TASKS } from '../../src/jobs/queues'
import { queueMissingFulfilments } from '../../src/operations/fulfilment/fulfilmentJob'
import type { EmailOutbox, PayloadJob } from '../../src/payload-types'
import { createOrder, getOrder, productIdOf } from '../support/shopApi'
import { refuseWrites, runSql } from '../support/sql'
import type { TestShop } from '../support/testShop'
import { startTestShop } from '../support/testShop'

/**
 * A paid order is delivered by one door: the job the Orders seam queues with the change to PAID
 * (`fulfil-order`), run by whoever runs the jobs (the payment worker holding the lease; here the
 * test, as the worker would). The job is queued in the change's own transaction, delivers once
 * however often it runs, and an order whose delivery keeps failing is shown to the owner after
 * the last try, then queued again.
 */

let shop: TestShop
let payload: Payload
let pdfId: number
let printedId: number

beforeAll(async () => {
  shop = await startTestShop()
  payload = shop.payload
  pdfId = await productIdOf(payload, 'DIGITAL')
  printedId = await productIdOf(payload, 'PHYSICAL')
})

afterAll(async () => {
  await shop?.close()
})

const deliveryJobsOf = async (orderId: string, req?: Awaited<ReturnType<typeof createLocalReq>>) =>
  (
    await payload.find({
      req,
      collection: 'payload-jobs',
      where: {
        and: [
          { taskSlug: { equals: TASKS.fulfilOrder } },
          { 'input.orderId': { equals: orderId } },
        ],
      },
      depth: 0,
      pagination: false,
    })
  ).docs as PayloadJob[]

const tokensOf = async (orderId: string) =>
  (
    await payload.count({
      collection: slugs.downloadTokens,
      where: { order: { equals: orderId } },
    })
  ).totalDocs

const paidMailsOf = async (orderId: string) =>
  (
    await payload.find({
      collection: slugs.emailOutbox,
      where: { and: [{ order: { equals: orderId } }, { kind: { equals: 'order-paid' } }] },
      depth: 0,
      pagination: false,
    })
  ).docs as EmailOutbox[]

const markPaid = (orderId: string) =>
  payload.update({ collection: slugs.orders, id: orderId, data: { status: 'PAID' }, depth: 0 })

describe('a change to PAID', () => {
  it('queues exactly one delivery and delivers nothing until the jobs run', async () => {
    const orderId = await createOrder(shop, pdfId)
    await markPaid(orderId)

    const paid = await getOrder(payload, orderId)
    expect(paid.status).toBe('PAID')
    expect(paid.fulfilledAt ?? null).toBeNull()
    expect(paid.downloadToken ?? null).toBeNull()
    expect(await tokensOf(orderId)).toBe(0)
    expect(await paidMailsOf(orderId)).toEqual([])
    const jobs = await deliveryJobsOf(orderId)
    expect(jobs).toHaveLength(1)
    expect(jobs[0]).toMatchObject({ queue: JOB_QUEUES.fulfilment, input: { orderId } })

    await runDueJobs(payload, { email: false })
    const delivered = await getOrder(payload, orderId)
    expect(delivered.status).toBe('PAID')
    expect(delivered.fulfilledAt).toEqual(expect.any(String))
    expect(delivered.downloadToken).toBeTruthy()
    expect(await tokensOf(orderId)).toBe(1)
    expect(await paidMailsOf(orderId)).toHaveLength(1)
    // Done: the job is gone, the order keeps what was delivered.
    expect(await deliveryJobsOf(orderId)).toEqual([])
  })

  it('queues its delivery in its own transaction: rolled back, it leaves no job', async () => {
    const orderId = await createOrder(shop, pdfId)
    const req = await createLocalReq({}, payload)
    await initTransaction(req)
    try {
      await payload.update({
        req,
        collection: slugs.orders,
        id: orderId,
        data: { status: 'PAID' },
        depth: 0,
      })
      // Seen inside the change, before it commits.
      expect(await deliveryJobsOf(orderId, req)).toHaveLength(1)
    } finally {
      await killTransaction(req)
    }
    expect((await getOrder(payload, orderId)).status).toBe('AWAITING_PAYMENT')
    expect(await deliveryJobsOf(orderId)).toEqual([])

    // The same change committed leaves its one job.
    const committed = await createLocalReq({}, payload)
    await initTransaction(committed)
    await payload.update({
      req: committed,
      collection: slugs.orders,
      id: orderId,
      data: { status: 'PAID' },
      depth: 0,
    })
    await commitTransaction(committed)
    expect(await deliveryJobsOf(orderId)).toHaveLength(1)
    await runDueJobs(payload, { email: false })
    expect((await getOrder(payload, orderId)).fulfilledAt).toEqual(expect.any(String))
  })

  it('refused (no copy left for an expired order) queues no delivery', async () => {
    const orderId = await createOrder(shop, printedId)
    await payload.update({
      collection: slugs.orders,
      id: orderId,
      data: { status: 'EXPIRED' },
      depth: 0,
    })
    const shelf = (await payload.findByID({ collection: slugs.products, id: printedId }))
      .currentStock
    await runSql(payload, 'UPDATE products SET current_stock = 0 WHERE id = ?', [printedId])
    try {
      await expect(markPaid(orderId)).rejects.toThrow(NO_COPY_LEFT)
    } finally {
      await runSql(payload, 'UPDATE products SET current_stock = ? WHERE id = ?', [
        shelf,
        printedId,
      ])
    }
    expect((await getOrder(payload, orderId)).status).toBe('EXPIRED')
    expect(await deliveryJobsOf(orderId)).toEqual([])
  })
})

describe('the delivery job', () => {
  it('delivers once however often it runs: one token, one paid e-mail', async () => {
    const orderId = await createOrder(shop, pdfId)
    await markPaid(orderId)
    // A second job for the same order, as a retried or duplicated queueing would leave.
    await payload.jobs.queue({
      task: TASKS.fulfilOrder,
      queue: JOB_QUEUES.fulfilment,
      input: { orderId },
    })
    expect(await deliveryJobsOf(orderId)).toHaveLength(2)
    let hooks = 0
    const disarm = armFault('before-fulfil', () => (hooks += 1))
    await runFulfilmentJobs(payload).finally(disarm)
    await runDueJobs(payload, { email: false })
    const delivered = await getOrder(payload, orderId)
    expect(delivered.fulfilledAt).toEqual(expect.any(String))
    expect(await tokensOf(orderId)).toBe(1)
    expect(await paidMailsOf(orderId)).toHaveLength(1)
    expect(await deliveryJobsOf(orderId)).toEqual([])
    // The test hook ran once: the second job found the order delivered.
    expect(hooks).toBe(1)

    // Queued again afterwards: still nothing new.
    await payload.jobs.queue({
      task: TASKS.fulfilOrder,
      queue: JOB_QUEUES.fulfilment,
      input: { orderId },
    })
    await runDueJobs(payload, { email: false })
    expect(await tokensOf(orderId)).toBe(1)
    expect(await paidMailsOf(orderId)).toHaveLength(1)
    expect((await getOrder(payload, orderId)).fulfilledAt).toBe(delivered.fulfilledAt)
  })

  it('sends a printed book to PROCESSING_DELIVERY, with one paid e-mail', async () => {
    const orderId = await createOrder(shop, printedId)
    await markPaid(orderId)
    expect((await getOrder(payload, orderId)).status).toBe('PAID')
    await runDueJobs(payload, { email: false })
    await runDueJobs(payload, { email: false })
    const delivered = await getOrder(payload, orderId)
    expect(delivered.status).toBe('PROCESSING_DELIVERY')
    expect(delivered.fulfilledAt).toEqual(expect.any(String))
    expect(await paidMailsOf(orderId)).toHaveLength(1)
    expect(await tokensOf(orderId)).toBe(0)
  })

  it('that fails is retried; its last failure shows the order to the owner, and it is queued again', async () => {
    const orderId = await createOrder(shop, pdfId)
    await markPaid(orderId)
    // The database refuses this order's download token until the trigger goes.
    const allowTokens = await refuseWrites(payload, {
      name: 'refuse_token',
      table: 'download_tokens',
      before: 'INSERT',
      when: `NEW.order_id = '${orderId}'`,
      message: 'no token for this order today',
    })
    try {
      await runDueJobs(payload, { email: false })
      const [job] = await deliveryJobsOf(orderId)
      expect(job!.hasError).toBeFalsy()
      expect(new Date(job!.waitUntil!).getTime()).toBeGreaterThan(Date.now())
      const once = await getOrder(payload, orderId)
      expect(once.fulfilledAt ?? null).toBeNull()
      // Not the last try: the owner is not bothered yet.
      expect(once.attention ?? null).toBeNull()

      // As if every retry but the last had failed: the next try is the last.
      const failedTry = job!.log![0]!
      await payload.update({
        collection: 'payload-jobs',
        id: job!.id,
        data: {
          totalTried: FULFILMENT_RETRIES,
          waitUntil: null,
          log: Array.from({ length: FULFILMENT_RETRIES }, () => {
            const { id: _id, ...entry } = failedTry
            return entry
          }),
        },
      })
      await runDueJobs(payload, { email: false })
      const shown = await getOrder(payload, orderId)
      expect(shown.status).toBe('PAID')
      expect(shown.fulfilledAt ?? null).toBeNull()
      expect(shown.attention).toMatch(
        /^Could not deliver this order: .*no token for this order today/,
      )
      expect(shown.attentionSince).toEqual(expect.any(String))
      const [given] = await deliveryJobsOf(orderId)
      expect(given!.hasError).toBe(true)

      // Never dropped: the worker's jobs step queues it again, once.
      expect(await queueMissingFulfilments({ payload })).toBeGreaterThanOrEqual(1)
      await queueMissingFulfilments({ payload })
      const jobs = await deliveryJobsOf(orderId)
      expect(jobs.map((j) => Boolean(j.hasError)).sort()).toEqual([false, true])
    } finally {
      await allowTokens()
    }
    // Repaired: the new job delivers and the owner's notice goes.
    await runDueJobs(payload, { email: false })
    const delivered = await getOrder(payload, orderId)
    expect(delivered.fulfilledAt).toEqual(expect.any(String))
    expect(delivered.attention ?? null).toBeNull()
    expect(delivered.attentionSince ?? null).toBeNull()
    expect(await tokensOf(orderId)).toBe(1)
    expect(await paidMailsOf(orderId)).toHaveLength(1)
  })

  it('is queued for a paid order that has none (a row from before deliveries were jobs)', async () => {
    const orderId = await createOrder(shop, pdfId)
    // Made PAID without the Orders hooks, as the worker's own delivery once left such rows.
    await payload.db.updateOne({
      collection: slugs.orders,
      where: { id: { equals: orderId } },
      data: { status: 'PAID', paidAt: new Date().toISOString() },
    })
    expect(await deliveryJobsOf(orderId)).toEqual([])
    expect(await queueMissingFulfilments({ payload })).toBeGreaterThanOrEqual(1)
    await queueMissingFulfilments({ payload })
    expect(await deliveryJobsOf(orderId)).toHaveLength(1)
    await runDueJobs(payload, { email: false })
    expect((await getOrder(payload, orderId)).fulfilledAt).toEqual(expect.any(String))
    expect(await tokensOf(orderId)).toBe(1)
    await queueMissingFulfilments({ payload })
    expect(await deliveryJobsOf(orderId)).toEqual([])
  })
})

import crypto from 'node:crypto'

import { isDigital } from '@shop/domain'
import type { Payload, PayloadRequest } from 'payload'
import { commitTransaction, createLocalReq, initTransaction, killTransaction } from 'payload'

import { slugs } from '../../collections/slugs'
import type { Env } from '../../config/env'
import { countRateLimitHit } from '../../db/rateLimits'
import { JOB_QUEUES, TASKS } from '../../jobs/queues'
import type { Order } from '../../payload-types'
import { createDownloadToken } from './downloadTokens'

/**
 * Fresh download links for buyers who lost theirs: asked for by e-mail address at /resend-link,
 * or sent by the owner from an order's page. Each is a new token with the usual lifetime and
 * uses (DOWNLOAD_TOKEN_TTL_HOURS, DOWNLOAD_MAX_USES); earlier tokens keep their own limits, so
 * nothing here extends a link.
 */

export type DownloadLinkSettings = Pick<Env, 'downloadTokenTtlHours' | 'downloadMaxUses'>

/** A PDF order that was paid and delivered: it has a book to download again. */
export const hasDownloadableBook = (order: Order): boolean =>
  isDigital(order.productType) && order.status === 'PAID' && Boolean(order.fulfilledAt)

/** The paid, delivered PDF orders of an address (stored lower-cased at checkout), oldest first. */
export async function paidPdfOrdersOf({
  payload,
  email,
}: {
  payload: Payload
  email: string
}): Promise<Order[]> {
  const found = await payload.find({
    collection: slugs.orders,
    where: {
      and: [
        { userEmail: { equals: email.trim().toLowerCase() } },
        { status: { equals: 'PAID' } },
        { fulfilledAt: { exists: true } },
      ],
    },
    sort: 'createdAt',
    depth: 0,
    limit: 0,
    pagination: false,
    joins: false,
  })
  return (found.docs as Order[]).filter(hasDownloadableBook)
}

/**
 * Issues a new token for each order and puts one `download-links` message to `to` in the
 * outbox, all with `req` (one transaction: either the buyer gets every new link or nothing is
 * issued). The message is rendered from the sealed tokens when the worker sends it.
 */
export async function mailNewDownloadLinks({
  payload,
  orders,
  to,
  settings,
  req,
}: {
  payload: Payload
  orders: readonly Order[]
  to: string
  settings: DownloadLinkSettings
  req: PayloadRequest
}): Promise<void> {
  const tokens = []
  for (const order of orders) {
    const token = await createDownloadToken({
      payload,
      orderId: order.id,
      productId: typeof order.product === 'object' ? order.product.id : order.product,
      ttlHours: settings.downloadTokenTtlHours,
      maxUses: settings.downloadMaxUses,
      req,
    })
    tokens.push(token.id)
  }
  await payload.create({
    req,
    collection: slugs.emailOutbox,
    depth: 0,
    select: { key: true },
    data: {
      key: `download-links:${crypto.randomUUID()}`,
      kind: 'download-links',
      order: orders.length === 1 ? orders[0]!.id : null,
      downloadTokens: tokens,
      to,
      status: 'pending',
      attempts: 0,
    },
  })
}

/** Runs `work` in a transaction of its own: committed when it returns, rolled back if it throws. */
export async function inTransaction<T>(
  payload: Payload,
  work: (req: PayloadRequest) => Promise<T>,
): Promise<T> {
  const req = await createLocalReq({}, payload)
  const ownsTransaction = await initTransaction(req)
  try {
    const result = await work(req)
    if (ownsTransaction) await commitTransaction(req)
    return result
  } catch (error) {
    await killTransaction(req)
    throw error
  }
}

/**
 * The body of the `resend-download-links` job: one message with a fresh link for every paid PDF
 * order of the address, or nothing when it has none. How many links went (0: none).
 */
export async function resendDownloadLinksTo({
  payload,
  email,
  settings,
}: {
  payload: Payload
  email: string
  settings: DownloadLinkSettings
}): Promise<number> {
  const orders = await paidPdfOrdersOf({ payload, email })
  if (orders.length === 0) return 0
  await inTransaction(payload, (req) =>
    mailNewDownloadLinks({ payload, orders, to: orders[0]!.userEmail, settings, req }),
  )
  payload.logger.info(
    { orderIds: orders.map((order) => order.id) },
    'new download links queued for a buyer who asked',
  )
  return orders.length
}

/** The hour in which an address may ask LINK_RESENDS_PER_ADDRESS_PER_HOUR times. */
const RESEND_WINDOW_MS = 3_600_000

/**
 * A buyer's request for new links (POST /api/orders/resend-links): counted against the
 * address's hourly allowance, then left to the `resend-download-links` job. The request itself
 * never reads the address's orders: it does the same two writes whether or not they exist, so
 * neither its answer nor its time tells who bought the book. The address is counted under its
 * SHA-256, so the rate-limit rows hold no readable address. True when the job was queued.
 */
export async function requestDownloadLinks({
  payload,
  email,
  perAddressPerHour,
}: {
  payload: Payload
  email: string
  /** LINK_RESENDS_PER_ADDRESS_PER_HOUR. */
  perAddressPerHour: number
}): Promise<boolean> {
  const address = email.trim().toLowerCase()
  const { hits } = await countRateLimitHit({
    payload,
    key: `link-resend-address:${crypto.createHash('sha256').update(address).digest('hex')}`,
    windowMs: RESEND_WINDOW_MS,
    delta: 1,
  })
  if (hits > perAddressPerHour) {
    payload.logger.warn('new download links not sent: this address asked enough this hour')
    return false
  }
  await payload.jobs.queue({
    task: TASKS.resendDownloadLinks,
    queue: JOB_QUEUES.email,
    input: { email: address },
  })
  return true
}

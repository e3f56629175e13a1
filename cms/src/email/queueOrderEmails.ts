import type { Payload, PayloadRequest } from 'payload'

import type { EmailKind } from '../collections/EmailOutbox'
import { CREATED_EMAILS_WINDOW_MS, orderEmailKey } from '../collections/EmailOutbox'
import { slugs } from '../collections/slugs'
import type { Order } from '../payload-types'

/** Which order a buyer e-mail is about, and the request whose transaction it belongs to. */
export type OrderEmailTarget = {
  payload: Payload
  orderId: string
  /** The request whose transaction the message belongs to (the Orders status seam's). */
  req?: PayloadRequest
}

/**
 * Puts one buyer e-mail in the outbox: at most one per order and kind (the unique key), so
 * queueing twice (a retried request, a restarted worker) sends once. Never throws: mail must
 * not block or fail an order; a failure to queue is logged.
 */
export async function queueOrderEmail({
  payload,
  orderId,
  kind,
  to,
  newOrder = false,
  req,
  createdPerAddressPerHour,
  keySuffix,
}: OrderEmailTarget & {
  kind: EmailKind
  /** At most this many "order created" e-mails to one address an hour (EMAILS_PER_ADDRESS_PER_HOUR). */
  createdPerAddressPerHour?: number
  /** The buyer's address when the caller has it (saves reading the order). */
  to?: string
  /** The order was created in this request: it cannot have a message queued yet. */
  newOrder?: boolean
  /** Several messages of one kind for one order (one alert per exception): what tells them apart. */
  keySuffix?: string
}): Promise<boolean> {
  const key = orderEmailKey(kind, orderId, keySuffix)
  try {
    if (!newOrder) {
      const existing = await payload.count({
        req,
        collection: slugs.emailOutbox,
        where: { key: { equals: key } },
      })
      if (existing.totalDocs > 0) return false
    }
    const recipient =
      to ??
      ((await payload.findByID({ req, collection: slugs.orders, id: orderId, depth: 0 })) as Order)
        .userEmail
    // Anyone can type any address at checkout: an address gets only so many "order created"
    // e-mails an hour (the paid and shipped ones always go: they follow a payment). Checkout
    // keeps the same count in its own write (db/orderCreatedEmails.ts).
    if (kind === 'order-created' && createdPerAddressPerHour !== undefined) {
      const lastHour = await payload.count({
        req,
        collection: slugs.emailOutbox,
        where: {
          and: [
            { to: { equals: recipient } },
            { kind: { equals: 'order-created' } },
            {
              createdAt: {
                greater_than: new Date(Date.now() - CREATED_EMAILS_WINDOW_MS).toISOString(),
              },
            },
          ],
        },
      })
      if (lastHour.totalDocs >= createdPerAddressPerHour) {
        payload.logger.warn(
          { orderId, kind },
          'e-mail not queued: this address had enough this hour',
        )
        return false
      }
    }
    await payload.create({
      req,
      collection: slugs.emailOutbox,
      depth: 0,
      select: { key: true },
      disableTransaction: !req,
      data: {
        key,
        kind,
        order: orderId,
        to: recipient,
        status: 'pending',
        attempts: 0,
      },
    })
    return true
  } catch (error) {
    const again = await payload
      .count({ collection: slugs.emailOutbox, where: { key: { equals: key } } })
      .catch(() => ({ totalDocs: 0 }))
    if (again.totalDocs > 0) return false
    payload.logger.error({ err: error, orderId, kind }, 'could not queue the e-mail')
    return false
  }
}

export const queueOrderPaidEmail = ({
  payload,
  orderId,
  req,
  to,
}: OrderEmailTarget & { to?: string }) =>
  queueOrderEmail({ payload, orderId, kind: 'order-paid', req, to })

import { WAITING_ORDER_STATUSES } from '@shop/domain'
import type { Payload, PayloadRequest } from 'payload'

import { isOrderEmailKind } from '../collections/EmailOutbox'
import { slugs } from '../collections/slugs'
import type { DownloadToken, EmailOutbox, Order } from '../payload-types'
import { findChainHealthRow } from '../operations/chainHealth/chainHealthRow'
import type { ChainAlertSettings } from '../operations/chainHealth/chainOutage'
import { chainOutageOf } from '../operations/chainHealth/chainOutage'
import { downloadLinkOf, downloadLinkOfToken } from '../operations/fulfilment/downloadTokens'
import type { OrderDownloadLink, ShopInfo } from './templates'
import type { RenderedEmail } from './renderOrderEmail'
import {
  renderChainOutageEmail,
  renderDownloadLinksEmail,
  renderOrderEmail,
} from './renderOrderEmail'

/** The order an outbox message is about; null for the owner's alert about the chain source. */
export const orderIdOf = (message: Pick<EmailOutbox, 'order'>): string | null =>
  message.order ? (typeof message.order === 'object' ? message.order.id : message.order) : null

/**
 * An "order created" e-mail (how to pay) whose order no longer waits for payment: paid, expired
 * or cancelled, it would ask for money the shop no longer expects, so it is not sent.
 */
export const isStale = (message: Pick<EmailOutbox, 'kind'>, order: Order | null | undefined) =>
  message.kind === 'order-created' &&
  Boolean(order) &&
  !(WAITING_ORDER_STATUSES as readonly string[]).includes(order!.status)

/** The order a message is about, read now; null for none (or gone). */
export async function orderOf(payload: Payload, message: EmailOutbox): Promise<Order | null> {
  const orderId = orderIdOf(message)
  if (!orderId || !isOrderEmailKind(message.kind)) return null
  return (await payload.findByID({
    collection: slugs.orders,
    id: orderId,
    depth: 0,
    disableErrors: true,
  })) as Order | null
}

/**
 * One message rendered (with its order when the caller read it) and handed to the mail server;
 * in test mode without SMTP it is logged for /test-mode/outbox. Throws when it cannot go.
 */
export async function sendMessage({
  payload,
  message,
  shop,
  chain,
  logToConsole,
  order,
}: {
  payload: Payload
  message: EmailOutbox
  shop: ShopInfo
  chain: ChainAlertSettings
  logToConsole: boolean
  order?: Order
}): Promise<void> {
  const orderId = orderIdOf(message)
  const email = await renderOutboxMessage({ payload, message, shop, chain, order })
  if (!email) throw new Error(`order ${orderId} not found`)
  await payload.sendEmail({
    to: message.to,
    subject: email.subject,
    text: email.text,
    html: email.html,
  })
  if (logToConsole)
    payload.logger.info(
      { orderId, kind: message.kind, to: message.to, subject: email.subject, text: email.text },
      'e-mail (test mode outbox)',
    )
}

/**
 * One outbox message as it is sent now: an order's message from the order (with a fresh download
 * link), the buyer's new download links from their tokens, the chain source alert from the chain
 * health row. Null when its order no longer exists.
 */
export async function renderOutboxMessage({
  payload,
  message,
  shop,
  chain,
  order: known,
}: {
  payload: Payload
  message: EmailOutbox
  shop: ShopInfo
  chain: ChainAlertSettings
  /** The message's order, when the caller has read it. */
  order?: Order
}): Promise<RenderedEmail | null> {
  if (message.kind === 'download-links')
    return renderDownloadLinksMessage({ payload, message, shop })
  const orderId = orderIdOf(message)
  if (!isOrderEmailKind(message.kind) || !orderId)
    return renderChainOutageEmail({
      shop,
      outage: chainOutageOf({ row: await findChainHealthRow(payload), env: chain }),
    })
  const order =
    known ??
    ((await payload.findByID({
      collection: slugs.orders,
      id: orderId,
      depth: 0,
      disableErrors: true,
    })) as Order | null)
  if (!order) return null
  const link = message.kind === 'order-paid' ? await downloadLinkOf(payload, order.id) : null
  return renderOrderEmail({
    kind: message.kind,
    order,
    shop,
    download: link && { ...link, url: `${shop.publicUrl}${link.path}` },
  })
}

/**
 * The buyer's fresh download links: each token of the message unsealed now, with its order.
 * Null when none of them can be rendered (its orders gone, or the secret changed).
 */
async function renderDownloadLinksMessage({
  payload,
  message,
  shop,
}: {
  payload: Payload
  message: EmailOutbox
  shop: ShopInfo
}): Promise<RenderedEmail | null> {
  const ids = (message.downloadTokens ?? []).map((t) => (typeof t === 'object' ? t.id : t))
  if (ids.length === 0) return null
  const tokens = await payload.find({
    collection: slugs.downloadTokens,
    where: { id: { in: ids } },
    sort: 'createdAt',
    depth: 0,
    limit: 0,
    pagination: false,
  })
  const docs = tokens.docs as DownloadToken[]
  const orders = await payload.find({
    collection: slugs.orders,
    where: { id: { in: docs.map((token) => token.order as string) } },
    depth: 0,
    limit: 0,
    pagination: false,
    joins: false,
  })
  const orderById = new Map((orders.docs as Order[]).map((order) => [order.id, order]))
  const links: OrderDownloadLink[] = []
  for (const token of docs) {
    const link = downloadLinkOfToken(payload, token)
    const order = orderById.get(token.order as string)
    if (link && order)
      links.push({ order, download: { ...link, url: `${shop.publicUrl}${link.path}` } })
  }
  return links.length > 0 ? renderDownloadLinksEmail({ shop, links }) : null
}

/**
 * Sends one outbox message: the body of the `send-email` job (jobs/sendEmail.ts), run by the
 * payment worker that holds the lease. The message is rendered now, so a download link is never
 * stored in clear. A message already sent is not sent again (a job retried after its worker died
 * between the SMTP server's answer and the job's completion). A failure is recorded on the row
 * and thrown, and Payload's queue retries the job with backoff; the last failure marks the row
 * failed. Without SMTP (test mode) nothing leaves the machine: the message is logged and shown
 * on /test-mode/outbox.
 */
export async function sendOutboxEmail({
  req,
  outboxId,
  shop,
  chain,
  logToConsole,
  lastAttempt,
}: {
  req: PayloadRequest
  outboxId: string
  shop: ShopInfo
  /** What the chain source alert says of the source. */
  chain: ChainAlertSettings
  logToConsole: boolean
  /** No retry follows a failure of this attempt. */
  lastAttempt: boolean
}): Promise<{ sent: boolean }> {
  const { payload } = req
  const message = (await payload.findByID({
    collection: slugs.emailOutbox,
    id: outboxId,
    depth: 0,
    disableErrors: true,
  })) as EmailOutbox | null
  if (!message || message.status === 'sent' || message.status === 'skipped') return { sent: false }
  const orderId = orderIdOf(message)
  const attempts = (message.attempts ?? 0) + 1
  try {
    const order = (await orderOf(payload, message)) ?? undefined
    if (isStale(message, order)) {
      await payload.update({
        collection: slugs.emailOutbox,
        id: message.id,
        depth: 0,
        data: { status: 'skipped' },
      })
      payload.logger.info(
        { orderId, kind: message.kind },
        'e-mail not sent: the order no longer waits',
      )
      return { sent: false }
    }
    await sendMessage({ payload, message, shop, chain, logToConsole, order })
    await payload.update({
      collection: slugs.emailOutbox,
      id: message.id,
      depth: 0,
      data: { status: 'sent', sentAt: new Date().toISOString(), attempts, lastError: null },
    })
    payload.logger.info({ orderId, kind: message.kind, attempts }, 'e-mail sent')
    return { sent: true }
  } catch (error) {
    const reason = String((error as Error)?.message ?? error).slice(0, 500)
    payload.logger.warn(
      { orderId, kind: message.kind, attempts, err: reason },
      lastAttempt ? 'e-mail not sent; giving up' : 'e-mail not sent; will retry',
    )
    await payload
      .update({
        collection: slugs.emailOutbox,
        id: message.id,
        depth: 0,
        data: { attempts, lastError: reason, ...(lastAttempt ? { status: 'failed' } : {}) },
      })
      .catch((err: unknown) =>
        payload.logger.error({ err, orderId }, 'could not record the e-mail failure'),
      )
    throw error
  }
}

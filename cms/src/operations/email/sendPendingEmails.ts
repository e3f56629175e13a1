import type { Payload } from 'payload'

import { slugs } from '../../collections/slugs'
import type { EmailOutbox, Order } from '../../payload-types'
import { downloadUrlOf } from '../fulfilment/downloadTokens'
import { renderOrderEmail } from './renderOrderEmail'

const MAX_BACKOFF_MS = 15 * 60_000

/** Backoff before the next attempt: 2 s, 4 s, 8 s ... capped at 15 minutes. */
export function emailRetryDelayMs(attempts: number, baseMs = 2000): number {
  return Math.min(MAX_BACKOFF_MS, baseMs * 2 ** Math.max(0, attempts - 1))
}

type Log = Pick<Payload['logger'], 'info' | 'warn' | 'error'>

/**
 * Sends the outbox's due messages (the payment worker calls this every pass). A message is
 * marked sent only after the transport accepted it; a failure schedules a retry with backoff.
 * Without SMTP (test mode) nothing leaves the machine: the message is logged and shown on the
 * test-mode outbox page (/test-mode/outbox).
 */
export async function sendPendingEmails({
  payload,
  publicUrl,
  logToConsole,
  logger = payload.logger,
  limit = 20,
  retryBaseMs,
}: {
  payload: Payload
  publicUrl: string
  logToConsole: boolean
  logger?: Log
  limit?: number
  retryBaseMs?: number
}): Promise<{ sent: number; failed: number }> {
  const now = new Date()
  const due = await payload.find({
    collection: slugs.emailOutbox,
    where: {
      and: [
        { status: { equals: 'pending' } },
        { nextAttemptAt: { less_than_equal: now.toISOString() } },
      ],
    },
    sort: 'nextAttemptAt',
    limit,
    depth: 0,
    pagination: false,
  })
  let sent = 0
  let failed = 0
  for (const message of due.docs as EmailOutbox[]) {
    const orderId = typeof message.order === 'object' ? message.order.id : message.order
    try {
      const order = (await payload.findByID({
        collection: slugs.orders,
        id: orderId,
        depth: 0,
      })) as Order
      const downloadUrl =
        message.kind === 'order-paid' ? await downloadUrlOf(payload, order.id) : null
      const email = renderOrderEmail({ kind: message.kind, order, publicUrl, downloadUrl })
      await payload.sendEmail({
        to: message.to,
        subject: email.subject,
        text: email.text,
        html: email.html,
      })
      if (logToConsole)
        logger.info(
          { orderId, kind: message.kind, to: message.to, subject: email.subject, text: email.text },
          'e-mail (test mode outbox)',
        )
      await payload.update({
        collection: slugs.emailOutbox,
        id: message.id,
        data: {
          status: 'sent',
          sentAt: new Date().toISOString(),
          attempts: message.attempts + 1,
          lastError: null,
        },
      })
      logger.info({ orderId, kind: message.kind }, 'e-mail sent')
      sent += 1
    } catch (error) {
      failed += 1
      const attempts = message.attempts + 1
      const next = new Date(Date.now() + emailRetryDelayMs(attempts, retryBaseMs))
      logger.warn(
        {
          orderId,
          kind: message.kind,
          attempts,
          retryAt: next.toISOString(),
          err: (error as Error)?.message,
        },
        'e-mail not sent; will retry',
      )
      await payload
        .update({
          collection: slugs.emailOutbox,
          id: message.id,
          data: {
            attempts,
            nextAttemptAt: next.toISOString(),
            lastError: String((error as Error)?.message ?? error).slice(0, 500),
          },
        })
        .catch((err: unknown) =>
          logger.error({ err, orderId }, 'could not record the e-mail failure'),
        )
    }
  }
  return { sent, failed }
}

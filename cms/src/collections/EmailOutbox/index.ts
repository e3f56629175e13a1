import type { CollectionConfig } from 'payload'

import { JOB_QUEUES, TASKS } from '../../jobs/queues'
import { outboxCollection, outboxOrderField } from '../outbox'
import { slugs } from '../slugs'

/** The messages about one order: the buyer's three, and the owner's two alerts about it. */
export const ORDER_EMAIL_KINDS = [
  'order-created',
  'order-paid',
  'order-shipped',
  // To the owner (OWNER_EMAIL): an order paid, and a payment to settle by hand.
  'owner-paid',
  'owner-settle',
] as const
export type OrderEmailKind = (typeof ORDER_EMAIL_KINDS)[number]

/**
 * Every message, with the owner's alert about the chain source (no order: `order` is empty) and
 * the buyer's fresh download links (one message for one or more orders: `downloadTokens`).
 */
export const EMAIL_KINDS = [...ORDER_EMAIL_KINDS, 'owner-chain-down', 'download-links'] as const
export type EmailKind = (typeof EMAIL_KINDS)[number]

export const isOrderEmailKind = (kind: EmailKind): kind is OrderEmailKind =>
  (ORDER_EMAIL_KINDS as readonly string[]).includes(kind)

/**
 * The outbox of the buyer e-mails and the owner's alerts: one row per order and kind, or per
 * chain source outage (the unique key makes queueing idempotent). Inserting a row queues its `send-email` job in the same
 * transaction; the payment worker runs it with Payload's retries, so a broken SMTP server delays
 * mail and never blocks or loses an order. The message is rendered when it is sent, so download
 * links are never stored in clear.
 */
export const EmailOutbox: CollectionConfig = outboxCollection({
  slug: slugs.emailOutbox,
  defaultColumns: ['kind', 'to', 'status', 'attempts', 'createdAt'],
  fields: [
    { name: 'kind', type: 'select', required: true, options: [...EMAIL_KINDS] },
    // Empty only for the owner's alert about the chain source, which is about no order.
    outboxOrderField(),
    { name: 'to', type: 'email', required: true },
    {
      // The fresh download links a `download-links` message carries, one per order: rendered
      // from the sealed tokens when it is sent, never stored in clear.
      name: 'downloadTokens',
      type: 'relationship',
      relationTo: slugs.downloadTokens,
      hasMany: true,
    },
  ],
  job: {
    task: TASKS.sendEmail,
    queue: JOB_QUEUES.email,
    input: (outboxId) => ({ outboxId }),
  },
})

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
 * The unique key of an order's message: one per order and kind, and per `suffix` for kinds sent
 * more than once about one order (one alert per exception).
 */
export const orderEmailKey = (kind: EmailKind, orderId: string, suffix?: string): string =>
  `${kind}:${orderId}${suffix ? `:${suffix}` : ''}`

/** The window of EMAILS_PER_ADDRESS_PER_HOUR: "order created" e-mails to one address in it. */
export const CREATED_EMAILS_WINDOW_MS = 3_600_000

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
  // The "order created" messages an address had in the last hour (EMAILS_PER_ADDRESS_PER_HOUR),
  // counted by checkout inside its write (db/orderCreatedEmails.ts) and by queueOrderEmail.
  // The admin's health card and backlog: the last message sent, and the oldest unsent message of
  // a kind, each the first of its own range rather than every message of the status sorted
  // (cms/test/db/query-plans.test.ts).
  indexes: [
    { fields: ['to', 'kind', 'createdAt'] },
    { fields: ['status', 'sentAt'] },
    { fields: ['status', 'kind', 'createdAt'] },
  ],
  job: {
    task: TASKS.sendEmail,
    queue: JOB_QUEUES.email,
    input: (outboxId) => ({ outboxId }),
  },
})

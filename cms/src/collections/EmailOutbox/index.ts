import type { CollectionConfig } from 'payload'

import { isAdmin } from '../../access/isAdmin'
import { JOB_QUEUES, TASKS } from '../../jobs/queues'
import { slugs } from '../slugs'

export const EMAIL_KINDS = [
  'order-created',
  'order-paid',
  'order-shipped',
  // To the owner (OWNER_EMAIL): an order paid, and a payment to settle by hand.
  'owner-paid',
  'owner-settle',
] as const
export type EmailKind = (typeof EMAIL_KINDS)[number]

/**
 * The outbox of the buyer e-mails and the owner's alerts: one row per order and kind (the unique
 * key makes queueing idempotent). Inserting a row queues its `send-email` job in the same
 * transaction; the payment worker runs it with Payload's retries, so a broken SMTP server delays
 * mail and never blocks or loses an order. The message is rendered when it is sent, so download
 * links are never stored in clear.
 */
export const EmailOutbox: CollectionConfig = {
  slug: slugs.emailOutbox,
  // Locks are for editors' content: a lock here would show order ids to any staff member
  // and let an editor block an admin.
  lockDocuments: false,
  admin: { group: 'Shop', defaultColumns: ['kind', 'to', 'status', 'attempts', 'createdAt'] },
  access: { read: isAdmin, create: () => false, update: () => false, delete: () => false },
  fields: [
    { name: 'key', type: 'text', required: true, unique: true },
    { name: 'kind', type: 'select', required: true, options: [...EMAIL_KINDS] },
    { name: 'order', type: 'relationship', relationTo: slugs.orders, required: true, index: true },
    { name: 'to', type: 'email', required: true },
    {
      name: 'status',
      type: 'select',
      required: true,
      defaultValue: 'pending',
      index: true,
      // failed: every retry failed (the job stays in Jobs with its errors).
      options: ['pending', 'sent', 'failed'],
    },
    { name: 'attempts', type: 'number', required: true, defaultValue: 0, min: 0 },
    { name: 'lastError', type: 'text' },
    { name: 'sentAt', type: 'date' },
  ],
  hooks: {
    afterChange: [
      async ({ doc, operation, req }) => {
        if (operation !== 'create') return doc
        await req.payload.jobs.queue({
          task: TASKS.sendEmail,
          queue: JOB_QUEUES.email,
          input: { outboxId: String(doc.id) },
          req,
        })
        return doc
      },
    ],
  },
  timestamps: true,
}

import type { CollectionConfig } from 'payload'

import { isAdmin } from '../../access/isAdmin'
import { JOB_QUEUES, TASKS } from '../../jobs/queues'
import { slugs } from '../slugs'

/** The events the shop reports to the owner's webhook (WEBHOOK_URL). */
export const WEBHOOK_EVENTS = ['OrderPaid', 'OrderNeedsSettling'] as const
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number]

/**
 * The outbox of the owner's webhook: one delivery per order, event and exception (the unique
 * key), inserted with the change that caused it. Inserting a row queues its `deliver-webhook`
 * job in the same transaction; the payment worker posts it with Payload's retries
 * (operations/webhooks/webhooks.ts). The body is fixed when queued, so a redelivery sends the
 * same bytes and the same delivery id.
 */
export const WebhookDeliveries: CollectionConfig = {
  slug: slugs.webhookDeliveries,
  lockDocuments: false,
  admin: {
    group: 'Shop',
    defaultColumns: ['event', 'status', 'attempts', 'lastStatus', 'createdAt'],
  },
  access: { read: isAdmin, create: () => false, update: () => false, delete: () => false },
  fields: [
    { name: 'key', type: 'text', required: true, unique: true },
    { name: 'deliveryId', type: 'text', required: true },
    { name: 'event', type: 'select', required: true, options: [...WEBHOOK_EVENTS] },
    { name: 'order', type: 'relationship', relationTo: slugs.orders, required: true, index: true },
    { name: 'body', type: 'textarea', required: true },
    {
      name: 'status',
      type: 'select',
      required: true,
      defaultValue: 'pending',
      index: true,
      options: ['pending', 'sent', 'failed'],
    },
    { name: 'attempts', type: 'number', required: true, defaultValue: 0, min: 0 },
    {
      name: 'lastStatus',
      type: 'number',
      admin: { description: 'The HTTP status last answered.' },
    },
    { name: 'lastError', type: 'text' },
    { name: 'sentAt', type: 'date' },
  ],
  hooks: {
    afterChange: [
      async ({ doc, operation, req }) => {
        if (operation !== 'create') return doc
        await req.payload.jobs.queue({
          task: TASKS.deliverWebhook,
          queue: JOB_QUEUES.webhooks,
          input: { deliveryRowId: String(doc.id) },
          req,
        })
        return doc
      },
    ],
  },
  timestamps: true,
}

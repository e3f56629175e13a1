import type { CollectionConfig } from 'payload'

import { isAdmin } from '../../access/isAdmin'
import { slugs } from '../slugs'

/** The events the shop reports to the owner's webhook (WEBHOOK_URL). */
export const WEBHOOK_EVENTS = ['OrderPaid', 'OrderNeedsSettling'] as const
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number]

/**
 * The outbox of the owner's webhook: one delivery per order, event and exception (the unique
 * key), inserted with the change that caused it, posted by the payment worker with retries
 * (operations/webhooks/sendPendingWebhooks.ts). The body is fixed when queued, so a redelivery
 * sends the same bytes and the same delivery id.
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
    { name: 'nextAttemptAt', type: 'date', required: true, index: true },
    {
      name: 'lastStatus',
      type: 'number',
      admin: { description: 'The HTTP status last answered.' },
    },
    { name: 'lastError', type: 'text' },
    { name: 'sentAt', type: 'date' },
  ],
  timestamps: true,
}

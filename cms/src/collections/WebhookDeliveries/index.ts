import type { CollectionConfig } from 'payload'

import { JOB_QUEUES, TASKS } from '../../jobs/queues'
import { outboxCollection, outboxOrderField } from '../outbox'
import { slugs } from '../slugs'

/** The events about one order that the shop reports to the owner's webhook (WEBHOOK_URL). */
export const ORDER_WEBHOOK_EVENTS = ['OrderPaid', 'OrderNeedsSettling'] as const
export type OrderWebhookEvent = (typeof ORDER_WEBHOOK_EVENTS)[number]

/** Every event, with the chain source's outage (about no order: `order` is empty). */
export const WEBHOOK_EVENTS = [...ORDER_WEBHOOK_EVENTS, 'ChainSourceDown'] as const
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number]

/**
 * The outbox of the owner's webhook: one delivery per order, event and exception, or per chain
 * source outage (the unique key), inserted with the change that caused it. Inserting a row queues its `deliver-webhook`
 * job in the same transaction; the payment worker posts it with Payload's retries
 * (operations/webhooks/webhooks.ts). The body is fixed when queued, so a redelivery sends the
 * same bytes and the same delivery id.
 */
export const WebhookDeliveries: CollectionConfig = outboxCollection({
  slug: slugs.webhookDeliveries,
  defaultColumns: ['event', 'status', 'attempts', 'lastStatus', 'createdAt'],
  fields: [
    { name: 'deliveryId', type: 'text', required: true },
    { name: 'event', type: 'select', required: true, options: [...WEBHOOK_EVENTS] },
    // Empty only for ChainSourceDown, which is about no order.
    outboxOrderField(),
    { name: 'body', type: 'textarea', required: true },
  ],
  attemptFields: [
    {
      name: 'lastStatus',
      type: 'number',
      admin: { description: 'The HTTP status last answered.' },
    },
  ],
  job: {
    task: TASKS.deliverWebhook,
    queue: JOB_QUEUES.webhooks,
    input: (deliveryRowId) => ({ deliveryRowId }),
  },
})

import type { CollectionConfig, Field, TypedJobs } from 'payload'

import { isAdmin } from '../access/isAdmin'
import { slugs } from './slugs'

type TaskSlug = Exclude<keyof TypedJobs['tasks'], 'inline'>
/** How Payload's `jobs.queue` spells a task slug (T itself, for any T this file accepts). */
type QueuedTask<T> = T extends keyof TypedJobs['tasks'] ? T : never

/**
 * The order a row is about, empty for a row about no order (the chain source's outage). It sits
 * among the row's own fields, where each outbox lists it; a new object each time, as Payload
 * completes every field config in place.
 */
export const outboxOrderField = (): Field => ({
  name: 'order',
  type: 'relationship',
  relationTo: slugs.orders,
  index: true,
})

/**
 * A collection that is an outbox: one row per thing to send, under a unique key that makes
 * queueing idempotent. Only the shop's operations write it; admins read it. Inserting a row
 * queues the job that sends it (`job`) in the same transaction, and that job records how the
 * sending went in the row: its status, attempts, last error and when it was sent.
 *
 * Checkout writes its "order created" rows and their jobs itself, in its own write
 * (`db/orderCreatedEmails.ts`): a change to the rows or to the job queued here changes them too
 * (`cms/test/checkout/order-row.test.ts` compares the two).
 *
 * The row's own fields come after its key (`fields`); `attemptFields` are what a failed attempt
 * answered beside its error (a webhook's HTTP status); `indexes` are the compound indexes its
 * readers need.
 */
export function outboxCollection<T extends TaskSlug>({
  slug,
  defaultColumns,
  fields,
  attemptFields = [],
  indexes,
  job,
}: {
  slug: CollectionConfig['slug']
  defaultColumns: string[]
  fields: Field[]
  attemptFields?: Field[]
  indexes?: CollectionConfig['indexes']
  job: { task: T; queue: string; input: (rowId: string) => TypedJobs['tasks'][T]['input'] }
}): CollectionConfig {
  return {
    slug,
    // Locks are for editors' content: a lock here would show order ids to any staff member
    // and let an editor block an admin.
    lockDocuments: false,
    admin: { group: 'Shop', defaultColumns },
    access: { read: isAdmin, create: () => false, update: () => false, delete: () => false },
    fields: [
      { name: 'key', type: 'text', required: true, unique: true },
      ...fields,
      {
        name: 'status',
        type: 'select',
        required: true,
        defaultValue: 'pending',
        index: true,
        // failed: every retry failed (the job stays in Jobs with its errors). skipped: not
        // sent on purpose (an "order created" e-mail whose order no longer waits for payment).
        options: ['pending', 'sent', 'failed', 'skipped'],
      },
      { name: 'attempts', type: 'number', required: true, defaultValue: 0, min: 0 },
      ...attemptFields,
      { name: 'lastError', type: 'text' },
      { name: 'sentAt', type: 'date' },
    ],
    ...(indexes ? { indexes } : {}),
    hooks: {
      afterChange: [
        async ({ doc, operation, req }) => {
          if (operation !== 'create') return doc
          await req.payload.jobs.queue({
            task: job.task as QueuedTask<T>,
            queue: job.queue,
            input: job.input(String(doc.id)),
            req,
          })
          return doc
        },
      ],
    },
    timestamps: true,
  }
}

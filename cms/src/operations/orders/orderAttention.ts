import type { Payload } from 'payload'

import { slugs } from '../../collections/slugs'

/** The owner reads the reason on the order: its first characters are enough. */
const MAX_REASON_LENGTH = 500

/**
 * What went wrong, for the owner: the messages of the error and of its causes, without the
 * database driver's wrapper (drizzle's "Failed query: ...", which holds the statement and its
 * parameters and hides the database's own reason in its cause).
 */
export function failureReason(error: unknown): string {
  const messages: string[] = []
  for (let e: unknown = error, depth = 0; e !== undefined && e !== null && depth < 5; depth += 1) {
    const message = e instanceof Error ? e.message : String(e)
    if (message && !message.startsWith('Failed query:') && !messages.includes(message))
      messages.push(message)
    e = e instanceof Error ? e.cause : undefined
  }
  return messages.join(': ') || 'unknown error'
}

/**
 * An order the payment worker could not process (judging it threw: recording its payments,
 * settling its status, delivering it) is shown to the owner as needing attention, with the
 * reason and since when, until the worker's next successful judgement of it clears it.
 *
 * Both write the two fields straight to the database (`payload.db`): no hooks, no validation,
 * no other field. A notice about an order that cannot be saved must not be refused by whatever
 * made the order fail.
 */
export async function markOrderAttention({
  payload,
  orderId,
  reason,
  at = new Date(),
}: {
  payload: Payload
  orderId: string
  reason: string
  at?: Date
}): Promise<void> {
  const current = (await payload.db.findOne({
    collection: slugs.orders,
    where: { id: { equals: orderId } },
    select: { attentionSince: true },
  })) as { attentionSince?: string | null } | null
  if (!current) return
  await payload.db.updateOne({
    collection: slugs.orders,
    id: orderId,
    data: {
      attention: reason.slice(0, MAX_REASON_LENGTH),
      // Since the first failure of a run of them.
      attentionSince: current.attentionSince ?? at.toISOString(),
    },
    returning: false,
  })
}

export async function clearOrderAttention({
  payload,
  orderId,
}: {
  payload: Payload
  orderId: string
}): Promise<void> {
  await payload.db.updateOne({
    collection: slugs.orders,
    id: orderId,
    data: { attention: null, attentionSince: null },
    returning: false,
  })
}

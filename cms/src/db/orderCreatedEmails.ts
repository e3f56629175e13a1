import type { InValue } from '@libsql/client'

import { CREATED_EMAILS_WINDOW_MS, orderEmailKey } from '../collections/EmailOutbox'
import { JOB_QUEUES, TASKS } from '../jobs/queues'

/**
 * The buyer's "order created" e-mail, queued by checkout in the write that stores the order
 * (decisions 014, 022): the outbox row (kind `order-created`, key `order-created:<orderId>`, to
 * the buyer) and its `send-email` job, in plain statements on the write's own transaction (three
 * for a group of checkouts; an order written alone on PostgreSQL grows its INSERT into one),
 * so the message commits or rolls back with its order and no later process has to notice the
 * order to queue it. The rows are the ones Payload writes through the outbox collection
 * (`collections/outbox.ts`: the row, then `payload.jobs.queue` in its afterChange hook), which
 * the other doors that create an order still use (`collections/Orders/hooks/queueCreatedEmail.ts`);
 * `cms/test/checkout/order-row.test.ts` compares the two ways' rows.
 *
 * Anyone can type any address at checkout: an address gets at most `perAddressPerHour`
 * (EMAILS_PER_ADDRESS_PER_HOUR) of these in any hour. They are counted in the same transaction
 * through the outbox's (to, kind, createdAt) index, so checkouts coming at once cannot pass the
 * limit together: SQLite has one writer, and on PostgreSQL every checkout's write holds the
 * address counter's row (taken first) until it commits. A checkout beyond the limit is stored all the
 * same; it just queues no message.
 */

const KIND = 'order-created'

/** One new order's message, with its creator's limit. */
export type CreatedEmail = {
  orderId: string
  /** The buyer's address. */
  to: string
  /** EMAILS_PER_ADDRESS_PER_HOUR. */
  perAddressPerHour: number
}

/** Where the statements run (checkout's write transaction), with `?` placeholders. */
type GroupTx = {
  execute: (stmt: {
    sql: string
    args: InValue[]
  }) => Promise<{ rows: ArrayLike<Record<string, unknown>> }>
}

const OUTBOX_COLUMNS = 'key, kind, order_id, "to", status, attempts, updated_at, created_at'
/** As Payload's `jobs.queue({ task: 'send-email', queue: 'email', input: { outboxId } })`. */
const JOB_COLUMNS =
  'input, task_slug, queue, total_tried, has_error, processing, updated_at, created_at'

const places = (count: number) => Array.from({ length: count }, () => '?').join(', ')

/** The start of the hour before `now` (an ISO time). */
const windowStart = (now: string) =>
  new Date(Date.parse(now) - CREATED_EMAILS_WINDOW_MS).toISOString()

/** The job's input and flags as each engine writes them (PostgreSQL: jsonb and booleans). */
const JOB_VALUES = {
  sqlite: "json_object('outboxId', CAST(id AS TEXT)), ?, ?, 0, 0, 0, ?, ?",
  postgres: "jsonb_build_object('outboxId', id::text), ?, ?, 0, false, false, ?, ?",
} as const

/**
 * Queues the messages of a group of new orders, in three statements whatever its size (the
 * hour's count of each address, the rows, their jobs). The orders are served in the order given:
 * for an address near its limit, the first ones get the message. Answers how many were queued.
 */
export async function queueCreatedEmails(
  tx: GroupTx,
  emails: readonly CreatedEmail[],
  now: string,
  engine: keyof typeof JOB_VALUES,
): Promise<number> {
  if (emails.length === 0) return 0
  const addresses = [...new Set(emails.map((e) => e.to))]
  const counted = await tx.execute({
    sql: `SELECT "to" AS address, count(*) AS n FROM email_outbox
          WHERE "to" IN (${places(addresses.length)}) AND kind = ? AND created_at > ?
          GROUP BY "to"`,
    args: [...addresses, KIND, windowStart(now)],
  })
  const had = new Map(Array.from(counted.rows, (row) => [String(row.address), Number(row.n)]))
  const queued = emails.filter(({ to, perAddressPerHour }) => {
    const before = had.get(to) ?? 0
    if (before >= perAddressPerHour) return false
    had.set(to, before + 1)
    return true
  })
  if (queued.length === 0) return 0
  const keys = queued.map((e) => orderEmailKey(KIND, e.orderId))
  await tx.execute({
    sql: `INSERT INTO email_outbox (${OUTBOX_COLUMNS})
          VALUES ${queued.map(() => "(?, ?, ?, ?, 'pending', 0, ?, ?)").join(', ')}`,
    args: queued.flatMap((e, i) => [keys[i]!, KIND, e.orderId, e.to, now, now]),
  })
  await tx.execute({
    sql: `INSERT INTO payload_jobs (${JOB_COLUMNS})
          SELECT ${JOB_VALUES[engine]}
          FROM email_outbox WHERE key IN (${places(keys.length)}) ORDER BY id`,
    args: [TASKS.sendEmail, JOB_QUEUES.email, now, now, ...keys],
  })
  return queued.length
}

/**
 * PostgreSQL: the statement `write` (checkout's INSERT of the order) and the new order's message
 * as one statement: the hour's count of its address, the row, its job. One round trip less while
 * the checkout holds the address counter's row, which every checkout waits for.
 */
export function withCreatedEmailPostgres(
  write: { sql: string; args: InValue[] },
  { orderId, to, perAddressPerHour }: CreatedEmail,
  now: string,
): { sql: string; args: InValue[] } {
  return {
    sql: `WITH new_order AS (${write.sql} RETURNING id), recent AS (
            SELECT count(*) AS n FROM email_outbox
            WHERE "to" = ? AND kind = ? AND created_at > ?
          ), queued AS (
            INSERT INTO email_outbox (${OUTBOX_COLUMNS})
            SELECT ?, ?, new_order.id, ?, 'pending', 0, ?, ? FROM recent, new_order WHERE n < ?
            RETURNING id
          )
          INSERT INTO payload_jobs (${JOB_COLUMNS})
          SELECT jsonb_build_object('outboxId', id::text), ?, ?, 0, false, false, ?, ?
          FROM queued`,
    args: [
      ...write.args,
      to,
      KIND,
      windowStart(now),
      orderEmailKey(KIND, orderId),
      KIND,
      to,
      now,
      now,
      perAddressPerHour,
      TASKS.sendEmail,
      JOB_QUEUES.email,
      now,
      now,
    ],
  }
}

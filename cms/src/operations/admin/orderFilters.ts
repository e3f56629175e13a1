import { ORDER_STATUSES } from '@shop/domain'
import type { OrderStatus } from '@shop/domain'
import type { Payload, Where } from 'payload'
import { z } from 'zod'

import { slugs } from '../../collections/slugs'
import { ordersHoldingLiterally } from '../../db/orderSearch'
import { NEEDS_ATTENTION_WHERE } from './needsAttention'
import { NEEDS_SETTLING_WHERE } from './needsSettling'

export const ORDER_EXCEPTIONS = [
  'late',
  'partial',
  'over',
  'invalid',
  'needs-settling',
  'attention',
] as const
export type OrderException = (typeof ORDER_EXCEPTIONS)[number]

export type OrderFilters = {
  status: OrderStatus[]
  q: string | undefined
  exception: OrderException | undefined
}

/** `status=PAID&status=SHIPPED` or `status=PAID,SHIPPED`. */
const listOf = (raw: unknown): string[] =>
  (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw])
    .flatMap((v) => String(v).split(','))
    .map((v) => v.trim())
    .filter(Boolean)

const querySchema = z.object({
  status: z.array(z.enum(ORDER_STATUSES, { error: 'Unknown order status.' })).max(20),
  q: z
    .string()
    .trim()
    .max(200, 'The search is at most 200 characters.')
    .optional()
    .transform((v) => v || undefined),
  exception: z
    .enum(ORDER_EXCEPTIONS, {
      error: `Exception must be one of ${ORDER_EXCEPTIONS.join(', ')}.`,
    })
    .optional(),
})

/** The filters of GET /api/admin/orders (and its CSV export) from the query, or the reason not. */
export function parseOrderFilters(
  query: Record<string, unknown>,
): { filters: OrderFilters } | { error: string } {
  if (Array.isArray(query.q) || Array.isArray(query.exception))
    return { error: 'Give q and exception once.' }
  const parsed = querySchema.safeParse({
    status: listOf(query.status),
    q: query.q === undefined ? undefined : String(query.q),
    exception:
      query.exception === undefined || query.exception === '' ? undefined : query.exception,
  })
  if (!parsed.success) return { error: parsed.error.issues[0]!.message }
  return { filters: { ...parsed.data, exception: parsed.data.exception } }
}

const EXCEPTION_WHERE: Record<OrderException, Where> = {
  late: { 'flags.paidLate': { equals: true } },
  partial: { 'flags.paidPartial': { equals: true } },
  over: { 'flags.paidOver': { equals: true } },
  invalid: { 'flags.paidInvalid': { equals: true } },
  'needs-settling': NEEDS_SETTLING_WHERE,
  attention: NEEDS_ATTENTION_WHERE,
}

/**
 * LIKE's own characters: the wildcards, and the backslash PostgreSQL's LIKE takes as its escape
 * by default; a search holding one is matched apart, every character as itself.
 */
const LIKE_WILDCARDS = /[%_\\]/

/**
 * The orders the filters select: by status (any of), by exception, and by a partial match of
 * the search on the order id, the buyer's e-mail, the payment address or the txid of any payment
 * the order received. Every character of the search is matched as itself. On MongoDB Payload's
 * `like` is a case-insensitive regex of each word with the regex's special characters escaped
 * (`escapeRegExp` in @payloadcms/db-mongodb): `%`, `_`, `\` and the regex's own characters are
 * literal there already, and the search goes to it unchanged.
 */
export async function orderWhere(payload: Payload, filters: OrderFilters): Promise<Where> {
  const and: Where[] = []
  if (filters.status.length > 0) and.push({ status: { in: filters.status } })
  if (filters.exception) and.push(EXCEPTION_WHERE[filters.exception])
  const literal =
    filters.q && LIKE_WILDCARDS.test(filters.q)
      ? await ordersHoldingLiterally(payload, filters.q)
      : null
  if (literal) {
    and.push({ id: { in: literal } })
  } else if (filters.q) {
    const q = filters.q
    const paid = await payload.find({
      collection: slugs.payments,
      where: { txid: { like: q } },
      select: { order: true },
      depth: 0,
      limit: 500,
      pagination: false,
    })
    const viaPayments = [
      ...new Set(
        paid.docs.map((p) => (typeof p.order === 'object' ? p.order.id : p.order) as string),
      ),
    ]
    and.push({
      or: [
        { id: { like: q } },
        { userEmail: { like: q } },
        { paymentAddress: { like: q } },
        { paymentTxid: { like: q } },
        ...(viaPayments.length > 0 ? [{ id: { in: viaPayments } }] : []),
      ],
    })
  }
  return and.length > 0 ? { and } : {}
}

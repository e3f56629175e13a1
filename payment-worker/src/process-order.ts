import { P2PKH, Transaction } from '@bsv/sdk'
import type { OrderStatus } from '@shop/domain'
import { assertTransition, deriveOrderPaymentState, PAID_ORDER_STATUSES } from '@shop/domain'
import type { Payload } from 'payload'

import { slugs } from '@shop/cms/engine'
import type { StatusChangeContext } from '@shop/cms/engine'
import type { Order, Payment } from '@shop/cms/engine'
import type { AddressTransaction } from '@shop/chain'

/**
 * One order, one pass, idempotent: records every output paying the order's address (one
 * Payment per outpoint; the unique outpoint makes a repeat a no-op), then moves the order to the
 * status its recorded payments and the clock call for, through the domain's transition table.
 * Everything it decides is derived from the database, so a crash anywhere is repaired by the
 * next pass. Fulfilment is a separate step (fulfilOrder).
 */

export type OrderSettings = {
  confirmationsRequired: number
  /** How long after its expiry an order still counts a payment as on time (propagation). */
  graceMs: number
}
type Log = Pick<Payload['logger'], 'info' | 'warn' | 'error'>

/** The outputs of a raw transaction that pay `address` (P2PKH), with exact satoshis. */
export function outputsPaying(
  txHex: string,
  address: string,
): { vout: number; satoshis: number }[] {
  const tx = Transaction.fromHex(txHex)
  const script = new P2PKH().lock(address).toHex()
  const found: { vout: number; satoshis: number }[] = []
  tx.outputs.forEach((output, vout) => {
    if (output.lockingScript.toHex() === script)
      found.push({ vout, satoshis: output.satoshis ?? 0 })
  })
  return found
}

async function paymentsOf(payload: Payload, orderId: string): Promise<Payment[]> {
  const found = await payload.find({
    collection: slugs.payments,
    where: { order: { equals: orderId } },
    limit: 1000,
    depth: 0,
    pagination: false,
    sort: 'seenAt',
  })
  return found.docs as Payment[]
}

/** The order's deadline: its expiry plus the grace period for propagation. */
export const deadlineOf = (order: Pick<Order, 'gatewayExpiresAt'>, graceMs: number) =>
  new Date(new Date(order.gatewayExpiresAt).getTime() + graceMs)

/**
 * Records the payments a look at the chain found. Whether one is on time is judged by the chain,
 * not by the worker's clock when it records: a payment found by a look that began before the
 * deadline is on time, and so is one in a block mined before the deadline, however late the
 * worker (or the chain source, after an outage) sees it.
 */
export async function recordPayments({
  payload,
  order,
  transactions,
  getTransactionHex,
  getBlockTime,
  getTransactionStatus,
  checkStartedAt,
  graceMs,
  fullLook,
  logger,
}: {
  payload: Payload
  order: Order
  transactions: readonly AddressTransaction[]
  getTransactionHex: (txid: string) => Promise<string>
  getBlockTime: (height: number) => Promise<Date>
  /** Asked fresh for a recorded payment the look no longer found. */
  getTransactionStatus: (txid: string) => Promise<'confirmed' | 'mempool' | 'unknown'>
  /**
   * The look covered confirmed and unconfirmed transactions: only then does a recorded payment
   * missing from it mean anything (a mempool-only look misses the ones just mined).
   */
  fullLook: boolean
  /** When the look that found `transactions` began. */
  checkStartedAt: Date
  graceMs: number
  logger: Log
}): Promise<Payment[]> {
  let payments = await paymentsOf(payload, order.id)
  const deadline = deadlineOf(order, graceMs).getTime()
  const lookedLate = order.status === 'EXPIRED' || checkStartedAt.getTime() >= deadline
  const isLate = async (height: number | null) =>
    lookedLate && !(height !== null && (await getBlockTime(height)).getTime() <= deadline)
  let changed = false
  for (const { txid, height } of transactions) {
    const outputs = outputsPaying(await getTransactionHex(txid), order.paymentAddress)
    for (const { vout, satoshis } of outputs) {
      const outpoint = `${txid}:${vout}`
      const known = payments.find((p) => p.outpoint === outpoint)
      if (!known) {
        const late = await isLate(height)
        try {
          await payload.create({
            collection: slugs.payments,
            data: {
              outpoint,
              order: order.id,
              txid,
              vout,
              satoshis,
              address: order.paymentAddress,
              seenAt: checkStartedAt.toISOString(),
              blockHeight: height,
              confirmedAt: height !== null ? checkStartedAt.toISOString() : null,
              late,
            },
          })
          logger.info({ orderId: order.id, outpoint, satoshis, late, height }, 'payment recorded')
        } catch (error) {
          // Recorded meanwhile by another pass: the unique outpoint did its job.
          const again = await payload.count({
            collection: slugs.payments,
            where: { outpoint: { equals: outpoint } },
          })
          if (again.totalDocs === 0) throw error
        }
        changed = true
      } else if (!known.invalidatedAt && (known.blockHeight ?? null) !== height) {
        await payload.update({
          collection: slugs.payments,
          id: known.id,
          data: {
            blockHeight: height,
            confirmedAt:
              height !== null ? (known.confirmedAt ?? checkStartedAt.toISOString()) : null,
          },
        })
        changed = true
      }
    }
  }
  if (fullLook) {
    const found = new Set(transactions.map((t) => t.txid))
    const missing = [
      ...new Set(payments.filter((p) => !p.invalidatedAt && !found.has(p.txid)).map((p) => p.txid)),
    ]
    for (const txid of missing) {
      // A history that lags is not proof: the chain source must no longer know the transaction.
      if ((await getTransactionStatus(txid)) !== 'unknown') continue
      const reason =
        'The transaction left the chain (double-spent or dropped from the mempool): it does not count.'
      for (const payment of payments.filter((p) => p.txid === txid)) {
        await payload.update({
          collection: slugs.payments,
          id: payment.id,
          data: {
            invalidatedAt: checkStartedAt.toISOString(),
            invalidReason: reason,
            blockHeight: null,
          },
        })
      }
      logger.warn(
        { orderId: order.id, txid },
        'payment invalidated: the transaction left the chain',
      )
      changed = true
    }
  }
  if (changed) payments = await paymentsOf(payload, order.id)
  return payments
}

export function confirmationsOf(payment: Pick<Payment, 'blockHeight'>, tipHeight: number): number {
  return typeof payment.blockHeight === 'number' && payment.blockHeight > 0
    ? Math.max(0, tipHeight - payment.blockHeight + 1)
    : 0
}

/** Applies the status the recorded payments call for; returns the order as stored. */
export async function settleOrder({
  payload,
  order,
  payments,
  tipHeight,
  settings,
  logger,
  now = new Date(),
  beforeFulfil,
}: {
  payload: Payload
  order: Order
  payments: readonly Payment[]
  tipHeight: number
  settings: OrderSettings
  logger: Log
  /** When the look at the chain began: an order expires only by a look begun after its deadline. */
  now?: Date
  /** Runs just before a PAID order is delivered (the worker's fault tests crash there). */
  beforeFulfil?: () => void
}): Promise<Order> {
  const from = order.status as OrderStatus
  const derived = deriveOrderPaymentState({
    status: from,
    amountSatoshiExpected: order.amountSatoshiExpected,
    payments: payments.map((p) => ({
      satoshis: p.satoshis,
      confirmations: confirmationsOf(p, tipHeight),
      late: Boolean(p.late),
      invalid: Boolean(p.invalidatedAt),
    })),
    expiresAt: deadlineOf(order, settings.graceMs),
    now,
    confirmationsRequired: settings.confirmationsRequired,
  })
  const to = derived.status
  const move = assertTransition(from, to)

  const latest = payments
    .filter((p) => !p.invalidatedAt)
    .sort((a, b) => String(a.seenAt).localeCompare(String(b.seenAt)))
    .at(-1)
  const flags = order.flags ?? {}
  const data: Partial<Order> = {}
  if (move) data.status = to
  if ((order.amountSatoshiReceived ?? 0) !== derived.received)
    data.amountSatoshiReceived = derived.received
  // Once paid, the order keeps the transaction that paid it; later money only adds up and flags.
  const keepTxid = Boolean(order.paymentTxid) && PAID_ORDER_STATUSES.includes(from)
  if (latest && !keepTxid && order.paymentTxid !== latest.txid) data.paymentTxid = latest.txid
  if (
    Boolean(flags.paidLate) !== derived.flags.paidLate ||
    Boolean(flags.paidPartial) !== derived.flags.paidPartial ||
    Boolean(flags.paidOver) !== derived.flags.paidOver ||
    Boolean(flags.paidInvalid) !== derived.flags.paidInvalid
  ) {
    data.flags = derived.flags
  }
  if (Object.keys(data).length === 0) return order

  // The Orders collection's hooks check the move and do what it causes (the copy back to the
  // shelf on EXPIRED, delivery on PAID) in the same transaction.
  const updated = (await payload.update({
    collection: slugs.orders,
    id: order.id,
    depth: 0,
    data,
    context: { beforeFulfil } satisfies StatusChangeContext,
  })) as Order
  if (move) {
    logger.info(
      { orderId: order.id, from, to, received: derived.received, due: order.amountSatoshiExpected },
      'order status changed',
    )
  }
  if (data.flags && (derived.flags.paidLate || derived.flags.paidOver)) {
    logger.warn(
      { orderId: order.id, flags: derived.flags, received: derived.received },
      'payment exception flagged for the owner',
    )
  }
  return updated
}

import type { Payload } from 'payload'

import { outputsPaying } from '@shop/payment-worker'
import type { ChainSimulator } from '@shop/chain/simulator'
import { slugs } from '@shop/cms/engine'
import type { Order, Payment, Product } from '@shop/cms/engine'

/**
 * The shop's bookkeeping rules, checked against the database (and the chain simulator) after
 * faults and load: what every hardening test calls "nothing is lost". They read through Payload's
 * Local API, so they mean the same on every engine the shop runs on (SQLite, PostgreSQL with
 * `TEST_DB_ENGINE=postgres`, MongoDB).
 */

export async function allOrders(payload: Payload): Promise<Order[]> {
  return (await payload.find({ collection: slugs.orders, pagination: false, depth: 0, limit: 0 }))
    .docs as Order[]
}

/**
 * Stock: for every product, the copies on the shelf plus the copies held by orders (reserved
 * or sold: every order whose copy was not given back) equal the stock it started with.
 */
export async function stockBalance(
  payload: Payload,
  initial: Map<number, number>,
): Promise<{ product: string; initial: number; shelf: number; held: number }[]> {
  const orders = await allOrders(payload)
  const rows = []
  for (const [id, start] of initial) {
    const product = (await payload.findByID({
      collection: slugs.products,
      id,
      depth: 0,
    })) as Product
    const held = orders.filter(
      (o) =>
        Number(typeof o.product === 'object' ? o.product.id : o.product) === id &&
        !o.stockReleasedAt,
    ).length
    rows.push({ product: product.name, initial: start, shelf: product.currentStock, held })
  }
  return rows
}

export type PaymentAudit = {
  onChain: number
  recorded: number
  missing: string[]
  wrongTotals: string[]
  fulfilledTwice: string[]
}

/**
 * Every output the simulator holds that pays an order's address is a Payment on that order;
 * every order's received amount is the sum of its payments; no order got two download tokens
 * or two "paid" e-mails.
 */
export async function auditPayments(
  payload: Payload,
  simulator: ChainSimulator,
): Promise<PaymentAudit> {
  const orders = await allOrders(payload)
  const payments = (
    await payload.find({ collection: slugs.payments, pagination: false, depth: 0, limit: 0 })
  ).docs as Payment[]
  const tokens = (
    await payload.find({ collection: slugs.downloadTokens, pagination: false, depth: 0, limit: 0 })
  ).docs as { order: string | { id: string } }[]
  const paidMails = (
    await payload.find({
      collection: slugs.emailOutbox,
      where: { kind: { equals: 'order-paid' } },
      pagination: false,
      depth: 0,
      limit: 0,
    })
  ).docs as { order: string | { id: string } }[]
  const idOf = (ref: string | { id: string }) => (typeof ref === 'object' ? ref.id : ref)

  const audit: PaymentAudit = {
    onChain: 0,
    recorded: payments.length,
    missing: [],
    wrongTotals: [],
    fulfilledTwice: [],
  }
  for (const order of orders) {
    const txids = new Set(
      (['confirmed', 'unconfirmed'] as const).flatMap((kind) =>
        simulator.state.history(order.paymentAddress, kind).map((t) => t.tx_hash),
      ),
    )
    const mine = payments.filter((p) => idOf(p.order as string) === order.id)
    for (const txid of txids) {
      for (const { vout, satoshis } of outputsPaying(
        simulator.state.getHex(txid)!,
        order.paymentAddress,
      )) {
        audit.onChain += 1
        const recorded = mine.find((p) => p.outpoint === `${txid}:${vout}`)
        if (!recorded || recorded.satoshis !== satoshis)
          audit.missing.push(
            `${order.id} (${order.status}, ${order.amountSatoshiReceived}/${order.amountSatoshiExpected} sat, ` +
              `${mine.length} recorded) misses ${txid}:${vout} (${satoshis} sat, ` +
              `${simulator.state.history(order.paymentAddress, 'confirmed').some((t) => t.tx_hash === txid) ? 'confirmed' : 'in the mempool'})`,
          )
      }
    }
    const sum = mine.reduce((total, p) => total + p.satoshis, 0)
    if ((order.amountSatoshiReceived ?? 0) !== sum)
      audit.wrongTotals.push(`${order.id}: ${order.amountSatoshiReceived} recorded, ${sum} paid`)
    const tokenCount = tokens.filter((t) => idOf(t.order) === order.id).length
    const mailCount = paidMails.filter((m) => idOf(m.order) === order.id).length
    if (tokenCount > 1 || mailCount > 1)
      audit.fulfilledTwice.push(`${order.id}: ${tokenCount} tokens, ${mailCount} paid e-mails`)
  }
  return audit
}

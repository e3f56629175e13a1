import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { slugs } from '@shop/cms/engine'
import type { Order } from '@shop/cms/engine'
import { sharedShopEnv, spawnTs } from '@shop/payment-worker/testing'
import type { PaymentsHarness } from '@shop/payment-worker/testing'
import { SHIPPING, productIdOf, startPaymentsHarness, waitFor } from '@shop/payment-worker/testing'
import { createWhatsOnChainClient } from '@shop/chain'
import { payFromTestWallet } from '@shop/chain/simulator'
import type { FaultyChain } from './support/faultyChain'
import { seededRandom, startFaultyChain } from './support/faultyChain'
import { shopEngine } from './support/engine'
import { allOrders, auditPayments, stockBalance } from './support/invariants'
import { hardening, report } from './support/settings'

/**
 * Faults: the web process killed in the middle of order creation, then payment
 * cycles flowing while the worker is SIGKILLed at random moments and the chain source fails
 * (5xx, 429, hangs, resets, malformed JSON). Afterwards every payment the simulator holds is
 * recorded on its order, no order is fulfilled twice, and no stock unit is lost or counted twice.
 * The same on either engine: SQLite by default, PostgreSQL with `TEST_DB_ENGINE=postgres` (the
 * killed processes then leave open connections and transactions to the server to end).
 */

const SEED = Number(process.env.HARDENING_SEED ?? Date.now() % 1_000_000)
const random = seededRandom(SEED)
const between = (min: number, max: number) => Math.floor(min + random() * (max - min))

let h: PaymentsHarness
let engine: string
let digitalId: number
let printId: number

beforeAll(async () => {
  h = await startPaymentsHarness({
    worker: false,
    env: {
      CONFIRMATIONS_REQUIRED: '1',
      ORDER_CREATE_RATE_LIMIT: '100000',
      WORKER_FAST_POLL_MS: '100',
      WORKER_SLOW_POLL_MS: '200',
    },
  })
  engine = shopEngine(h.shop.payload)
  digitalId = await productIdOf(h.shop.payload, 'DIGITAL')
  printId = (
    await h.shop.payload.create({
      collection: slugs.products,
      data: {
        name: 'Printed, plenty',
        type: 'PHYSICAL',
        priceEUR: 12.5,
        totalStock: 1000,
        currentStock: 1000,
        isAvailable: true,
      },
    })
  ).id as number
})

afterAll(async () => {
  await h?.close()
})

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Copies on the shelf plus copies held by orders, per product: constant whatever happens. */
async function stockTotals(): Promise<Map<number, number>> {
  const rows = await stockBalance(
    h.shop.payload,
    new Map([
      [digitalId, 0],
      [printId, 0],
    ]),
  )
  return new Map([digitalId, printId].map((id, i) => [id, rows[i]!.shelf + rows[i]!.held]))
}

async function expectStockBalanced(label: string, before: Map<number, number>) {
  const rows = await stockBalance(h.shop.payload, before)
  for (const row of rows)
    expect(row.shelf + row.held, `${label}: ${JSON.stringify(row)}`).toBe(row.initial)
  return rows
}

function orderBody(productId: number, i: number) {
  return JSON.stringify({
    productId,
    userEmail: `buyer${i}@example.com`,
    tokenAddress: null,
    ...SHIPPING,
  })
}

describe('the web process killed in the middle of order creation', () => {
  it('loses no stock unit and stores every order it confirmed', async () => {
    const stockBefore = await stockTotals()
    const confirmed: string[] = []
    let cutOff = 0
    let sent = 0
    for (let kill = 0; kill < hardening.webKills; kill++) {
      const web = spawnTs('payment-worker/test/payments/fixtures/web-process.ts', {
        ...sharedShopEnv(),
        LOG_LEVEL: 'warn',
      })
      const url = await waitFor(async () => /\{"url":"([^"]+)"\}/.exec(web.output())?.[1], {
        timeoutMs: 90_000,
        intervalMs: 50,
      }).catch((error: unknown) => {
        throw new Error(`the web process did not start: ${String(error)}\n${web.output()}`)
      })
      // Bursts of checkouts, and the process dies somewhere inside one: once a few of the burst
      // have been answered and while others are still being made. A fresh process can finish a
      // whole burst before the kill lands; then another burst follows on the warmed process.
      const bursts: Promise<void>[] = []
      let pending = 0
      for (let burst = 1; ; burst++) {
        for (let i = 0; i < 24; i++) {
          sent += 1
          pending += 1
          bursts.push(
            fetch(`${url}/api/orders/create`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: orderBody(i % 3 === 0 ? printId : digitalId, sent),
            })
              .then(async (r) => {
                const body = (await r.json()) as { orderId?: string }
                expect(r.status).toBe(201)
                confirmed.push(body.orderId!)
              })
              .catch((error: unknown) => {
                if (error instanceof Error && error.name === 'AssertionError') throw error
                cutOff += 1
              })
              .finally(() => {
                pending -= 1
              }),
          )
        }
        const answered = confirmed.length + between(1, 6)
        const cutBefore = cutOff
        await waitFor(async () => confirmed.length >= answered || cutOff > cutBefore, {
          timeoutMs: 30_000,
          intervalMs: 1,
        })
        await sleep(between(0, 20))
        if (pending > 0) break
        expect(burst, 'bursts the process answered in full before the kill').toBeLessThan(20)
      }
      web.child.kill('SIGKILL')
      await Promise.all(bursts)
      await web.exited
    }

    const stored = new Set((await allOrders(h.shop.payload)).map((o) => o.id))
    expect(confirmed.filter((id) => !stored.has(id))).toEqual([])
    const rows = await expectStockBalanced('after web kills', stockBefore)
    expect(cutOff, 'some checkouts were cut off by the kills').toBeGreaterThan(0)
    report(
      `faults (${engine}): web process SIGKILLed ${hardening.webKills}x in bursts of 24 checkouts (${sent} sent): ${confirmed.length} confirmed ` +
        `(all stored), ${cutOff} cut off, ${stored.size - confirmed.length} stored but never answered; ` +
        `stock balanced (${rows.map((r) => `${r.product}: ${r.shelf} on shelf + ${r.held} held = ${r.initial}`).join('; ')})`,
    )
  })
})

describe('payment cycles while the worker is killed and the chain source fails', () => {
  let chain: FaultyChain

  afterAll(async () => {
    await chain?.close()
  })

  it('records every payment once, fulfils every order once and keeps the stock', async () => {
    const stockBefore = await stockTotals()
    chain = await startFaultyChain({
      target: h.simulator.wocUrl,
      seed: SEED,
      faultRate: 0.35,
      maxHangs: hardening.workerKills > 4 ? 2 : 1,
    })
    const payer = createWhatsOnChainClient({
      baseUrl: h.simulator.wocUrl,
      maxRequestsPerSecond: 1000,
      retries: 0,
    })
    const pay = (address: string, satoshis: number) =>
      payFromTestWallet({
        chain: payer,
        wocUrl: h.simulator.wocUrl,
        network: 'test',
        address,
        satoshis,
      })

    const cycles: {
      id: string
      variant: string
      physical: boolean
      address: string
      due: number
    }[] = []
    // 'again': the full amount, and once the order is paid, the full amount a second time.
    const variants = ['exact', 'exact', 'exact', 'split', 'over', 'double', 'again'] as const
    async function cycle(i: number) {
      const physical = i % 4 === 0
      const response = await fetch(`${h.shop.url}/api/orders/create`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: orderBody(physical ? printId : digitalId, 10_000 + i),
      })
      expect(response.status).toBe(201)
      const { orderId } = (await response.json()) as { orderId: string }
      const order = (await h.shop.payload.findByID({
        collection: slugs.orders,
        id: orderId,
        depth: 0,
      })) as Order
      const due = order.amountSatoshiExpected
      const variant = variants[i % variants.length]!
      if (variant === 'exact' || variant === 'again') await pay(order.paymentAddress, due)
      if (variant === 'split') {
        await pay(order.paymentAddress, Math.floor(due / 3))
        await pay(order.paymentAddress, due - Math.floor(due / 3))
      }
      if (variant === 'over') await pay(order.paymentAddress, due + 5_000)
      if (variant === 'double') {
        await pay(order.paymentAddress, due)
        await pay(order.paymentAddress, due)
      }
      if (i % 5 === 4) h.simulator.state.mine(1)
      cycles.push({ id: orderId, variant, physical, address: order.paymentAddress, due })
    }

    const killsAt = new Map<string, number>()
    let worker: ReturnType<typeof spawnTs> | undefined
    const startWorker = () =>
      spawnTs('payment-worker/src/main.ts', {
        ...sharedShopEnv(),
        WOC_API_URL: chain.wocUrl,
        LOG_LEVEL: 'info',
      })
    const lastEvent = (output: string) => {
      const lines = output.trim().split('\n').reverse()
      for (const line of lines) {
        try {
          const { msg } = JSON.parse(line) as { msg?: string }
          if (msg) return msg
        } catch {
          // an e-mail printed to the log, not a log line
        }
      }
      return 'nothing logged yet'
    }
    const placeOf = (output: string) => {
      if (!output.includes('payment worker started')) return 'during start-up'
      const event = lastEvent(output)
      if (/payment recorded/.test(event)) return 'right after recording a payment'
      if (/status changed|flagged/.test(event)) return 'right after a status change'
      if (/fulfilled/.test(event)) return 'right after a fulfilment'
      if (/e-mail/.test(event)) return 'while sending e-mails'
      if (/failed|retrying/.test(event)) return 'while retrying a failed chain call'
      return 'between passes'
    }

    const perKill = Math.ceil(hardening.paymentCycles / hardening.workerKills)
    let next = 0
    for (let kill = 0; kill < hardening.workerKills; kill++) {
      worker = startWorker()
      const batch = (async () => {
        const end = Math.min(hardening.paymentCycles, next + perKill)
        while (next < end) await cycle(next++)
      })()
      // One kill in four lands during start-up; the others while the worker is busy.
      if (kill % 4 !== 3) {
        const w = worker
        await waitFor(async () => w.output().includes('payment worker started'), {
          timeoutMs: 90_000,
          intervalMs: 20,
        }).catch((error: unknown) => {
          throw new Error(`the worker did not start: ${String(error)}\n${w.output()}`)
        })
        await sleep(between(100, 2_500))
      } else {
        await sleep(between(200, 1_500))
      }
      const place = placeOf(worker.output())
      worker.child.kill('SIGKILL')
      await worker.exited
      killsAt.set(place, (killsAt.get(place) ?? 0) + 1)
      await batch
    }
    expect(cycles.length).toBe(hardening.paymentCycles)

    // The chain recovers; a last worker, never killed, finishes the job.
    chain.heal()
    h.simulator.state.mine(1)
    worker = startWorker()
    const last = worker
    try {
      const ids = new Set(cycles.map((c) => c.id))
      await waitFor(
        async () => {
          const orders = (await allOrders(h.shop.payload)).filter((o) => ids.has(o.id))
          return orders.every((o) =>
            o.productType === 'PHYSICAL'
              ? o.status === 'PROCESSING_DELIVERY'
              : o.status === 'PAID' && Boolean(o.fulfilledAt),
          )
        },
        { timeoutMs: 180_000, intervalMs: 250 },
      ).catch(async (error: unknown) => {
        const stuck = (await allOrders(h.shop.payload))
          .filter((o) => ids.has(o.id))
          .filter(
            (o) =>
              !['PROCESSING_DELIVERY', 'PAID'].includes(o.status) ||
              (o.status === 'PAID' && !o.fulfilledAt),
          )
          .map((o) => `${o.id} ${o.status}`)
        throw new Error(
          `orders did not settle: ${String(error)}: ${stuck.join(', ')}\n${last.output().slice(-3000)}`,
        )
      })
      // Money sent to orders already paid is still recorded on them (and flagged).
      const again = cycles.filter((c) => c.variant === 'again')
      for (const c of again) await pay(c.address, c.due)
      await waitFor(
        async () => {
          const orders = (await allOrders(h.shop.payload)).filter((o) =>
            again.some((c) => c.id === o.id),
          )
          return orders.every(
            (o) => o.flags?.paidOver && o.amountSatoshiReceived === 2 * o.amountSatoshiExpected,
          )
        },
        { timeoutMs: 120_000, intervalMs: 250 },
      )
    } finally {
      last.child.kill('SIGTERM')
      await last.exited
    }

    const audit = await auditPayments(h.shop.payload, h.simulator)
    const variantOf = (line: string) =>
      cycles.find((c) => line.startsWith(c.id))?.variant ?? 'web-kill order'
    expect(
      audit.missing.map((line) => `${variantOf(line)}: ${line}`),
      `payments on chain but not recorded (replay: HARDENING_SEED=${SEED})`,
    ).toEqual([])
    expect(audit.wrongTotals).toEqual([])
    expect(audit.fulfilledTwice).toEqual([])
    const settled = (await allOrders(h.shop.payload)).filter((o) =>
      cycles.some((c) => c.id === o.id),
    )
    const digital = settled.filter((o) => o.productType !== 'PHYSICAL')
    const tokens = await h.shop.payload.count({
      collection: slugs.downloadTokens,
      where: { order: { in: digital.map((o) => o.id) } },
    })
    expect(tokens.totalDocs).toBe(digital.length)
    const overpaid = settled.filter((o) => o.flags?.paidOver).length
    expect(overpaid).toBe(
      cycles.filter((c) => ['over', 'double', 'again'].includes(c.variant)).length,
    )
    const rows = await expectStockBalanced('after payment cycles', stockBefore)

    const faults = Object.entries(chain.injected)
      .filter(([, n]) => n > 0)
      .map(([kind, n]) => `${n} ${kind}`)
    report(
      `faults (${engine}): ${cycles.length} payment cycles (${cycles.filter((c) => c.physical).length} printed, ` +
        `${cycles.filter((c) => c.variant === 'split').length} split, ${overpaid} overpaid, ` +
        `${cycles.filter((c) => c.variant === 'again').length} paid again after settling) with the worker SIGKILLed ` +
        `${hardening.workerKills}x (${[...killsAt].map(([where, n]) => `${n} ${where}`).join(', ')}) ` +
        `and ${faults.join(', ') || 'no fault'} from the chain source (${chain.passed()} calls passed; seed ${SEED})`,
    )
    report(
      `faults (${engine}): afterwards ${audit.onChain} payments on chain, ${audit.recorded} recorded, 0 missing, ` +
        `0 fulfilled twice (${tokens.totalDocs} download tokens for ${digital.length} PDF orders), stock balanced ` +
        `(${rows.map((r) => `${r.product}: ${r.shelf} + ${r.held} = ${r.initial}`).join('; ')})`,
    )
  })
})

import fs from 'node:fs'

import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { slugs } from '@shop/cms/engine'
import type { AdminClient } from '@shop/cms/testing'
import { signedIn } from '@shop/cms/testing'
import { sharedShopEnv, spawnTs } from '@shop/payment-worker/testing'
import { SHIPPING, productIdOf, waitFor } from '@shop/payment-worker/testing'
import { createWhatsOnChainClient } from '@shop/chain'
import { payFromTestWallet } from '@shop/chain/simulator'
import { allOrders, auditPayments, stockBalance } from './support/invariants'
import { fmt, hardening, report } from './support/settings'
import type { HardeningShop } from './support/shop'
import { ADMIN, startHardeningShop } from './support/shop'

/**
 * Load: HARDENING_LOAD_SECONDS (full run: 300) of mixed traffic against a real
 * web process with a real worker process: shoppers browsing, buyers checking out and paying,
 * blocks being mined, an admin editing products and shipping orders. No errors, memory that
 * levels off, and a consistent database at the end.
 */

let h: HardeningShop
let web: ReturnType<typeof spawnTs>
let worker: ReturnType<typeof spawnTs>
let url: string
let admin: AdminClient
let digitalId: number
let printId: number
let spareId: number

/**
 * A person at the admin screens: a round of reads and edits, then a pause (still about two
 * changes a second). Decision 005 records runs without the pause.
 */
const OWNER_THINK_MS = 300

const rssOf = (pid: number) => {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8')
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024
}

beforeAll(async () => {
  h = await startHardeningShop({
    env: {
      CONFIRMATIONS_REQUIRED: '1',
      ORDER_CREATE_RATE_LIMIT: '1000000',
      WORKER_FAST_POLL_MS: '200',
      WORKER_SLOW_POLL_MS: '1000',
      // This traffic (about 30 paid orders a second, 100,000 an hour) is far beyond what
      // WhatsOnChain's keyless 3 requests/s can serve: each payment costs one transaction fetch
      // plus its share of the address looks, so the worker records at most about as many
      // payments a second as it may make calls. The chain source is opened up here so the test
      // loads the shop, not the rate limit; the bench and call-budget.test.ts check the limit.
      WOC_MAX_REQUESTS_PER_SECOND: '100',
    },
  })
  const { payload } = h.shop
  digitalId = await productIdOf(payload, 'DIGITAL')
  printId = await productIdOf(payload, 'PHYSICAL')
  await payload.update({
    collection: slugs.products,
    id: printId,
    data: { totalStock: 100_000, currentStock: 100_000 },
  })
  // The admin edits this one's stock; nobody buys it.
  spareId = (
    await payload.create({
      collection: slugs.products,
      data: { name: 'Spare', type: 'PHYSICAL', priceEUR: 5, totalStock: 10, currentStock: 10 },
    })
  ).id as number

  const env = { ...sharedShopEnv(), LOG_LEVEL: 'warn', DOWNLOAD_RATE_LIMIT: '1000000' }
  web = spawnTs('payment-worker/test/payments/fixtures/web-process.ts', env)
  url = await waitFor(async () => /\{"url":"([^"]+)"\}/.exec(web.output())?.[1], {
    timeoutMs: 90_000,
    intervalMs: 50,
  }).catch((error: unknown) => {
    throw new Error(`the web process did not start: ${String(error)}\n${web.output()}`)
  })
  worker = spawnTs('payment-worker/src/main.ts', env)
  admin = await signedIn(url, ADMIN.email, ADMIN.password)
})

afterAll(async () => {
  for (const child of [worker, web]) {
    child?.child.kill('SIGTERM')
    await child?.exited
  }
  await h?.close()
})

type Tally = { requests: number; errors: string[]; latencies: number[] }

describe('mixed traffic with the worker running', () => {
  it('answers without errors, keeps memory level and leaves a consistent database', async () => {
    const { payload } = h.shop
    const stockBefore = await stockBalance(
      payload,
      new Map([
        [digitalId, 0],
        [printId, 0],
      ]),
    )
    const tally: Tally = { requests: 0, errors: [], latencies: [] }
    const counts = { browse: 0, orders: 0, payments: 0, blocks: 0, adminChanges: 0, shipped: 0 }
    const deadline = Date.now() + hardening.loadSeconds * 1000
    const running = () => Date.now() < deadline

    async function call(path: string, init: RequestInit = {}, expected = [200]) {
      const started = Date.now()
      tally.requests += 1
      try {
        const response = await fetch(`${url}${path}`, {
          ...init,
          signal: AbortSignal.timeout(15_000),
        })
        const body = await response.text()
        tally.latencies.push(Date.now() - started)
        if (!expected.includes(response.status))
          tally.errors.push(
            `${init.method ?? 'GET'} ${path}: ${response.status} ${body.slice(0, 200)}`,
          )
        return { status: response.status, body }
      } catch (error) {
        tally.errors.push(`${init.method ?? 'GET'} ${path}: ${String(error)}`)
        return { status: 0, body: '' }
      }
    }

    const media = await payload.find({ collection: slugs.media, limit: 1 })
    const index = await call('/')
    const asset = /src="(\/assets\/[^"]+\.js)"/.exec(index.body)?.[1]
    expect(asset).toBeDefined()
    const pages = [
      '/',
      '/store',
      `/product/${digitalId}`,
      '/papers',
      asset!,
      `/media/${media.docs[0]!.filename}`,
      '/api/products',
      `/api/products/${digitalId}`,
      `/api/products/${printId}`,
      '/api/bsv-price',
      '/api/shop-config',
      '/api/papers',
      '/api/timeline',
      '/api/content/faqs',
      '/api/content/legal',
    ]

    async function browser(seed: number) {
      for (let i = seed; running(); i++) {
        await call(pages[i % pages.length]!)
        counts.browse += 1
      }
    }

    const payer = createWhatsOnChainClient({
      baseUrl: h.simulator.wocUrl,
      maxRequestsPerSecond: 1000,
      retries: 0,
    })
    const ordered: string[] = []
    const paid: string[] = []
    async function buyer(seed: number) {
      for (let i = seed; running(); i++) {
        const physical = i % 3 === 0
        const created = await call(
          '/api/orders/create',
          {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({
              productId: physical ? printId : digitalId,
              userEmail: `load${i}@example.com`,
              tokenAddress: null,
              ...SHIPPING,
            }),
          },
          [201],
        )
        if (created.status !== 201) continue
        const { orderId } = JSON.parse(created.body) as { orderId: string }
        ordered.push(orderId)
        counts.orders += 1
        const info = await call(`/api/orders/${orderId}/info`)
        // Every fifth buyer walks away without paying: the copy stays reserved.
        if (i % 5 === 4 || info.status !== 200) continue
        const { paymentAddress } = JSON.parse(info.body) as { paymentAddress: string }
        const order = await payload.findByID({ collection: slugs.orders, id: orderId, depth: 0 })
        try {
          await payFromTestWallet({
            chain: payer,
            wocUrl: h.simulator.wocUrl,
            network: 'test',
            address: paymentAddress,
            satoshis: order.amountSatoshiExpected,
          })
          paid.push(orderId)
          counts.payments += 1
        } catch (error) {
          tally.errors.push(`payment of ${orderId}: ${String(error)}`)
        }
        await call(`/api/orders/${orderId}/payment-status`)
      }
    }

    async function miner() {
      while (running()) {
        await new Promise((resolve) => setTimeout(resolve, 2_000))
        h.simulator.state.mine(1)
        counts.blocks += 1
      }
    }

    async function owner() {
      for (let i = 0; running(); i++) {
        const headers = { 'x-requested-with': 'XMLHttpRequest', cookie: admin.cookie! }
        await call('/api/admin/orders?page=1', { headers })
        await call('/api/admin/stats', { headers })
        await call('/api/admin/products', { headers })
        // The owner edits a product nobody buys (the edit of a selling one, whose copies are
        // taken meanwhile, is checked in cms/test/admin/products.test.ts and the browser test).
        const form = new FormData()
        form.append('name', `Spare ${i}`)
        form.append('type', 'PHYSICAL')
        form.append('priceEUR', String(5 + (i % 7)))
        form.append('totalStock', '10')
        form.append('currentStock', String(i % 11))
        form.append('shortDescription', `Edited ${i} times under load.`)
        const saved = await call(`/api/admin/products/${spareId}`, {
          method: 'PUT',
          headers,
          body: form,
        })
        if (saved.status === 200) counts.adminChanges += 1
        if (i % 5 === 0) {
          await call(`/api/admin/products/${spareId}`, { method: 'DELETE', headers })
          await call(`/api/admin/products/${spareId}/restore`, { method: 'POST', headers })
          counts.adminChanges += 2
        }
        // The owner ships the oldest printed order waiting for it.
        const toShip = (
          await payload.find({
            collection: slugs.orders,
            where: { status: { equals: 'PROCESSING_DELIVERY' } },
            sort: 'createdAt',
            limit: 1,
            depth: 0,
          })
        ).docs[0]
        if (toShip) {
          const shipped = await call(
            `/api/admin/orders/${toShip.id}/ship`,
            {
              method: 'POST',
              headers: { ...headers, 'content-type': 'application/json' },
              body: JSON.stringify({ trackingNumber: `TRACK-${i}` }),
            },
            [200, 409],
          )
          if (shipped.status === 200) counts.shipped += 1
        }
        // An owner's think time between two rounds of clicks.
        await new Promise((resolve) => setTimeout(resolve, OWNER_THINK_MS))
      }
    }

    const memory: { web: number; worker: number }[] = []
    async function sampler() {
      while (running()) {
        memory.push({ web: rssOf(web.child.pid!), worker: rssOf(worker.child.pid!) })
        await new Promise((resolve) => setTimeout(resolve, 1_000))
      }
    }

    await Promise.all([
      ...[0, 3, 7, 11].map(browser),
      ...[0, 1, 2].map(buyer),
      miner(),
      owner(),
      sampler(),
    ])

    // Traffic over: the last payments confirm and the worker settles every paid order.
    h.simulator.state.mine(1)
    const paidSet = new Set(paid)
    const unsettled = (o: { productType: string; status: string; fulfilledAt?: string | null }) =>
      o.productType === 'PHYSICAL'
        ? !['PROCESSING_DELIVERY', 'SHIPPED'].includes(o.status)
        : o.status !== 'PAID' || !o.fulfilledAt
    const trafficEnded = Date.now()
    let openWhenTrafficEnded: number | undefined
    await waitFor(
      async () => {
        h.simulator.state.mine(1)
        const orders = (await allOrders(payload)).filter((o) => paidSet.has(o.id))
        const open = orders.filter(unsettled).length
        openWhenTrafficEnded ??= open
        return open === 0
      },
      { timeoutMs: 120_000, intervalMs: 1_000 },
    ).catch(async (error: unknown) => {
      const stuck = (await allOrders(payload)).filter((o) => paidSet.has(o.id) && unsettled(o))
      const byStatus = new Map<string, number>()
      for (const o of stuck) byStatus.set(o.status, (byStatus.get(o.status) ?? 0) + 1)
      throw new Error(
        `${stuck.length} of ${paidSet.size} paid orders did not settle (${[...byStatus].map(([k, n]) => `${n} ${k}`).join(', ')}): ${String(error)}\n${worker.output().slice(-3000)}`,
      )
    })
    const settledAfterMs = Date.now() - trafficEnded

    expect(tally.errors).toEqual([])
    expect(web.child.exitCode).toBeNull()
    expect(worker.child.exitCode).toBeNull()

    const audit = await auditPayments(payload, h.simulator)
    expect(audit.missing).toEqual([])
    expect(audit.wrongTotals).toEqual([])
    expect(audit.fulfilledTwice).toEqual([])
    const stock = await stockBalance(
      payload,
      new Map(stockBefore.map((row, i) => [[digitalId, printId][i]!, row.shelf + row.held])),
    )
    for (const row of stock) expect(row.shelf + row.held, JSON.stringify(row)).toBe(row.initial)

    // Memory levels off: the last quarter is not far above the second (after warm-up).
    const quarter = Math.max(1, Math.floor(memory.length / 4))
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length
    const mb = (bytes: number) => Math.round(bytes / 1024 / 1024)
    const growth = {} as Record<'web' | 'worker', [number, number]>
    for (const child of ['web', 'worker'] as const) {
      const early = mean(memory.slice(quarter, 2 * quarter).map((m) => m[child]))
      const late = mean(memory.slice(-quarter).map((m) => m[child]))
      growth[child] = [mb(early), mb(late)]
      expect(late, `${child} memory ${mb(early)} MB -> ${mb(late)} MB`).toBeLessThan(
        early * 1.3 + 40 * 1024 * 1024,
      )
    }

    const sorted = [...tally.latencies].sort((a, b) => a - b)
    const p = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]
    report(
      `load: ${hardening.loadSeconds} s, ${fmt(tally.requests)} requests (${fmt(Math.round(tally.requests / hardening.loadSeconds))}/s; ` +
        `p50 ${p(0.5)} ms, p95 ${p(0.95)} ms, p99 ${p(0.99)} ms), ${fmt(counts.browse)} page/API reads, ${counts.orders} orders, ` +
        `${counts.payments} payments, ${counts.blocks} blocks, ${counts.adminChanges} admin changes, ${counts.shipped} shipped: 0 errors`,
    )
    report(
      `load: ${openWhenTrafficEnded} of ${paidSet.size} paid orders still settling when the traffic ended, ` +
        `all settled ${fmt(Math.round(settledAfterMs / 1000))} s later`,
    )
    report(
      `load: memory (RSS) web ${growth.web[0]} -> ${growth.web[1]} MB, worker ${growth.worker[0]} -> ${growth.worker[1]} MB; ` +
        `${audit.onChain} payments on chain = ${audit.recorded} recorded, 0 fulfilled twice; stock balanced ` +
        `(${stock.map((r) => `${r.product}: ${r.shelf} on shelf + ${r.held} held = ${r.initial}`).join('; ')})`,
    )
  })
})

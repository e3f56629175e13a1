import type { AdminSales, AdminSettings, AdminStats } from '@shop/domain'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { slugs } from '../../src/collections/slugs'
import { WORKER_LEASE, claimLease } from '../../src/db/leases'
import { countChainLook } from '../../src/db/counters'
import { runFulfilmentJobs } from '../../src/jobs'
import type { SettlingBacklog } from '../../src/operations/dashboard/getSettlingBacklog'
import type { EmailOutbox } from '../../src/payload-types'
import { createOrder, createPrintedBook } from '../support/shopApi'
import type { TestShop } from '../support/testShop'
import { startTestShop } from '../support/testShop'
import type { AdminClient } from './client'
import { adminClient, createStaff, signedInNewAdmin } from './client'
import { EDITOR, OWNER } from './fixtures'

/**
 * The owner sees what sold (by day, week and month, in EUR and BSV, paid
 * orders only), the settings in force with their health, the paid orders still settling, and
 * never a secret.
 */

const SECRETS = {
  SMTP_PASS: 'smtp-password-never-shown-4417',
  SMTP_USER: 'mailer-account',
  WOC_API_KEY: 'woc-key-never-shown-9921',
  WEBHOOK_SECRET: 'webhook-secret-never-shown-0042',
}

let shop: TestShop
let admin: AdminClient
let productId: number
let nextIndex = 5000

/** An order in `status`; one paid at `paidAt` was delivered then too, as the shop's job does. */
async function order(status: string, paidAt: Date | null, eur: number, satoshis: number) {
  nextIndex += 1
  const created = await shop.payload.create({
    collection: slugs.orders,
    data: {
      product: productId,
      productName: 'The book',
      productType: 'DIGITAL',
      userEmail: 'buyer@example.com',
      priceAtPurchaseUSD: eur,
      bsvUsdRateAtPurchase: 40,
      amountSatoshiExpected: satoshis,
      paymentAddress: `1Sales${nextIndex}`,
      addressIndex: nextIndex,
      gatewayExpiresAt: new Date(Date.now() + 20 * 60_000).toISOString(),
    } as never,
  })
  await shop.payload.db.updateOne({
    collection: slugs.orders,
    where: { id: { equals: created.id } },
    data: {
      status,
      amountSatoshiReceived: satoshis,
      ...(paidAt ? { paidAt: paidAt.toISOString(), fulfilledAt: paidAt.toISOString() } : {}),
    },
  })
  return created.id
}

const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000)

beforeAll(async () => {
  shop = await startTestShop({
    seed: false,
    env: {
      ...SECRETS,
      SMTP_HOST: 'smtp.example.test',
      SMTP_PORT: '2525',
      OWNER_EMAIL: 'owner-alerts@example.com',
      WEBHOOK_URL: 'https://hooks.example.test/path/token-in-path-never-shown',
      WALLET_GAP_LIMIT: '25',
    },
  })
  admin = await signedInNewAdmin(shop, OWNER)
  await createStaff({ payload: shop.payload, ...EDITOR, role: 'editor' })
  productId = (
    await shop.payload.create({
      collection: slugs.products,
      data: { name: 'The book', type: 'DIGITAL', priceEUR: 10, isAvailable: false },
    })
  ).id
  // Paid today (twice, one shipped-like status), 3 days ago, 40 days ago; and unpaid ones.
  await order('PAID', daysAgo(0), 10, 25_000_000)
  await order('PROCESSING_DELIVERY', daysAgo(0), 12.5, 31_250_000)
  await order('ERROR_FULFILLMENT', daysAgo(3), 10, 25_000_000)
  await order('SHIPPED', daysAgo(40), 20, 50_000_000)
  await order('AWAITING_PAYMENT', null, 99, 1)
  await order('EXPIRED', null, 99, 1)
  await order('CANCELLED', daysAgo(1), 99, 1)
})

afterAll(async () => {
  await shop?.close()
})

describe('GET /api/admin/sales', () => {
  it('sums paid orders only, by day, week and month, in EUR and satoshis', async () => {
    const response = await admin.request('GET', '/sales')
    expect(response.status).toBe(200)
    const sales = (await response.json()) as AdminSales
    expect(sales.total).toEqual({ orders: 4, eur: 52.5, satoshis: 131_250_000 })
    expect(sales.day).toHaveLength(14)
    expect(sales.day.at(-1)).toMatchObject({ orders: 2, eur: 22.5, satoshis: 56_250_000 })
    expect(sales.day.at(-4)).toMatchObject({ orders: 1, eur: 10 })
    expect(sales.day.reduce((sum, d) => sum + d.orders, 0)).toBe(3)
    expect(sales.week.reduce((sum, w) => sum + w.orders, 0)).toBe(4)
    expect(sales.month.reduce((sum, m) => sum + m.eur, 0)).toBe(52.5)
    expect(sales.day.at(-1)!.start).toBe(new Date().toISOString().slice(0, 10))
  })
})

describe('GET /api/admin/settings', () => {
  it('shows the settings in force and their health, and no secret', async () => {
    const response = await admin.request('GET', '/settings')
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).toContain('no-store')
    const text = await response.text()
    for (const secret of [...Object.values(SECRETS).filter((v) => v.length > 15), 'token-in-path'])
      expect(text).not.toContain(secret)
    expect(text).not.toContain('test-secret-test-secret')
    const settings = JSON.parse(text) as AdminSettings
    expect(settings.shop.testMode).toBe(true)
    expect(settings.payment.walletGapLimit).toBe(25)
    expect(settings.payment.chainApiKeySet).toBe(true)
    expect(settings.payment.xpub).toMatch(/^xpub.{4}….{6}$/)
    expect(settings.payment.rate).toEqual({ eur: expect.any(Number) })
    expect(settings.email).toMatchObject({
      delivery: 'smtp',
      smtpHost: 'smtp.example.test',
      smtpPort: 2525,
      smtpUserSet: true,
      smtpPasswordSet: true,
      ownerAlertsTo: 'owner-alerts@example.com',
      webhookOrigin: 'https://hooks.example.test',
    })
    expect(settings.health.worker.running).toBe(false)
  })

  it('is for admins only', async () => {
    expect((await adminClient(shop.url).request('GET', '/settings')).status).toBe(401)
    const editor = adminClient(shop.url)
    await editor.request('POST', '/login', {
      json: EDITOR,
    })
    for (const path of ['/settings', '/sales', '/stats'])
      expect([401, 403]).toContain((await editor.request('GET', path)).status)
    expect((await adminClient(shop.url).request('GET', '/sales')).status).toBe(401)
  })
})

describe('health on the dashboard', () => {
  it('says whether the worker runs and how the e-mail outbox fares', async () => {
    const orderId = await order('PAID', daysAgo(0), 1, 1)
    const outbox = (status: 'pending' | 'sent' | 'failed', n: number, extra = {}) =>
      shop.payload.create({
        collection: slugs.emailOutbox,
        data: {
          key: `health-${status}-${n}`,
          kind: 'order-created',
          order: orderId,
          to: 'buyer@example.com',
          status,
          ...extra,
        } as never,
      })
    await outbox('pending', 1)
    await outbox('failed', 1, { lastError: '550 mailbox unavailable' })
    await outbox('failed', 2, { lastError: '550 mailbox unavailable' })
    await outbox('sent', 1, { sentAt: new Date().toISOString() })
    await claimLease({ payload: shop.payload, name: WORKER_LEASE, holder: 'w1', ttlMs: 60_000 })
    const before = (await (await admin.request('GET', '/stats')).json()) as AdminStats
    expect(before.health.chain.lastCheckAt).toBeNull()
    await countChainLook({ payload: shop.payload })

    const stats = (await (await admin.request('GET', '/stats')).json()) as AdminStats
    expect(stats.health.worker.running).toBe(true)
    expect(stats.health.chain.source).toBe('simulator')
    expect(Date.now() - Date.parse(stats.health.chain.lastCheckAt!)).toBeLessThan(60_000)
    expect(stats.health.email).toMatchObject({
      delivery: 'smtp',
      pending: expect.any(Number),
      failed: 2,
      lastError: '550 mailbox unavailable',
    })
    expect(stats.health.email.pending).toBeGreaterThanOrEqual(1)
    expect(stats.health.email.lastSentAt).not.toBeNull()
  })
})

describe('the settling backlog on the dashboard', () => {
  const NOTHING_WAITS = { undelivered: 0, unmailed: 0, oldestAt: null, oldestAgeSeconds: null }
  const settling = async () => {
    const response = await admin.request('GET', '/stats')
    expect(response.status).toBe(200)
    return ((await response.json()) as AdminStats & { settling: SettlingBacklog }).settling
  }

  it('shows a paid order, with its age, until it is delivered and its paid e-mail sent', async () => {
    expect(await settling()).toEqual(NOTHING_WAITS)
    const printed = await createPrintedBook(shop.payload, { name: 'Printed rush', stock: 5 })
    const orderId = await createOrder(shop, printed)
    // Through the status seam (stamps paidAt, queues the delivery), then two hours pass.
    await shop.payload.update({
      collection: slugs.orders,
      id: orderId,
      data: { status: 'PAID' },
      depth: 0,
    })
    const paidAt = new Date(Date.now() - 2 * 3600_000).toISOString()
    await shop.payload.db.updateOne({
      collection: slugs.orders,
      where: { id: { equals: orderId } },
      data: { paidAt },
    })

    const undelivered = await settling()
    expect(undelivered).toMatchObject({ undelivered: 1, unmailed: 0, oldestAt: paidAt })
    expect(undelivered.oldestAgeSeconds).toBeGreaterThanOrEqual(7200)
    expect(undelivered.oldestAgeSeconds).toBeLessThan(7200 + 60)

    // Delivered as the payment worker does it: the printed book goes to PROCESSING_DELIVERY
    // and the buyer's paid e-mail is queued.
    await runFulfilmentJobs(shop.payload)
    const mails = await shop.payload.find({
      collection: slugs.emailOutbox,
      where: { and: [{ order: { equals: orderId } }, { kind: { equals: 'order-paid' } }] },
      depth: 0,
    })
    expect(mails.docs).toHaveLength(1)
    const mail = mails.docs[0] as EmailOutbox
    expect(mail.status).toBe('pending')
    const unmailed = await settling()
    expect(unmailed).toMatchObject({ undelivered: 0, unmailed: 1, oldestAt: mail.createdAt })
    expect(unmailed.oldestAgeSeconds).toBeLessThan(60)

    await shop.payload.update({
      collection: slugs.emailOutbox,
      id: mail.id,
      data: { status: 'sent', sentAt: new Date().toISOString() },
      depth: 0,
    })
    expect(await settling()).toEqual(NOTHING_WAITS)
  })
})

import { expect } from 'vitest'
import type { Payload } from 'payload'

import type { ChainSimulator } from '../../../payment-worker/src/chain/simulator/server'
import { startChainSimulator } from '../../../payment-worker/src/chain/simulator/server'
import { createWhatsOnChainClient } from '../../../payment-worker/src/chain/whatsonchain'
import type { PaymentWorker } from '../../../payment-worker/src/worker'
import { startPaymentWorker } from '../../../payment-worker/src/worker'
import { slugs } from '../../src/collections/slugs'
import type { Order, Payment } from '../../src/payload-types'
import type { TestShop } from '../support/testShop'
import { startTestShop } from '../support/testShop'

export type PaymentsHarness = {
  shop: TestShop
  simulator: ChainSimulator
  worker: PaymentWorker
  logs: { msg: string; obj: Record<string, unknown> }[]
  close: () => Promise<void>
}

/** A shop on a fresh SQLite file, the chain simulator, and the payment worker in this process. */
export async function startPaymentsHarness({
  env = {},
  worker: startWorker = true,
}: { env?: Record<string, string>; worker?: boolean } = {}): Promise<PaymentsHarness> {
  const simulator = await startChainSimulator({ network: 'test' })
  const shop = await startTestShop({
    env: {
      CHAIN_SOURCE: 'simulator',
      BSV_NETWORK: 'test',
      WOC_API_URL: simulator.wocUrl,
      RATE_SOURCE: 'fixed',
      FIXED_RATE_EUR: '40',
      CONFIRMATIONS_REQUIRED: '1',
      // Tests that move an order's expiry into the past expect it decided at once.
      PAYMENT_GRACE_SECONDS: '0',
      WORKER_FAST_POLL_MS: '100',
      WORKER_SLOW_POLL_MS: '200',
      ORDER_CREATE_RATE_LIMIT: '1000',
      ...env,
    },
  })
  const { loadEnv } = await import('../../src/config/env')
  const settings = loadEnv()
  const logs: PaymentsHarness['logs'] = []
  const record = (level: string) => (obj: unknown, msg?: string) => {
    if (typeof obj === 'string') logs.push({ msg: obj, obj: { level } })
    else logs.push({ msg: msg ?? '', obj: { level, ...(obj as Record<string, unknown>) } })
  }
  const logger = {
    info: record('info'),
    warn: record('warn'),
    error: record('error'),
    debug: () => {},
  } as never
  const chain = createWhatsOnChainClient({
    baseUrl: simulator.wocUrl,
    maxRequestsPerSecond: 200,
    retries: 0,
  })
  const worker = startPaymentWorker({
    payload: shop.payload,
    chain,
    logger,
    settings: {
      ...settings,
      logEmails: false,
      emailRetryBaseMs: 50,
      webhookRetryDelaysMs: [100, 200, 400],
    },
    autoStart: startWorker,
  })
  return {
    shop,
    simulator,
    worker,
    logs,
    close: async () => {
      await worker.stop()
      await shop.close()
      await simulator.close()
    },
  }
}

export async function api(
  shop: TestShop,
  path: string,
  init: { method?: string; body?: unknown } = {},
) {
  const response = await fetch(`${shop.url}${path}`, {
    method: init.method ?? (init.body !== undefined ? 'POST' : 'GET'),
    headers: init.body !== undefined ? { 'content-type': 'application/json' } : undefined,
    body: init.body !== undefined ? JSON.stringify(init.body) : undefined,
  })
  const text = await response.text()
  let body: unknown = text
  try {
    body = JSON.parse(text)
  } catch {
    // not JSON (download pages)
  }
  return {
    status: response.status,
    body: body as Record<string, unknown>,
    headers: response.headers,
  }
}

export async function productIdOf(payload: Payload, type: 'DIGITAL' | 'PHYSICAL'): Promise<number> {
  const found = await payload.find({
    collection: slugs.products,
    where: { type: { equals: type } },
    limit: 1,
    sort: 'createdAt',
  })
  return found.docs[0]!.id as number
}

export const SHIPPING = {
  shippingName: 'Ada Lovelace',
  shippingAddressLine1: '1 Analytical Street',
  shippingAddressLine2: '',
  shippingCity: 'London',
  shippingStateProvince: '',
  shippingPostalCode: 'N1 1AA',
  shippingCountry: 'United Kingdom',
  shippingPhone: '',
}

export async function createOrder(
  shop: TestShop,
  productId: number,
  extra: Record<string, unknown> = {},
): Promise<string> {
  const { status, body } = await api(shop, '/api/orders/create', {
    body: { productId, userEmail: 'buyer@example.com', tokenAddress: null, ...SHIPPING, ...extra },
  })
  expect(body).toMatchObject({ success: true })
  expect(status).toBe(201)
  return String(body.orderId)
}

export async function getOrder(payload: Payload, id: string): Promise<Order> {
  return (await payload.findByID({ collection: slugs.orders, id, depth: 0 })) as Order
}

/** Waits until `check` returns a truthy value (polling, no fixed sleeps). */
export async function waitFor<T>(
  check: () => Promise<T | undefined | null | false>,
  { timeoutMs = 10_000, intervalMs = 25 } = {},
): Promise<T> {
  const started = Date.now()
  for (;;) {
    const value = await check()
    if (value) return value
    if (Date.now() - started > timeoutMs)
      throw new Error(`condition not met within ${timeoutMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, intervalMs))
  }
}

export const waitForStatus = (payload: Payload, id: string, status: string, timeoutMs = 10_000) =>
  waitFor(
    async () => {
      const order = await getOrder(payload, id)
      return order.status === status ? order : null
    },
    { timeoutMs },
  )

/** The payments recorded for an order. */
export const paymentsOf = async (payload: Payload, orderId: string) =>
  (
    await payload.find({
      collection: slugs.payments,
      where: { order: { equals: orderId } },
      depth: 0,
    })
  ).docs as Payment[]

import crypto from 'node:crypto'

import { Utils } from '@bsv/sdk'
import type { InValue } from '@libsql/client'
import type { Payload } from 'payload'
import { expect } from 'vitest'
import type { ChainSimulator } from '@shop/chain/simulator'
import { startChainSimulator } from '@shop/chain/simulator'
import type { ArcCallbackRegistration, ChainFeed, ChainSource } from '@shop/chain'
import { connectChainFeed, createArcClient, createWhatsOnChainClient } from '@shop/chain'
import type { PaymentWorker } from '../../src/worker'
import { startPaymentWorker } from '../../src/worker'
import type { TestShop } from '@shop/cms/testing'
import { api, paymentsOf, sqlite, startTestShop, waitFor, waitForStatus } from '@shop/cms/testing'
import { ARC_CALLBACK_PATH, arcCallbackToken, loadEmailRenderer } from '@shop/cms/engine'
import type { OrderStatus } from '@shop/domain'
import { isOpen } from '../../src/watch/watched'

export {
  api,
  createOrder,
  getOrder,
  paymentsOf,
  productIdOf,
  SHIPPING,
  waitFor,
  waitForStatus,
} from '@shop/cms/testing'

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
  clock,
  arc = true,
  arcCallbacks = true,
}: {
  env?: Record<string, string>
  worker?: boolean
  /** ARC's stand-in follows the payments beside WhatsOnChain (off: WhatsOnChain alone). */
  arc?: boolean
  /** ARC's stand-in posts its callbacks to the shop's receiver (off: the worker only asks). */
  arcCallbacks?: boolean
  /** The worker's clock (see startPaymentWorker). */
  clock?: () => number
} = {}): Promise<PaymentsHarness> {
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
      EMAIL_RETRY_BASE_MS: '50',
      WEBHOOK_RETRY_BASE_MS: '100',
      ...env,
    },
  })
  const { loadEnv } = await import('@shop/cms/process')
  const settings = loadEnv()
  const { logs, logger } = recordingLogger()
  const chain = simulatorClient(simulator)
  const callback = arcCallbacks
    ? { url: `${shop.url}${ARC_CALLBACK_PATH}`, token: arcCallbackToken(shop.payload) }
    : undefined
  const txSource = arc ? simulatorArcClient(simulator, callback) : undefined
  // As the worker's main does: the e-mail renderer is loaded before the worker starts.
  await loadEmailRenderer()
  const worker = startPaymentWorker({
    payload: shop.payload,
    chain,
    txSource,
    logger,
    settings,
    autoStart: startWorker,
    clock,
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

/**
 * The simulator's push stream, connected to the harness's worker as the worker's main connects
 * WhatsOnChain's; `heard` notes each mempool frame's arrival (for the stream's trust).
 */
export function connectSimulatorFeed(h: PaymentsHarness, heard: number[]): ChainFeed {
  return connectChainFeed({
    url: h.simulator.socketUrl,
    onTransaction: (tx) => {
      heard.push(Date.now())
      h.worker.pushed.transaction(tx)
    },
    onBlock: ({ height, header }) => h.worker.pushed.block(height, header),
    onStatus: ({ connected }) => h.worker.pushed.connected(connected),
    reconnectDelayMs: () => 50,
  })
}

/** A worker's logger that keeps every line it is given (message, level and fields). */
export function recordingLogger() {
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
  return { logs, logger }
}

/**
 * An order row as checkout would have stored it, for tests that fill the watch list directly:
 * DIGITAL, 0.25 BSV due, a random testnet address, its copy released once it expired.
 */
export function watchedOrderRow({
  productId,
  index,
  createdAt,
  status,
}: {
  productId: number
  /** Its address index (unique per row). */
  index: number
  createdAt: number
  status: OrderStatus
}): { sql: string; args: InValue[] } {
  const expires = createdAt + 20 * 60_000
  return {
    sql: `INSERT INTO orders (id, status, product_id, product_name, product_type, user_email,
            price_at_purchase_u_s_d, bsv_usd_rate_at_purchase, amount_satoshi_expected,
            amount_satoshi_received, payment_address, address_index, gateway_expires_at,
            stock_released_at, created_at, updated_at)
          VALUES (?, ?, ?, 'Book', 'DIGITAL', 'watched@example.com', 10, 40, 25000000, 0, ?, ?, ?, ?, ?, ?)`,
    args: [
      crypto.randomUUID(),
      status,
      productId,
      Utils.toBase58Check(Array.from(crypto.randomBytes(20)), [0x6f]),
      index,
      new Date(expires).toISOString(),
      isOpen(status) ? null : new Date(expires).toISOString(),
      new Date(createdAt).toISOString(),
      new Date(createdAt).toISOString(),
    ],
  }
}

/**
 * An ARC client on the simulator's stand-in, without a request limit or retries; registering
 * `callback` with its submissions when given.
 */
export const simulatorArcClient = (
  simulator: Pick<ChainSimulator, 'arcUrl'>,
  callback?: ArcCallbackRegistration,
) => createArcClient({ baseUrl: simulator.arcUrl, maxRequestsPerSecond: 200, retries: 0, callback })

/** A WhatsOnChain client on the simulator, without WhatsOnChain's request limit or retries. */
export const simulatorClient = (simulator: Pick<ChainSimulator, 'wocUrl'>) =>
  createWhatsOnChainClient({ baseUrl: simulator.wocUrl, maxRequestsPerSecond: 200, retries: 0 })

/**
 * `count` orders that expired two hours ago and more, still watched for late payments and all
 * due: a pass always has older work. Their address indexes start at `firstIndex`.
 */
export async function insertExpiredOrders(
  payload: Payload,
  { productId, count, firstIndex }: { productId: number; count: number; firstIndex: number },
) {
  const now = Date.now()
  await sqlite(payload).batch(
    Array.from({ length: count }, (_, i) =>
      watchedOrderRow({
        productId,
        index: firstIndex + i,
        createdAt: now - 2 * 3_600_000 - i * 1000,
        status: 'EXPIRED',
      }),
    ),
    'write',
  )
}

/**
 * A payment worker started by hand (passes run when the test says), silent, with the test's
 * settings over the shop's and the test's clock.
 */
export async function startWorkerByHand(
  h: Pick<PaymentsHarness, 'shop'>,
  {
    chain,
    settings,
    clock,
  }: {
    chain: ChainSource
    settings: Partial<Parameters<typeof startPaymentWorker>[0]['settings']>
    clock: () => number
  },
): Promise<PaymentWorker> {
  const { loadEnv } = await import('@shop/cms/process')
  return startPaymentWorker({
    payload: h.shop.payload,
    chain,
    logger: { info: () => {}, warn: () => {}, error: () => {}, debug: () => {} } as never,
    settings: { ...loadEnv(), ...settings },
    autoStart: false,
    clock,
  })
}

/**
 * A worker started by hand whose first pass has read the chain's tip a minute ago by its clock:
 * orders placed from then on are first looked for in the mempool only (one call a look).
 * `moveClock` moves its clock on (past the tip interval, so its next pass reads the tip).
 */
export async function startWorkerPastTip(
  h: Pick<PaymentsHarness, 'shop'>,
  { chain, settings }: Omit<Parameters<typeof startWorkerByHand>[1], 'clock'>,
): Promise<{ worker: PaymentWorker; moveClock: (ms: number) => void }> {
  let offset = -60_000
  const worker = await startWorkerByHand(h, { chain, settings, clock: () => Date.now() + offset })
  await worker.runOnce()
  offset = 0
  return { worker, moveClock: (ms) => (offset += ms) }
}

/**
 * Pays an order from the simulator's wallet through the test-mode API, `amountBSV` or the amount
 * due: the payment's txid.
 */
export async function payInTestMode(
  shop: TestShop,
  orderId: string,
  amountBSV?: string,
): Promise<string> {
  const { status, body } = await api(shop, `/api/test-mode/orders/${orderId}/pay`, {
    body: amountBSV ? { amountBSV } : {},
  })
  expect(status).toBe(200)
  return String(body.txid)
}

/**
 * Pays the order in test mode, waits for it to be detected and followed on ARC, then has every
 * index lose the payment (the simulator's `loseTxid` and `arcForgotten`), mining a block at a time (each asks for a full look),
 * until the worker has marked it invalid. The payment stays lost: the caller clears the fault.
 */
export async function payThenLoseUntilInvalid(
  h: Pick<PaymentsHarness, 'shop' | 'simulator'>,
  orderId: string,
): Promise<string> {
  const txid = await payInTestMode(h.shop, orderId)
  await waitForStatus(h.shop.payload, orderId, 'PAYMENT_DETECTED')
  await waitFor(async () => (await paymentsOf(h.shop.payload, orderId))[0]?.arcStatus)
  // Every index: WhatsOnChain's and ARC's (which would otherwise keep it, as it should).
  h.simulator.setFaults({ loseTxid: { txid, seconds: 600 }, arcForgotten: [txid] })
  await waitFor(
    async () => {
      const [payment] = await paymentsOf(h.shop.payload, orderId)
      if (payment?.invalidatedAt) return true
      h.simulator.state.mine(1)
      await new Promise((resolve) => setImmediate(resolve))
      return false
    },
    { timeoutMs: 20_000, intervalMs: 300 },
  )
  return txid
}

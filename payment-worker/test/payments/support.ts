import type { ChainSimulator } from '@shop/chain/simulator'
import { startChainSimulator } from '@shop/chain/simulator'
import { createWhatsOnChainClient } from '@shop/chain'
import type { PaymentWorker } from '../../src/worker'
import { startPaymentWorker } from '../../src/worker'
import type { TestShop } from '@shop/cms/testing'
import { startTestShop } from '@shop/cms/testing'

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
}: {
  env?: Record<string, string>
  worker?: boolean
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

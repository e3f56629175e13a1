/** The payment engine, for tests and tools that run it in their own process. */
export { startPaymentWorker } from './worker'
export type { PaymentWorker, WorkerSettings } from './worker'
export { outputsPaying } from './process-order'

/**
 * The shop's seam for the payment worker: the collections' slugs and types, the writer scope,
 * and the operations a pass runs besides watching the chain (fulfilment, the jobs queue: e-mails,
 * webhooks, the notice of an order the worker could not process, and the chain source's health
 * for the owner with its alert).
 * Status changes themselves go through the Orders collection (its hooks keep the rules).
 */
export { globalSlugs, slugs } from './collections/slugs'
export type { StatusChangeContext } from './collections/Orders/hooks/applyStatusChange'
export { runInWriterScope } from './db/sqlite-client'
export { ADDRESS_INDEX_COUNTER, countChainLook } from './db/counters'
export { WORKER_LEASE, claimLease, releaseLease } from './db/leases'
export { checkChainAlert } from './operations/chainHealth/checkChainAlert'
export { recordChainHealth } from './operations/chainHealth/recordChainHealth'
export { queueOrderCreatedEmails } from './operations/email/queueOrderEmails'
export { loadEmailRenderer } from './operations/email/renderOrderEmail'
export { queueOrderShippedEmail } from './operations/email/queueOrderShippedEmail'
export { fulfilOrder } from './operations/fulfilment/fulfilOrder'
export {
  clearOrderAttention,
  failureReason,
  markOrderAttention,
} from './operations/orders/orderAttention'
export { releaseOrphanedJobs, runDueJobs } from './jobs'
export { EMAIL_RETRIES } from './jobs/queues'
export { fileStoreOf } from './storage'
export type * from './payload-types'

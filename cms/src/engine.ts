/**
 * The shop's seam for the payment worker: the collections' slugs and types, the writer scope,
 * and the operations a pass runs besides watching the chain (fulfilment, and the jobs queue: e-mails, webhooks).
 * Status changes themselves go through the Orders collection (its hooks keep the rules).
 */
export { globalSlugs, slugs } from './collections/slugs'
export type { StatusChangeContext } from './collections/Orders/hooks/applyStatusChange'
export { runInWriterScope } from './db/sqlite-client'
export {
  ADDRESS_INDEX_COUNTER,
  WORKER_LEASE,
  claimLease,
  countChainLook,
  releaseLease,
} from './db/atomic'
export { queueOrderCreatedEmails } from './operations/email/queueOrderEmails'
export { loadEmailRenderer } from './operations/email/renderOrderEmail'
export { queueOrderShippedEmail } from './operations/email/queueOrderShippedEmail'
export { fulfilOrder } from './operations/fulfilment/fulfilOrder'
export { releaseOrphanedJobs, runDueJobs } from './jobs'
export { EMAIL_RETRIES } from './jobs/queues'
export { fileStoreOf } from './storage'
export type * from './payload-types'

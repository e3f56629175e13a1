/**
 * The payment worker's one way into the shop (`@shop/cms/engine`): the collections' slugs and
 * types and the few operations a pass runs besides watching the chain (its lease and unit of
 * work, the jobs queue with the deliveries of paid orders it runs, the notice of an order the
 * worker could not process, the chain source's health with its alert, the token ARC's callbacks
 * carry). Nothing from the
 * database layer (`db/`): each operation here keeps its engine's details to itself. Status
 * changes themselves go through the Orders collection, whose hooks keep the rules and queue
 * what a change causes (delivery, e-mails, webhooks): the worker records what the chain says
 * and runs the queue, it never delivers an order by itself.
 */
export { globalSlugs, slugs } from './collections/slugs'
export { armFault, faultPoint } from './faults'
export type { FaultPoint } from './faults'
export { countChainLook } from './operations/worker/chainLooks'
export { recordPaymentConfirmation } from './operations/worker/paymentConfirmation'
export { claimWorkerLease, releaseWorkerLease } from './operations/worker/workerLease'
export { asOneWorkUnit, inOneTransaction, settlesInGroups } from './operations/worker/workUnit'
export { checkChainAlert } from './operations/chainHealth/checkChainAlert'
export { recordChainHealth } from './operations/chainHealth/recordChainHealth'
export { arcCallbackRegistration, arcCallbackToken } from './operations/arcCallbacks/token'
export { ARC_CALLBACK_PATH } from './config/env'
export { loadEmailRenderer } from './email/renderOrderEmail'
export { queueMissingFulfilments } from './operations/fulfilment/fulfilmentJob'
export {
  clearOrderAttention,
  failureReason,
  markOrderAttention,
} from './operations/orders/orderAttention'
export { releaseOrphanedJobs, runDueJobs, runFulfilmentJobs, runMessageJobs } from './jobs'
export type * from './payload-types'

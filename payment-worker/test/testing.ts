/** Test support other folders' tests use (`@shop/payment-worker/testing`): the shop with its worker and chain. */
export * from './payments/support'
export { sharedShopEnv, spawnTs } from './payments/spawn'

/** Test support other workspaces' tests use (`@shop/cms/testing`): a real shop on a temporary database. */
export { startTestShop } from './testShop'
export type { TestShop, TestShopOptions } from './testShop'
export { TS_NODE_ARGS } from './nodeArgs'
export { s3Env, startLocalS3 } from './s3Server'
export type { LocalS3 } from './s3Server'
export { storedBookFile } from './bookFile'
export { adminClient, createStaff, signedIn, XHR } from '../admin/client'
export type { AdminClient } from '../admin/client'
export { releaseReservedStock } from '../../src/db/stock'
export { sqlite } from '../../src/db/engine'
export {
  api,
  createOrder,
  getOrder,
  paymentsOf,
  productIdOf,
  SHIPPING,
  waitFor,
  waitForStatus,
} from './shopApi'
export { blob, pdfDocument, pngImage, productForm, validFields } from '../admin/fixtures'
export { answeredWithout5xx, payloadWritesBesideCheckouts } from '../db/payloadWritesScenario'

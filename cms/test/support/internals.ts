/**
 * The shop's own parts that outside tests drive directly (`@shop/cms/testing/internals`).
 * Import it dynamically, after the test shop has set the process's settings: it reads them.
 */
export { adminRouter, listAdminRoutes } from '../../src/api/admin'
export { createOrder } from '../../src/operations/orders/createOrder'
export { env } from '../../src/config/runtime'

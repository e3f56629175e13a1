/**
 * The shop's HTTP side (`@shop/cms/app`), for whoever runs it or looks at it from outside: the
 * express app, the admin API's router with the list of its routes, and the checkout operation
 * the order route calls. Import it after the process's settings are set: the app reads them.
 */
export { createApp } from './server/app'
export type { CreateAppArgs } from './server/app'
export { adminRouter, listAdminRoutes } from './api/admin'
export { createOrder } from './operations/orders/createOrder'

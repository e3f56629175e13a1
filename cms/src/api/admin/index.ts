import { Router } from 'express'
import type { Payload } from 'payload'

import type { Logger } from '../../server/logger'
import { addressRoutes } from './addresses'
import { accountRoutes, loginRoute, statusRoute } from './auth'
import { requireSameOriginRequest } from './csrf'
import { dashboardRoutes } from './dashboard'
import { orderRoutes } from './orders'
import { productRoutes } from './products'
import { readStaffSession, requireAdmin } from './session'

export type AdminRouterOptions = {
  payload: Payload
  logger: Logger
  /** The shop's public origin, accepted as a request's Origin besides its own Host. */
  publicUrl: string
}

/**
 * The owners' API under /api/admin (spec section 7). Order matters and is the security model:
 * 1. the CSRF guard covers every state-changing call, login included;
 * 2. login and status answer for themselves;
 * 3. `requireAdmin` is then mounted once, so every route added below it is guarded: a new
 *    route cannot be added unguarded by forgetting a check.
 */
export function adminRouter({ payload, logger, publicUrl }: AdminRouterOptions): Router {
  const router = Router()
  router.use(requireSameOriginRequest({ publicUrl }))
  loginRoute(router, { payload, logger })
  router.use(readStaffSession({ payload }))
  statusRoute(router)

  router.use(requireAdmin)
  accountRoutes(router, { payload, logger })
  productRoutes(router, { payload, logger })
  orderRoutes(router, { payload, logger })
  addressRoutes(router, { payload })
  dashboardRoutes(router, { payload })
  return router
}

export type AdminRoute = { method: string; path: string }

/** Every route the admin router answers, read from the router itself (used by the tests). */
export function listAdminRoutes(router: Router): AdminRoute[] {
  type Layer = { route?: { path: string; methods: Record<string, boolean> } }
  return (router.stack as Layer[]).flatMap((layer) =>
    layer.route
      ? Object.keys(layer.route.methods)
          .filter((method) => layer.route!.methods[method])
          .map((method) => ({ method: method.toUpperCase(), path: layer.route!.path }))
      : [],
  )
}

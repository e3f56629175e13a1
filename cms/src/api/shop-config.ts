import { Router } from 'express'

import { env } from '../config/runtime'

/** GET /api/shop-config: the public settings the pay screen needs. */
export function shopConfigRouter(): Router {
  const router = Router()
  router.get('/', (_req, res) => {
    res.json({
      testMode: !env.isProduction,
      explorerTxUrl: env.explorerTxUrl,
      network: env.bsvNetwork,
    })
  })
  return router
}

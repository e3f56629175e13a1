import express, { Router } from 'express'
import type { Payload } from 'payload'

import { env } from '../config/runtime'
import type { Logger } from '../server/logger'
import { adminRouter } from './admin'
import { bsvPriceRouter } from './bsv-price'
import { apiErrorHandler } from './errors'
import { contentRouter } from './content'
import { ordersRouter } from './orders'
import { shopConfigRouter } from './shop-config'
import { testModeRouter } from './test-mode'

/**
 * The spec's /api (checkout's `POST /api/orders/create` has its own door, `checkoutRouter`).
 * Body parsers live here and there only: mounted globally they would consume the bodies
 * Payload's own routes under /cms need.
 */
export function apiRouter({ payload, logger }: { payload: Payload; logger: Logger }): Router {
  const router = Router()
  router.use(express.json({ limit: '64kb' }))
  router.use((_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store')
    next()
  })

  router.use('/admin', adminRouter({ payload, logger, publicUrl: env.publicUrl }))
  router.use(contentRouter({ payload }))
  router.use('/bsv-price', bsvPriceRouter({ logger }))
  router.use('/orders', ordersRouter({ payload }))
  router.use('/shop-config', shopConfigRouter())
  router.use('/test-mode', testModeRouter({ payload, logger }))

  router.use((_req, res) => {
    res.status(404).json({ error: 'Not found.' })
  })

  router.use(apiErrorHandler(logger))
  return router
}

import compression from 'compression'
import express, { Router } from 'express'
import type { Payload } from 'payload'
import { pinoHttp } from 'pino-http'

import { env } from '../config/runtime'
import type { Catalogue } from '../operations/products/catalogue'
import type { Logger } from '../server/logger'
import { requestLevel, requestLogOptions } from '../server/requestLog'
import { adminRouter } from './admin'
import { arcCallbackRouter } from './arc-callback'
import { bsvPriceRouter } from './bsv-price'
import { apiErrorHandler } from './errors'
import { contentRouter } from './content'
import { checkoutRouter, ordersRouter } from './orders'
import { productsRouter } from './products'
import { resendLinksRouter } from './resend-links'
import { shopConfigRouter } from './shop-config'
import { testModeRouter } from './test-mode'

/**
 * Every route of the shop's /api, in the spec's order (section 7), then the routes the spec
 * does not list (site texts, the shop's settings, test mode, the receiver of ARC's callbacks).
 *
 * The catalogue and checkout come first and each has its own door: they are the hot paths under
 * a rush, answered without pino-http's per-request logger and compression's wrapping (checkout
 * writes the same request line itself; the catalogue keeps a gzip per version). The rest share
 * one request log, compression, `no-store` and the JSON body parser. Body parsers live here and
 * only here: mounted globally they would consume the bodies Payload's routes under /cms need.
 */
export function apiRouter({
  payload,
  logger,
  catalogue,
}: {
  payload: Payload
  logger: Logger
  catalogue: Catalogue
}): Router {
  const router = Router()

  router.use('/products', productsRouter({ catalogue, logger }))
  router.use('/orders/create', checkoutRouter({ payload, logger }))

  router.use(
    pinoHttp({
      logger,
      customLogLevel: (_req, res, err) => requestLevel(res.statusCode, err),
      ...requestLogOptions,
    }),
  )
  router.use(compression())
  router.use(express.json({ limit: '64kb' }))
  router.use((_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store')
    next()
  })

  router.use('/bsv-price', bsvPriceRouter({ logger }))
  router.use('/orders/resend-links', resendLinksRouter({ payload }))
  router.use('/orders', ordersRouter({ payload }))
  router.use(contentRouter({ payload }))
  router.use('/shop-config', shopConfigRouter())
  router.use('/admin', adminRouter({ payload, logger, publicUrl: env.publicUrl }))
  router.use('/test-mode', testModeRouter({ payload, logger }))
  router.use('/arc/callback', arcCallbackRouter({ payload }))

  router.use((_req, res) => {
    res.status(404).json({ error: 'Not found.' })
  })

  router.use(apiErrorHandler(logger))
  return router
}

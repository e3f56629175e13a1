import express, { Router } from 'express'
import type { ErrorRequestHandler } from 'express'
import type { Payload } from 'payload'

import { env } from '../config/runtime'
import type { Logger } from '../server/logger'
import { adminRouter } from './admin'
import { bsvPriceRouter } from './bsv-price'
import { contentRouter } from './content'
import { ordersRouter } from './orders'
import { shopConfigRouter } from './shop-config'
import { testModeRouter } from './test-mode'

/**
 * The spec's /api. Body parsers live here only: mounted globally they would consume the
 * bodies Payload's own routes under /cms need.
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
  router.use('/orders', ordersRouter({ payload, logger }))
  router.use('/shop-config', shopConfigRouter())
  router.use('/test-mode', testModeRouter({ payload, logger }))

  router.use((_req, res) => {
    res.status(404).json({ error: 'Not found.' })
  })

  const onError: ErrorRequestHandler = (err, req, res, _next) => {
    const status =
      typeof err?.status === 'number'
        ? err.status
        : typeof err?.statusCode === 'number'
          ? err.statusCode
          : 500
    if (status >= 400 && status < 500) {
      const message =
        err.type === 'entity.parse.failed'
          ? 'Request body is not valid JSON.'
          : err.type === 'entity.too.large'
            ? 'Request body is too large.'
            : err.expose && err.message
              ? String(err.message)
              : 'Bad request.'
      res.status(status).json({ error: message })
      return
    }
    logger.error({ err, path: req.path }, 'api request failed')
    res.status(500).json({ error: 'Internal server error.' })
  }
  router.use(onError)
  return router
}

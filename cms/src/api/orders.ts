import { createOrderRequestSchema, SHOP_BUSY } from '@shop/domain'
import express, { Router } from 'express'
import { rateLimit } from 'express-rate-limit'
import type { Payload } from 'payload'

import { env } from '../config/runtime'
import { OrderRequestError, createOrder } from '../operations/orders/createOrder'
import { getOrderInfo, getPaymentStatus } from '../operations/orders/getOrderView'
import { RateUnavailableError } from '@shop/chain'
import { admissionGate } from '../server/admission'
import type { Logger } from '../server/logger'
import { DatabaseRateLimitStore } from '../server/rateLimitStore'
import { logEachRequest } from '../server/requestLog'
import { apiErrorHandler } from './errors'

/**
 * POST /api/orders/create (spec section 7), rate limited per client (ORDER_CREATE_RATE_LIMIT a
 * minute). Mounted ahead of the shared request log and compression, as the catalogue is: under a
 * rush pino-http's per-request logger and compression's wrapping of a 60-byte answer would cost a
 * tenth of each checkout. It writes the same request line itself (`logEachRequest`), parses
 * its own body and answers bad JSON as the rest of /api does.
 */
export function checkoutRouter({ payload, logger }: { payload: Payload; logger: Logger }): Router {
  const router = Router()
  router.use(logEachRequest(logger))
  router.use((_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store')
    next()
  })

  const createLimit = rateLimit({
    store: new DatabaseRateLimitStore(payload, 'order-create'),
    windowMs: 60_000,
    limit: env.orderCreateRateLimit,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    handler: (_req, res) => {
      res.status(429).json({
        success: false,
        error: 'Too many orders from your connection. Please wait a minute and try again.',
      })
    },
  })

  // A saturated shop says so at once; the checkout screen waits Retry-After and tries again.
  const admission = admissionGate({
    ...env.checkout,
    busy: (res, retryAfterSeconds) => {
      res
        .status(503)
        .set('Retry-After', String(retryAfterSeconds))
        .json({ success: false, error: SHOP_BUSY })
    },
  })

  router.post('/', admission, createLimit, express.json({ limit: '64kb' }), async (req, res) => {
    const parsed = createOrderRequestSchema.safeParse(req.body ?? {})
    if (!parsed.success) {
      const field = parsed.error.issues[0]?.path.join('.') ?? 'request'
      const message =
        field === 'userEmail'
          ? 'Please enter a valid email address.'
          : field === 'productId'
            ? 'Please choose a book.'
            : `Invalid ${field}.`
      res.status(400).json({ success: false, error: message })
      return
    }
    try {
      const { orderId } = await createOrder({
        payload,
        env,
        input: parsed.data,
        clientAddress: req.ip ?? req.socket.remoteAddress ?? 'unknown',
      })
      logger.info({ orderId }, 'order created')
      res.status(201).json({ success: true, orderId })
    } catch (error) {
      if (error instanceof OrderRequestError) {
        res.status(error.status).json({ success: false, error: error.message })
        return
      }
      if (error instanceof RateUnavailableError) {
        logger.warn({ causes: error.causes }, 'order refused: no BSV rate')
        res.status(503).json({ success: false, error: error.message })
        return
      }
      logger.error({ err: error }, 'order creation failed')
      res.status(500).json({ success: false, error: 'Failed to create order.' })
    }
  })

  router.use(apiErrorHandler(logger))
  return router
}

/** GET /api/orders/:orderId/info, GET /api/orders/:orderId/payment-status (spec section 7). */
export function ordersRouter({ payload }: { payload: Payload }): Router {
  const router = Router()

  router.get('/:orderId/info', async (req, res) => {
    const info = await getOrderInfo({ payload, orderId: req.params.orderId })
    if (!info) {
      res.status(404).json({ error: 'Order not found.' })
      return
    }
    res.json(info)
  })

  router.get('/:orderId/payment-status', async (req, res) => {
    const status = await getPaymentStatus({ payload, orderId: req.params.orderId })
    if (!status) {
      res.status(404).json({ error: 'Order not found.' })
      return
    }
    res.json(status)
  })

  return router
}

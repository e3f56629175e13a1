import { bsvToSatoshis, testModePayRequestSchema } from '@shop/domain'
import { Router } from 'express'
import type { Payload } from 'payload'

import { createWhatsOnChainClient } from '@shop/chain'
import { mineOnSimulator, payFromTestWallet } from '@shop/chain/simulator'
import { env } from '../config/runtime'
import { findOrder } from '../operations/orders/getOrderView'
import type { Logger } from '../server/logger'

/**
 * Test mode only (404 in production, and when the chain source is not the simulator):
 * POST /api/test-mode/orders/:orderId/pay { amountBSV? } pays the order's address from the
 * simulator's test wallet (the remaining amount by default); POST /api/test-mode/mine mines a block.
 */
export function testModeRouter({ payload, logger }: { payload: Payload; logger: Logger }): Router {
  const router = Router()
  const enabled = !env.isProduction && env.chainSource === 'simulator'
  let chain: ReturnType<typeof createWhatsOnChainClient> | undefined
  const chainClient = () =>
    (chain ??= createWhatsOnChainClient({
      baseUrl: env.wocApiUrl,
      maxRequestsPerSecond: env.wocMaxRequestsPerSecond,
      retries: 0,
    }))

  router.use((_req, res, next) => {
    if (!enabled) {
      res.status(404).json({ error: 'Not found.' })
      return
    }
    next()
  })

  router.post('/orders/:orderId/pay', async (req, res) => {
    const parsed = testModePayRequestSchema.safeParse(req.body ?? {})
    if (!parsed.success) {
      res.status(400).json({ error: parsed.error.issues[0]?.message ?? 'Invalid amountBSV.' })
      return
    }
    const order = await findOrder(payload, req.params.orderId)
    if (!order) {
      res.status(404).json({ error: 'Order not found.' })
      return
    }
    const satoshis = parsed.data.amountBSV
      ? bsvToSatoshis(parsed.data.amountBSV)
      : order.amountSatoshiExpected - (order.amountSatoshiReceived ?? 0)
    if (satoshis <= 0) {
      res.status(409).json({ error: 'Nothing left to pay on this order.' })
      return
    }
    try {
      const txid = await payFromTestWallet({
        chain: chainClient(),
        wocUrl: env.wocApiUrl,
        network: env.bsvNetwork,
        address: order.paymentAddress,
        satoshis,
      })
      logger.info(
        { orderId: order.id, satoshis, txid },
        'test mode: order paid from the simulator wallet',
      )
      res.json({ txid })
    } catch (error) {
      logger.warn({ err: error, orderId: order.id }, 'test mode payment failed')
      res.status(502).json({
        error: 'The chain simulator is not reachable. Is it running (npm start starts it)?',
      })
    }
  })

  router.post('/mine', async (_req, res) => {
    try {
      res.json({ height: await mineOnSimulator({ wocUrl: env.wocApiUrl }) })
    } catch (error) {
      logger.warn({ err: error }, 'test mode mining failed')
      res.status(502).json({
        error: 'The chain simulator is not reachable. Is it running (npm start starts it)?',
      })
    }
  })

  return router
}

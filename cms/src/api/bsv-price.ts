import { Router } from 'express'

import { env } from '../config/runtime'
import { RateUnavailableError, rateProviderFor } from '@shop/chain'
import type { Logger } from '../server/logger'

/** GET /api/bsv-price -> { rate } (EUR per BSV), or 503 { error } when no rate source answers. */
export function bsvPriceRouter({ logger }: { logger: Logger }): Router {
  const router = Router()
  router.get('/', async (_req, res) => {
    try {
      res.json({ rate: await rateProviderFor(env).getRate() })
    } catch (error) {
      if (!(error instanceof RateUnavailableError)) throw error
      logger.warn({ causes: error.causes }, 'no BSV rate source answered')
      res.status(503).json({ error: error.message })
    }
  })
  return router
}

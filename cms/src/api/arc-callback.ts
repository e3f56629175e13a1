import { readArcCallbacks, UnreadableCallback } from '@shop/chain'
import { Router } from 'express'
import type { Payload } from 'payload'

import { env } from '../config/runtime'
import { keepArcCallbacks } from '../operations/arcCallbacks/keepArcCallbacks'
import { hasArcCallbackToken } from '../operations/arcCallbacks/token'

/**
 * POST /api/arc/callback: ARC's Callbacker tells the shop that a payment it follows changed
 * status (chain/src/arc/callback.ts: one Callback, or a batch of at most 50). Only ARC knows
 * the token the worker registered (operations/arcCallbacks/token.ts), so a request without it
 * is refused 401, and a body that is no callback 400 with the reason. A callback is kept for
 * the payment worker, which then asks ARC about that payment at once: the callback itself never
 * changes a payment, an order or a stock count. 200 `{ received }` once every one is stored
 * (ARC sends again whatever is not answered 2xx). 404 while the shop registers no callbacks
 * (no ARC, or ARC_CALLBACK_URL=off).
 */
export function arcCallbackRouter({ payload }: { payload: Payload }): Router {
  const router = Router()
  router.post('/', async (req, res) => {
    if (!env.arcCallbackUrl) {
      res.status(404).json({ error: 'Not found.' })
      return
    }
    if (!hasArcCallbackToken(payload, req.headers.authorization)) {
      res
        .status(401)
        .set('WWW-Authenticate', 'Bearer')
        .json({ error: "ARC's callbacks need the shop's callback token." })
      return
    }
    let callbacks
    try {
      callbacks = readArcCallbacks(req.body)
    } catch (error) {
      if (!(error instanceof UnreadableCallback)) throw error
      res.status(400).json({ error: `Not an ARC callback: ${error.message}.` })
      return
    }
    await keepArcCallbacks(payload, callbacks)
    res.json({ received: callbacks.length })
  })
  return router
}

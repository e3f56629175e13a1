import { EMAIL_RULE, RESEND_LINKS_ANSWER, resendLinksRequestSchema } from '@shop/domain'
import type { Response } from 'express'
import { Router } from 'express'
import { rateLimit } from 'express-rate-limit'
import type { Payload } from 'payload'

import { env } from '../config/runtime'
import { requestDownloadLinks } from '../operations/fulfilment/newDownloadLinks'
import { DatabaseRateLimitStore } from '../server/rateLimitStore'

/**
 * Every valid request is answered no sooner than this after it arrived. The request only counts
 * the client and the address and queues a job (the same writes whether or not the address
 * bought anything; the job looks the orders up), and the floor hides what is left: a limited
 * request, which skips the job, takes as long as one that queues it.
 */
export const RESEND_ANSWER_FLOOR_MS = 400

const answerAfterFloor = async (res: Response) => {
  const wait = Number(res.locals.startedAt) + RESEND_ANSWER_FLOOR_MS - Date.now()
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait))
  res.json(RESEND_LINKS_ANSWER)
}

/**
 * POST /api/orders/resend-links { email }: a buyer who lost their download link asks for a new
 * one. 200 with one fixed body for any valid address (known or not, limited or not), so the
 * answer never tells who bought the book; 400 for a malformed body. Limited per client
 * (DOWNLOAD_RATE_LIMIT a minute, as the download links themselves) and per address
 * (LINK_RESENDS_PER_ADDRESS_PER_HOUR): a limited request gets the same answer and sends nothing.
 */
export function resendLinksRouter({ payload }: { payload: Payload }): Router {
  const router = Router()
  const perClient = rateLimit({
    store: new DatabaseRateLimitStore(payload, 'link-resend'),
    windowMs: 60_000,
    limit: env.downloadRateLimit,
    // No rate headers: they would tell a limited answer from another.
    standardHeaders: false,
    legacyHeaders: false,
    handler: (_req, res) => answerAfterFloor(res),
  })

  router.post(
    '/',
    (req, res, next) => {
      res.locals.startedAt = Date.now()
      const parsed = resendLinksRequestSchema.safeParse(req.body ?? {})
      if (!parsed.success) {
        res.status(400).json({ error: EMAIL_RULE })
        return
      }
      res.locals.email = parsed.data.email
      next()
    },
    perClient,
    async (_req, res) => {
      await requestDownloadLinks({
        payload,
        email: String(res.locals.email),
        perAddressPerHour: env.linkResendsPerAddressPerHour,
      })
      await answerAfterFloor(res)
    },
  )
  return router
}

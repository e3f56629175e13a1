import path from 'node:path'

import { Router } from 'express'
import { rateLimit } from 'express-rate-limit'
import type { Payload } from 'payload'

import { slugs } from '../collections/slugs'
import { env } from '../config/runtime'
import { consumeDownloadUse } from '../db/downloadTokens'
import { hashDownloadToken } from '../operations/fulfilment/downloadTokens'
import { digitalFileOf } from '../operations/fulfilment/fulfilOrder'
import type { DownloadToken } from '../payload-types'
import { fileStoreOf } from '../storage'
import type { Logger } from '../server/logger'
import { DatabaseRateLimitStore } from '../server/rateLimitStore'

const page = (title: string, message: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${title}</title>` +
  `<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;line-height:1.5}a{color:#0b5cad}</style></head>` +
  `<body><h1>${title}</h1><p>${message}</p><p><a href="/store">Back to the store</a></p></body></html>`

const MESSAGES = {
  unknown: [
    404,
    'Download link not found',
    'This download link is not valid. Please check the link in your e-mail.',
  ],
  expired: [
    410,
    'Download link expired',
    'This download link has expired. Please contact support with your order id.',
  ],
  'used-up': [
    410,
    'Download limit reached',
    'This download link has been used the maximum number of times. Please contact support with your order id.',
  ],
  missing: [
    404,
    'File not available',
    'The file for this book is not available right now. Please contact support with your order id.',
  ],
} as const

/** Whether a link works, without using it (for HEAD: link checkers and mail scanners). */
async function downloadLinkState(
  payload: Payload,
  tokenHash: string,
): Promise<'ok' | keyof typeof MESSAGES> {
  const found = await payload.find({
    collection: slugs.downloadTokens,
    where: { tokenHash: { equals: tokenHash } },
    limit: 1,
    depth: 0,
  })
  const token = found.docs[0] as DownloadToken | undefined
  if (!token) return 'unknown'
  if (new Date(token.expiresAt).getTime() <= Date.now()) return 'expired'
  return token.uses >= token.maxUses ? 'used-up' : 'ok'
}

/** GET /download/pdf/:token: streams the purchased file, consuming one use atomically. */
export function downloadRouter({ payload, logger }: { payload: Payload; logger: Logger }): Router {
  const router = Router()
  // Per client, valid links or not: a buyer needs a handful, a prober thousands.
  const limiter = rateLimit({
    store: new DatabaseRateLimitStore(payload, 'download'),
    windowMs: 60_000,
    limit: env.downloadRateLimit,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    handler: (_req, res) => {
      res
        .status(429)
        .type('html')
        .send(
          page(
            'Too many download attempts',
            'Too many download attempts from your connection. Please wait a minute and try again.',
          ),
        )
    },
  })
  router.get('/pdf/:token', limiter, async (req, res) => {
    res.setHeader('Cache-Control', 'no-store')
    res.setHeader('Referrer-Policy', 'no-referrer')
    const token = String(req.params.token)
    const reply = (kind: keyof typeof MESSAGES) => {
      const [status, title, message] = MESSAGES[kind]
      res.status(status).type('html').send(page(title, message))
    }
    if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return reply('unknown')
    if (req.method === 'HEAD') {
      const state = await downloadLinkState(payload, hashDownloadToken(token))
      return state === 'ok' ? res.status(200).end() : reply(state)
    }
    const use = await consumeDownloadUse({ payload, tokenHash: hashDownloadToken(token) })
    if (!use.ok) return reply(use.reason)
    const store = fileStoreOf(env)
    const file = await digitalFileOf({ payload, productId: use.productId, store })
    const stored = file && (await store.open('files', file.filename))
    if (!file || !stored) {
      logger.error({ orderId: use.orderId }, 'download refused: the digital file is missing')
      return reply('missing')
    }
    logger.info({ orderId: use.orderId }, 'download served')
    // A use is spent: the whole book is sent whatever the request asks (no ranges, no
    // conditions: a 206, 304, 412 or 416 would spend the use without delivering it).
    res.attachment(path.basename(file.filename))
    res.type(file.mimeType)
    if (stored.size !== undefined) res.setHeader('Content-Length', String(stored.size))
    res.setHeader('Accept-Ranges', 'none')
    stored.body.on('error', (error) => {
      logger.error({ err: error, orderId: use.orderId }, 'download interrupted')
      res.destroy(error)
    })
    stored.body.pipe(res)
  })
  return router
}

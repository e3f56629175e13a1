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

/** Where a buyer whose link no longer works asks for a new one (the storefront's page). */
export const RESEND_LINK_PATH = '/resend-link'

/**
 * The page a refused link shows, in the shop's look (its colours, header and card, from the
 * storefront's design tokens) without the storefront's script: it must read well where the
 * download started, in any browser, even with scripts off.
 */
const page = (title: string, message: string, action: { href: string; label: string } | null) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${title} · Dual Vote</title>` +
  `<style>*{box-sizing:border-box}body{margin:0;min-height:100vh;display:flex;flex-direction:column;font-family:system-ui,-apple-system,'Segoe UI',Roboto,'Helvetica Neue',Arial,sans-serif;color:#172033;background:#f6f7fa;line-height:1.6}` +
  `header{background:#13213d;color:#fff}.bar{max-width:1200px;margin:0 auto;padding:0 20px;min-height:64px;display:flex;align-items:center}` +
  `.brand{display:inline-flex;align-items:center;gap:10px;color:#fff;text-decoration:none;font-weight:700;font-size:1.15rem}` +
  `.mark{width:34px;height:22px;background:radial-gradient(circle at 11px 11px,transparent 7px,#f5c04a 7.5px,#f5c04a 10px,transparent 10.5px),radial-gradient(circle at 23px 11px,transparent 7px,#f5c04a 7.5px,#f5c04a 10px,transparent 10.5px)}` +
  `main{flex:1;width:100%;max-width:640px;margin:0 auto;padding:48px 20px 64px}` +
  `.card{background:#fff;border:1px solid #d7dce6;border-radius:12px;box-shadow:0 1px 2px rgba(16,24,40,.06),0 4px 16px rgba(16,24,40,.06);padding:28px 24px;text-align:center}` +
  `h1{color:#0d1830;font-size:clamp(1.5rem,5vw,2.2rem);line-height:1.2;margin:0 0 .6em}p{margin:0 0 1em}a{color:#1d4ed8}` +
  `.actions{display:flex;flex-wrap:wrap;gap:12px;justify-content:center;margin-top:8px}` +
  `.button{display:inline-flex;align-items:center;justify-content:center;min-height:44px;padding:10px 20px;border-radius:10px;font-weight:600;text-decoration:none;border:1px solid transparent}` +
  `.button--primary{background:#13213d;color:#fff}.button--primary:hover{background:#1d3157}.button--ghost{border-color:currentColor;color:#13213d}` +
  `a:focus-visible{outline:none;box-shadow:0 0 0 3px #fff,0 0 0 6px #1d4ed8}</style></head>` +
  `<body><header><div class="bar"><a class="brand" href="/"><span class="mark" aria-hidden="true"></span><span>Dual Vote</span></a></div></header>` +
  `<main><div class="card"><h1>${title}</h1><p>${message}</p><div class="actions">` +
  (action ? `<a class="button button--primary" href="${action.href}">${action.label}</a>` : '') +
  `<a class="button button--ghost" href="/store">Back to the store</a></div></div></main></body></html>`

const NEW_LINK = { href: RESEND_LINK_PATH, label: 'Get a new download link' }

const MESSAGES = {
  unknown: [
    404,
    'Download link not found',
    'This download link is not valid. Please check the link in your e-mail, or ask for a new one with the e-mail address you bought with.',
    NEW_LINK,
  ],
  expired: [
    410,
    'Download link expired',
    'This download link has expired: each link works for a limited time. Your purchase is not lost: ask for a new link and we e-mail it to the address you bought with.',
    NEW_LINK,
  ],
  'used-up': [
    410,
    'Download limit reached',
    'This download link has been used the maximum number of times. Your purchase is not lost: ask for a new link and we e-mail it to the address you bought with.',
    NEW_LINK,
  ],
  missing: [
    404,
    'File not available',
    'The file for this book is not available right now. Please contact support with your order id.',
    null,
  ],
} as const

/** Why a link was refused, for the success page's check (HEAD): the page's own state, no secret. */
export const DOWNLOAD_STATE_HEADER = 'Download-Link-State'

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
            null,
          ),
        )
    },
  })
  router.get('/pdf/:token', limiter, async (req, res) => {
    res.setHeader('Cache-Control', 'no-store')
    res.setHeader('Referrer-Policy', 'no-referrer')
    const token = String(req.params.token)
    const reply = (kind: keyof typeof MESSAGES) => {
      const [status, title, message, action] = MESSAGES[kind]
      res.setHeader(DOWNLOAD_STATE_HEADER, kind)
      res
        .status(status)
        .type('html')
        .send(page(title, message, action))
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

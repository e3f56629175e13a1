import { Router } from 'express'
import type { Payload } from 'payload'

import { slugs } from '../collections/slugs'
import { env } from '../config/runtime'
import {
  escapeHtml,
  renderChainOutageEmail,
  renderDownloadLinksEmail,
  renderOrderEmail,
  shopInfoOf,
} from '../email/renderOrderEmail'
import { renderOutboxMessage } from '../email/sendOutboxEmail'
import { EMAIL_KINDS, isOrderEmailKind } from '../collections/EmailOutbox'
import type { PreviewVariant } from '../email/preview'
import {
  isPreviewKind,
  previewVariantsOf,
  sampleChainOutage,
  sampleDownload,
  sampleDownloadLinks,
  sampleOrder,
} from '../email/preview'
import type { EmailOutbox } from '../payload-types'
import type { Logger } from '../server/logger'

const PAGE_SIZE = 50

/**
 * Test mode only (404 in production): GET /test-mode/outbox, the developer's mailbox. It lists
 * the newest buyer e-mails of the outbox, sent or still pending, each rendered exactly as the
 * worker sends it, with working links back to the pay screen and to the PDF download.
 */
export function testModeOutboxRouter({
  payload,
  logger,
}: {
  payload: Payload
  logger: Logger
}): Router {
  const router = Router()

  router.get('/outbox', async (_req, res) => {
    if (env.isProduction) {
      res.status(404).type('text/plain').send('Not found.')
      return
    }
    try {
      const rows = await payload.find({
        collection: slugs.emailOutbox,
        sort: '-createdAt',
        limit: PAGE_SIZE,
        depth: 0,
        overrideAccess: true,
      })
      const messages = await Promise.all(
        (rows.docs as EmailOutbox[]).map(async (row) => ({
          row,
          email: await renderOutboxMessage({
            payload,
            message: row,
            shop: shopInfoOf(env),
            chain: env,
          }),
        })),
      )
      res.setHeader('Cache-Control', 'no-store')
      // The e-mails show their images from PUBLIC_URL, as a mail client loads them: allowed here
      // even when the page is opened under another name for the shop (127.0.0.1, a test port).
      res.setHeader(
        'Content-Security-Policy',
        withImagesFrom(res.getHeader('Content-Security-Policy'), env.publicUrl),
      )
      res.type('html').send(outboxPage(messages, rows.totalDocs))
    } catch (error) {
      logger.error({ err: error }, 'test mode outbox page failed')
      res.status(500).type('text/plain').send('The outbox could not be read.')
    }
  })

  // The templates, with made-up orders: every kind for a PDF and a printed book (the chain
  // source alert once), as HTML or as the plain-text part.
  router.get('/emails', (_req, res) => {
    if (env.isProduction) {
      res.status(404).type('text/plain').send('Not found.')
      return
    }
    res.setHeader('Cache-Control', 'no-store')
    res.type('html').send(previewIndexPage())
  })

  router.get('/emails/:kind/:variant', async (req, res) => {
    const { kind, variant } = req.params
    if (
      env.isProduction ||
      !isPreviewKind(kind) ||
      !(previewVariantsOf(kind) as readonly string[]).includes(variant)
    ) {
      res.status(404).type('text/plain').send('Not found.')
      return
    }
    const shop = shopInfoOf(env)
    const email = isOrderEmailKind(kind)
      ? await renderOrderEmail({
          kind,
          order: sampleOrder(kind, variant as PreviewVariant),
          shop,
          download: sampleDownload(shop, kind, variant as PreviewVariant),
        })
      : kind === 'download-links'
        ? await renderDownloadLinksEmail({ shop, links: sampleDownloadLinks(shop, variant) })
        : await renderChainOutageEmail({ shop, outage: sampleChainOutage(env) })
    res.setHeader('Cache-Control', 'no-store')
    if (req.query.format === 'text') {
      res.type('text/plain').send(`Subject: ${email.subject}\n\n${email.text}`)
      return
    }
    res.type('html').send(email.html)
  })

  return router
}

function previewIndexPage(): string {
  const rows = EMAIL_KINDS.flatMap((kind) =>
    previewVariantsOf(kind).map(
      (variant) =>
        `<tr><td>${kind}</td><td>${variant}</td><td><a href="/test-mode/emails/${kind}/${variant}">HTML</a> · <a href="/test-mode/emails/${kind}/${variant}?format=text">text</a></td></tr>`,
    ),
  ).join('\n')
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>E-mail templates</title>
<style>body{font-family:system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;color:#1b2540}
table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #d5d9e2;padding:.5rem;text-align:left}</style>
</head><body><h1>E-mail templates</h1>
<p>Every message the shop sends, with a made-up order (or chain source outage), as HTML and as its plain-text part. The messages really sent are on the <a href="/test-mode/outbox">outbox</a>.</p>
<table><thead><tr><th>Message</th><th>Variant</th><th>Preview</th></tr></thead><tbody>
${rows}
</tbody></table></body></html>`
}

type Message = { row: EmailOutbox; email: Awaited<ReturnType<typeof renderOrderEmail>> | null }

function outboxPage(messages: Message[], total: number): string {
  const items = messages
    .map(({ row, email }) => {
      const state =
        row.status === 'sent'
          ? `sent ${escapeHtml(row.sentAt ?? '')}`
          : `pending, ${row.attempts} attempt(s)${row.lastError ? `: ${escapeHtml(row.lastError)}` : ''}`
      const body = email
        ? `<div class="body">${email.html.replace(/^.*<body[^>]*>|<\/body>.*$/gs, '')}</div>`
        : '<p class="body">The order of this message no longer exists.</p>'
      return `<article>
<h2>${escapeHtml(email?.subject ?? row.kind)}</h2>
<p class="meta">To <strong>${escapeHtml(row.to)}</strong> · ${escapeHtml(row.kind)} · ${escapeHtml(row.createdAt)} · ${state}</p>
${body}
</article>`
    })
    .join('\n')
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Test-mode outbox</title>
<style>
body{font-family:system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;color:#1b2540}
header p{color:#555}article{border:1px solid #d5d9e2;border-radius:8px;padding:1rem;margin:1rem 0}
h2{font-size:1.1rem;margin:0 0 .25rem}.meta{font-size:.85rem;color:#555;margin:0 0 .5rem}
.body p{margin:.4rem 0;overflow-wrap:anywhere}
</style></head><body>
<header><h1>Test-mode outbox</h1>
<p>Templates: <a href="/test-mode/emails">preview every e-mail</a>.</p>
<p>The buyer e-mails of this test shop (${total} in all, newest first${total > PAGE_SIZE ? `, the latest ${PAGE_SIZE} shown` : ''}). No mail leaves this machine in test mode; production sends them through SMTP.</p></header>
${items || '<p>No e-mails yet. Place an order in the store and it appears here.</p>'}
</body></html>`
}

/** The page's policy with the shop's public origin added to where images may come from. */
function withImagesFrom(policy: unknown, publicUrl: string): string {
  const origin = new URL(publicUrl).origin
  return String(policy ?? "img-src 'self'").replace(/img-src ([^;]*)/, `img-src $1 ${origin}`)
}

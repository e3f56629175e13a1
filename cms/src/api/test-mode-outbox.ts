import { Router } from 'express'
import type { Payload } from 'payload'

import { slugs } from '../collections/slugs'
import { env } from '../config/runtime'
import { downloadUrlOf } from '../operations/fulfilment/downloadTokens'
import { escapeHtml, renderOrderEmail } from '../operations/email/renderOrderEmail'
import type { EmailOutbox, Order } from '../payload-types'
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
        (rows.docs as EmailOutbox[]).map(async (row) => {
          const orderId = typeof row.order === 'object' ? row.order.id : row.order
          const order = (await payload
            .findByID({ collection: slugs.orders, id: orderId, depth: 0, disableErrors: true })
            .catch(() => null)) as Order | null
          if (!order) return { row, email: null }
          const downloadUrl =
            row.kind === 'order-paid' ? await downloadUrlOf(payload, orderId) : null
          return {
            row,
            email: renderOrderEmail({
              kind: row.kind,
              order,
              publicUrl: env.publicUrl,
              downloadUrl,
            }),
          }
        }),
      )
      res.setHeader('Cache-Control', 'no-store')
      res.type('html').send(outboxPage(messages, rows.totalDocs))
    } catch (error) {
      logger.error({ err: error }, 'test mode outbox page failed')
      res.status(500).type('text/plain').send('The outbox could not be read.')
    }
  })

  return router
}

type Message = { row: EmailOutbox; email: ReturnType<typeof renderOrderEmail> | null }

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
<p>The buyer e-mails of this test shop (${total} in all, newest first${total > PAGE_SIZE ? `, the latest ${PAGE_SIZE} shown` : ''}). No mail leaves this machine in test mode; production sends them through SMTP.</p></header>
${items || '<p>No e-mails yet. Place an order in the store and it appears here.</p>'}
</body></html>`
}

import type { ReactElement } from 'react'

import type { OrderEmailKind } from '../collections/EmailOutbox'
import type { Env } from '../config/env'
import type { Order } from '../payload-types'
import type { ChainOutage, DownloadLink, OrderDownloadLink, ShopInfo } from './templates'

export type RenderedEmail = { subject: string; text: string; html: string }

export const escapeHtml = (s: string): string =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  )

/** Who the e-mails come from, from the settings. */
export function shopInfoOf(
  env: Pick<Env, 'shopName' | 'publicUrl' | 'supportEmail' | 'explorerTxUrl'>,
): ShopInfo {
  return {
    name: env.shopName,
    publicUrl: env.publicUrl,
    supportEmail: env.supportEmail,
    explorerTxUrl: env.explorerTxUrl,
  }
}

const loadRenderer = () => Promise.all([import('@react-email/components'), import('./templates')])
let renderer: ReturnType<typeof loadRenderer> | undefined

/**
 * React Email and the templates, loaded once. The web process never needs them; the payment
 * worker, which sends the e-mails, loads them as it starts, so no pass waits for them while a
 * payment is being looked for.
 */
export const loadEmailRenderer = () => (renderer ??= loadRenderer())

/**
 * A template's message as HTML and as its plain-text part: rendered once, the text read off the
 * HTML (as React Email's own plain-text rendering does, without rendering the template again).
 */
async function rendered(
  { render, toPlainText }: Awaited<ReturnType<typeof loadRenderer>>[0],
  { subject, element }: { subject: string; element: ReactElement },
): Promise<RenderedEmail> {
  const html = await render(element)
  return { subject, html, text: toPlainText(html.replace(/^<!DOCTYPE[^>]*>/, '')) }
}

/**
 * The three buyer e-mails about an order and the owner's two alerts (email/templates, React Email): HTML for
 * mail clients and the same message as plain text. Links are absolute (PUBLIC_URL). React Email
 * and the templates load on the first e-mail, not at start (a production start spent half a
 * second on them; the bundle keeps them in a chunk of their own).
 */
export async function renderOrderEmail({
  kind,
  order,
  shop,
  download = null,
}: {
  kind: OrderEmailKind
  order: Order
  shop: ShopInfo
  download?: DownloadLink | null
}): Promise<RenderedEmail> {
  const [reactEmail, { EMAIL_TEMPLATES }] = await loadEmailRenderer()
  return rendered(reactEmail, EMAIL_TEMPLATES[kind]({ shop, order, download }))
}

/** The owner's alert that no look at the chain succeeds (email/templates/ChainSourceDown.tsx). */
export async function renderChainOutageEmail({
  outage,
  shop,
}: {
  outage: ChainOutage
  shop: ShopInfo
}): Promise<RenderedEmail> {
  const [reactEmail, { chainSourceDown }] = await loadEmailRenderer()
  return rendered(reactEmail, chainSourceDown({ shop, outage }))
}

/** The buyer's fresh download links, one per paid PDF order (email/templates, `downloadLinks`). */
export async function renderDownloadLinksEmail({
  links,
  shop,
}: {
  links: OrderDownloadLink[]
  shop: ShopInfo
}): Promise<RenderedEmail> {
  const [reactEmail, { downloadLinks }] = await loadEmailRenderer()
  return rendered(reactEmail, downloadLinks({ shop, links }))
}

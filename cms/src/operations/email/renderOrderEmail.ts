import { formatBSV, isPhysical } from '@shop/domain'

import type { EmailKind } from '../../collections/EmailOutbox'
import type { Order } from '../../payload-types'

export type RenderedEmail = { subject: string; text: string; html: string }

export const escapeHtml = (s: string): string =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  )

function toHtml(lines: string[]): string {
  const linked = lines.map((line) =>
    escapeHtml(line).replace(/(https?:\/\/[^\s<]+)/g, (url) => `<a href="${url}">${url}</a>`),
  )
  return `<!doctype html><html><body style="font-family:sans-serif">${linked.map((l) => `<p>${l}</p>`).join('')}</body></html>`
}

/** The three buyer e-mails and the owner's two alerts. Links are absolute (PUBLIC_URL). */
export function renderOrderEmail({
  kind,
  order,
  publicUrl,
  downloadUrl,
}: {
  kind: EmailKind
  order: Order
  publicUrl: string
  downloadUrl: string | null
}): RenderedEmail {
  const payUrl = `${publicUrl}/pay/${order.id}`
  const adminUrl = `${publicUrl}/admin/orders/${order.id}`
  let subject: string
  let lines: string[]
  if (kind === 'order-created') {
    subject = `Your order for ${order.productName}`
    lines = [
      `Thank you for your order of ${order.productName}.`,
      `Amount due: ${formatBSV(order.amountSatoshiExpected)} BSV to ${order.paymentAddress}.`,
      `You can pay or follow your order at any time here: ${payUrl}`,
      `The invoice expires at ${new Date(order.gatewayExpiresAt).toUTCString()}.`,
      `Order id: ${order.id}`,
    ]
  } else if (kind === 'order-paid') {
    subject = `Payment received: ${order.productName}`
    lines = [`We received your payment for ${order.productName}. Thank you!`]
    if (downloadUrl)
      lines.push(
        `Download your book here: ${publicUrl}${downloadUrl}`,
        'The link is personal, time-limited and usage-limited.',
      )
    else if (isPhysical(order.productType))
      lines.push(
        'We are preparing your book for shipping; you will get another e-mail with the tracking number.',
      )
    lines.push(`Your order: ${payUrl}`, `Order id: ${order.id}`)
  } else if (kind === 'owner-paid') {
    subject = `Order paid: ${order.productName} (${order.id.slice(0, 8)})`
    lines = [
      `${order.userEmail} paid ${formatBSV(order.amountSatoshiReceived ?? 0)} BSV for ${order.productName}.`,
      isPhysical(order.productType)
        ? `It waits to be shipped to ${[order.shippingName, order.shippingCity, order.shippingCountry].filter(Boolean).join(', ')}.`
        : 'The download link has been sent to the buyer.',
      `The order: ${adminUrl}`,
    ]
  } else if (kind === 'owner-settle') {
    const flags = order.flags ?? {}
    const reasons = [
      flags.paidLate && 'a payment arrived after the order expired',
      flags.paidPartial && 'less than the amount due arrived',
      flags.paidOver && 'more than the amount due arrived',
      flags.paidInvalid && 'a payment was double-spent or dropped after it was seen',
    ].filter((reason): reason is string => Boolean(reason))
    subject = `Needs settling: order ${order.id.slice(0, 8)} (${order.productName})`
    lines = [
      `Order ${order.id} needs you: ${reasons.join('; ') || 'a payment exception'}.`,
      `Due ${formatBSV(order.amountSatoshiExpected)} BSV, received ${formatBSV(order.amountSatoshiReceived ?? 0)} BSV; status ${order.status}.`,
      `Settle it from its page (mark as paid, cancel, record a refund, or mark as settled): ${adminUrl}`,
    ]
  } else {
    subject = `Your book has shipped: ${order.productName}`
    lines = [
      `Your order of ${order.productName} has been shipped.`,
      `Tracking number: ${order.shippingTrackingNumber ?? '(not given)'}`,
      `Order id: ${order.id}`,
    ]
  }
  return { subject, text: lines.join('\n\n'), html: toHtml(lines) }
}

import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { slugs } from '@shop/cms/engine'
import { queueOrderShippedEmail } from '@shop/cms/testing'
import type { EmailOutbox } from '@shop/cms/engine'
import type { PaymentsHarness } from './support'
import type { Received } from './smtpInbox'
import { startSmtpInbox } from './smtpInbox'
import {
  api,
  createOrder,
  getOrder,
  productIdOf,
  startPaymentsHarness,
  waitFor,
  waitForStatus,
} from './support'

let failing = false
let smtp: Awaited<ReturnType<typeof startSmtpInbox>>
let inbox: Received[]
let h: PaymentsHarness
let pdfId: number
let printedId: number

beforeAll(async () => {
  smtp = await startSmtpInbox({ refusing: () => failing })
  inbox = smtp.inbox
  const { port } = smtp
  h = await startPaymentsHarness({
    env: {
      SMTP_HOST: '127.0.0.1',
      SMTP_PORT: String(port),
      PUBLIC_URL: 'http://shop.test',
      CONFIRMATIONS_REQUIRED: '0',
    },
  })
  pdfId = await productIdOf(h.shop.payload, 'DIGITAL')
  printedId = await productIdOf(h.shop.payload, 'PHYSICAL')
})

afterAll(async () => {
  await h?.close()
  await smtp?.close()
})

// Quoted-printable soft line breaks ("=\r\n") split long links in the raw message.
const bodyOf = (raw: string) => raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=')
const mailFor = (orderId: string, subject: RegExp) =>
  waitFor(async () =>
    inbox.find((m) => bodyOf(m.raw).includes(orderId) && subject.test(bodyOf(m.raw))),
  )

describe('with 0 confirmations required', () => {
  it('marks the order PAID as soon as the full amount is seen, without a block', async () => {
    const orderId = await createOrder(h.shop, pdfId)
    const heightBefore = h.simulator.state.height
    await api(h.shop, `/api/test-mode/orders/${orderId}/pay`, { body: {} })
    const paid = await waitForStatus(h.shop.payload, orderId, 'PAID')
    expect(h.simulator.state.height).toBe(heightBefore)
    expect(paid.paidAt).toBeTruthy()
  })
})

describe('buyer e-mails', () => {
  it('sends the created, paid and shipped messages with the right links', async () => {
    const pdfOrder = await createOrder(h.shop, pdfId, { userEmail: 'reader@example.com' })
    const created = await mailFor(pdfOrder, /Subject: Your order for/)
    expect(created.to).toBe('reader@example.com')
    expect(bodyOf(created.raw)).toContain(`http://shop.test/pay/${pdfOrder}`)

    await api(h.shop, `/api/test-mode/orders/${pdfOrder}/pay`, { body: {} })
    const paid = await mailFor(pdfOrder, /Subject: Payment received/)
    // HTML for mail clients beside a plain-text part.
    expect(paid.raw).toMatch(/Content-Type: multipart\/alternative/i)
    expect(paid.raw).toMatch(/Content-Type: text\/plain/i)
    expect(paid.raw).toMatch(/Content-Type: text\/html/i)
    const link = /http:\/\/shop\.test(\/download\/pdf\/[A-Za-z0-9_-]{43})/.exec(
      bodyOf(paid.raw),
    )?.[1]
    expect(link).toBeDefined()
    expect((await api(h.shop, `/api/orders/${pdfOrder}/payment-status`)).body.downloadUrl).toBe(
      link,
    )
    const download = await fetch(`${h.shop.url}${link}`)
    expect(download.status).toBe(200)

    const printedOrder = await createOrder(h.shop, printedId)
    await api(h.shop, `/api/test-mode/orders/${printedOrder}/pay`, { body: {} })
    await waitForStatus(h.shop.payload, printedOrder, 'PROCESSING_DELIVERY')
    await h.shop.payload.update({
      collection: slugs.orders,
      id: printedOrder,
      data: { status: 'SHIPPED', shippingTrackingNumber: 'TRACK-123' },
    })
    // The Orders seam queued the shipped e-mail with the change; queuing again sends nothing more.
    expect(await queueOrderShippedEmail({ payload: h.shop.payload, orderId: printedOrder })).toBe(
      false,
    )
    const shipped = await mailFor(printedOrder, /Subject: Your book has shipped/)
    expect(bodyOf(shipped.raw)).toContain('TRACK-123')
    expect(
      inbox.filter(
        (m) => bodyOf(m.raw).includes(printedOrder) && /has shipped/.test(bodyOf(m.raw)),
      ),
    ).toHaveLength(1)
  })

  it('shows every message, rendered as sent, on the test-mode outbox page', async () => {
    const orderId = await createOrder(h.shop, pdfId, { userEmail: 'outbox@example.com' })
    await api(h.shop, `/api/test-mode/orders/${orderId}/pay`, { body: {} })
    await mailFor(orderId, /Subject: Payment received/)
    const page = await fetch(`${h.shop.url}/test-mode/outbox`)
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toMatch(/text\/html/)
    const html = await page.text()
    const section = html.slice(html.indexOf('outbox@example.com') - 400)
    expect(section).toContain(`Payment received: `)
    expect(section).toContain(`Your order for `)
    expect(html).toContain(`<a href="http://shop.test/pay/${orderId}"`)
    const link = new RegExp(`<a href="http://shop\\.test(/download/pdf/[A-Za-z0-9_-]{43})"`).exec(
      html,
    )?.[1]
    expect(link).toBe((await api(h.shop, `/api/orders/${orderId}/payment-status`)).body.downloadUrl)
    // Message text is escaped, never markup.
    expect(html).not.toMatch(/<script/i)
  })

  it('keeps orders flowing while SMTP fails, then delivers every message once', async () => {
    failing = true
    const orderId = await createOrder(h.shop, printedId, { userEmail: 'patient@example.com' })
    await api(h.shop, `/api/test-mode/orders/${orderId}/pay`, { body: {} })
    // The order is paid and moves on although no mail can be sent.
    await waitForStatus(h.shop.payload, orderId, 'PROCESSING_DELIVERY')
    // The paid e-mail is retried; the "order created" one, tried while the order waited, is
    // not sent once the order is paid (it would ask for money no longer expected).
    const retried = await waitFor(async () => {
      const docs = (
        await h.shop.payload.find({
          collection: slugs.emailOutbox,
          where: { order: { equals: orderId } },
          sort: 'createdAt',
        })
      ).docs as EmailOutbox[]
      const paid = docs.find((d) => d.kind === 'order-paid')
      return docs.length === 2 && paid?.status === 'pending' && paid.attempts >= 2 ? paid : null
    })
    expect(retried.lastError).toEqual(expect.any(String))
    expect(inbox.filter((m) => m.to === 'patient@example.com')).toHaveLength(0)

    failing = false
    // The worker marks a message sent after the SMTP server took it: wait for both marks.
    const sent = await waitFor(
      async () => {
        const docs = (
          await h.shop.payload.find({
            collection: slugs.emailOutbox,
            where: { order: { equals: orderId } },
          })
        ).docs as EmailOutbox[]
        return docs.every((d) => d.status !== 'pending') ? docs : null
      },
      { timeoutMs: 20_000 },
    )
    expect(Object.fromEntries(sent.map((d) => [d.kind, d.status]))).toEqual({
      'order-created': 'skipped',
      'order-paid': 'sent',
    })
    expect(inbox.filter((m) => m.to === 'patient@example.com')).toHaveLength(1)
    expect((await getOrder(h.shop.payload, orderId)).status).toBe('PROCESSING_DELIVERY')
  })
})

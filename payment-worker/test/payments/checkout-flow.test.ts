import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { orderInfoSchema, paymentStatusSchema } from '@shop/domain'

import { slugs } from '@shop/cms/engine'
import type { PaymentsHarness } from './support'
import {
  api,
  createOrder,
  getOrder,
  productIdOf,
  startPaymentsHarness,
  waitFor,
  waitForStatus,
} from './support'

let h: PaymentsHarness
let pdfId: number
let printedId: number

beforeAll(async () => {
  h = await startPaymentsHarness()
  pdfId = await productIdOf(h.shop.payload, 'DIGITAL')
  printedId = await productIdOf(h.shop.payload, 'PHYSICAL')
})

afterAll(async () => {
  await h?.close()
})

describe('buying the PDF end to end', () => {
  it('creates the order, detects the payment, confirms it and serves the download', async () => {
    const orderId = await createOrder(h.shop, pdfId)
    const info = await api(h.shop, `/api/orders/${orderId}/info`)
    expect(info.status).toBe(200)
    const parsed = orderInfoSchema.parse(info.body)
    expect(parsed).toMatchObject({
      currentStatus: 'AWAITING_PAYMENT',
      txid: null,
      productType: 'PDF',
    })
    // 14.90 EUR at 40 EUR/BSV, rounded up to the satoshi
    expect(parsed.amountBSV).toBe('0.37250000')
    expect(parsed.paymentAddress).toMatch(/^[mn]/)

    const started = Date.now()
    const paid = await api(h.shop, `/api/test-mode/orders/${orderId}/pay`, { body: {} })
    expect(paid.status).toBe(200)
    const txid = String(paid.body.txid)
    expect(txid).toMatch(/^[0-9a-f]{64}$/)

    const detected = await waitFor(
      async () => {
        const s = await api(h.shop, `/api/orders/${orderId}/payment-status`)
        return s.body.status === 'PAYMENT_DETECTED' ? s.body : null
      },
      { intervalMs: 10 },
    )
    const detectionMs = Date.now() - started
    console.log(`payment to PAYMENT_DETECTED via the API: ${detectionMs} ms`)
    expect(detectionMs).toBeLessThan(2000)
    expect(paymentStatusSchema.parse(detected)).toEqual({
      status: 'PAYMENT_DETECTED',
      txid,
      downloadUrl: null,
      amountDueBSV: '0.00000000',
    })

    const mined = await api(h.shop, '/api/test-mode/mine', { body: {} })
    expect(mined.body.height).toEqual(expect.any(Number))
    await waitForStatus(h.shop.payload, orderId, 'PAID')
    const status = await waitFor(async () => {
      const s = await api(h.shop, `/api/orders/${orderId}/payment-status`)
      return s.body.downloadUrl ? s.body : null
    })
    expect(status.downloadUrl).toMatch(/^\/download\/pdf\/[A-Za-z0-9_-]{43}$/)

    const file = await fetch(`${h.shop.url}${String(status.downloadUrl)}`)
    expect(file.status).toBe(200)
    expect(file.headers.get('content-disposition')).toMatch(
      /^attachment; filename="?identity-dual-vote-and-trust\.pdf"?$/,
    )
    expect(
      Buffer.from(await file.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-')

    const order = await getOrder(h.shop.payload, orderId)
    expect(order.amountSatoshiReceived).toBe(37_250_000)
    expect(order.paymentTxid).toBe(txid)
    expect(order.flags).toMatchObject({ paidLate: false, paidPartial: false, paidOver: false })
    const transitions = h.logs.filter(
      (l) => l.msg === 'order status changed' && l.obj.orderId === orderId,
    )
    expect(transitions.map((l) => l.obj.to)).toEqual(['PAYMENT_DETECTED', 'PAID'])
  })
})

describe('buying the printed book', () => {
  it('goes to PROCESSING_DELIVERY once paid, without a download link', async () => {
    const before = (await h.shop.payload.findByID({ collection: slugs.products, id: printedId }))
      .currentStock
    const orderId = await createOrder(h.shop, printedId)
    expect(
      (await h.shop.payload.findByID({ collection: slugs.products, id: printedId })).currentStock,
    ).toBe(before - 1)
    const order = await getOrder(h.shop.payload, orderId)
    expect(order).toMatchObject({ shippingCity: 'London', productType: 'PHYSICAL' })
    await api(h.shop, `/api/test-mode/orders/${orderId}/pay`, { body: {} })
    await waitForStatus(h.shop.payload, orderId, 'PAYMENT_DETECTED')
    await api(h.shop, '/api/test-mode/mine', { body: {} })
    await waitForStatus(h.shop.payload, orderId, 'PROCESSING_DELIVERY')
    const status = await api(h.shop, `/api/orders/${orderId}/payment-status`)
    expect(status.body).toMatchObject({ status: 'PROCESSING_DELIVERY', downloadUrl: null })
  })
})

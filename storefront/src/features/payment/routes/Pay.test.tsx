import { act, render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom'
import { SWRConfig } from 'swr'
import { afterEach, describe, expect, it, vi } from 'vitest'

import type { OrderInfo } from '../api/get-order-info'
import { PayRoute } from './Pay'

const ADDRESS = '1BoatSLRHtKNngkdXEeobR76b53LETtpyT'
const TXID = 'a'.repeat(64)

const info = (overrides: Partial<OrderInfo> = {}): OrderInfo => ({
  currentStatus: 'AWAITING_PAYMENT',
  txid: null,
  gatewayExpiresAt: new Date(Date.now() + 15 * 60_000).toISOString(),
  paymentAddress: ADDRESS,
  amountBSV: '0.29800000',
  productName: 'Identity, Dual Vote and Trust (PDF)',
  productType: 'PDF',
  ...overrides,
})

type Reply = { status?: number; body: unknown }
const json = ({ status = 200, body }: Reply) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })

function stubApi(handlers: Record<string, () => Reply>) {
  const calls: string[] = []
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string) => {
      const path = new URL(input, 'http://shop.test').pathname
      calls.push(path)
      const handler = handlers[path]
      return json(handler ? handler() : { status: 404, body: { error: 'Not found.' } })
    }),
  )
  return calls
}

const config =
  (testMode = false) =>
  () => ({
    body: { testMode, explorerTxUrl: 'https://explorer.test/tx/', network: 'test' },
  })

function SuccessProbe() {
  const location = useLocation()
  return (
    <p data-testid="success">
      {JSON.stringify({ path: location.pathname, state: location.state })}
    </p>
  )
}

function renderPay(orderId = 'order-1') {
  // No ToastContainer here: the pay screen mounts its own.
  render(
    <SWRConfig
      value={{ provider: () => new Map(), dedupingInterval: 0, shouldRetryOnError: false }}
    >
      <MemoryRouter initialEntries={[`/pay/${orderId}`]}>
        <Routes>
          <Route path="/pay/:orderId" element={<PayRoute />} />
          <Route path="/order/success/:orderId" element={<SuccessProbe />} />
          <Route path="/store" element={<p>store page</p>} />
        </Routes>
      </MemoryRouter>
    </SWRConfig>,
  )
}

afterEach(() => {
  vi.useRealTimers()
  vi.unstubAllGlobals()
})

describe('/pay/{orderId}', () => {
  it('shows the amount, product, QR code of the payment URI, address and countdown', async () => {
    stubApi({
      '/api/orders/order-1/info': () => ({ body: info() }),
      '/api/orders/order-1/payment-status': () => ({
        body: { status: 'AWAITING_PAYMENT', txid: null, downloadUrl: null },
      }),
      '/api/shop-config': config(false),
    })
    renderPay()
    expect(
      await screen.findByRole('heading', { name: 'Complete Your Payment' }),
    ).toBeInTheDocument()
    expect(screen.getByText('0.29800000 BSV')).toBeInTheDocument()
    expect(screen.getByText('Identity, Dual Vote and Trust (PDF)')).toBeInTheDocument()
    const qr = screen.getByTestId('payment-qr')
    expect(qr).toHaveAttribute('height', '220')
    expect(qr.getAttribute('aria-label')).toContain('0.29800000 BSV')
    expect(screen.getByText(ADDRESS)).toBeInTheDocument()
    expect(screen.getByRole('timer', { name: 'Time remaining' }).textContent).toMatch(
      /^1[45]:\d\d$/,
    )
    expect(
      screen.getByText(/You may close this window after paying: we will email you/),
    ).toBeInTheDocument()
    expect(screen.queryByText(/Test mode/)).not.toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Pay with test wallet' })).not.toBeInTheDocument()
  })

  it("shows 'Order not found.' for an unknown order", async () => {
    stubApi({
      '/api/orders/nope/info': () => ({ status: 404, body: { error: 'Order not found.' } }),
    })
    renderPay('nope')
    expect(await screen.findByText('Order not found.')).toBeInTheDocument()
  })

  it('shows the load error when the order info fails', async () => {
    stubApi({
      '/api/orders/order-1/info': () => ({
        status: 500,
        body: { error: 'Internal server error.' },
      }),
    })
    renderPay()
    expect(await screen.findByText('Error: Failed to load payment details.')).toBeInTheDocument()
  })

  it.each([
    ['PAYMENT_DETECTED', 'Payment Detected...', 'You can safely close this window.'],
    ['UNDERPAID', 'Underpayment Received', 'Please send the remaining funds.'],
    ['EXPIRED', 'Invoice Expired', 'Back to the Store'],
    [
      'ERROR_FULFILLMENT',
      'Order Error - Please contact support.',
      /contact support with your order number/,
    ],
  ] as const)('shows the %s status', async (status, title, detail) => {
    stubApi({
      '/api/orders/order-1/info': () => ({ body: info({ currentStatus: status, txid: TXID }) }),
      '/api/orders/order-1/payment-status': () => ({
        body: { status, txid: TXID, downloadUrl: null },
      }),
      '/api/shop-config': config(false),
    })
    renderPay()
    expect(await screen.findByRole('heading', { name: title })).toBeInTheDocument()
    expect(screen.getByText(detail)).toBeInTheDocument()
    expect(screen.getByRole('link', { name: new RegExp(TXID) })).toHaveAttribute(
      'href',
      `https://explorer.test/tx/${TXID}`,
    )
    expect(screen.getByRole('link', { name: new RegExp(TXID) })).toHaveAttribute('target', '_blank')
    expect(screen.getByRole('link', { name: new RegExp(TXID) }).getAttribute('rel')).toContain(
      'noopener',
    )
    if (status === 'UNDERPAID') {
      expect(screen.getByText(/send\s+the remaining balance/)).toBeInTheDocument()
      expect(screen.getByTestId('payment-qr')).toBeInTheDocument()
    } else {
      expect(screen.queryByTestId('payment-qr')).not.toBeInTheDocument()
    }
    if (status === 'EXPIRED')
      expect(screen.getByRole('link', { name: 'Back to the Store' })).toHaveAttribute(
        'href',
        '/store',
      )
  })

  it.each(['PAID', 'PROCESSING_DELIVERY'] as const)(
    'confirms %s with a toast and goes to the success page with the download token after 2.5 s',
    async (status) => {
      vi.useFakeTimers({ shouldAdvanceTime: true })
      const calls = stubApi({
        '/api/orders/order-1/info': () => ({ body: info({ currentStatus: 'AWAITING_PAYMENT' }) }),
        '/api/orders/order-1/payment-status': () => ({
          body: {
            status,
            txid: TXID,
            downloadUrl: status === 'PAID' ? '/download/pdf/tok-123' : null,
          },
        }),
        '/api/shop-config': config(false),
      })
      renderPay()
      expect(await screen.findByRole('heading', { name: 'Payment Confirmed!' })).toBeInTheDocument()
      expect(await screen.findByText('Payment confirmed! Redirecting...')).toBeInTheDocument()
      expect(screen.queryByTestId('success')).not.toBeInTheDocument()
      await act(async () => {
        await vi.advanceTimersByTimeAsync(2600)
      })
      const success = await screen.findByTestId('success')
      expect(JSON.parse(success.textContent ?? '')).toEqual({
        path: '/order/success/order-1',
        state: { downloadToken: status === 'PAID' ? 'tok-123' : null, productType: 'PDF' },
      })
      // one poll, then the fetch before the redirect
      expect(calls.filter((c) => c.endsWith('/payment-status'))).toHaveLength(2)
    },
  )

  it('polls every 5 s, moves through the statuses and stops at a final one', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    const replies = ['AWAITING_PAYMENT', 'PAYMENT_DETECTED', 'EXPIRED']
    let failOnce = true
    const calls = stubApi({
      '/api/orders/order-1/info': () => ({ body: info() }),
      '/api/orders/order-1/payment-status': () => {
        if (replies.length === 2 && failOnce) {
          failOnce = false
          return { status: 502, body: {} }
        }
        return {
          body: {
            status: replies.length > 1 ? replies.shift() : replies[0],
            txid: null,
            downloadUrl: null,
          },
        }
      },
      '/api/shop-config': config(false),
    })
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    renderPay()
    expect(
      await screen.findByRole('heading', { name: 'Complete Your Payment' }),
    ).toBeInTheDocument()
    await waitFor(() => expect(calls.filter((c) => c.endsWith('/payment-status'))).toHaveLength(1))
    const pollCount = () => calls.filter((c) => c.endsWith('/payment-status')).length
    await act(async () => {
      await vi.advanceTimersByTimeAsync(4500)
    })
    expect(pollCount()).toBe(1)
    // the next poll comes at 5 s; it fails and the failure is only logged
    await act(async () => {
      await vi.advanceTimersByTimeAsync(600)
    })
    expect(pollCount()).toBe(2)
    await waitFor(() => expect(consoleError).toHaveBeenCalled())
    expect(screen.getByRole('heading', { name: 'Complete Your Payment' })).toBeInTheDocument()
    await act(async () => {
      await vi.advanceTimersByTimeAsync(5000)
    })
    expect(await screen.findByRole('heading', { name: 'Payment Detected...' })).toBeInTheDocument()
    await act(async () => {
      await vi.advanceTimersByTimeAsync(5000)
    })
    expect(await screen.findByRole('heading', { name: 'Invoice Expired' })).toBeInTheDocument()
    const polls = calls.filter((c) => c.endsWith('/payment-status')).length
    await act(async () => {
      await vi.advanceTimersByTimeAsync(20_000)
    })
    expect(calls.filter((c) => c.endsWith('/payment-status'))).toHaveLength(polls)
    consoleError.mockRestore()
  })

  it('counts down each second and expires the invoice locally at 0', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    stubApi({
      '/api/orders/order-1/info': () => ({
        body: info({ gatewayExpiresAt: new Date(Date.now() + 3000).toISOString() }),
      }),
      '/api/orders/order-1/payment-status': () => ({
        body: { status: 'AWAITING_PAYMENT', txid: null, downloadUrl: null },
      }),
      '/api/shop-config': config(false),
    })
    renderPay()
    const timer = await screen.findByRole('timer', { name: 'Time remaining' })
    expect(timer.textContent).toMatch(/^00:0[23]$/)
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1000)
    })
    expect(screen.getByRole('timer', { name: 'Time remaining' }).textContent).toMatch(/^00:0[12]$/)
    await act(async () => {
      await vi.advanceTimersByTimeAsync(3000)
    })
    expect(await screen.findByRole('heading', { name: 'Invoice Expired' })).toBeInTheDocument()
  })

  it('keeps an underpaid order open when the countdown reaches 0', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    stubApi({
      '/api/orders/order-1/info': () => ({
        body: info({
          currentStatus: 'UNDERPAID',
          gatewayExpiresAt: new Date(Date.now() + 1000).toISOString(),
        }),
      }),
      '/api/orders/order-1/payment-status': () => ({
        body: { status: 'UNDERPAID', txid: null, downloadUrl: null },
      }),
      '/api/shop-config': config(false),
    })
    renderPay()
    expect(
      await screen.findByRole('heading', { name: 'Underpayment Received' }),
    ).toBeInTheDocument()
    await act(async () => {
      await vi.advanceTimersByTimeAsync(3000)
    })
    expect(screen.getByRole('timer', { name: 'Time remaining' })).toHaveTextContent('00:00')
    expect(screen.getByRole('heading', { name: 'Underpayment Received' })).toBeInTheDocument()
  })

  it('asks an underpaid order for what is left: message, QR code and copy field, following each poll', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    let due = '0.10000000'
    stubApi({
      '/api/orders/order-1/info': () => ({
        body: info({
          currentStatus: 'UNDERPAID',
          amountReceivedBSV: '0.19800000',
          amountDueBSV: '0.10000000',
        }),
      }),
      '/api/orders/order-1/payment-status': () => ({
        body: { status: 'UNDERPAID', txid: TXID, downloadUrl: null, amountDueBSV: due },
      }),
      '/api/shop-config': config(false),
    })
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime })
    const writeText = vi.fn().mockResolvedValue(undefined)
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true })
    renderPay()
    expect(
      await screen.findByRole('heading', { name: 'Underpayment Received' }),
    ).toBeInTheDocument()
    expect(screen.getByText('0.10000000 BSV')).toBeInTheDocument()
    expect(screen.getByTestId('payment-qr')).toHaveAttribute(
      'data-uri',
      `bitcoin:${ADDRESS}?sv&amount=0.10000000`,
    )
    expect(screen.getByText('Remaining amount (BSV)')).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Copy amount' }))
    expect(writeText).toHaveBeenLastCalledWith('0.10000000')

    // A second partial payment arrives: the next poll brings the new remainder.
    due = '0.04000000'
    await act(async () => {
      await vi.advanceTimersByTimeAsync(5100)
    })
    expect(await screen.findByText('0.04000000 BSV')).toBeInTheDocument()
    expect(screen.getByTestId('payment-qr')).toHaveAttribute(
      'data-uri',
      `bitcoin:${ADDRESS}?sv&amount=0.04000000`,
    )
  })

  it('keeps a detected payment past the countdown and follows the server to paid', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    const replies = ['PAYMENT_DETECTED', 'PAYMENT_DETECTED', 'PAID']
    stubApi({
      '/api/orders/order-1/info': () => ({
        body: info({
          currentStatus: 'PAYMENT_DETECTED',
          gatewayExpiresAt: new Date(Date.now() + 1000).toISOString(),
        }),
      }),
      '/api/orders/order-1/payment-status': () => ({
        body: {
          status: replies.length > 1 ? replies.shift() : replies[0],
          txid: TXID,
          downloadUrl: null,
        },
      }),
      '/api/shop-config': config(false),
    })
    renderPay()
    expect(await screen.findByRole('heading', { name: 'Payment Detected...' })).toBeInTheDocument()
    await act(async () => {
      await vi.advanceTimersByTimeAsync(3000)
    })
    expect(screen.getByRole('heading', { name: 'Payment Detected...' })).toBeInTheDocument()
    expect(screen.queryByRole('heading', { name: 'Invoice Expired' })).not.toBeInTheDocument()
    await act(async () => {
      await vi.advanceTimersByTimeAsync(10_000)
    })
    expect(await screen.findByRole('heading', { name: 'Payment Confirmed!' })).toBeInTheDocument()
    // Confirmed: no promise to e-mail "when your payment is confirmed" any more.
    expect(screen.queryByText(/when your payment is confirmed/)).not.toBeInTheDocument()
    expect(screen.getByText(/Your download link is on the next page/)).toBeInTheDocument()
  })

  it('after a local expiry, still follows the server when a payment sent in time is recorded', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    let serverStatus = 'AWAITING_PAYMENT'
    stubApi({
      '/api/orders/order-1/info': () => ({
        body: info({ gatewayExpiresAt: new Date(Date.now() + 1000).toISOString() }),
      }),
      '/api/orders/order-1/payment-status': () => ({
        body: { status: serverStatus, txid: null, downloadUrl: null },
      }),
      '/api/shop-config': config(false),
    })
    renderPay()
    await act(async () => {
      await vi.advanceTimersByTimeAsync(2000)
    })
    expect(await screen.findByRole('heading', { name: 'Invoice Expired' })).toBeInTheDocument()
    serverStatus = 'PAYMENT_DETECTED'
    await act(async () => {
      await vi.advanceTimersByTimeAsync(5100)
    })
    expect(await screen.findByRole('heading', { name: 'Payment Detected...' })).toBeInTheDocument()
  })

  it('copies the address and the amount, and says when copying fails', async () => {
    stubApi({
      '/api/orders/order-1/info': () => ({ body: info() }),
      '/api/orders/order-1/payment-status': () => ({
        body: { status: 'AWAITING_PAYMENT', txid: null, downloadUrl: null },
      }),
      '/api/shop-config': config(false),
    })
    const user = userEvent.setup()
    const writeText = vi.fn().mockResolvedValue(undefined)
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true })
    renderPay()
    await user.click(await screen.findByRole('button', { name: 'Copy address' }))
    expect(await screen.findByText('Address copied!')).toBeInTheDocument()
    expect(writeText).toHaveBeenLastCalledWith(ADDRESS)
    await user.click(screen.getByRole('button', { name: 'Copy amount' }))
    expect(await screen.findByText('Amount copied!')).toBeInTheDocument()
    expect(writeText).toHaveBeenLastCalledWith('0.29800000')
    writeText.mockRejectedValueOnce(new Error('denied'))
    await user.click(screen.getByRole('button', { name: 'Copy amount' }))
    expect(await screen.findByText('Failed to copy.')).toBeInTheDocument()
  })

  it('in test mode shows the banner and pays through the test wallet', async () => {
    let paid = false
    const calls = stubApi({
      '/api/orders/order-1/info': () => ({ body: info() }),
      '/api/orders/order-1/payment-status': () => ({
        body: {
          status: paid ? 'PAYMENT_DETECTED' : 'AWAITING_PAYMENT',
          txid: paid ? TXID : null,
          downloadUrl: null,
        },
      }),
      '/api/shop-config': config(true),
      '/api/test-mode/orders/order-1/pay': () => {
        paid = true
        return { body: { txid: TXID } }
      },
      '/api/test-mode/mine': () => ({ body: { height: 101 } }),
    })
    const user = userEvent.setup()
    renderPay()
    expect(await screen.findByText('Test mode')).toBeInTheDocument()
    await user.click(await screen.findByRole('button', { name: 'Pay with test wallet' }))
    expect(await screen.findByRole('heading', { name: 'Payment Detected...' })).toBeInTheDocument()
    expect(calls).toContain('/api/test-mode/orders/order-1/pay')
    expect(screen.queryByRole('button', { name: 'Pay with test wallet' })).not.toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Mine a block' }))
    expect(await screen.findByText('Block 101 mined.')).toBeInTheDocument()
  })
})

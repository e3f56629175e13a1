import type { AdminOrderDetail, AdminPayment } from '@shop/domain'
import { render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { MemoryRouter, Route, Routes } from 'react-router-dom'
import { SWRConfig } from 'swr'
import { afterEach, describe, expect, it, vi } from 'vitest'

import { AdminSessionProvider } from '@/lib/admin/admin-session'
import { OrderDetailRoute } from './OrderDetail'

const ID = '6f1c2b9e-4d7a-4c1e-9b3f-2a8d5e7c1f04'

const order: AdminOrderDetail = {
  id: ID,
  createdAt: '2026-11-20T10:00:00.000Z',
  userEmail: 'reader@example.com',
  product: { id: 1, name: 'The Book', type: 'DIGITAL' },
  priceAtPurchaseUSD: 24.9,
  shippingCostEUR: null,
  amountSatoshiExpected: 62_250_000,
  amountSatoshiReceived: 10_000_000,
  bsvUsdRateAtPurchase: 40,
  paymentTxid: null,
  paymentAddress: 'mhJZ8Vmt8rsCdtVuGHXkSebyusyNLUbEiA',
  addressIndex: 7,
  gatewayExpiresAt: '2026-11-20T10:20:00.000Z',
  tokenAddress: null,
  status: 'AWAITING_PAYMENT',
  shippingTrackingNumber: null,
  shippedAt: null,
  shippingName: null,
  shippingAddressLine1: null,
  shippingAddressLine2: null,
  shippingCity: null,
  shippingStateProvince: null,
  shippingPostalCode: null,
  shippingCountry: null,
  shippingPhone: null,
  flags: { paidLate: false, paidPartial: false, paidOver: false, paidInvalid: false },
  needsSettling: false,
  settledAt: null,
  recheckRequestedAt: null,
  attention: null,
  attentionSince: null,
  payments: [],
  history: [],
}

function renderOrder(shown: AdminOrderDetail, posted: AdminOrderDetail = shown) {
  const posts: string[] = []
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      if (init?.method === 'POST') posts.push(String(input))
      const body = String(input).startsWith('/api/admin/orders/')
        ? init?.method === 'POST'
          ? posted
          : shown
        : { isAuthenticated: true, admin: { id: 1, email: 'owner@example.com', name: null } }
      return new Response(JSON.stringify(body), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      })
    }),
  )
  render(
    <SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0 }}>
      <AdminSessionProvider>
        <MemoryRouter initialEntries={[`/admin/orders/${ID}`]}>
          <Routes>
            <Route path="/admin/orders/:orderId" element={<OrderDetailRoute />} />
          </Routes>
        </MemoryRouter>
      </AdminSessionProvider>
    </SWRConfig>,
  )
  return posts
}

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('the admin order page', () => {
  it("shows the payment worker's reason when an order needs attention", async () => {
    renderOrder({
      ...order,
      attention: 'Could not settle this order: the database refused the change',
      attentionSince: '2026-11-20T10:25:00.000Z',
    })
    const notice = await screen.findByRole('alert')
    expect(notice).toHaveTextContent(/^Needs attention since .+:/)
    expect(notice).toHaveTextContent('Could not settle this order: the database refused the change')
  })

  it('shows no such notice for an order the worker processes', async () => {
    renderOrder(order)
    await screen.findByText('reader@example.com')
    expect(screen.queryByText(/Needs attention/)).not.toBeInTheDocument()
  })

  it('sends the buyer of a paid PDF order a new download link and shows it in the history', async () => {
    const paid = { ...order, status: 'PAID' as const, amountSatoshiReceived: 62_250_000 }
    const sent = {
      ...paid,
      history: [
        {
          at: '2026-11-21T09:00:00.000Z',
          by: 'owner@example.com',
          action: 'download-link' as const,
          fromStatus: 'PAID' as const,
          toStatus: 'PAID' as const,
          note: 'Sent to reader@example.com',
          txid: null,
        },
      ],
    }
    const posts = renderOrder(paid, sent)
    await userEvent.click(await screen.findByRole('button', { name: 'Send a new download link' }))
    expect(await screen.findByText('New download link sent')).toBeInTheDocument()
    expect(screen.getByText('Sent to reader@example.com')).toBeInTheDocument()
    expect(posts).toEqual([`/api/admin/orders/${ID}/download-link`])
  })

  it('shows on each payment its doubt, ARC’s word and the merkle proof, verified or refused', async () => {
    const payment: AdminPayment = {
      txid: 'a'.repeat(64),
      vout: 0,
      satoshis: 20_000_000,
      seenAt: '2026-11-20T10:05:00.000Z',
      confirmedAt: null,
      late: false,
      invalidatedAt: null,
      invalidReason: null,
      blockHeight: null,
      doubtedAt: null,
      doubtReason: null,
      arcStatus: null,
      arcCheckedAt: null,
      proof: null,
      proofProblem: null,
    }
    const blockHash = '00000000' + 'b'.repeat(48) + '1234abcd'
    const merklePath = 'fe'.repeat(150)
    renderOrder({
      ...order,
      payments: [
        {
          ...payment,
          doubtedAt: '2026-11-20T10:06:00.000Z',
          doubtReason: 'ARC reports a competing spend of an input',
          arcStatus: 'DOUBLE_SPEND_ATTEMPTED',
          arcCheckedAt: '2026-11-20T10:06:00.000Z',
        },
        {
          ...payment,
          txid: 'c'.repeat(64),
          confirmedAt: '2026-11-20T10:12:00.000Z',
          blockHeight: 812_345,
          arcStatus: 'MINED',
          arcCheckedAt: '2026-11-20T10:13:00.000Z',
          proof: {
            verifiedAt: '2026-11-20T10:13:00.000Z',
            blockHeight: 812_345,
            blockHash,
            merkleRoot: '9'.repeat(64),
            merklePath,
            sources: 'path from ARC; header from WhatsOnChain',
          },
        },
        {
          ...payment,
          txid: 'd'.repeat(64),
          confirmedAt: '2026-11-20T10:12:00.000Z',
          blockHeight: 812_346,
          proofProblem: 'The path leads to a root that is not the header’s merkle root.',
        },
      ],
    })
    const rows = within(await screen.findByRole('table'))
      .getAllByRole('row')
      .slice(1)
    expect(rows).toHaveLength(3)
    const [doubted, proven, refused] = rows as [HTMLElement, HTMLElement, HTMLElement]

    const doubt = within(doubted).getByTestId('payment-doubt')
    expect(doubt.textContent).toMatch(
      /^In doubt since .+: ARC reports a competing spend of an input\. It does not count until the chain settles it\.$/,
    )
    expect(doubt).toHaveClass('payment-evidence__doubt')
    expect(within(doubted).getByText('in doubt')).toHaveClass('admin-badge--warning')
    expect(within(doubted).getByTestId('payment-arc').textContent).toMatch(
      /^ARC: DOUBLE_SPEND_ATTEMPTED \(.+\)$/,
    )
    expect(within(doubted).getByText('Not in a block yet')).toBeInTheDocument()

    const proof = within(proven).getByTestId('payment-proof')
    expect(proof.textContent).toMatch(
      /^Merkle proof verified .+: block 812345 \(00000000…1234abcd\), merkle root 99999999…99999999, checked against: path from ARC; header from WhatsOnChain/,
    )
    expect(within(proven).getByText('confirmed')).toHaveClass('admin-badge--success')
    const details = proof.querySelector('details')!
    expect(details.open).toBe(false)
    // Drawn only once the owner opens it.
    expect(within(details).queryByText(merklePath)).not.toBeInTheDocument()
    await userEvent.click(within(details).getByText('Merkle path and full hashes'))
    expect(details.open).toBe(true)
    expect(await within(details).findByText(merklePath)).toHaveClass('payment-evidence__hex')
    expect(within(details).getByText(blockHash)).toBeInTheDocument()
    expect(within(proven).queryByText(/not proven yet/)).not.toBeInTheDocument()

    const problem = within(refused).getByTestId('payment-proof-refused')
    expect(problem.textContent).toBe(
      'Proof refused: The path leads to a root that is not the header’s merkle root.',
    )
    expect(problem).toHaveClass('payment-evidence__refused')
    // A refused proof is a finding, never a confirmation.
    expect(within(refused).queryByText('confirmed')).not.toBeInTheDocument()
    expect(within(refused).getByText('not proven')).toHaveClass('admin-badge--warning')
    expect(within(refused).getByText('In block 812346, not proven yet')).toBeInTheDocument()
    expect(within(refused).getByTestId('payment-arc').textContent).toBe('ARC: not asked')
  })

  it.each([
    ['an unpaid PDF order', order],
    [
      'a printed order',
      {
        ...order,
        status: 'PROCESSING_DELIVERY' as const,
        product: { ...order.product, type: 'PHYSICAL' as const },
      },
    ],
  ])('offers no new download link for %s', async (_name, shown) => {
    renderOrder(shown)
    await screen.findByText('reader@example.com')
    expect(
      screen.queryByRole('button', { name: 'Send a new download link' }),
    ).not.toBeInTheDocument()
  })
})

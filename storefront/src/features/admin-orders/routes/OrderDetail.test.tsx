import type { AdminOrderDetail } from '@shop/domain'
import { render, screen } from '@testing-library/react'
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

function renderOrder(shown: AdminOrderDetail) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const body = String(input).startsWith('/api/admin/orders/')
        ? shown
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
})

import { render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom'
import { SWRConfig } from 'swr'
import { afterEach, describe, expect, it, vi } from 'vitest'

import { AdminSessionProvider } from '@/lib/admin/admin-session'
import { OrdersRoute } from './Orders'

/** The orders list searches and filters, in the URL, and exports the same. */
const order = {
  id: '6f1c2b9e-4d7a-4c1e-9b3f-2a8d5e7c1f04',
  createdAt: '2026-11-20T10:00:00.000Z',
  userEmail: 'reader@example.com',
  product: { id: 1, name: 'The Book', type: 'DIGITAL' },
  priceAtPurchaseUSD: 24.9,
  status: 'PAID',
  flags: { paidLate: false, paidPartial: false, paidOver: true, paidInvalid: false },
}

function Location() {
  const location = useLocation()
  return <output data-testid="location">{location.pathname + location.search}</output>
}

function renderAt(url: string) {
  const calls: string[] = []
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const path = String(input)
      calls.push(path)
      const body = path.startsWith('/api/admin/orders')
        ? { orders: [order], totalPages: 3, currentPage: 1 }
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
        <MemoryRouter initialEntries={[url]}>
          <Routes>
            <Route path="/admin/orders" element={<OrdersRoute />} />
          </Routes>
          <Location />
        </MemoryRouter>
      </AdminSessionProvider>
    </SWRConfig>,
  )
  return calls
}

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('the orders list', () => {
  it('asks the server for the filters in the URL, and exports the same selection', async () => {
    const calls = renderAt('/admin/orders?status=PAID&q=reader&exception=over&page=2')
    await screen.findByText('6f1c2b9e')
    expect(calls).toContain('/api/admin/orders?page=2&status=PAID&q=reader&exception=over')
    expect(screen.getByRole('link', { name: 'Export CSV' })).toHaveAttribute(
      'href',
      '/api/admin/orders/export.csv?status=PAID&q=reader&exception=over',
    )
    expect(screen.getByRole('searchbox')).toHaveValue('reader')
    // An overpaid order no longer looks like a plain paid one.
    const row = screen.getByText('6f1c2b9e').closest('tr')!
    expect(row.querySelector('.admin-badge--warning')?.textContent).toBe('Paid over')
  })

  it('puts a new search in the URL, from the first page', async () => {
    const calls = renderAt('/admin/orders?page=3')
    await screen.findByText('6f1c2b9e')
    const user = userEvent.setup()
    await user.type(screen.getByRole('searchbox'), 'f00dbabe')
    await user.selectOptions(screen.getByLabelText('Exception'), 'needs-settling')
    await user.click(screen.getByRole('button', { name: 'Search' }))
    await waitFor(() =>
      expect(screen.getByTestId('location').textContent).toBe(
        '/admin/orders?q=f00dbabe&exception=needs-settling',
      ),
    )
    await waitFor(() =>
      expect(calls).toContain('/api/admin/orders?q=f00dbabe&exception=needs-settling'),
    )
  })

  it('pages through the results, keeping the filters', async () => {
    renderAt('/admin/orders?status=SHIPPED')
    await screen.findByText('Page 1 of 3')
    await userEvent.setup().click(screen.getByRole('button', { name: 'Older' }))
    await waitFor(() =>
      expect(screen.getByTestId('location').textContent).toBe(
        '/admin/orders?status=SHIPPED&page=2',
      ),
    )
  })
})

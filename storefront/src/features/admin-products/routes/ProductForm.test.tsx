import { render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { MemoryRouter, Route, Routes } from 'react-router-dom'
import { SWRConfig } from 'swr'
import { afterEach, describe, expect, it, vi } from 'vitest'

import { AdminSessionProvider } from '@/lib/admin/admin-session'
import { ProductFormRoute } from './ProductForm'

/**
 * The product form checks what the owner typed with the admin API's own
 * schema (the same messages, before any request), and puts the API's field errors under their
 * fields.
 */
function renderForm(answer: (path: string, init?: RequestInit) => Response) {
  const calls: { path: string; init?: RequestInit }[] = []
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const path = String(input)
      calls.push({ path, init })
      if (path.startsWith('/api/admin/status'))
        return Response.json({ isAuthenticated: true, admin: { id: 1, email: 'o@example.com' } })
      return answer(path, init)
    }),
  )
  render(
    <SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0 }}>
      <AdminSessionProvider>
        <MemoryRouter initialEntries={['/admin/products/new']}>
          <Routes>
            <Route path="/admin/products/new" element={<ProductFormRoute />} />
            <Route path="/admin/products" element={<p>Products list</p>} />
          </Routes>
        </MemoryRouter>
      </AdminSessionProvider>
    </SWRConfig>,
  )
  return () => calls.filter((call) => call.path.startsWith('/api/admin/products'))
}

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('the product form', () => {
  it('says what is wrong with the API schema messages, without sending anything', async () => {
    const user = userEvent.setup()
    const sent = renderForm(() => Response.json({}, { status: 500 }))
    await user.type(screen.getByLabelText('Price (EUR)'), '1.234')
    await user.type(screen.getByLabelText('Total stock'), '3')
    await user.click(screen.getByRole('button', { name: 'Create product' }))
    expect(await screen.findByText('Name is required.')).toBeTruthy()
    expect(
      screen.getByText('Price must be a number of at least 0 with at most 2 decimals.'),
    ).toBeTruthy()
    expect(screen.getByText('Current stock is required.')).toBeTruthy()
    expect(screen.getByLabelText('Name').getAttribute('aria-describedby')).toBe('name-error')
    expect(screen.getByLabelText('Name').getAttribute('aria-invalid')).toBe('true')
    expect(sent()).toHaveLength(0)

    // Fixing a field clears its message as the owner types.
    await user.type(screen.getByLabelText('Name'), 'A book')
    await waitFor(() => expect(screen.queryByText('Name is required.')).toBeNull())
  })

  it("puts the API's field errors under their fields", async () => {
    const user = userEvent.setup()
    const sent = renderForm(() =>
      Response.json(
        { errors: [{ path: 'digitalFile', msg: 'A digital product needs its PDF or EPUB file.' }] },
        { status: 400 },
      ),
    )
    await user.type(screen.getByLabelText('Name'), 'A book')
    await user.type(screen.getByLabelText('Price (EUR)'), '9.90')
    await user.type(screen.getByLabelText('Total stock'), '3')
    await user.type(screen.getByLabelText('Current stock'), '3')
    await user.click(screen.getByRole('button', { name: 'Create product' }))
    expect(await screen.findByText('A digital product needs its PDF or EPUB file.')).toBeTruthy()
    expect(screen.getByText('Please correct the errors below.')).toBeTruthy()
    expect(sent()).toHaveLength(1)
    const body = sent()[0]!.init!.body as FormData
    expect(body.get('priceEUR')).toBe('9.90')
    expect(body.get('isAvailable')).toBe('true')
    expect(body.get('type')).toBe('DIGITAL')
  })
})

import type { PublicProduct } from '@shop/domain'
import { render } from '@testing-library/react'
import type { Location } from 'react-router-dom'
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom'
import { SWRConfig } from 'swr'
import { vi } from 'vitest'

import { ProductRoute } from '../routes/Product'
import { StoreRoute } from '../routes/Store'

type Reply = { status?: number; body?: unknown } | 'pending'
type Handler = (url: string) => Reply

/**
 * Replaces the browser's fetch (the network edge) with a table of replies by path, and
 * records every path called. A handler returning 'pending' never answers.
 */
export function stubApi(handlers: Record<string, Reply | Handler>) {
  const calls: string[] = []
  const fetchStub = vi.fn(async (input: RequestInfo | URL) => {
    const url = typeof input === 'string' ? input : input.toString()
    calls.push(url)
    const entry = handlers[url]
    const reply =
      typeof entry === 'function'
        ? entry(url)
        : (entry ?? { status: 404, body: { error: 'Not found.' } })
    if (reply === 'pending') return new Promise<Response>(() => {})
    return new Response(JSON.stringify(reply.body ?? null), {
      status: reply.status ?? 200,
      headers: { 'Content-Type': 'application/json' },
    })
  })
  vi.stubGlobal('fetch', fetchStub)
  return { calls }
}

function CheckoutProbe() {
  const state = useLocation().state as { product?: PublicProduct } | null
  return <h1>Checkout for {state?.product?.name ?? 'nothing'}</h1>
}

/** Records the router's current location for the test to read. */
function LocationRecorder({ onChange }: { onChange: (location: Location) => void }) {
  onChange(useLocation())
  return null
}

/**
 * Renders the store's routes in memory at `path`, with a fresh SWR cache. `location()` is
 * where the router is now.
 */
export function renderStore(path: string) {
  let current: Location | undefined
  render(
    <SWRConfig
      value={{ provider: () => new Map(), dedupingInterval: 0, shouldRetryOnError: false }}
    >
      <MemoryRouter initialEntries={[path]}>
        <LocationRecorder onChange={(location) => (current = location)} />
        <Routes>
          <Route path="/store" element={<StoreRoute />} />
          <Route path="/product/:productId" element={<ProductRoute />} />
          <Route path="/checkout" element={<CheckoutProbe />} />
        </Routes>
      </MemoryRouter>
    </SWRConfig>,
  )
  const location = () => {
    if (!current) throw new Error('The router has not rendered.')
    return current
  }
  return { location }
}

export const pdfBook: PublicProduct = {
  id: 1,
  name: 'Identity and Trust (PDF)',
  type: 'PDF',
  priceEUR: '14.90',
  shortDescription: 'The complete framework as a PDF.',
  coverImageUrl: '/media/pdf-cover.png',
  currentStock: 7,
  isAvailable: true,
  shippingCostEUR: null,
}

export const printedBook: PublicProduct = {
  id: 2,
  name: 'Identity and Trust (Printed)',
  type: 'PHYSICAL',
  priceEUR: '29.90',
  shortDescription: 'The printed edition.',
  coverImageUrl: null,
  currentStock: 50,
  isAvailable: true,
  shippingCostEUR: '0.00',
}

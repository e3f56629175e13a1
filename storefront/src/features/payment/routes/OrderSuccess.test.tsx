import { render, screen } from '@testing-library/react'
import { MemoryRouter, Route, Routes } from 'react-router-dom'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

import { OrderSuccessRoute } from './OrderSuccess'

function renderSuccess(state: unknown) {
  render(
    <MemoryRouter initialEntries={[{ pathname: '/order/success/order-9', state }]}>
      <Routes>
        <Route path="/order/success/:orderId" element={<OrderSuccessRoute />} />
      </Routes>
    </MemoryRouter>,
  )
}

/** The download page's answer to the success page's HEAD of the link (its state, or 200). */
let linkState: string | null = null
const heads: string[] = []

beforeEach(() => {
  linkState = null
  heads.length = 0
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      heads.push(`${init?.method ?? 'GET'} ${input}`)
      return linkState
        ? new Response(null, { status: 410, headers: { 'Download-Link-State': linkState } })
        : new Response(null, { status: 200 })
    }),
  )
})

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('/order/success/{orderId}', () => {
  it('offers the PDF download when a token came along', async () => {
    renderSuccess({ downloadToken: 'tok-123', productType: 'PDF' })
    await vi.waitFor(() => expect(heads).toEqual(['HEAD /download/pdf/tok-123']))
    expect(screen.getByRole('heading', { name: 'Order Confirmed!' })).toBeInTheDocument()
    expect(screen.getByText('order-9')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Download PDF' })).toHaveAttribute(
      'href',
      '/download/pdf/tok-123',
    )
    expect(screen.getByRole('link', { name: 'Continue Shopping' })).toHaveAttribute('href', '/')
    expect(screen.queryByRole('link', { name: 'Get a new download link' })).not.toBeInTheDocument()
  })

  it.each([
    ['used-up', /used the maximum number of times/],
    ['expired', /has expired/],
  ])('says when the link of an old order is %s, and leads to a new one', async (state, reason) => {
    linkState = state
    renderSuccess({ downloadToken: 'tok-old', productType: 'PDF' })
    expect(await screen.findByText(reason)).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Get a new download link' })).toHaveAttribute(
      'href',
      '/resend-link',
    )
    expect(screen.queryByRole('link', { name: 'Download PDF' })).not.toBeInTheDocument()
  })

  it('tells a PDF buyer without a token to check their email', () => {
    renderSuccess({ downloadToken: null, productType: 'PDF' })
    expect(heads).toEqual([])
    expect(screen.queryByRole('link', { name: 'Download PDF' })).not.toBeInTheDocument()
    expect(screen.getByText(/will be sent to your email address/)).toBeInTheDocument()
  })

  it('tells a physical-book buyer about shipping and the tracking number', () => {
    renderSuccess({ downloadToken: null, productType: 'PHYSICAL' })
    expect(screen.getByText(/We will ship your book/)).toHaveTextContent('tracking number')
    expect(screen.queryByRole('link', { name: 'Download PDF' })).not.toBeInTheDocument()
  })
})

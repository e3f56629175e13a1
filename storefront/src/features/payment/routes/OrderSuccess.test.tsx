import { render, screen } from '@testing-library/react'
import { MemoryRouter, Route, Routes } from 'react-router-dom'
import { describe, expect, it } from 'vitest'

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

describe('/order/success/{orderId}', () => {
  it('offers the PDF download when a token came along', () => {
    renderSuccess({ downloadToken: 'tok-123', productType: 'PDF' })
    expect(screen.getByRole('heading', { name: 'Order Confirmed!' })).toBeInTheDocument()
    expect(screen.getByText('order-9')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Download PDF' })).toHaveAttribute(
      'href',
      '/download/pdf/tok-123',
    )
    expect(screen.getByRole('link', { name: 'Continue Shopping' })).toHaveAttribute('href', '/')
  })

  it('tells a PDF buyer without a token to check their email', () => {
    renderSuccess({ downloadToken: null, productType: 'PDF' })
    expect(screen.queryByRole('link', { name: 'Download PDF' })).not.toBeInTheDocument()
    expect(screen.getByText(/will be sent to your email address/)).toBeInTheDocument()
  })

  it('tells a physical-book buyer about shipping and the tracking number', () => {
    renderSuccess({ downloadToken: null, productType: 'PHYSICAL' })
    expect(screen.getByText(/We will ship your book/)).toHaveTextContent('tracking number')
    expect(screen.queryByRole('link', { name: 'Download PDF' })).not.toBeInTheDocument()
  })
})

import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'

import { pdfBook, printedBook, renderStore, stubApi } from '../testing/render-store'

afterEach(() => {
  vi.unstubAllGlobals()
})

const openProduct = (product: typeof pdfBook) => {
  stubApi({
    [`/api/products/${product.id}`]: { body: product },
    '/api/bsv-price': { body: { rate: 50 } },
  })
  return renderStore(`/product/${product.id}`)
}

describe('the product page', () => {
  it("labels a PDF 'Digital PDF' and shows the stock left", async () => {
    openProduct(pdfBook)
    expect(await screen.findByRole('heading', { level: 1, name: pdfBook.name })).toBeInTheDocument()
    expect(screen.getByText('Digital PDF')).toBeInTheDocument()
    expect(screen.getByText('7 available in stock')).toBeInTheDocument()
    expect(screen.getByRole('img', { name: `Cover of ${pdfBook.name}` })).toBeInTheDocument()
    expect(screen.getByText(pdfBook.shortDescription)).toBeInTheDocument()
    expect(await screen.findByText('0.29800000 BSV')).toBeInTheDocument()
  })

  it("labels any other type 'Physical Book'", async () => {
    openProduct(printedBook)
    expect(await screen.findByText('Physical Book')).toBeInTheDocument()
    expect(screen.queryByText('Digital PDF')).not.toBeInTheDocument()
  })

  it.each([
    ['is included', '0.00', 'Shipping included in the price.'],
    ['costs extra', '4.50', 'Shipping: €4.50, added at checkout.'],
  ])("says what a printed book's shipping costs when it %s", async (_case, cost, text) => {
    openProduct({ ...printedBook, shippingCostEUR: cost })
    expect(await screen.findByTestId('shipping-note')).toHaveTextContent(text)
  })

  it('says nothing of shipping for a PDF', async () => {
    openProduct(pdfBook)
    await screen.findByRole('heading', { level: 1, name: pdfBook.name })
    expect(screen.queryByTestId('shipping-note')).not.toBeInTheDocument()
  })

  it('goes to the checkout carrying the product when Buy Now is pressed', async () => {
    const { location } = openProduct(pdfBook)
    await userEvent.click(await screen.findByRole('button', { name: 'Buy Now' }))
    expect(
      await screen.findByRole('heading', { name: `Checkout for ${pdfBook.name}` }),
    ).toBeInTheDocument()
    expect(location().pathname).toBe('/checkout')
  })

  it.each([
    ['is not available', { ...pdfBook, isAvailable: false }],
    ['has no stock left', { ...pdfBook, currentStock: 0 }],
  ])('shows Out of Stock in red and disables Buy Now when the book %s', async (_case, product) => {
    openProduct(product)
    const notice = await screen.findByText('Currently Unavailable (Out of Stock)')
    expect(notice).toHaveClass('stock--out')
    expect(screen.queryByText(/available in stock/)).not.toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Buy Now' })).toBeDisabled()
  })

  it('holds the page frame with a placeholder of the same shape while the book loads', () => {
    stubApi({ '/api/products/1': 'pending', '/api/bsv-price': 'pending' })
    renderStore('/product/1')
    expect(screen.getByRole('status')).toHaveTextContent('Loading book…')
    expect(screen.getByTestId('product-skeleton')).toHaveAttribute('aria-hidden', 'true')
    expect(screen.getByRole('link', { name: /Back to the store/ })).toHaveAttribute(
      'href',
      '/store',
    )
  })

  it("shows 'Product not found.' with a link back to the store on a 404", async () => {
    stubApi({ '/api/products/99': { status: 404, body: { error: 'Product not found.' } } })
    renderStore('/product/99')
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Product not found.' }),
    ).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Back to the store' })).toHaveAttribute(
      'href',
      '/store',
    )
  })

  it('shows other failures as an error that can be retried', async () => {
    stubApi({ '/api/products/5': { status: 500, body: null } })
    renderStore('/product/5')
    expect(await screen.findByRole('alert')).toHaveTextContent('Error: Failed to fetch product 5.')
    expect(screen.getByRole('button', { name: 'Try Again' })).toBeInTheDocument()
  })
})

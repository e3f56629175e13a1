import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'

import { pdfBook, printedBook, renderStore, stubApi } from '../testing/render-store'

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('the store page', () => {
  it('shows exactly four skeleton cards while the books load', async () => {
    stubApi({ '/api/products': 'pending', '/api/bsv-price': 'pending' })
    renderStore('/store')
    expect(await screen.findByRole('heading', { level: 1, name: 'Our Books' })).toBeInTheDocument()
    expect(screen.getAllByTestId('product-skeleton')).toHaveLength(4)
    expect(screen.getByRole('status')).toHaveTextContent('Loading books…')
  })

  it('shows the error with the API message, and Try Again loads the books', async () => {
    let attempts = 0
    const { calls } = stubApi({
      '/api/products': () =>
        ++attempts === 1
          ? { status: 500, body: { error: 'Database unavailable.' } }
          : { body: [pdfBook] },
      '/api/bsv-price': { body: { rate: 50 } },
    })
    renderStore('/store')
    const alert = await screen.findByRole('alert')
    expect(alert).toHaveTextContent('Could not load products.')
    expect(alert).toHaveTextContent('Error: Database unavailable.')

    await userEvent.click(within(alert).getByRole('button', { name: 'Try Again' }))
    expect(await screen.findByRole('heading', { level: 2, name: pdfBook.name })).toBeInTheDocument()
    expect(screen.queryByRole('alert')).not.toBeInTheDocument()
    expect(calls.filter((url) => url === '/api/products')).toHaveLength(2)
  })

  it("falls back to the spec's message when the server gives none", async () => {
    stubApi({
      '/api/products': { status: 502, body: null },
      '/api/bsv-price': { body: { rate: 50 } },
    })
    renderStore('/store')
    expect(await screen.findByRole('alert')).toHaveTextContent('Error: Failed to fetch products.')
  })

  it('says so when there are no books', async () => {
    stubApi({ '/api/products': { body: [] }, '/api/bsv-price': { body: { rate: 50 } } })
    renderStore('/store')
    expect(await screen.findByText('No books available at the moment.')).toBeInTheDocument()
    expect(screen.queryAllByTestId('product-skeleton')).toHaveLength(0)
  })

  it('lists every book with cover, badge, description, BSV and EUR price and a View link', async () => {
    stubApi({
      '/api/products': { body: [pdfBook, printedBook] },
      '/api/bsv-price': { body: { rate: 50 } },
    })
    renderStore('/store')
    const items = await screen.findAllByRole('listitem')
    expect(items).toHaveLength(2)

    const pdf = within(items[0]!)
    expect(pdf.getByRole('heading', { name: pdfBook.name })).toBeInTheDocument()
    expect(pdf.getByText('Digital PDF')).toBeInTheDocument()
    expect(pdf.getByText(pdfBook.shortDescription)).toBeInTheDocument()
    expect(pdf.getByRole('img', { name: `Cover of ${pdfBook.name}` })).toHaveAttribute(
      'src',
      '/media/pdf-cover.png',
    )
    await waitFor(() => expect(pdf.getByText('0.29800000 BSV')).toBeInTheDocument())
    expect(pdf.getByText('≈ €14.90')).toBeInTheDocument()
    expect(pdf.getByRole('link', { name: `View ${pdfBook.name}` })).toHaveAttribute(
      'href',
      '/product/1',
    )

    const printed = within(items[1]!)
    expect(printed.getByText('Physical Book')).toBeInTheDocument()
    expect(printed.getByRole('img')).toHaveAttribute('src', '/placeholder-cover.svg')
    expect(printed.getByText('0.59800000 BSV')).toBeInTheDocument()
  })

  /**
   * A lazy first cover (the page's largest image) would be asked for only after the first
   * layout, putting the store's LCP after its first paint.
   */
  it("asks for the first card's cover with the page, the others lazily", async () => {
    stubApi({
      '/api/products': { body: [pdfBook, printedBook, { ...pdfBook, id: 3 }] },
      '/api/bsv-price': { body: { rate: 50 } },
    })
    renderStore('/store')
    const covers = (await screen.findAllByRole('listitem')).map((item) =>
      within(item).getByRole('img'),
    )
    expect(covers).toHaveLength(3)
    expect(covers[0]).toHaveAttribute('loading', 'eager')
    expect(covers[0]).toHaveAttribute('fetchpriority', 'high')
    for (const cover of covers.slice(1)) {
      expect(cover).toHaveAttribute('loading', 'lazy')
      expect(cover).not.toHaveAttribute('fetchpriority')
    }
  })

  it('shows prices in EUR only when the BSV price cannot be fetched', async () => {
    stubApi({
      '/api/products': { body: [pdfBook] },
      '/api/bsv-price': { status: 404, body: { error: 'Not found.' } },
    })
    renderStore('/store')
    expect(await screen.findByText('€14.90')).toBeInTheDocument()
    expect(screen.queryByText(/BSV$/)).not.toBeInTheDocument()
    expect(screen.queryByRole('alert')).not.toBeInTheDocument()
  })
})

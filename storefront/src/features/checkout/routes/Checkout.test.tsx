import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom'
import { SWRConfig } from 'swr'
import { afterEach, describe, expect, it, vi } from 'vitest'

import { CheckoutRoute } from './Checkout'
import type { CheckoutProduct } from '../types'

const PDF: CheckoutProduct = {
  id: 'p-pdf',
  name: 'Identity, Dual Vote and Trust (PDF)',
  type: 'PDF',
  priceEUR: '14.90',
  shortDescription: 'The book.',
  coverImageUrl: '/media/cover.webp',
  currentStock: 10,
  isAvailable: true,
}
const PHYSICAL: CheckoutProduct = {
  ...PDF,
  id: 'p-print',
  name: 'Identity, Dual Vote and Trust (Printed)',
  type: 'PHYSICAL',
  priceEUR: '29.90',
  shippingCostEUR: '0.00',
}

type Reply = { status?: number; body: unknown; headers?: Record<string, string> }
const json = ({ status = 200, body, headers = {} }: Reply) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  })

/** Stubs fetch with one handler per path; returns the recorded calls. */
function stubApi(handlers: Record<string, (init?: RequestInit) => Reply | Promise<Reply>>) {
  const calls: { path: string; init?: RequestInit }[] = []
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      const path = new URL(input, 'http://shop.test').pathname
      calls.push({ path, init })
      const handler = handlers[path]
      if (!handler) return json({ status: 404, body: { error: 'Not found.' } })
      return json(await handler(init))
    }),
  )
  return calls
}

function PathProbe({ label }: { label: string }) {
  const location = useLocation()
  return <p>{`${label} ${location.pathname}`}</p>
}

function renderCheckout(product?: CheckoutProduct) {
  // No ToastContainer here: the checkout screen mounts its own.
  render(
    <SWRConfig
      value={{ provider: () => new Map(), dedupingInterval: 0, shouldRetryOnError: false }}
    >
      <MemoryRouter
        initialEntries={[{ pathname: '/checkout', state: product ? { product } : null }]}
      >
        <Routes>
          <Route path="/checkout" element={<CheckoutRoute />} />
          <Route path="/store" element={<PathProbe label="store page" />} />
          <Route path="/pay/:orderId" element={<PathProbe label="pay page" />} />
          <Route path="/wallet-info" element={<PathProbe label="wallet page" />} />
        </Routes>
      </MemoryRouter>
    </SWRConfig>,
  )
}

afterEach(() => {
  vi.unstubAllGlobals()
})

/** A buyer who fills in the PDF's checkout and presses 'Proceed to Payment'. */
async function orderPdf() {
  const user = userEvent.setup()
  renderCheckout(PDF)
  await user.type(screen.getByLabelText(/Email address/), 'buyer@example.com')
  await user.click(screen.getByRole('checkbox', { name: /I agree to the/ }))
  await user.click(screen.getByRole('button', { name: 'Proceed to Payment' }))
  return user
}

describe('/checkout', () => {
  it('redirects to /store when no product was passed', async () => {
    stubApi({})
    renderCheckout()
    expect(await screen.findByText('store page /store')).toBeInTheDocument()
  })

  it('shows the price in BSV with approximate EUR once the rate loads', async () => {
    stubApi({ '/api/bsv-price': () => ({ body: { rate: 50 } }) })
    renderCheckout(PDF)
    // 14.90 EUR / 50 EUR per BSV = 0.298 BSV
    expect(await screen.findByText(/0\.29800000 BSV/)).toBeInTheDocument()
    expect(screen.getByText('≈ €14.90')).toBeInTheDocument()
    expect(screen.getByText(PDF.name)).toBeInTheDocument()
  })

  it('shows the price in EUR only when the rate fails', async () => {
    const calls = stubApi({
      '/api/bsv-price': () => ({ status: 503, body: { error: 'No rate source answered.' } }),
    })
    renderCheckout(PDF)
    await waitFor(() => expect(calls.some((c) => c.path === '/api/bsv-price')).toBe(true))
    expect(await screen.findByTestId('checkout-price')).toHaveTextContent(/^€14\.90$/)
  })

  it('asks for a valid email, with a field message and a toast, and clears it on edit', async () => {
    const calls = stubApi({ '/api/bsv-price': () => ({ body: { rate: 50 } }) })
    const user = userEvent.setup()
    renderCheckout(PDF)
    await user.click(screen.getByRole('checkbox', { name: /I agree to the/ }))
    await user.click(screen.getByRole('button', { name: 'Proceed to Payment' }))
    expect(await screen.findByText('Please enter a valid email address.')).toBeInTheDocument()
    expect(await screen.findByText('Please correct the errors on the form.')).toBeInTheDocument()
    expect(screen.getByLabelText(/Email address/)).toHaveAttribute('aria-invalid', 'true')

    await user.type(screen.getByLabelText(/Email address/), 'not-an-email')
    expect(screen.queryByText('Please enter a valid email address.')).not.toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Proceed to Payment' }))
    expect(await screen.findByText('Please enter a valid email address.')).toBeInTheDocument()
    expect(calls.some((c) => c.path === '/api/orders/create')).toBe(false)
  })

  it("refuses before ordering an e-mail the shop's rule refuses (the server would too)", async () => {
    const calls = stubApi({ '/api/bsv-price': () => ({ body: { rate: 50 } }) })
    const user = userEvent.setup()
    renderCheckout(PDF)
    await user.click(screen.getByRole('checkbox', { name: /I agree to the/ }))
    await user.type(screen.getByLabelText(/Email address/), 'bad;mail@b.co')
    await user.click(screen.getByRole('button', { name: 'Proceed to Payment' }))
    expect(await screen.findByText('Please enter a valid email address.')).toBeInTheDocument()
    expect(calls.some((c) => c.path === '/api/orders/create')).toBe(false)
  })

  it('requires the terms to be accepted', async () => {
    const calls = stubApi({ '/api/bsv-price': () => ({ body: { rate: 50 } }) })
    const user = userEvent.setup()
    renderCheckout(PDF)
    await user.type(screen.getByLabelText(/Email address/), 'buyer@example.com')
    await user.click(screen.getByRole('button', { name: 'Proceed to Payment' }))
    expect(
      await screen.findByText('You must agree to the Terms of Use and Privacy Policy.'),
    ).toBeInTheDocument()
    expect(calls.some((c) => c.path === '/api/orders/create')).toBe(false)
  })

  it('links the terms, the privacy policy and the wallet info', () => {
    stubApi({})
    renderCheckout(PDF)
    expect(screen.getByRole('link', { name: 'Terms of Use' })).toHaveAttribute(
      'href',
      '/legal#terms',
    )
    expect(screen.getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute(
      'href',
      '/legal#privacy',
    )
    expect(screen.getByRole('link', { name: /ordinal address/ })).toHaveAttribute(
      'href',
      '/wallet-info',
    )
  })

  it('has no shipping form for a PDF', () => {
    stubApi({})
    renderCheckout(PDF)
    expect(screen.queryByRole('group', { name: 'Shipping address' })).not.toBeInTheDocument()
    expect(screen.queryByLabelText(/Full name/)).not.toBeInTheDocument()
  })

  it('shows the shipping form for a physical book with the spec required fields', () => {
    stubApi({})
    renderCheckout(PHYSICAL)
    expect(screen.getByRole('group', { name: 'Shipping address' })).toBeInTheDocument()
    for (const label of [/Full name/, /Address line 1/, /City/, /Postal code/, /^Country/]) {
      expect(screen.getByLabelText(label)).toBeRequired()
    }
    expect(screen.getByLabelText(/Address line 2/)).not.toBeRequired()
    expect(screen.getByLabelText(/State \/ Province/)).not.toBeRequired()
  })

  it('asks for the country from the ISO list, which a filter narrows, not as free text', async () => {
    stubApi({})
    const user = userEvent.setup()
    renderCheckout(PHYSICAL)
    const country = screen.getByRole('combobox', { name: /^Country/ })
    expect(country.tagName).toBe('SELECT')
    // 249 countries and the empty choice.
    expect(within(country).getAllByRole('option')).toHaveLength(250)
    expect(country).toHaveValue('')

    const filter = screen.getByRole('searchbox', { name: 'Filter the list of countries' })
    await user.type(filter, 'uk')
    expect(
      within(country)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Choose from the matches', 'Ukraine', 'United Kingdom'])
    expect(screen.getByText('2 countries match.')).toBeInTheDocument()
    await user.selectOptions(country, 'United Kingdom')
    expect(country).toHaveValue('United Kingdom')

    // One match left is chosen; the choice stays listed while another filter hides it.
    await user.clear(filter)
    await user.type(filter, 'ital')
    expect(country).toHaveValue('Italy')
    expect(screen.getByText('1 country matches: Italy, chosen.')).toBeInTheDocument()
    await user.clear(filter)
    await user.type(filter, 'zzz')
    expect(screen.getByText(/No country matches/)).toBeInTheDocument()
    expect(country).toHaveValue('Italy')
  })

  it('offers an optional phone field for a physical book only', () => {
    stubApi({})
    renderCheckout(PHYSICAL)
    const phone = screen.getByLabelText('Phone (optional)')
    expect(phone).toHaveAttribute('type', 'tel')
    expect(phone).not.toBeRequired()
  })

  it('refuses a phone number that is not one, with a field message, and clears it on edit', async () => {
    const calls = stubApi({})
    const user = userEvent.setup()
    renderCheckout(PHYSICAL)
    await user.type(screen.getByLabelText(/Email address/), 'buyer@example.com')
    await user.type(screen.getByLabelText(/Full name/), 'Ada Lovelace')
    await user.type(screen.getByLabelText(/Address line 1/), '1 Main Street')
    await user.type(screen.getByLabelText(/City/), 'London')
    await user.type(screen.getByLabelText(/Postal code/), 'N1 1AA')
    await user.selectOptions(screen.getByRole('combobox', { name: /^Country/ }), 'United Kingdom')
    await user.type(screen.getByLabelText('Phone (optional)'), 'call me maybe')
    await user.click(screen.getByRole('checkbox', { name: /I agree to the/ }))
    await user.click(screen.getByRole('button', { name: 'Proceed to Payment' }))
    expect(await screen.findByText(/Please enter a valid phone number/)).toBeInTheDocument()
    expect(await screen.findByText('Please correct the errors on the form.')).toBeInTheDocument()
    expect(screen.getByLabelText('Phone (optional)')).toHaveAttribute('aria-invalid', 'true')
    expect(calls.some((c) => c.path === '/api/orders/create')).toBe(false)
    await user.type(screen.getByLabelText('Phone (optional)'), '1')
    expect(screen.queryByText(/Please enter a valid phone number/)).not.toBeInTheDocument()
  })

  it('says shipping is included for a printed book that costs nothing to ship', () => {
    stubApi({})
    renderCheckout(PHYSICAL)
    const shipping = screen.getByTestId('checkout-shipping')
    expect(shipping).toHaveTextContent('ShippingIncluded in the price')
    expect(screen.getByTestId('checkout-price')).toHaveTextContent(/^€29\.90$/)
  })

  it("adds a printed book's shipping to the total, in EUR and in BSV", async () => {
    stubApi({ '/api/bsv-price': () => ({ body: { rate: 50 } }) })
    renderCheckout({ ...PHYSICAL, shippingCostEUR: '5.00' })
    // (29.90 + 5.00) EUR / 50 EUR per BSV = 0.698 BSV
    expect(await screen.findByText(/0\.69800000 BSV/)).toBeInTheDocument()
    expect(screen.getByText('≈ €34.90')).toBeInTheDocument()
    const lines = within(screen.getByTestId('checkout-shipping'))
    expect(lines.getByText('Book').nextSibling).toHaveTextContent('€29.90')
    expect(lines.getByText('Shipping').nextSibling).toHaveTextContent('€5.00')
    expect(lines.getByText('Total').nextSibling).toHaveTextContent('€34.90')
  })

  it('says nothing of shipping for a PDF', () => {
    stubApi({})
    renderCheckout(PDF)
    expect(screen.queryByTestId('checkout-shipping')).not.toBeInTheDocument()
  })

  it('creates a PDF order with a trimmed token address and goes to the pay screen', async () => {
    let resolveCreate: (reply: Reply) => void = () => undefined
    const calls = stubApi({
      '/api/bsv-price': () => ({ body: { rate: 50 } }),
      '/api/orders/create': () => new Promise<Reply>((resolve) => (resolveCreate = resolve)),
    })
    const user = userEvent.setup()
    renderCheckout(PDF)
    await user.type(screen.getByLabelText(/Email address/), '  buyer@example.com ')
    await user.type(
      screen.getByLabelText(/Token \/ ordinal address/),
      '  1BoatSLRHtKNngkdXEeobR76b53LETtpyT  ',
    )
    await user.click(screen.getByRole('checkbox', { name: /I agree to the/ }))
    await user.click(screen.getByRole('button', { name: 'Proceed to Payment' }))

    const busy = await screen.findByRole('button', { name: 'Processing...' })
    expect(busy).toBeDisabled()
    resolveCreate({ body: { success: true, orderId: 'order-42' } })
    expect(await screen.findByText('pay page /pay/order-42')).toBeInTheDocument()

    const create = calls.find((c) => c.path === '/api/orders/create')
    expect(create?.init?.method).toBe('POST')
    expect(JSON.parse(String(create?.init?.body))).toEqual({
      productId: 'p-pdf',
      userEmail: 'buyer@example.com',
      tokenAddress: '1BoatSLRHtKNngkdXEeobR76b53LETtpyT',
    })
  })

  it('sends the shipping details, the country chosen, the phone and a null token address for a physical book', async () => {
    const calls = stubApi({ '/api/orders/create': () => ({ body: { success: true, orderId: 7 } }) })
    const user = userEvent.setup()
    renderCheckout(PHYSICAL)
    await user.type(screen.getByLabelText(/Email address/), 'buyer@example.com')
    await user.type(screen.getByLabelText(/Full name/), 'Ada Lovelace')
    await user.type(screen.getByLabelText(/Address line 1/), '1 Main Street')
    await user.type(screen.getByLabelText(/City/), 'London')
    await user.type(screen.getByLabelText(/Postal code/), 'N1 1AA')
    await user.selectOptions(screen.getByRole('combobox', { name: /^Country/ }), 'United Kingdom')
    await user.type(screen.getByLabelText('Phone (optional)'), ' +44 (20) 7946-0958 ')
    await user.click(screen.getByRole('checkbox', { name: /I agree to the/ }))
    await user.click(screen.getByRole('button', { name: 'Proceed to Payment' }))
    expect(await screen.findByText('pay page /pay/7')).toBeInTheDocument()
    const body = JSON.parse(String(calls.find((c) => c.path === '/api/orders/create')?.init?.body))
    expect(body).toEqual({
      productId: 'p-print',
      userEmail: 'buyer@example.com',
      tokenAddress: null,
      shippingName: 'Ada Lovelace',
      shippingAddressLine1: '1 Main Street',
      shippingAddressLine2: '',
      shippingCity: 'London',
      shippingStateProvince: '',
      shippingPostalCode: 'N1 1AA',
      shippingCountry: 'United Kingdom',
      shippingPhone: '+44 (20) 7946-0958',
    })
  })

  it('when the shop is busy (503 with Retry-After), says so kindly and tries again by itself', async () => {
    let asked = 0
    const calls = stubApi({
      '/api/orders/create': () =>
        ++asked === 1
          ? {
              status: 503,
              headers: { 'Retry-After': '1' },
              body: { success: false, error: 'Many people are ordering right now.' },
            }
          : { body: { success: true, orderId: 'order-after-wait' } },
    })
    await orderPdf()

    expect(await screen.findByRole('status')).toHaveTextContent(
      'Many people are ordering right now. Your details are kept: we will try again in 1 second.',
    )
    expect(screen.getByRole('button', { name: 'Processing...' })).toBeDisabled()
    // No error is shown while it waits: the buyer has done nothing wrong.
    expect(document.querySelector('.form-error--general')).toBeNull()
    expect(
      await screen.findByText('pay page /pay/order-after-wait', {}, { timeout: 5000 }),
    ).toBeInTheDocument()
    expect(calls.filter((c) => c.path === '/api/orders/create')).toHaveLength(2)
  })

  it('does not retry a 503 without Retry-After (no BSV rate): it shows the reason', async () => {
    const calls = stubApi({
      '/api/orders/create': () => ({
        status: 503,
        body: { success: false, error: 'The BSV price is unavailable right now.' },
      }),
    })
    await orderPdf()
    await waitFor(() =>
      expect(document.querySelector('.form-error--general')).toHaveTextContent(
        'The BSV price is unavailable right now.',
      ),
    )
    expect(calls.filter((c) => c.path === '/api/orders/create')).toHaveLength(1)
  })

  it("shows the server's error when the order cannot be created, and clears it on edit", async () => {
    stubApi({
      '/api/orders/create': () => ({
        status: 409,
        body: { success: false, error: 'This book is out of stock.' },
      }),
    })
    const user = await orderPdf()
    await waitFor(() =>
      expect(document.querySelector('.form-error--general')).toHaveTextContent(
        'This book is out of stock.',
      ),
    )
    expect(await screen.findAllByText('This book is out of stock.')).toHaveLength(2) // inline and toast
    expect(screen.getByRole('button', { name: 'Proceed to Payment' })).toBeEnabled()
    await user.type(screen.getByLabelText(/Email address/), 'x')
    await waitFor(() => expect(document.querySelector('.form-error--general')).toBeNull())
  })

  it("falls back to 'Failed to create order.' when the server answers without success or error", async () => {
    stubApi({ '/api/orders/create': () => ({ body: { success: false } }) })
    await orderPdf()
    expect((await screen.findAllByText('Failed to create order.')).length).toBeGreaterThanOrEqual(1)
  })

  it('shows the network fallback when the request cannot be sent', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('network down'))),
    )
    await orderPdf()
    expect(
      (await screen.findAllByText('Failed to create order due to a network or server issue.'))
        .length,
    ).toBeGreaterThanOrEqual(1)
  })
})

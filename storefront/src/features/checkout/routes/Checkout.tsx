import { Navigate, useLocation } from 'react-router-dom'
import useSWR from 'swr'

import { Toasts } from '@/components/ui/Toasts'
import { paths } from '@/config/paths'

import { getBsvPrice } from '../api/get-bsv-price'
import { CheckoutForm } from '../components/CheckoutForm'
import { OrderSummary } from '../components/OrderSummary'
import { isCheckoutProduct } from '../types'
import '../checkout.css'

/** /checkout: needs the product from the product page's router state, else back to the store. */
export function CheckoutRoute() {
  const location = useLocation()
  const product = (location.state as { product?: unknown } | null)?.product
  // The rate is optional: when it fails, prices show in EUR only.
  const { data: rate } = useSWR(isCheckoutProduct(product) ? 'bsv-price' : null, getBsvPrice)

  if (!isCheckoutProduct(product)) return <Navigate to={paths.store} replace />

  return (
    <section className="container page checkout">
      <title>Checkout · Dual Vote</title>
      <h1 id="checkout-title">Checkout</h1>
      <div className="checkout__layout">
        <OrderSummary product={product} rate={rate} />
        <CheckoutForm product={product} />
      </div>
      <Toasts />
    </section>
  )
}

export const Component = CheckoutRoute

import { Link, useLocation, useParams } from 'react-router-dom'

import { paths } from '@/config/paths'

import '../payment.css'

type SuccessState = { downloadToken?: string | null; productType?: 'PDF' | 'PHYSICAL' }

/** /order/success/{orderId}: what happens next, with the PDF download when a token came along. */
export function OrderSuccessRoute() {
  const { orderId = '' } = useParams()
  const state = (useLocation().state ?? {}) as SuccessState
  const token =
    typeof state.downloadToken === 'string' && state.downloadToken ? state.downloadToken : null
  const productType = state.productType

  return (
    <section className="container page narrow">
      <title>Order Confirmed · Dual Vote</title>
      <div className="card pay-card order-success">
        <span className="pay-check pay-check--large" aria-hidden="true">
          ✓
        </span>
        <h1>Order Confirmed!</h1>
        <p>
          Thank you for your purchase. Your order number is{' '}
          <strong className="order-success__id">{orderId}</strong>.
        </p>

        {token ? (
          <>
            <p>
              Your book is ready. The download link is personal and can be used a limited number of
              times.
            </p>
            <a
              className="button button--accent order-success__download"
              href={`/download/pdf/${encodeURIComponent(token)}`}
            >
              Download PDF
            </a>
            <p className="muted">We have also sent the link to your email address.</p>
          </>
        ) : null}

        {!token && productType === 'PDF' ? (
          <p>
            Your download link is being prepared and will be sent to your email address. Please
            check your email (and the spam folder) in a few minutes.
          </p>
        ) : null}

        {productType === 'PHYSICAL' ? (
          <p>
            We will ship your book to the address you gave us and email you the tracking number as
            soon as it is on its way.
          </p>
        ) : null}

        {!token && !productType ? <p>A confirmation has been sent to your email address.</p> : null}

        <Link to={paths.home} className="button button--primary">
          Continue Shopping
        </Link>
      </div>
    </section>
  )
}

export const Component = OrderSuccessRoute

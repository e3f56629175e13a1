import { useEffect, useState } from 'react'
import { Link, useLocation, useParams } from 'react-router-dom'

import { paths } from '@/config/paths'

import type { DownloadLinkState } from '../api/get-download-link-state'
import { getDownloadLinkState } from '../api/get-download-link-state'

import '../payment.css'

type SuccessState = { downloadToken?: string | null; productType?: 'PDF' | 'PHYSICAL' }

/** What a buyer reads when the order's link no longer works (an old order opened again). */
const LINK_REFUSED: Partial<Record<DownloadLinkState, string>> = {
  expired: 'The download link of this order has expired: each link works for a limited time.',
  'used-up': 'The download link of this order has been used the maximum number of times.',
  unknown: 'The download link of this order is not valid any more.',
}

/** The link's state, asked once per token; null until known (or when it cannot be told). */
function useDownloadLinkState(token: string | null): DownloadLinkState | null {
  const [state, setState] = useState<{ token: string; value: DownloadLinkState | null } | null>(
    null,
  )
  useEffect(() => {
    if (!token) return
    let cancelled = false
    void getDownloadLinkState(token).then((value) => {
      if (!cancelled) setState({ token, value })
    })
    return () => {
      cancelled = true
    }
  }, [token])
  return state && state.token === token ? state.value : null
}

/** /order/success/{orderId}: what happens next, with the PDF download when a token came along. */
export function OrderSuccessRoute() {
  const { orderId = '' } = useParams()
  const state = (useLocation().state ?? {}) as SuccessState
  const token =
    typeof state.downloadToken === 'string' && state.downloadToken ? state.downloadToken : null
  const productType = state.productType
  const linkState = useDownloadLinkState(token)
  const refusal = linkState ? LINK_REFUSED[linkState] : undefined

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

        {token && refusal ? (
          <div className="pay-message pay-message--warning order-success__refused" role="status">
            <p>{refusal}</p>
            <p>Your purchase is not lost: we e-mail a fresh link to the address you bought with.</p>
            <Link to={paths.resendLink} className="button button--accent">
              Get a new download link
            </Link>
          </div>
        ) : null}

        {token && !refusal ? (
          <>
            <p>
              Your book is ready. The download link is personal and can be used a limited number of
              times.
            </p>
            <a
              className="button button--accent order-success__download"
              href={paths.downloadPdf(token)}
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

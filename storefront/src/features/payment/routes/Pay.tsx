import { Link, useParams } from 'react-router-dom'
import useSWR from 'swr'

import { paths } from '@/config/paths'
import { ErrorState, LoadingState } from '@/components/ui/StatusMessage'
import { Toasts } from '@/components/ui/Toasts'
import { ApiError } from '@/lib/api-client'

import { getOrderInfo } from '../api/get-order-info'
import { PaymentScreen } from '../components/PaymentScreen'
import '../payment.css'

/** /pay/{orderId}: loads the order's payment details, then shows the pay screen and its toasts. */
export function PayRoute() {
  return (
    <>
      <PayScreen />
      <Toasts />
    </>
  )
}

function PayScreen() {
  const { orderId = '' } = useParams()
  const { data, error, isLoading, mutate } = useSWR(orderId ? ['order-info', orderId] : null, () =>
    getOrderInfo(orderId),
  )

  if (error) {
    const notFound = error instanceof ApiError && error.status === 404
    return (
      <section className="container page narrow">
        <ErrorState
          message={notFound ? 'Order not found.' : 'Error: Failed to load payment details.'}
          onRetry={notFound ? undefined : () => void mutate()}
        >
          <Link to={paths.store}>Back to the Store</Link>
        </ErrorState>
      </section>
    )
  }
  if (isLoading || !data) {
    return (
      <section className="container page narrow">
        <LoadingState label="Loading payment details…" />
      </section>
    )
  }
  return <PaymentScreen key={orderId} orderId={orderId} info={data} />
}

export const Component = PayRoute

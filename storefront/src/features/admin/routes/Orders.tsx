import { Link } from 'react-router-dom'
import useSWR from 'swr'

import { EmptyState, ErrorState, LoadingState } from '@/components/ui/StatusMessage'
import { paths } from '@/config/paths'

import { getOrders } from '../api/orders'
import { OrderStatusBadge } from '../components/OrderStatusBadge'
import { dateTime, euro } from '../format'
import { useAdminTitle } from '../hooks/use-admin-title'
import { useSignOutOn401 } from '../hooks/use-unauthorized'
import { EmailText } from '../components/EmailText'

export function OrdersRoute() {
  useAdminTitle('Orders')
  // Only the first page is loaded (spec section 2).
  const { data, error, isLoading, mutate } = useSWR('admin/orders/1', () => getOrders(1))
  useSignOutOn401(error)

  return (
    <section className="admin-page">
      <header className="admin-page__header">
        <div>
          <h1>Orders</h1>
          <p className="muted">
            Newest first.
            {data && data.totalPages > 1 ? ` Showing the latest page of ${data.totalPages}.` : ''}
          </p>
        </div>
      </header>
      {isLoading ? (
        <LoadingState label="Loading orders…" />
      ) : error ? (
        <ErrorState
          message={error instanceof Error ? error.message : 'Failed to fetch orders.'}
          onRetry={() => void mutate()}
        />
      ) : !data || data.orders.length === 0 ? (
        <EmptyState>No orders found</EmptyState>
      ) : (
        <div className="card admin-table-wrap">
          <table className="admin-table">
            <thead>
              <tr>
                <th scope="col">Order</th>
                <th scope="col">Date</th>
                <th scope="col">Customer</th>
                <th scope="col">Product</th>
                <th scope="col" className="admin-num">
                  Price
                </th>
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody>
              {data.orders.map((order) => (
                <tr key={order.id} data-order-id={order.id}>
                  <td data-label="Order">
                    <Link to={paths.admin.order(order.id)} className="admin-mono" title={order.id}>
                      {order.id.slice(0, 8)}
                    </Link>
                  </td>
                  <td data-label="Date">{dateTime(order.createdAt)}</td>
                  <td data-label="Customer">
                    <EmailText email={order.userEmail} />
                  </td>
                  <td data-label="Product">
                    <div>
                      {order.product.name}
                      <span className="admin-table__sub">
                        {order.product.type === 'PHYSICAL' ? 'Physical' : 'Digital'}
                      </span>
                    </div>
                  </td>
                  <td data-label="Price" className="admin-num">
                    {euro(order.priceAtPurchaseUSD)}
                  </td>
                  <td data-label="Status">
                    <OrderStatusBadge status={order.status} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  )
}

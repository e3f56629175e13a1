import { ORDER_STATUSES } from '@shop/domain'
import type { AdminOrder } from '@shop/domain'
import type { FormEvent } from 'react'
import { Link, useSearchParams } from 'react-router-dom'
import useSWR from 'swr'

import { EmptyState, ErrorState, LoadingState } from '@/components/ui/StatusMessage'
import { paths } from '@/config/paths'

import { getOrders, ORDER_EXCEPTIONS, ordersQueryOf, statusLabel } from '../api/orders'
import { OrderStatusBadge } from '../components/OrderStatusBadge'
import { dateTime, euro } from '@/lib/admin/format'
import { useAdminTitle } from '@/lib/admin/use-admin-title'
import { useSignOutOn401 } from '@/lib/admin/use-unauthorized'
import { Pager } from '@/components/admin/Pager'
import { EmailText } from '@/components/admin/EmailText'

/** The exceptions an order carries, as the list marks them. */
function exceptionMarks(order: AdminOrder): string[] {
  return [
    order.flags.paidLate && 'Paid late',
    order.flags.paidPartial && 'Paid short',
    order.flags.paidOver && 'Paid over',
    order.flags.paidInvalid && 'Invalid payment',
    order.attention && 'Needs attention',
  ].filter((mark): mark is string => Boolean(mark))
}

export function OrdersRoute() {
  useAdminTitle('Orders')
  // The filters live in the URL: a search can be bookmarked, shared and reloaded.
  const [params, setParams] = useSearchParams()
  const query = ordersQueryOf(params)
  const filterQuery = ordersQueryOf(params, { withPage: false })
  const { data, error, isLoading, mutate } = useSWR(`admin/orders?${query}`, () => getOrders(query))
  useSignOutOn401(error)

  const search = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    const next = new URLSearchParams()
    for (const key of ['q', 'status', 'exception']) {
      const value = String(form.get(key) ?? '').trim()
      if (value) next.set(key, value)
    }
    setParams(next)
  }
  const goTo = (next: number) => {
    const updated = new URLSearchParams(params)
    if (next === 1) updated.delete('page')
    else updated.set('page', String(next))
    setParams(updated)
  }

  return (
    <section className="admin-page">
      <header className="admin-page__header">
        <div>
          <h1>Orders</h1>
          <p className="muted">Newest first. Search by order id, e-mail, txid or address.</p>
        </div>
        <a
          className="button button--ghost"
          href={`/api/admin/orders/export.csv${filterQuery ? `?${filterQuery}` : ''}`}
          download
        >
          Export CSV
        </a>
      </header>
      <form className="card admin-filters" role="search" onSubmit={search} key={filterQuery}>
        <label>
          <span>Search</span>
          <input
            type="search"
            name="q"
            defaultValue={params.get('q') ?? ''}
            placeholder="Order id, e-mail, txid or address"
            maxLength={200}
          />
        </label>
        <label>
          <span>Status</span>
          <select name="status" defaultValue={params.get('status') ?? ''}>
            <option value="">All</option>
            {ORDER_STATUSES.map((status) => (
              <option key={status} value={status}>
                {statusLabel(status)}
              </option>
            ))}
          </select>
        </label>
        <label>
          <span>Exception</span>
          <select name="exception" defaultValue={params.get('exception') ?? ''}>
            <option value="">Any</option>
            {ORDER_EXCEPTIONS.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="button button--primary">
          Search
        </button>
      </form>
      {isLoading ? (
        <LoadingState label="Loading orders…" />
      ) : error ? (
        <ErrorState
          message={error instanceof Error ? error.message : 'Failed to fetch orders.'}
          onRetry={() => void mutate()}
        />
      ) : !data || data.orders.length === 0 ? (
        <EmptyState>{filterQuery ? 'No order matches this search.' : 'No orders found'}</EmptyState>
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
                    <div className="admin-status-cell">
                      <OrderStatusBadge status={order.status} />
                      {exceptionMarks(order).map((mark) => (
                        <span key={mark} className="admin-badge admin-badge--warning">
                          {mark}
                        </span>
                      ))}
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {data ? <Pager page={data.currentPage} totalPages={data.totalPages} onPage={goTo} /> : null}
    </section>
  )
}

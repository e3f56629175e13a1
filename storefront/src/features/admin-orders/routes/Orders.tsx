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
import { AdminPageHeader } from '@/components/admin/AdminPageHeader'
import type { AdminColumn } from '@/components/admin/AdminTable'
import { AdminTable } from '@/components/admin/AdminTable'
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

const COLUMNS: AdminColumn<AdminOrder>[] = [
  {
    label: 'Order',
    cell: (order) => (
      <Link to={paths.admin.order(order.id)} className="admin-mono" title={order.id}>
        {order.id.slice(0, 8)}
      </Link>
    ),
  },
  { label: 'Date', cell: (order) => dateTime(order.createdAt) },
  { label: 'Customer', cell: (order) => <EmailText email={order.userEmail} /> },
  {
    label: 'Product',
    cell: (order) => (
      <div>
        {order.product.name}
        <span className="admin-table__sub">
          {order.product.type === 'PHYSICAL' ? 'Physical' : 'Digital'}
        </span>
      </div>
    ),
  },
  { label: 'Price', numeric: true, cell: (order) => euro(order.priceAtPurchaseUSD) },
  {
    label: 'Status',
    cell: (order) => (
      <div className="admin-status-cell">
        <OrderStatusBadge status={order.status} />
        {exceptionMarks(order).map((mark) => (
          <span key={mark} className="admin-badge admin-badge--warning">
            {mark}
          </span>
        ))}
      </div>
    ),
  },
]

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
      <AdminPageHeader
        title="Orders"
        actions={
          <a
            className="button button--ghost"
            href={`/api/admin/orders/export.csv${filterQuery ? `?${filterQuery}` : ''}`}
            download
          >
            Export CSV
          </a>
        }
      >
        <p className="muted">Newest first. Search by order id, e-mail, txid or address.</p>
      </AdminPageHeader>
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
        <AdminTable
          columns={COLUMNS}
          rows={data.orders}
          rowKey={(order) => order.id}
          rowAttributes={(order) => ({ 'data-order-id': order.id })}
        />
      )}
      {data ? <Pager page={data.currentPage} totalPages={data.totalPages} onPage={goTo} /> : null}
    </section>
  )
}

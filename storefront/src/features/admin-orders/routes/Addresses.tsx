import { Link, useSearchParams } from 'react-router-dom'
import useSWR from 'swr'

import { EmptyState, ErrorState, LoadingState } from '@/components/ui/StatusMessage'
import { paths } from '@/config/paths'

import { ADDRESSES_CSV_URL, getAddresses } from '../api/addresses'
import { statusLabel } from '../api/orders'
import { OrderStatusBadge } from '../components/OrderStatusBadge'
import { bsv } from '@/lib/admin/format'
import { useAdminTitle } from '@/lib/admin/use-admin-title'
import { Pager } from '@/components/admin/Pager'
import { useSignOutOn401 } from '@/lib/admin/use-unauthorized'

/**
 * The watch-only view of the owner's wallet: every address the shop gave out (0/n of the xpub),
 * newest first, with its order and what it received, to check against the wallet and export.
 */
export function AddressesRoute() {
  useAdminTitle('Addresses')
  const [params, setParams] = useSearchParams()
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1)
  const { data, error, isLoading, mutate } = useSWR(`admin/addresses/${page}`, () =>
    getAddresses(page),
  )
  useSignOutOn401(error)
  const goTo = (next: number) => setParams(next === 1 ? {} : { page: String(next) })

  return (
    <section className="admin-page">
      <header className="admin-page__header">
        <div>
          <p className="admin-breadcrumb">
            <Link to={paths.admin.dashboard}>Dashboard</Link> /
          </p>
          <h1>Addresses</h1>
          <p className="muted">
            Every payment address the shop gave out, newest first. Your wallet shows the same
            addresses at the path m/0/n of the key you configured.
          </p>
        </div>
        <a className="button button--ghost" href={ADDRESSES_CSV_URL} download>
          Export CSV
        </a>
      </header>
      {isLoading ? (
        <LoadingState label="Loading addresses…" />
      ) : error ? (
        <ErrorState
          message={error instanceof Error ? error.message : 'Failed to fetch the addresses.'}
          onRetry={() => void mutate()}
        />
      ) : !data || data.addresses.length === 0 ? (
        <EmptyState>No address has been given out yet.</EmptyState>
      ) : (
        <>
          <div className="card admin-table-wrap">
            <table className="admin-table">
              <thead>
                <tr>
                  <th scope="col">Index</th>
                  <th scope="col">Address</th>
                  <th scope="col">Order</th>
                  <th scope="col" className="admin-num">
                    Received
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.addresses.map((row) => (
                  <tr key={row.index} data-index={row.index}>
                    <td data-label="Index" className="admin-mono">
                      m/0/{row.index}
                    </td>
                    <td data-label="Address" className="admin-mono admin-break">
                      {row.address}
                    </td>
                    <td data-label="Order">
                      {row.orderId ? (
                        <span className="admin-address-order">
                          <Link
                            to={paths.admin.order(row.orderId)}
                            className="admin-mono"
                            title={row.orderId}
                          >
                            {row.orderId.slice(0, 8)}
                          </Link>
                          {row.status ? <OrderStatusBadge status={row.status} /> : null}
                        </span>
                      ) : (
                        <span className="muted" title="The checkout that took it did not finish.">
                          no order
                        </span>
                      )}
                    </td>
                    <td
                      data-label="Received"
                      className="admin-num"
                      aria-label={row.status ? statusLabel(row.status) : undefined}
                    >
                      {row.receivedSatoshis > 0 ? bsv(row.receivedSatoshis) : '—'}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager page={data.currentPage} totalPages={data.totalPages} onPage={goTo} />
        </>
      )}
    </section>
  )
}

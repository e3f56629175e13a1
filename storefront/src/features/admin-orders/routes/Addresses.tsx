import { Link, useSearchParams } from 'react-router-dom'
import useSWR from 'swr'

import { EmptyState, ErrorState, LoadingState } from '@/components/ui/StatusMessage'
import { paths } from '@/config/paths'

import type { AdminAddress } from '../api/addresses'
import { ADDRESSES_CSV_URL, getAddresses } from '../api/addresses'
import { statusLabel } from '../api/orders'
import { OrderStatusBadge } from '../components/OrderStatusBadge'
import { bsv } from '@/lib/admin/format'
import { useAdminTitle } from '@/lib/admin/use-admin-title'
import { AdminPageHeader } from '@/components/admin/AdminPageHeader'
import type { AdminColumn } from '@/components/admin/AdminTable'
import { AdminTable } from '@/components/admin/AdminTable'
import { Pager } from '@/components/admin/Pager'
import { useSignOutOn401 } from '@/lib/admin/use-unauthorized'

const COLUMNS: AdminColumn<AdminAddress>[] = [
  { label: 'Index', className: 'admin-mono', cell: (row) => `m/0/${row.index}` },
  { label: 'Address', className: 'admin-mono admin-break', cell: (row) => row.address },
  {
    label: 'Order',
    cell: (row) =>
      row.orderId ? (
        <span className="admin-address-order">
          <Link to={paths.admin.order(row.orderId)} className="admin-mono" title={row.orderId}>
            {row.orderId.slice(0, 8)}
          </Link>
          {row.status ? <OrderStatusBadge status={row.status} /> : null}
        </span>
      ) : (
        <span className="muted" title="The checkout that took it did not finish.">
          no order
        </span>
      ),
  },
  {
    label: 'Received',
    numeric: true,
    ariaLabel: (row) => (row.status ? statusLabel(row.status) : undefined),
    cell: (row) => (row.receivedSatoshis > 0 ? bsv(row.receivedSatoshis) : '—'),
  },
]

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
      <AdminPageHeader
        title="Addresses"
        back={{ to: paths.admin.dashboard, label: 'Dashboard' }}
        actions={
          <a className="button button--ghost" href={ADDRESSES_CSV_URL} download>
            Export CSV
          </a>
        }
      >
        <p className="muted">
          Every payment address the shop gave out, newest first. Your wallet shows the same
          addresses at the path m/0/n of the key you configured.
        </p>
      </AdminPageHeader>
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
          <AdminTable
            columns={COLUMNS}
            rows={data.addresses}
            rowKey={(row) => row.index}
            rowAttributes={(row) => ({ 'data-index': row.index })}
          />
          <Pager page={data.currentPage} totalPages={data.totalPages} onPage={goTo} />
        </>
      )}
    </section>
  )
}

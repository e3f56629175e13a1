import { Link } from 'react-router-dom'
import useSWR from 'swr'

import { paths } from '@/config/paths'

import { getStats } from '../api/session'
import { Icon } from '../components/Icon'
import { useAdminSession } from '../hooks/admin-session'
import { useAdminTitle } from '../hooks/use-admin-title'
import { useSignOutOn401 } from '../hooks/use-unauthorized'

/** The gap limit of common wallets (ElectrumSV scans 20 unused addresses ahead). */
const WALLET_GAP_LIMIT = 20

export function DashboardRoute() {
  useAdminTitle('Dashboard')
  const { admin } = useAdminSession()
  const stats = useSWR('admin/stats', getStats)
  useSignOutOn401(stats.error)
  const highest = stats.data?.highestAddressIndexUsed

  return (
    <section className="admin-page">
      <header className="admin-page__header">
        <div>
          <h1>Dashboard</h1>
          <p className="muted">Welcome, {admin?.name || admin?.email}!</p>
        </div>
      </header>

      <div className="admin-cards">
        <Link to={paths.admin.products} className="card admin-card admin-card--link">
          <span className="admin-card__icon">
            <Icon name="products" size={28} />
          </span>
          <h2>Products</h2>
          <p className="muted">Add, edit, delete and restore the books for sale.</p>
        </Link>
        <Link to={paths.admin.orders} className="card admin-card admin-card--link">
          <span className="admin-card__icon">
            <Icon name="orders" size={28} />
          </span>
          <h2>Orders</h2>
          <p className="muted">
            See payments and ship printed books.
            {stats.data && stats.data.ordersAwaitingShipment > 0 ? (
              <strong className="admin-card__note">
                {' '}
                {stats.data.ordersAwaitingShipment} waiting to be shipped.
              </strong>
            ) : null}
          </p>
        </Link>
        <div className="card admin-card admin-card--disabled" aria-disabled="true">
          <span className="admin-card__icon">
            <Icon name="settings" size={28} />
          </span>
          <h2>Settings</h2>
          <p className="muted">Shop settings (coming soon).</p>
          <span className="admin-badge admin-badge--neutral">coming soon</span>
        </div>
      </div>

      <div className="card admin-panel admin-wallet">
        <h2>Wallet scanning</h2>
        {stats.error ? (
          <p className="muted">The shop figures could not be loaded.</p>
        ) : !stats.data ? (
          <p className="muted">Loading…</p>
        ) : (
          <>
            <p className="admin-wallet__figure">
              Highest address index used:{' '}
              <strong data-testid="highest-address-index">{highest ?? 'none yet'}</strong>
            </p>
            <p className="muted">
              Every order gets a fresh address (path 0/n of your extended public key); unpaid orders
              leave unused addresses.
              {highest !== null && highest !== undefined
                ? ` Make sure your wallet scans at least up to index ${highest}: raise its gap limit above ${WALLET_GAP_LIMIT} if needed.`
                : ' No address has been given out yet.'}
            </p>
            {stats.data.ordersWithPaymentExceptions > 0 ? (
              <p className="admin-alert admin-alert--warning">
                {stats.data.ordersWithPaymentExceptions} order(s) have a late, partial or
                over-payment to settle. <Link to={paths.admin.orders}>See the orders</Link>
              </p>
            ) : null}
          </>
        )}
      </div>
    </section>
  )
}

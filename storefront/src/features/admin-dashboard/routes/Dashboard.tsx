import type { AddressGaps, AdminStats } from '@shop/domain'
import type { ReactNode } from 'react'
import { Link } from 'react-router-dom'
import useSWR from 'swr'

import { CMS_URL, paths } from '@/config/paths'

import { getStats } from '../api/dashboard'
import { HealthList } from '../components/HealthList'
import { SalesPanel } from '../components/SalesPanel'
import { SettlingCard } from '../components/SettlingCard'
import { AdminPageHeader } from '@/components/admin/AdminPageHeader'
import { Icon } from '@/components/admin/Icon'
import type { IconName } from '@/components/admin/Icon'
import { useAdminSession } from '@/lib/admin/admin-session'
import { useAdminTitle } from '@/lib/admin/use-admin-title'
import { useSignOutOn401 } from '@/lib/admin/use-unauthorized'
import '../admin-dashboard.css'

/**
 * What the owner must do about runs of unused addresses: nothing; raise the wallet's gap limit
 * soon (a run near the limit: the next payments may fall past it); or now (a run at least as long
 * as the limit, before money the wallet then cannot see, or since the last payment).
 */
export function gapWarningOf(gaps: AddressGaps) {
  const limit = gaps.walletGapLimit
  const longest = Math.max(gaps.current, gaps.longestBeforeFunds)
  const raiseTo = Math.max(longest + limit, limit * 2)
  if (gaps.longestBeforeFunds >= limit)
    return {
      tone: 'error' as const,
      text: `A run of ${gaps.longestBeforeFunds} unused addresses comes before money your wallet may not see.`,
      raiseTo,
    }
  if (gaps.current >= limit)
    return {
      tone: 'error' as const,
      text: `${gaps.current} unused addresses in a row since the last payment: your wallet may not see the next one.`,
      raiseTo,
    }
  if (gaps.current >= Math.ceil(limit * 0.75))
    return {
      tone: 'warning' as const,
      text: `${gaps.current} unused addresses in a row since the last payment, close to your wallet's gap limit of ${limit}.`,
      raiseTo,
    }
  return null
}

/** Production running without e-mail on purpose (EMAIL_DELIVERY=off): said on every visit. */
export function EmailDeliveryWarning({
  delivery,
}: {
  delivery: AdminStats['emailDelivery'] | undefined
}) {
  if (delivery !== 'off') return null
  return (
    <p className="admin-alert admin-alert--error" role="alert">
      E-mail is turned off (EMAIL_DELIVERY=off): buyers get no order or download e-mails, only what
      the pay screen shows them, and you get no alerts. The messages wait in the outbox; set the
      SMTP settings and restart the shop to send them.
    </p>
  )
}

/**
 * A card leading to one part of the admin: its icon, title and what is there. `to` is a screen of
 * the admin; `href` a page outside it (the CMS).
 */
function DashboardCard({
  icon,
  title,
  children,
  ...target
}: { icon: IconName; title: string; children: ReactNode } & ({ to: string } | { href: string })) {
  const className = 'card admin-card admin-card--link'
  const content = (
    <>
      <span className="admin-card__icon">
        <Icon name={icon} size={28} />
      </span>
      <h2>{title}</h2>
      <p className="muted">{children}</p>
    </>
  )
  return 'to' in target ? (
    <Link to={target.to} className={className}>
      {content}
    </Link>
  ) : (
    <a href={target.href} className={className}>
      {content}
    </a>
  )
}

export function DashboardRoute() {
  useAdminTitle('Dashboard')
  const { admin } = useAdminSession()
  const stats = useSWR('admin/stats', getStats)
  useSignOutOn401(stats.error)
  const highest = stats.data?.highestAddressIndexUsed
  const gaps = stats.data?.addressGaps ?? { current: 0, longestBeforeFunds: 0, walletGapLimit: 20 }
  const gapWarning = gapWarningOf(gaps)

  return (
    <section className="admin-page">
      <AdminPageHeader title="Dashboard">
        <p className="muted">Welcome, {admin?.name || admin?.email}!</p>
      </AdminPageHeader>

      <EmailDeliveryWarning delivery={stats.data?.emailDelivery} />

      <div className="admin-cards">
        <DashboardCard to={paths.admin.products} icon="products" title="Products">
          Add, edit, delete and restore the books for sale.
        </DashboardCard>
        <DashboardCard to={paths.admin.orders} icon="orders" title="Orders">
          See payments and ship printed books.
          {stats.data && stats.data.ordersAwaitingShipment > 0 ? (
            <strong className="admin-card__note">
              {' '}
              {stats.data.ordersAwaitingShipment} waiting to be shipped.
            </strong>
          ) : null}
        </DashboardCard>
        <DashboardCard to={paths.admin.settings} icon="settings" title="Settings">
          The payment and e-mail settings in force, and their health.
        </DashboardCard>
        <DashboardCard href={CMS_URL} icon="content" title="Site content">
          Edit the site&apos;s pages, papers and timeline in the CMS.
        </DashboardCard>
        <SettlingCard backlog={stats.data?.settling} failed={Boolean(stats.error)} />
      </div>

      <SalesPanel />

      <section className="card admin-panel" aria-labelledby="health-title">
        <h2 id="health-title">Shop health</h2>
        {stats.data ? (
          <HealthList health={stats.data.health} />
        ) : (
          <p className="muted">
            {stats.error ? 'The shop figures could not be loaded.' : 'Loading…'}
          </p>
        )}
      </section>

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
            <p className="admin-wallet__figure">
              Unused addresses since the last payment:{' '}
              <strong data-testid="unused-address-run">{gaps.current}</strong>
              <span className="muted"> (your wallet scans {gaps.walletGapLimit} ahead)</span>
            </p>
            <p className="muted">
              Every order gets a fresh address (path 0/n of your extended public key); unpaid orders
              leave unused addresses. A wallet stops looking for payments after as many unused
              addresses in a row as its gap limit.
              {highest === null || highest === undefined
                ? ' No address has been given out yet.'
                : ''}
            </p>
            {gapWarning ? (
              <p className={`admin-alert admin-alert--${gapWarning.tone}`} role="status">
                {gapWarning.text} Raise the gap limit in your wallet&apos;s settings to at least{' '}
                <strong>{gapWarning.raiseTo}</strong> (in ElectrumSV, the wallet&apos;s gap limit;
                the shop&apos;s WALLET_GAP_LIMIT setting should say the same), then let the wallet
                scan again.
              </p>
            ) : null}
            <p>
              <Link to={paths.admin.addresses}>See every address and what it received</Link>
            </p>
            {stats.data.ordersWithPaymentExceptions > 0 ? (
              <p className="admin-alert admin-alert--warning">
                {stats.data.ordersWithPaymentExceptions} order(s) have a late, partial, over or
                invalid payment to settle. <Link to={paths.admin.orders}>See the orders</Link>
              </p>
            ) : null}
            {stats.data.ordersNeedingAttention > 0 ? (
              <p className="admin-alert admin-alert--error">
                {stats.data.ordersNeedingAttention} order(s) could not be processed by the payment
                worker and are tried again on their own.{' '}
                <Link to={`${paths.admin.orders}?exception=attention`}>See them</Link>
              </p>
            ) : null}
          </>
        )}
      </div>
    </section>
  )
}

import { lazy, Suspense } from 'react'
import type { ComponentType } from 'react'
import { Route, Routes } from 'react-router-dom'

import { Layout } from '@/components/layout/Layout'
import { RouteErrorBoundary } from '@/components/layout/RouteErrorBoundary'
import { paths } from '@/config/paths'
import { NotFoundRoute } from '@/features/misc/routes/NotFound'

/** A screen loaded on first visit: each route module exports its screen as `Component`. */
const screen = (load: () => Promise<{ Component: ComponentType }>) =>
  lazy(() => load().then((module) => ({ default: module.Component })))

const Landing = screen(() => import('@/features/landing/routes/Landing'))
const Papers = screen(() => import('@/features/papers/routes/Papers'))
const Proofs = screen(() => import('@/features/proofs/routes/Proofs'))
const Updates = screen(() => import('@/features/updates/routes/Updates'))
const Legal = screen(() => import('@/features/legal/routes/Legal'))
const WalletInfo = screen(() => import('@/features/wallet-info/routes/WalletInfo'))
const Store = screen(() => import('@/features/store/routes/Store'))
const Product = screen(() => import('@/features/store/routes/Product'))
const Checkout = screen(() => import('@/features/checkout/routes/Checkout'))
const Pay = screen(() => import('@/features/payment/routes/Pay'))
const OrderSuccess = screen(() => import('@/features/payment/routes/OrderSuccess'))
const ResendLink = screen(() => import('@/features/download-links/routes/ResendLink'))
const AdminApp = screen(() => import('@/app/AdminApp'))

/**
 * Every route of the spec (section 2), declared with react-router's component API: it is about
 * half the size of the data router, and the shop uses no loaders or actions. Screens are loaded
 * lazily per feature, so a visitor downloads only the page they open, and shoppers never
 * download the admin area.
 */
export function AppRoutes() {
  return (
    <Routes>
      <Route element={<Layout />}>
        <Route path={paths.home} element={<Landing />} />
        <Route path={paths.papers} element={<Papers />} />
        <Route path={paths.proofs} element={<Proofs />} />
        <Route path={paths.updates} element={<Updates />} />
        <Route path={paths.legal} element={<Legal />} />
        <Route path={paths.walletInfo} element={<WalletInfo />} />
        <Route path={paths.store} element={<Store />} />
        <Route path={paths.product()} element={<Product />} />
        <Route path={paths.checkout} element={<Checkout />} />
        <Route path={paths.pay()} element={<Pay />} />
        <Route path={paths.orderSuccess()} element={<OrderSuccess />} />
        <Route path={paths.resendLink} element={<ResendLink />} />
        <Route path="*" element={<NotFoundRoute />} />
      </Route>
      <Route
        path={`${paths.admin.root}/*`}
        element={
          <RouteErrorBoundary>
            <Suspense fallback={<div className="page-loading" aria-busy="true" />}>
              <AdminApp />
            </Suspense>
          </RouteErrorBoundary>
        }
      />
    </Routes>
  )
}

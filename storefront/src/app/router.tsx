import { createBrowserRouter } from 'react-router-dom'
import type { RouteObject } from 'react-router-dom'

import { Layout } from '@/components/layout/Layout'
import { paths } from '@/config/paths'
import { NotFoundRoute } from '@/features/misc/routes/NotFound'

/**
 * Every route of the spec (section 2). Screens are loaded lazily per feature, so a visitor
 * downloads only the page they open, and shoppers never download the admin area.
 */
const lazy = (load: () => Promise<{ Component: React.ComponentType }>) => ({ lazy: load })

export const routes: RouteObject[] = [
  {
    element: <Layout />,
    children: [
      { path: paths.home, ...lazy(() => import('@/features/landing/routes/Landing')) },
      { path: paths.papers, ...lazy(() => import('@/features/papers/routes/Papers')) },
      { path: paths.proofs, ...lazy(() => import('@/features/proofs/routes/Proofs')) },
      { path: paths.updates, ...lazy(() => import('@/features/updates/routes/Updates')) },
      { path: paths.legal, ...lazy(() => import('@/features/legal/routes/Legal')) },
      { path: paths.walletInfo, ...lazy(() => import('@/features/wallet-info/routes/WalletInfo')) },
      { path: paths.store, ...lazy(() => import('@/features/store/routes/Store')) },
      { path: paths.product(), ...lazy(() => import('@/features/store/routes/Product')) },
      { path: paths.checkout, ...lazy(() => import('@/features/checkout/routes/Checkout')) },
      { path: paths.pay(), ...lazy(() => import('@/features/payment/routes/Pay')) },
      {
        path: paths.orderSuccess(),
        ...lazy(() => import('@/features/payment/routes/OrderSuccess')),
      },
      { path: '*', element: <NotFoundRoute /> },
    ],
  },
  { path: `${paths.admin.root}/*`, ...lazy(() => import('@/features/admin/routes/AdminApp')) },
]

export const router = createBrowserRouter(routes)

import { Navigate, Route, Routes } from 'react-router-dom'
import { ToastContainer } from 'react-toastify'
import 'react-toastify/ReactToastify.css'

import { paths } from '@/config/paths'

import { AdminLayout } from '../components/AdminLayout'
import { RequireAdmin } from '../components/RequireAdmin'
import { AdminSessionProvider } from '../hooks/admin-session'
import '../admin.css'
import { AddressesRoute } from './Addresses'
import { DashboardRoute } from './Dashboard'
import { LoginRoute } from './Login'
import { OrderDetailRoute } from './OrderDetail'
import { OrdersRoute } from './Orders'
import { ProductFormRoute } from './ProductForm'
import { ProductsRoute } from './Products'
import { ProfileRoute } from './Profile'

/** Admin toasts last 3 seconds (spec section 9). */
export const ADMIN_TOAST_MS = 3000

/**
 * The owners' area under /admin (spec section 2), one lazily loaded chunk: shoppers never
 * download it. The session is checked once on load; every screen but the sign-in is guarded.
 */
export function Component() {
  return (
    <AdminSessionProvider>
      <Routes>
        <Route path="login" element={<LoginRoute />} />
        <Route
          element={
            <RequireAdmin>
              <AdminLayout />
            </RequireAdmin>
          }
        >
          <Route index element={<Navigate to={paths.admin.dashboard} replace />} />
          <Route path="dashboard" element={<DashboardRoute />} />
          <Route path="products" element={<ProductsRoute />} />
          <Route path="products/new" element={<ProductFormRoute />} />
          <Route path="products/edit/:productId" element={<ProductFormRoute />} />
          <Route path="orders" element={<OrdersRoute />} />
          <Route path="orders/:orderId" element={<OrderDetailRoute />} />
          <Route path="profile" element={<ProfileRoute />} />
          <Route path="addresses" element={<AddressesRoute />} />
          <Route path="*" element={<Navigate to={paths.admin.dashboard} replace />} />
        </Route>
      </Routes>
      <ToastContainer position="top-right" autoClose={ADMIN_TOAST_MS} newestOnTop />
    </AdminSessionProvider>
  )
}

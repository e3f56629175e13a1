import { Navigate, Route, Routes } from 'react-router-dom'
import { ToastContainer } from 'react-toastify'
import 'react-toastify/ReactToastify.css'

import { paths } from '@/config/paths'

import { AdminLayout } from '@/components/admin/AdminLayout'
import { RequireAdmin } from '@/components/admin/RequireAdmin'
import { AdminSessionProvider } from '@/lib/admin/admin-session'
import '@/components/admin/admin.css'
import { AddressesRoute } from '@/features/admin-orders/routes/Addresses'
import { DashboardRoute } from '@/features/admin-dashboard/routes/Dashboard'
import { SettingsRoute } from '@/features/admin-dashboard/routes/Settings'
import { LoginRoute } from '@/features/admin-auth/routes/Login'
import { OrderDetailRoute } from '@/features/admin-orders/routes/OrderDetail'
import { OrdersRoute } from '@/features/admin-orders/routes/Orders'
import { ProductFormRoute } from '@/features/admin-products/routes/ProductForm'
import { ProductsRoute } from '@/features/admin-products/routes/Products'
import { ProfileRoute } from '@/features/admin-auth/routes/Profile'

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
          <Route path="settings" element={<SettingsRoute />} />
          <Route path="*" element={<Navigate to={paths.admin.dashboard} replace />} />
        </Route>
      </Routes>
      <ToastContainer position="top-right" autoClose={ADMIN_TOAST_MS} newestOnTop />
    </AdminSessionProvider>
  )
}

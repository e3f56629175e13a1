import { useState } from 'react'
import { NavLink, Outlet, useNavigate } from 'react-router-dom'
import { toast } from 'react-toastify'

import { CMS_URL, paths } from '@/config/paths'

import { useAdminSession } from '@/lib/admin/admin-session'
import { AdminBrand } from './AdminBrand'
import { Icon } from './Icon'

const menu = [
  { to: paths.admin.dashboard, label: 'Dashboard', icon: 'dashboard' },
  { to: paths.admin.products, label: 'Products', icon: 'products' },
  { to: paths.admin.orders, label: 'Orders', icon: 'orders' },
  { to: paths.admin.profile, label: 'Profile', icon: 'profile' },
] as const

/** The signed-in frame: the side menu of spec section 2 and the screen. */
export function AdminLayout() {
  const { admin, logout } = useAdminSession()
  const navigate = useNavigate()
  const [busy, setBusy] = useState(false)

  const onLogout = async () => {
    setBusy(true)
    try {
      await logout()
      navigate(paths.admin.login, { replace: true })
    } catch (error) {
      toast.error(error instanceof Error ? error.message : 'Logout failed.')
    } finally {
      setBusy(false)
    }
  }

  return (
    <div className="admin-shell">
      <a className="skip-link" href="#admin-main">
        Skip to content
      </a>
      <aside className="admin-sidebar">
        <AdminBrand />
        <nav aria-label="Admin" className="admin-nav">
          <ul>
            {menu.map((item) => (
              <li key={item.to}>
                <NavLink
                  to={item.to}
                  className={({ isActive }) =>
                    isActive ? 'admin-nav__link active' : 'admin-nav__link'
                  }
                >
                  <span className="admin-nav__icon">
                    <Icon name={item.icon} />
                  </span>
                  {item.label}
                </NavLink>
              </li>
            ))}
            <li>
              <button
                type="button"
                className="admin-nav__link admin-nav__logout"
                onClick={onLogout}
                disabled={busy}
              >
                <span className="admin-nav__icon">
                  <Icon name="logout" />
                </span>
                Logout
              </button>
            </li>
          </ul>
        </nav>
        <a className="admin-sidebar__cms" href={CMS_URL}>
          Site content (CMS)
        </a>
        {admin ? (
          <p className="admin-sidebar__who" title={admin.email}>
            {admin.email}
          </p>
        ) : null}
      </aside>
      <main id="admin-main" className="admin-main" tabIndex={-1}>
        <Outlet />
      </main>
    </div>
  )
}

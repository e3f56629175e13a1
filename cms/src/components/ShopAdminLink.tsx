import type { ServerProps } from 'payload'

import { hasRole } from '../access/roles'

/**
 * In the CMS's menu, after the collections: the way to the shop's own admin (orders, sales,
 * settings) for admins; editors have no use for it (/admin is for admins only).
 */
export function ShopAdminLink({ user }: ServerProps) {
  if (!hasRole(user, 'admin')) return null
  return (
    <a className="nav__link shop-admin-link" href="/admin/dashboard">
      <span className="nav__link-label">Shop admin: orders, sales, settings</span>
    </a>
  )
}

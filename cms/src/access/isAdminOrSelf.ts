import type { Access } from 'payload'

import { hasRole } from './roles'

/** Admins see every staff account; an editor only their own. */
export const isAdminOrSelf: Access = ({ req }) => {
  if (hasRole(req.user, 'admin')) return true
  if (req.user) return { id: { equals: req.user.id } }
  return false
}

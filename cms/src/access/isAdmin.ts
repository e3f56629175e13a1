import type { Access, FieldAccess } from 'payload'

import { hasRole } from './roles'

/** Admins only: the shop's products, orders, tokens, private files and staff. */
export const isAdmin: Access = ({ req }) => hasRole(req.user, 'admin')

export const isAdminField: FieldAccess = ({ req }) => hasRole(req.user, 'admin')

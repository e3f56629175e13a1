import type { CollectionConfig } from 'payload'

import { isAdmin, isAdminField } from '../../access/isAdmin'
import { isAdminOrSelf } from '../../access/isAdminOrSelf'
import { STAFF_ROLES } from '../../access/roles'
import { slugs } from '../slugs'
import { firstStaffIsAdmin } from './hooks/firstStaffIsAdmin'
import { enforcePasswordPolicy } from './hooks/passwordPolicy'

const isProduction = process.env.NODE_ENV === 'production'

/** The shop's staff: admins run the shop, editors change papers, timeline and site texts. */
export const Staff: CollectionConfig = {
  slug: slugs.staff,
  // Locks are for editors' content: a lock here would show order ids to any staff member
  // and let an editor block an admin (issue 14, finding 4).
  lockDocuments: false,
  admin: { useAsTitle: 'email', defaultColumns: ['email', 'name', 'role'] },
  auth: {
    maxLoginAttempts: 5,
    lockTime: 15 * 60 * 1000,
    tokenExpiration: 8 * 60 * 60,
    cookies: { sameSite: 'Lax', secure: isProduction },
  },
  hooks: { beforeOperation: [enforcePasswordPolicy], beforeValidate: [firstStaffIsAdmin] },
  access: {
    read: isAdminOrSelf,
    create: isAdmin,
    update: isAdminOrSelf,
    delete: isAdmin,
    // Unlocking an account is an admin's decision, never an editor's.
    unlock: isAdmin,
    admin: ({ req }) => Boolean(req.user),
  },
  fields: [
    { name: 'name', type: 'text' },
    {
      name: 'role',
      type: 'select',
      required: true,
      defaultValue: 'editor',
      options: STAFF_ROLES.map((role) => ({
        label: role === 'admin' ? 'Admin' : 'Editor',
        value: role,
      })),
      saveToJWT: true,
      // An editor cannot promote themselves.
      access: { create: isAdminField, update: isAdminField },
    },
  ],
}

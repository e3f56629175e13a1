import type { CollectionConfig } from 'payload'

import { isAdmin, isAdminField } from '../../access/isAdmin'
import { isAdminOrSelf } from '../../access/isAdminOrSelf'
import { STAFF_ROLES } from '../../access/roles'
import { env } from '../../config/runtime'
import { slugs } from '../slugs'
import { closeFirstRegister } from './hooks/closeFirstRegister'
import { firstStaffIsAdmin } from './hooks/firstStaffIsAdmin'
import { capSessionAge, requireCurrentPassword } from './hooks/accountChanges'
import { enforcePasswordPolicy } from './hooks/passwordPolicy'
import { signInThrottleHooks } from './hooks/signInThrottle'

const signInThrottle = signInThrottleHooks()

/** The shop's staff: admins run the shop, editors change papers, timeline and site texts. */
export const Staff: CollectionConfig = {
  slug: slugs.staff,
  // Locks are for editors' content: a lock here would show order ids to any staff member
  // and let an editor block an admin.
  lockDocuments: false,
  admin: { useAsTitle: 'email', defaultColumns: ['email', 'name', 'role'] },
  auth: {
    // No lockout: five wrong passwords from anyone locked the real owner out. Attempts are
    // spaced out per account instead (hooks/signInThrottle.ts, decision 007).
    maxLoginAttempts: 0,
    tokenExpiration: 8 * 60 * 60,
    // Secure in production: the shop is served over HTTPS there (Caddy in docker-compose.yml).
    cookies: { sameSite: 'Lax', secure: env.isProduction },
  },
  hooks: {
    beforeOperation: [
      closeFirstRegister(env),
      signInThrottle.beforeOperation,
      capSessionAge,
      requireCurrentPassword,
      enforcePasswordPolicy,
    ],
    afterOperation: [signInThrottle.afterOperation],
    beforeValidate: [firstStaffIsAdmin],
  },
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
    {
      // Asked on one's own account page to change one's password (hooks/accountChanges.ts);
      // never stored, never returned.
      name: 'currentPassword',
      type: 'text',
      virtual: true,
      label: 'Current password',
      // Readable (a field nobody may read is not drawn), but never returned: afterRead empties it.
      hooks: { beforeChange: [() => undefined], afterRead: [() => undefined] },
      admin: {
        components: {
          Field: '/collections/Staff/components/CurrentPasswordField#CurrentPasswordField',
        },
        condition: (data, _siblingData, { user }) =>
          Boolean(user && data?.id !== undefined && String(user.id) === String(data.id)),
        description: 'Needed only to change your own password.',
      },
    },
  ],
}

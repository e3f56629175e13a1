import type { CollectionBeforeValidateHook } from 'payload'

import { slugs } from '../../slugs'

/**
 * The first staff account is an admin, whichever door creates it (Payload's create-first-user
 * screen in test mode, `npm run create-admin`): an editor first would leave a shop nobody can
 * run. Later accounts take the role an admin gives them (editor by default).
 */
export const firstStaffIsAdmin: CollectionBeforeValidateHook = async ({ data, operation, req }) => {
  if (operation !== 'create' || !data) return data
  const existing = await req.payload.count({ collection: slugs.staff, req })
  if (existing.totalDocs === 0) data.role = 'admin'
  return data
}

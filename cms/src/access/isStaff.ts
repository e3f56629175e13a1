import type { Access } from 'payload'

import { hasRole } from './roles'

/** Admins and editors: papers, timeline, site texts and public documents. */
export const isStaff: Access = ({ req }) => hasRole(req.user, 'admin', 'editor')

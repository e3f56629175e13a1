import type { Payload } from 'payload'
import { AuthenticationError, LockedAuth } from 'payload'

import { slugs } from '../../collections/slugs'
import type { AdminIdentity, StaffUser } from './staffSession'
import { isShopAdmin, revokeStaffSession, sessionIdOfToken, toAdminIdentity } from './staffSession'

export type LoginAdminResult =
  | { ok: true; token: string; admin: AdminIdentity }
  | { ok: false; status: 401 | 403 | 423; message: string }

export const LOGIN_MESSAGES = {
  success: 'Login successful!',
  invalid: 'Invalid email or password.',
  locked: 'Too many failed sign-in attempts: this account is locked for 15 minutes.',
  notAdmin: 'This account cannot use the admin area.',
} as const

/**
 * Signs a staff member in with Payload's login (which counts failures and locks the account
 * after maxLoginAttempts). Only admins get a session: an editor's is revoked at once.
 */
export async function loginAdmin({
  payload,
  email,
  password,
}: {
  payload: Payload
  email: string
  password: string
}): Promise<LoginAdminResult> {
  let result: Awaited<ReturnType<typeof payload.login<typeof slugs.staff>>>
  try {
    result = await payload.login({ collection: slugs.staff, data: { email, password } })
  } catch (error) {
    if (error instanceof LockedAuth)
      return { ok: false, status: 423, message: LOGIN_MESSAGES.locked }
    if (error instanceof AuthenticationError)
      return { ok: false, status: 401, message: LOGIN_MESSAGES.invalid }
    throw error
  }
  const { token, user } = result
  if (!token || !user) return { ok: false, status: 401, message: LOGIN_MESSAGES.invalid }
  if (!isShopAdmin(user as StaffUser)) {
    await revokeStaffSession({
      payload,
      user: { ...(user as StaffUser), _sid: sessionIdOfToken(token) },
    })
    return { ok: false, status: 403, message: LOGIN_MESSAGES.notAdmin }
  }
  return { ok: true, token, admin: toAdminIdentity(user) }
}

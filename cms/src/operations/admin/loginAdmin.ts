import type { Payload } from 'payload'
import { APIError, AuthenticationError } from 'payload'

import { slugs } from '../../collections/slugs'
import type { AdminIdentity, StaffUser } from './staffSession'
import { isShopAdmin, revokeStaffSession, sessionIdOfToken, toAdminIdentity } from './staffSession'

export type LoginAdminResult =
  | { ok: true; token: string; admin: AdminIdentity }
  | { ok: false; status: 401 | 403 | 429; message: string }

export const LOGIN_MESSAGES = {
  success: 'Login successful!',
  invalid: 'Invalid email or password.',
  notAdmin: 'This account cannot use the admin area.',
} as const

/**
 * Signs a staff member in with Payload's login (throttled per account by the Staff
 * collection). Only admins get a session: an editor's is revoked at once.
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
    // The account's attempts are spaced out (Staff hooks/signInThrottle.ts); past the longest
    // wait the throttle answers 429 with the time to come back.
    if (error instanceof APIError && error.status === 429)
      return { ok: false, status: 429, message: error.message }
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

import type { Payload } from 'payload'
import { createLocalReq, logoutOperation } from 'payload'

import { hasRole } from '../../access/roles'
import { slugs } from '../../collections/slugs'
import type { Staff } from '../../payload-types'

/** The admin as the spec shows it: email and an optional name. */
export type AdminIdentity = { id: number | string; email: string; name: string | null }

export type StaffUser = Staff & { collection?: string; _sid?: string }

export function toAdminIdentity(user: Pick<Staff, 'id' | 'email' | 'name'>): AdminIdentity {
  return { id: user.id, email: user.email, name: user.name ?? null }
}

/** The staff member signed in by the request's session cookie (or JWT header), or null. */
export async function findSessionUser({
  payload,
  headers,
}: {
  payload: Payload
  headers: Headers
}): Promise<StaffUser | null> {
  try {
    const { user } = await payload.auth({ headers })
    if (!user || (user as { collection?: string }).collection !== slugs.staff) return null
    return user as StaffUser
  } catch {
    return null
  }
}

export function isShopAdmin(user: StaffUser | null): boolean {
  return hasRole(user, 'admin')
}

/** Ends one session server-side, so a copied cookie stops working too. */
export async function revokeStaffSession({
  payload,
  user,
}: {
  payload: Payload
  user: StaffUser
}): Promise<void> {
  const req = await createLocalReq({ user: { ...user, collection: slugs.staff } as never }, payload)
  await logoutOperation({ collection: payload.collections[slugs.staff], req })
}

/** The session id carried inside a Payload token (its `sid` claim), if any. */
export function sessionIdOfToken(token: string): string | undefined {
  const [, body] = token.split('.')
  if (!body) return undefined
  try {
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as { sid?: unknown }
    return typeof claims.sid === 'string' ? claims.sid : undefined
  } catch {
    return undefined
  }
}

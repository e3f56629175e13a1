import type { Payload } from 'payload'
import { AuthenticationError, LockedAuth } from 'payload'

import { passwordProblem } from '../../collections/Staff/hooks/passwordPolicy'
import { slugs } from '../../collections/slugs'
import type { FieldError } from './fieldErrors'
import type { StaffUser } from './staffSession'

export type ChangePasswordResult =
  { ok: true } | { ok: false; status: 400 | 423; errors: FieldError[] }

/**
 * Changes the signed-in admin's password after checking the current one with Payload's login
 * (so guessing it here counts towards the lockout too). Every other session of this account
 * ends: whoever knew the old password is signed out.
 */
export async function changeAdminPassword({
  payload,
  user,
  currentPassword,
  newPassword,
}: {
  payload: Payload
  user: StaffUser
  currentPassword: string
  newPassword: string
}): Promise<ChangePasswordResult> {
  try {
    await payload.login({
      collection: slugs.staff,
      data: { email: user.email, password: currentPassword },
    })
  } catch (error) {
    if (error instanceof LockedAuth) {
      return {
        ok: false,
        status: 423,
        errors: [
          {
            path: 'currentPassword',
            msg: 'Too many failed attempts: this account is locked for 15 minutes.',
          },
        ],
      }
    }
    if (error instanceof AuthenticationError) {
      return {
        ok: false,
        status: 400,
        errors: [{ path: 'currentPassword', msg: 'Current password is incorrect.' }],
      }
    }
    throw error
  }
  // The Staff collection enforces the policy too; asked first here, its reason is the field's.
  const weak = passwordProblem(newPassword, [user.email, user.name ?? ''])
  if (weak) return { ok: false, status: 400, errors: [{ path: 'newPassword', msg: weak }] }
  if (newPassword === currentPassword) {
    return {
      ok: false,
      status: 400,
      errors: [{ path: 'newPassword', msg: 'The new password must differ from the current one.' }],
    }
  }

  // Acting as the admin keeps this session alive; Payload ends every other one of the account.
  await payload.update({
    collection: slugs.staff,
    id: user.id,
    data: { password: newPassword },
    user: { ...user, collection: slugs.staff },
  })
  return { ok: true }
}

import type { Payload } from 'payload'
import { APIError, AuthenticationError } from 'payload'

import { CURRENT_PASSWORD_CHECKED } from '../../collections/Staff/hooks/accountChanges'
import { passwordProblem } from '../../collections/Staff/hooks/passwordPolicy'
import { slugs } from '../../collections/slugs'
import type { FieldError } from './fieldErrors'
import type { StaffUser } from './staffSession'

export type ChangePasswordResult =
  { ok: true } | { ok: false; status: 400 | 429; errors: FieldError[] }

/**
 * Changes the signed-in admin's password after checking the current one with Payload's login
 * (so guessing it here is throttled like any sign-in). Every other session of this account
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
    if (error instanceof APIError && error.status === 429) {
      return { ok: false, status: 429, errors: [{ path: 'currentPassword', msg: error.message }] }
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
  const weak = await passwordProblem(newPassword, [user.email, user.name ?? ''])
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
    context: { [CURRENT_PASSWORD_CHECKED]: true },
  })
  return { ok: true }
}

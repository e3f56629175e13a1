import crypto from 'node:crypto'
import { promisify } from 'node:util'

import { APIError, ValidationError } from 'payload'
import type { CollectionBeforeOperationHook, CollectionSlug, PayloadRequest } from 'payload'

const pbkdf2 = promisify(crypto.pbkdf2)

/** A session lives this long at most from its sign-in, however often it is refreshed. */
export const SESSION_MAX_AGE_HOURS = 24

/** Set by the shop's own code (Local API) when it has already checked the current password. */
export const CURRENT_PASSWORD_CHECKED = 'currentPasswordChecked'

export const CURRENT_PASSWORD_MESSAGES = {
  missing: 'Enter your current password to change it.',
  wrong: 'The current password is incorrect.',
} as const

type StoredStaff = { hash?: unknown; salt?: unknown; sessions?: unknown }

async function storedStaff(req: PayloadRequest, collection: string, id: number | string) {
  return (await req.payload.db.findOne({
    collection: collection as CollectionSlug,
    req,
    where: { id: { equals: id } },
  })) as StoredStaff | null
}

/** Checks a password against the stored hash, in both of Payload's hash formats. */
export async function passwordMatches(stored: StoredStaff, password: string): Promise<boolean> {
  if (typeof stored.hash !== 'string' || typeof stored.salt !== 'string') return false
  const current = stored.hash.startsWith('pbkdf2-sha256-v1:')
  const expected = Buffer.from(current ? stored.hash.slice(17) : stored.hash, 'hex')
  const actual = await pbkdf2(
    password,
    stored.salt,
    current ? 600_000 : 25_000,
    current ? 32 : 512,
    'sha256',
  )
  return actual.length === expected.length && crypto.timingSafeEqual(actual, expected)
}

/**
 * Changing one's own password needs the current one, through every door that has a signed-in
 * user (/cms's account page, /cms/api, the admin's change-password): a stolen session alone
 * cannot take the account over. An admin may still set another staff member's password, and
 * the shop's command-line tools (no user) set passwords directly.
 */
export const requireCurrentPassword: CollectionBeforeOperationHook = async ({
  args,
  operation,
  req,
  collection,
  context,
}) => {
  if (operation !== 'update') return args
  const { data, id } = args as { data?: Record<string, unknown>; id?: number | string }
  if (typeof data?.password !== 'string' || !req.user) return args
  if (req.user.collection !== collection.slug) return args
  if (id !== undefined && String(id) !== String(req.user.id)) return args
  if (context?.[CURRENT_PASSWORD_CHECKED] === true) return args

  const current = data.currentPassword
  const stored = await storedStaff(req, collection.slug, req.user.id)
  const problem =
    typeof current !== 'string' || current === ''
      ? CURRENT_PASSWORD_MESSAGES.missing
      : !stored || !(await passwordMatches(stored, current))
        ? CURRENT_PASSWORD_MESSAGES.wrong
        : null
  if (problem)
    throw new ValidationError({
      collection: collection.slug,
      errors: [{ path: 'currentPassword', message: problem }],
    })
  return args
}

/**
 * Sessions have an absolute maximum age: a refresh that would carry one past
 * SESSION_MAX_AGE_HOURS from its sign-in is refused, so a stolen cookie cannot be kept alive
 * forever by refreshing it.
 */
export const capSessionAge: CollectionBeforeOperationHook = async ({
  args,
  operation,
  req,
  collection,
}) => {
  if (operation !== 'refresh' || !req.user) return args
  const sid = (req.user as { _sid?: unknown })._sid
  const stored = await storedStaff(req, collection.slug, req.user.id)
  const sessions = Array.isArray(stored?.sessions)
    ? (stored.sessions as { id?: unknown; createdAt?: unknown }[])
    : []
  const session = sessions.find((s) => s.id === sid)
  const createdAt = session ? new Date(session.createdAt as string).getTime() : Number.NaN
  const refreshedUntil = Date.now() + (collection.auth?.tokenExpiration ?? 7200) * 1000
  if (
    !Number.isFinite(createdAt) ||
    refreshedUntil > createdAt + SESSION_MAX_AGE_HOURS * 3600 * 1000
  )
    throw new APIError(
      'This session has reached its maximum age: sign in again.',
      401,
      undefined,
      true,
    )
  return args
}

import { ValidationError } from 'payload'
import type { CollectionBeforeOperationHook } from 'payload'

import { MIN_PASSWORD_LENGTH } from '@shop/domain'

/**
 * zxcvbn and its dictionaries (about half a megabyte), loaded by the first password checked, so
 * that starting the web process does not pay for them.
 */
const loadStrength = async () => (await import('./passwordStrength')).passwordStrength

/**
 * Why a staff password is refused, or null: at least 12 characters, and not one that a guesser
 * tries early (zxcvbn's common passwords, words, keyboard runs, repeats, dates, or the account's
 * own e-mail and name), scored 3 of 4 or more.
 */
export async function passwordProblem(
  password: string,
  userInputs: string[] = [],
): Promise<string | null> {
  if (password.length < MIN_PASSWORD_LENGTH)
    return `The password must have at least ${MIN_PASSWORD_LENGTH} characters.`
  const inputs = userInputs.flatMap((input) => [input, ...input.split(/[@.\s_-]+/)]).filter(Boolean)
  const result = (await loadStrength()).check(password, inputs)
  if (result.score < 3)
    return `This password is too easy to guess${result.feedback.warning ? ` (${result.feedback.warning.replace(/\.$/, '').toLowerCase()})` : ''}: use a longer one with unrelated words.`
  return null
}

/**
 * The password policy for every door that sets a staff password: creating an account, changing
 * it (Local API, /cms/api, the admin's change-password) and resetting it with a token.
 */
export const enforcePasswordPolicy: CollectionBeforeOperationHook = async ({ args, operation }) => {
  if (operation !== 'create' && operation !== 'update' && operation !== 'resetPassword') return
  const data = (args as { data?: { password?: unknown; email?: unknown; name?: unknown } }).data
  if (typeof data?.password !== 'string') return
  const inputs = [data.email, data.name].filter((v): v is string => typeof v === 'string')
  const problem = await passwordProblem(data.password, inputs)
  if (problem)
    throw new ValidationError({
      collection: 'staff',
      errors: [{ path: 'password', message: problem }],
    })
}

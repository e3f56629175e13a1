import crypto from 'node:crypto'
import { promisify } from 'node:util'

import { APIError } from 'payload'

import type { SignInSpacing } from '../../../db/signIn'
import { clearSignInTurns, reserveSignInTurn } from '../../../db/signIn'
import type {
  CollectionAfterOperationHook,
  CollectionSlug,
  CollectionBeforeOperationHook,
  PayloadRequest,
} from 'payload'

/**
 * Sign-in throttling per account, without lockout (decision 007). Payload's own lockout let
 * anyone lock the real owner out with five wrong passwords; instead, each account's attempts
 * are spaced out once it has met a few failures in a row, so a guesser gets a handful of tries a
 * minute while the owner, typing the right password, only waits a few seconds.
 *
 * Every attempt counts as a failure until it succeeds (a success clears the account), so
 * concurrent guesses cannot slip through between a check and a count. The count lives in the
 * database (db/signIn.ts, reserveSignInTurn), so several web processes space one account's
 * attempts together. The wait for one attempt
 * is bounded: beyond it the answer is 429 with the time to come back. Per-client limits come on
 * top (server/cmsDoors.ts, api/admin/auth.ts).
 */
export const DEFAULT_SIGN_IN_THROTTLE: SignInSpacing = {
  freeFailures: 3,
  baseDelayMs: 1000,
  maxDelayMs: 8000,
  maxWaitMs: 30_000,
  forgetAfterMs: 15 * 60 * 1000,
}

/**
 * Accounts are kept by a hash of the normalised e-mail, never the address itself, in the
 * rate-limits collection, so every web process spaces one account's attempts together.
 */
function keyOf(kind: 'signin' | 'reset', account: string): string {
  const hash = crypto.createHash('sha256').update(account.trim().toLowerCase()).digest('base64url')
  return `${kind}:${hash}`
}

const pbkdf2 = promisify(crypto.pbkdf2)

/**
 * The work Payload does to check a password (pbkdf2-sha256, 600 000 iterations, 32 bytes),
 * done for an unknown account too, so that its answer takes as long as a wrong password's.
 */
export async function checkAPasswordForNobody(password: string): Promise<void> {
  await pbkdf2(password, crypto.randomBytes(32).toString('hex'), 600_000, 32, 'sha256')
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

function signInEmail(args: unknown): string | undefined {
  const email = (args as { data?: { email?: unknown } }).data?.email
  return typeof email === 'string' && email.trim() ? email : undefined
}

async function accountExists(req: PayloadRequest, collection: string, email: string) {
  const found = await req.payload.db.findOne({
    collection: collection as CollectionSlug,
    req,
    where: { email: { equals: email.trim().toLowerCase() } },
  })
  return Boolean(found)
}

/**
 * The hooks that put a throttle on the Staff collection's sign-in (every door: /api/admin/login,
 * /cms/api/staff/login, /cms's form and the Local API all run Payload's login operation).
 */
export function signInThrottleHooks(spacing: SignInSpacing = DEFAULT_SIGN_IN_THROTTLE): {
  beforeOperation: CollectionBeforeOperationHook
  afterOperation: CollectionAfterOperationHook
} {
  return {
    beforeOperation: async ({ args, operation, req, collection }) => {
      if (operation !== 'login' && operation !== 'forgotPassword') return args
      const email = signInEmail(args)
      if (!email) return args
      // Reset e-mails to one address are spaced out the same way (they are never "cleared"),
      // whether or not the account exists: the answer tells nothing.
      // Counted outside the operation's transaction unless it already writes, so the wait for
      // the turn below holds no lock (reserveSignInTurn).
      const turn = await reserveSignInTurn({
        payload: req.payload,
        key: keyOf(operation === 'login' ? 'signin' : 'reset', email),
        spacing,
        req,
      })
      if ('retryAfterMs' in turn) {
        const seconds = Math.ceil(turn.retryAfterMs / 1000)
        throw new APIError(
          operation === 'login'
            ? `Too many sign-in attempts for this account. Try again in ${seconds} seconds.`
            : `Too many password reset requests for this address. Try again in ${seconds} seconds.`,
          429,
          undefined,
          true,
        )
      }
      if (turn.waitMs > 0) await sleep(turn.waitMs)
      if (operation !== 'login') return args
      const password = (args as { data?: { password?: unknown } }).data?.password
      if (typeof password === 'string' && !(await accountExists(req, collection.slug, email)))
        await checkAPasswordForNobody(password)
      return args
    },
    afterOperation: async ({ args, operation, req, result }) => {
      if (operation === 'login') {
        const email = signInEmail(args)
        if (email && (result as { user?: unknown } | undefined)?.user)
          await clearSignInTurns({ payload: req.payload, key: keyOf('signin', email), req })
      }
      return result
    },
  }
}

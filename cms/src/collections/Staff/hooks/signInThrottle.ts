import crypto from 'node:crypto'
import { promisify } from 'node:util'

import { APIError } from 'payload'
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
 * concurrent guesses cannot slip through between a check and a count. The wait for one attempt
 * is bounded: beyond it the answer is 429 with the time to come back. Per-client limits come on
 * top (server/cmsDoors.ts, api/admin/auth.ts).
 */
export type SignInThrottleSettings = {
  /** Failures in a row an account may have before attempts are spaced out. */
  freeFailures: number
  /** The first spacing; each further failure doubles it, up to maxDelayMs. */
  baseDelayMs: number
  maxDelayMs: number
  /** The longest an attempt waits for its turn; beyond it, 429. */
  maxWaitMs: number
  /** Failures older than this are forgotten. */
  forgetAfterMs: number
}

export const DEFAULT_SIGN_IN_THROTTLE: SignInThrottleSettings = {
  freeFailures: 3,
  baseDelayMs: 1000,
  maxDelayMs: 8000,
  maxWaitMs: 30_000,
  forgetAfterMs: 15 * 60 * 1000,
}

type AccountState = { failures: number; nextAt: number; lastAt: number }

export class SignInThrottle {
  private readonly accounts = new Map<string, AccountState>()

  constructor(private readonly settings: SignInThrottleSettings = DEFAULT_SIGN_IN_THROTTLE) {}

  /** How long this attempt must wait for its turn (ms), counting it as a failure until cleared. */
  reserve(account: string, now = Date.now()): { waitMs: number } | { retryAfterMs: number } {
    this.forgetOld(now)
    const key = keyOf(account)
    const state = this.accounts.get(key) ?? { failures: 0, nextAt: now, lastAt: now }
    const startAt = Math.max(now, state.nextAt)
    const waitMs = startAt - now
    if (waitMs > this.settings.maxWaitMs) return { retryAfterMs: waitMs }
    state.failures += 1
    state.nextAt = startAt + this.spacingAfter(state.failures)
    state.lastAt = now
    this.accounts.set(key, state)
    return { waitMs }
  }

  /** A successful sign-in: the account starts afresh. */
  clear(account: string): void {
    this.accounts.delete(keyOf(account))
  }

  private spacingAfter(failures: number): number {
    const { freeFailures, baseDelayMs, maxDelayMs } = this.settings
    if (failures < freeFailures) return 0
    return Math.min(maxDelayMs, baseDelayMs * 2 ** (failures - freeFailures))
  }

  private forgetOld(now: number) {
    // Bounded memory: guesses at random e-mails each leave one entry, kept 15 minutes.
    for (const [key, state] of this.accounts) {
      if (now - state.lastAt > this.settings.forgetAfterMs && state.nextAt <= now)
        this.accounts.delete(key)
    }
  }
}

/** Accounts are kept by a hash of the normalised e-mail, never the address itself. */
function keyOf(account: string): string {
  return crypto.createHash('sha256').update(account.trim().toLowerCase()).digest('base64url')
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
export function signInThrottleHooks(throttle = new SignInThrottle()): {
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
      const turn = throttle.reserve(operation === 'login' ? email : `reset:${email}`)
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
    afterOperation: ({ args, operation, result }) => {
      if (operation === 'login') {
        const email = signInEmail(args)
        if (email && (result as { user?: unknown } | undefined)?.user) throttle.clear(email)
      }
      return result
    },
  }
}

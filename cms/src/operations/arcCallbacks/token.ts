import crypto from 'node:crypto'

import type { ArcCallbackRegistration } from '@shop/chain'
import type { Payload } from 'payload'

/**
 * The token ARC sends back with each callback (`Authorization: Bearer <token>`): derived from
 * the shop's Payload secret, so the web processes that receive callbacks and the worker that
 * registers them agree on it without another secret to set, and a new PAYLOAD_SECRET makes a
 * new token. The HMAC does not reveal the secret to ARC, which keeps the token.
 */
export function arcCallbackToken(payload: Pick<Payload, 'secret'>): string {
  return crypto
    .createHmac('sha256', payload.secret)
    .update('arc-callback-token')
    .digest('base64url')
}

/** Whether an Authorization header carries the callback token (compared in constant time). */
export function hasArcCallbackToken(
  payload: Pick<Payload, 'secret'>,
  authorization: string | undefined,
): boolean {
  const match = /^Bearer (\S+)$/i.exec(authorization?.trim() ?? '')
  if (!match) return false
  const given = crypto.createHash('sha256').update(match[1]!).digest()
  const expected = crypto.createHash('sha256').update(arcCallbackToken(payload)).digest()
  return crypto.timingSafeEqual(given, expected)
}

/** What the worker's submissions to ARC register: the receiver's URL and the token, or none. */
export function arcCallbackRegistration(
  payload: Pick<Payload, 'secret'>,
  env: { arcCallbackUrl?: string | undefined },
): ArcCallbackRegistration | undefined {
  return env.arcCallbackUrl
    ? { url: env.arcCallbackUrl, token: arcCallbackToken(payload) }
    : undefined
}

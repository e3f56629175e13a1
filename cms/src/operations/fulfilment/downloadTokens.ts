import crypto from 'node:crypto'

import type { Payload, PayloadRequest } from 'payload'

import { slugs } from '../../collections/slugs'
import type { DownloadToken } from '../../payload-types'

/**
 * Download tokens: 256 random bits, stored as their SHA-256 (lookups) and sealed with
 * AES-256-GCM under a key derived from Payload's secret (so the buyer who holds the order id can
 * be shown the link again on the pay screen and in the paid e-mail). Never logged.
 */

export const downloadPath = (token: string) => `/download/pdf/${token}`

export function hashDownloadToken(token: string): string {
  return crypto.createHash('sha256').update(token, 'utf8').digest('hex')
}

function sealKey(payload: Payload): Buffer {
  return crypto.createHash('sha256').update(`download-token-seal:${payload.secret}`).digest()
}

function seal(payload: Payload, token: string): string {
  const iv = crypto.randomBytes(12)
  const cipher = crypto.createCipheriv('aes-256-gcm', sealKey(payload), iv)
  const body = Buffer.concat([cipher.update(token, 'utf8'), cipher.final()])
  return [iv, cipher.getAuthTag(), body].map((b) => b.toString('base64url')).join('.')
}

function unseal(payload: Payload, sealed: string): string | null {
  try {
    const [iv, tag, body] = sealed.split('.').map((part) => Buffer.from(part, 'base64url'))
    if (!iv || !tag || !body) return null
    const decipher = crypto.createDecipheriv('aes-256-gcm', sealKey(payload), iv)
    decipher.setAuthTag(tag)
    return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8')
  } catch {
    return null
  }
}

export async function findDownloadTokenOf(
  payload: Payload,
  orderId: string,
  req?: PayloadRequest,
): Promise<DownloadToken | null> {
  const found = await payload.find({
    req,
    collection: slugs.downloadTokens,
    where: { order: { equals: orderId } },
    sort: 'createdAt',
    limit: 1,
    depth: 0,
  })
  return (found.docs[0] as DownloadToken | undefined) ?? null
}

type NewDownloadToken = {
  payload: Payload
  orderId: string
  productId: string | number
  ttlHours: number
  maxUses: number
  /** The request whose transaction the token belongs to. */
  req?: PayloadRequest
}

/**
 * A new download token for the order, with its own lifetime and uses: the first one at
 * delivery, and each fresh link a buyer asks for or the owner sends. Earlier tokens keep their
 * own limits.
 */
export async function createDownloadToken({
  payload,
  orderId,
  productId,
  ttlHours,
  maxUses,
  req,
}: NewDownloadToken): Promise<DownloadToken> {
  const token = crypto.randomBytes(32).toString('base64url')
  return (await payload.create({
    req,
    collection: slugs.downloadTokens,
    depth: 0,
    data: {
      tokenHash: hashDownloadToken(token),
      tokenSealed: seal(payload, token),
      order: orderId,
      product: productId as number,
      expiresAt: new Date(Date.now() + ttlHours * 3_600_000).toISOString(),
      maxUses,
      uses: 0,
    },
  })) as DownloadToken
}

/**
 * The order's download token, created on the first call only: a worker restarted after a crash
 * finds the one it made before instead of issuing a second.
 */
export async function issueDownloadToken(options: NewDownloadToken): Promise<DownloadToken> {
  const existing = await findDownloadTokenOf(options.payload, options.orderId, options.req)
  return existing ?? createDownloadToken(options)
}

/** "/download/pdf/<token>" for the order's token, or null when it has none. */
export async function downloadUrlOf(payload: Payload, orderId: string): Promise<string | null> {
  return (await downloadLinkOf(payload, orderId))?.path ?? null
}

export type DownloadLinkPath = { path: string; expiresAt: string; maxUses: number }

/** A token's link with its limits (for the e-mails), or null when it cannot be unsealed. */
export function downloadLinkOfToken(
  payload: Payload,
  doc: Pick<DownloadToken, 'tokenSealed' | 'expiresAt' | 'maxUses'>,
): DownloadLinkPath | null {
  const token = doc.tokenSealed ? unseal(payload, doc.tokenSealed) : null
  return token
    ? { path: downloadPath(token), expiresAt: doc.expiresAt, maxUses: doc.maxUses }
    : null
}

/** The order's first download link with its limits (for the paid e-mail), or null. */
export async function downloadLinkOf(
  payload: Payload,
  orderId: string,
): Promise<DownloadLinkPath | null> {
  const doc = await findDownloadTokenOf(payload, orderId)
  return doc ? downloadLinkOfToken(payload, doc) : null
}

import type { Request, RequestHandler, Response } from 'express'
import type { Payload } from 'payload'
import { generateExpiredPayloadCookie, generatePayloadCookie } from 'payload/shared'

import { slugs } from '../../collections/slugs'
import type { StaffUser } from '../../operations/admin/staffSession'
import { findSessionUser, isShopAdmin } from '../../operations/admin/staffSession'

declare module 'express-serve-static-core' {
  interface Request {
    /** The staff member of the session, set by `readStaffSession`. */
    staffUser?: StaffUser | null
  }
}

/**
 * The request's credentials as the Fetch API's Headers that payload.auth reads. The admin
 * router has already checked where the request comes from (requireSameOriginRequest), which
 * Payload would otherwise do against its `csrf` allowlist of one public URL; we tell it so.
 */
function authHeaders(req: Request): Headers {
  const headers = new Headers()
  const cookie = req.get('cookie')
  if (cookie) {
    headers.set('cookie', cookie)
    headers.set('sec-fetch-site', 'same-origin')
  }
  const authorization = req.get('authorization')
  if (authorization) headers.set('authorization', authorization)
  return headers
}

/** Reads the session once per request (Payload checks the token and that its session lives). */
export function readStaffSession({ payload }: { payload: Payload }): RequestHandler {
  return async (req, _res, next) => {
    req.staffUser = await findSessionUser({ payload, headers: authHeaders(req) })
    next()
  }
}

/**
 * The one guard of the admin API: every route registered after it needs a signed-in admin.
 * 401 without a session, 403 for a staff member who is not an admin (an editor).
 */
export const requireAdmin: RequestHandler = (req, res, next) => {
  if (!req.staffUser) {
    res.status(401).json({ error: 'Not signed in.' })
    return
  }
  if (!isShopAdmin(req.staffUser)) {
    res.status(403).json({ error: 'Only admins can use the admin area.' })
    return
  }
  next()
}

export function adminUser(req: Request): StaffUser {
  if (!req.staffUser) throw new Error('adminUser() used on a route not behind requireAdmin.')
  return req.staffUser
}

/** Payload's own session cookie (HttpOnly, the collection's SameSite and Secure settings). */
export function setSessionCookie({
  payload,
  res,
  token,
}: {
  payload: Payload
  res: Response
  token: string
}) {
  res.append(
    'Set-Cookie',
    generatePayloadCookie({
      collectionAuthConfig: payload.collections[slugs.staff].config.auth,
      cookiePrefix: payload.config.cookiePrefix,
      token,
    }),
  )
}

export function clearSessionCookie({ payload, res }: { payload: Payload; res: Response }) {
  res.append(
    'Set-Cookie',
    generateExpiredPayloadCookie({
      collectionAuthConfig: payload.collections[slugs.staff].config.auth,
      cookiePrefix: payload.config.cookiePrefix,
    }),
  )
}

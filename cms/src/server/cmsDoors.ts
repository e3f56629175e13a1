import type { RequestHandler } from 'express'
import { rateLimit } from 'express-rate-limit'
import type { Payload } from 'payload'

import { FIRST_REGISTER_CLOSED as MESSAGE } from '../collections/Staff/hooks/closeFirstRegister'
import { DatabaseRateLimitStore } from './rateLimitStore'

/**
 * In production, Payload's "create the first user" screen and route answer that the first admin
 * is made from the command line. The Staff collection refuses such a create itself
 * (hooks/closeFirstRegister.ts); this gives the screen its plain answer.
 */
export function closeFirstRegister(): RequestHandler {
  return (req, res, next) => {
    if (req.path === '/cms/api/staff/first-register') {
      res.status(403).json({ errors: [{ message: MESSAGE }] })
      return
    }
    if (req.path === '/cms/create-first-user') {
      res.status(403).type('text/plain').send(MESSAGE)
      return
    }
    next()
  }
}

/**
 * Payload's migrations collection has no REST route: Next answered 501 with a message naming
 * the server's own URL. It is plainly not found.
 */
export const hideMigrations: RequestHandler = (req, res, next) => {
  if (/^\/cms\/api\/payload-migrations(\/|$)/.test(req.path)) {
    res.status(404).json({ errors: [{ message: 'Not found.' }] })
    return
  }
  next()
}

/** Failed sign-ins and password-reset requests per client address through Payload's REST. */
export const CMS_AUTH_RATE_LIMIT = { windowMs: 15 * 60 * 1000, limit: 20 }

/**
 * Payload's own sign-in and password-reset doors had no limit per client: the same one as the
 * admin area's sign-in (failures count, successes do not, so an owner who types well is never
 * slowed down).
 */
export function limitCmsAuth(payload: Payload): RequestHandler {
  const limiter = rateLimit({
    store: new DatabaseRateLimitStore(payload, 'cms-auth'),
    ...CMS_AUTH_RATE_LIMIT,
    skipSuccessfulRequests: true,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    handler: (_req, res) => {
      res
        .status(429)
        .json({ errors: [{ message: 'Too many attempts from this address. Try again later.' }] })
    },
  })
  return (req, res, next) => {
    if (
      req.method === 'POST' &&
      /^\/cms\/api\/staff\/(login|forgot-password|reset-password|unlock|first-register)$/.test(
        req.path,
      )
    )
      return limiter(req, res, next)
    next()
  }
}

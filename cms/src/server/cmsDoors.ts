import type { RequestHandler } from 'express'
import { rateLimit } from 'express-rate-limit'
import type { Payload } from 'payload'

import { DatabaseRateLimitStore } from './rateLimitStore'

const MESSAGE =
  'This shop creates its first admin from the command line: run `npm run create-admin` on the server.'

/**
 * In production, Payload's open "create the first user" door is shut, whether or not a user
 * exists yet: on a fresh shop the first visitor would otherwise become its admin. The owner
 * creates the first admin with `npm run create-admin`.
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

import type { RequestHandler } from 'express'

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

import type { RequestHandler } from 'express'

/**
 * Answers about one person or one order must never be kept by a browser or a shared cache:
 * Payload's REST and auth under /cms/api, download links, and test mode's outbox. (The spec's
 * /api sets its own: no-store for everything but the public catalogue.)
 */
export const PRIVATE_PATHS = /^\/(cms\/api|download|test-mode)(\/|$)/

export const noStoreForPrivateAnswers: RequestHandler = (req, res, next) => {
  if (PRIVATE_PATHS.test(req.path)) res.setHeader('Cache-Control', 'no-store')
  next()
}

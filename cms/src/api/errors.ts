import type { ErrorRequestHandler } from 'express'

import type { Logger } from '../server/logger'

/** The API's errors as JSON: a 4xx with its reason (bad JSON, too large, a bad path), else a logged 500. */
export const apiErrorHandler =
  (logger: Logger): ErrorRequestHandler =>
  (err, req, res, _next) => {
    const status =
      typeof err?.status === 'number'
        ? err.status
        : typeof err?.statusCode === 'number'
          ? err.statusCode
          : 500
    if (status >= 400 && status < 500) {
      const message =
        err.type === 'entity.parse.failed'
          ? 'Request body is not valid JSON.'
          : err.type === 'entity.too.large'
            ? 'Request body is too large.'
            : err.expose && err.message
              ? String(err.message)
              : 'Bad request.'
      res.status(status).json({ error: message })
      return
    }
    logger.error({ err, path: req.path }, 'api request failed')
    res.status(500).json({ error: 'Internal server error.' })
  }

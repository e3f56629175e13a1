import type { IncomingMessage, ServerResponse } from 'node:http'
import { performance } from 'node:perf_hooks'

import type { RequestHandler } from 'express'

import type { Options } from 'pino-http'

import type { Logger } from './logger'

/** The order a request is about, when its path names one (/api/orders/{id}/..., /pay/{id}). */
export function orderIdOf(url: string | undefined): string | undefined {
  const path = (url ?? '').split('?')[0]!
  return /^\/(?:api\/(?:admin\/)?orders|api\/test-mode\/orders|pay|order\/success)\/([0-9a-f-]{36})(?:\/|$)/.exec(
    path,
  )?.[1]
}

/**
 * One short line per request: method, path (without its query, which may carry a token),
 * status and time, and the order id when there is one; no headers (they were 1.4 KB a line
 * and carried cookies to redact).
 */
export function requestLine(
  req: Pick<IncomingMessage, 'method' | 'url'>,
  res: Pick<ServerResponse, 'statusCode'>,
  ms: number,
): string {
  const path = (req.url ?? '').split('?')[0]
  return `${req.method} ${path} ${res.statusCode} ${Math.round(ms)} ms`
}

/** The level of a request's line: error for a failure or a 5xx, warn for a 4xx, info otherwise. */
export const requestLevel = (status: number, failed?: unknown): 'error' | 'warn' | 'info' =>
  failed || status >= 500 ? 'error' : status >= 400 ? 'warn' : 'info'

/** pino-http's options for that line. */
export const requestLogOptions: Options = {
  // The request and response objects are not logged at all: the message says it all.
  serializers: { req: () => undefined, res: () => undefined },
  customSuccessMessage: (req, res, ms) => requestLine(req, res, ms),
  customErrorMessage: (req, res) => requestLine(req, res, 0).replace(/ 0 ms$/, ' failed'),
  customProps: (req) => {
    const orderId = orderIdOf(req.url)
    return orderId ? { orderId } : {}
  },
  customAttributeKeys: { req: 'req', res: 'res', responseTime: 'ms' },
}

/**
 * The same line, written by a route mounted ahead of pino-http (checkout): at the level pino-http
 * gives it (error for 5xx, warn for 4xx, info otherwise), or "failed" when the client went away
 * before the answer was sent.
 */
export function logEachRequest(logger: Pick<Logger, 'info' | 'warn' | 'error'>): RequestHandler {
  return (req, res, next) => {
    const started = performance.now()
    res.once('close', () => {
      if (!res.writableFinished) {
        logger.warn(`${req.method} ${(req.originalUrl ?? '').split('?')[0]} failed`)
        return
      }
      const line = requestLine(
        { method: req.method, url: req.originalUrl },
        res,
        performance.now() - started,
      )
      logger[requestLevel(res.statusCode)](line)
    })
    next()
  }
}

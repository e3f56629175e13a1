import crypto from 'node:crypto'

import type { RequestHandler } from 'express'

/**
 * The Content-Security-Policy of Payload's pages at /cms. Next renders
 * inline scripts of its own, so scripts are allowed by a nonce drawn per request: Next reads it
 * from the request's Content-Security-Policy header and puts it on every script it writes, and
 * the browser runs nothing else (an injected <script> in a rich text or a file name has no
 * nonce). Styles stay 'unsafe-inline': the admin's components set style attributes.
 */
export function cmsContentSecurityPolicy({ dev }: { dev: boolean }): RequestHandler {
  return (req, res, next) => {
    if (!/^\/cms(\/|$)/.test(req.path)) return next()
    const nonce = crypto.randomBytes(16).toString('base64')
    const policy = [
      "default-src 'self'",
      // Development's fast refresh evaluates modules; a production build never does.
      `script-src 'self' 'nonce-${nonce}'${dev ? " 'unsafe-eval'" : ''}`,
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data: blob:",
      "font-src 'self' data:",
      `connect-src 'self'${dev ? ' ws: wss:' : ''}`,
      "worker-src 'self' blob:",
      "object-src 'none'",
      "base-uri 'self'",
      "form-action 'self'",
      "frame-ancestors 'none'",
    ].join('; ')
    req.headers['content-security-policy'] = policy
    res.setHeader('Content-Security-Policy', policy)
    next()
  }
}

import type { Request, RequestHandler } from 'express'

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

export const CSRF_HEADER = 'x-requested-with'
export const CSRF_HEADER_VALUE = 'XMLHttpRequest'

/**
 * Cross-site request forgery guard for every state-changing admin call, in two layers on top
 * of the SameSite cookie:
 * - the request must carry `X-Requested-With: XMLHttpRequest`. A page on another site cannot
 *   add a custom header to a form post, and fetch with one needs a CORS preflight we never allow;
 * - when the browser says where any admin request comes from (Origin, else Referer), it must
 *   be the shop itself: the request's own host or the configured public URL.
 * Payload's own cookie check (its `csrf` allowlist) is replaced by this one for /api/admin.
 */
export function requireSameOriginRequest({ publicUrl }: { publicUrl: string }): RequestHandler {
  const publicOrigin = originOf(publicUrl)
  return (req, res, next) => {
    if (!SAFE_METHODS.has(req.method) && req.get(CSRF_HEADER) !== CSRF_HEADER_VALUE) {
      res.status(403).json({ error: 'Request refused: missing the X-Requested-With header.' })
      return
    }
    const source = req.get('origin') ?? req.get('referer')
    if (source !== undefined) {
      const origin = originOf(source)
      if (!origin || (origin !== ownOrigin(req) && origin !== publicOrigin)) {
        res.status(403).json({ error: 'Request refused: it does not come from this shop.' })
        return
      }
    }
    next()
  }
}

function ownOrigin(req: Request): string | null {
  const host = req.get('host')
  return host ? `${req.protocol}://${host}` : null
}

function originOf(value: string): string | null {
  try {
    const url = new URL(value)
    return url.origin === 'null' ? null : url.origin
  } catch {
    return null
  }
}

import type { RequestHandler } from 'express'
import type { Payload } from 'payload'

const WITHOUT_BODY = new Set(['GET', 'HEAD', 'OPTIONS', 'DELETE'])

const refuse = (res: Parameters<RequestHandler>[1], status: number, message: string) =>
  res
    .status(status)
    .set('Connection', 'close')
    .json({ errors: [{ message }] })

/**
 * Body sizes for Payload's REST under /cms/api, decided from the headers before a byte of the
 * body is read (Next and Payload buffer a whole body before they look at it: an anonymous 49 MB
 * POST used to cost the web process 800 MB). A body must state its length; anything over
 * `anonymousBytes` needs a valid staff session, and nothing may exceed `maxUploadBytes`.
 */
export function limitCmsBodies({
  payload,
  anonymousBytes,
  maxUploadBytes,
}: {
  payload: Payload
  anonymousBytes: number
  maxUploadBytes: number
}): RequestHandler {
  return async (req, res, next) => {
    if (!/^\/cms\/api(\/|$)/.test(req.path) || WITHOUT_BODY.has(req.method)) {
      next()
      return
    }
    const declared = req.headers['content-length']
    if (declared === undefined) {
      if (req.headers['transfer-encoding']) {
        refuse(res, 411, 'Send the body with its Content-Length.')
        return
      }
      next()
      return
    }
    const bytes = Number(declared)
    if (!Number.isSafeInteger(bytes) || bytes < 0) {
      refuse(res, 400, 'Content-Length is not a number of bytes.')
      return
    }
    if (bytes > maxUploadBytes) {
      refuse(res, 413, `The body is over ${Math.floor(maxUploadBytes / 1024 / 1024)} MB.`)
      return
    }
    if (bytes > anonymousBytes) {
      const headers = new Headers()
      // What Payload reads to authenticate (its CSRF check included).
      for (const name of ['cookie', 'authorization', 'origin', 'sec-fetch-site'])
        if (typeof req.headers[name] === 'string') headers.set(name, req.headers[name])
      const { user } = await payload.auth({ headers }).catch(() => ({ user: null }))
      if (!user) {
        refuse(res, 413, 'Sign in to send a body this large.')
        return
      }
    }
    next()
  }
}

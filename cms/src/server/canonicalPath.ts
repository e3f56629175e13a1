import type { RequestHandler } from 'express'

/**
 * One spelling per path, decided before any guard looks at it. Express matches the raw path,
 * while Next and Payload match the decoded one: `/cms/api/staff/first-regist%65r`,
 * `/cms//api/staff/login` and `/cms/api/staff/login/` reached Payload's doors beside the
 * guards written for the plain spelling. So each path is rewritten once, here, to its
 * canonical form: empty segments dropped (a doubled or trailing `/`), each segment decoded
 * and encoded again in one way. Every later guard, router and Next see that one form.
 *
 * A segment that decodes to something no path of the shop has (a `/`, `\`, `%` or NUL inside
 * it, `.` or `..`, a malformed escape) is refused with a 400 under /cms and /_next, where
 * Payload and Next would decode it again and reach another path than the guards saw. Elsewhere
 * the path stays as it came: the shop's own routes match it raw and answer it as before.
 */
export const canonicalPath: RequestHandler = (req, res, next) => {
  const url = req.url
  const queryAt = url.indexOf('?')
  const rawPath = queryAt === -1 ? url : url.slice(0, queryAt)
  const canonical = canonicalPathOf(rawPath)
  if (canonical === null) {
    if (DECODING_PREFIX.test(safelyDecoded(rawPath))) {
      res.status(400).json({ errors: [{ message: 'Bad path.' }] })
      return
    }
  } else if (canonical !== rawPath) {
    req.url = canonical + (queryAt === -1 ? '' : url.slice(queryAt))
  }
  next()
}

/** Where Next and Payload decode the path once more before matching it. */
const DECODING_PREFIX = /^\/+(cms|_next)(\/|$)/

const safelyDecoded = (path: string) => {
  try {
    return decodeURIComponent(path)
  } catch {
    return path
      .replace(/%(?![0-9a-f]{2})/gi, '')
      .replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
  }
}

/** The canonical spelling of a raw URL path, or null when it cannot be one of the shop's. */
export function canonicalPathOf(rawPath: string): string | null {
  // Fast path: nothing to decode or collapse (the usual request).
  if (!/%|\/\/|.\/$|\/\.{1,2}(\/|$)|\\/.test(rawPath)) return rawPath
  const segments: string[] = []
  for (const raw of rawPath.split('/')) {
    if (raw === '') continue
    let decoded: string
    try {
      decoded = decodeURIComponent(raw)
    } catch {
      return null
    }
    if (/[/\\%\0]/.test(decoded) || decoded === '.' || decoded === '..') return null
    segments.push(encodeSegment(decoded))
  }
  return `/${segments.join('/')}`
}

/** Encodes what a path segment must not carry raw; keeps the characters Next leaves as they are. */
const encodeSegment = (segment: string) =>
  encodeURIComponent(segment).replace(/%(2[46789BC]|3[ABD]|40)/gi, (escape) =>
    decodeURIComponent(escape),
  )

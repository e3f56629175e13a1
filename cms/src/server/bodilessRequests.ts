import type { RequestHandler } from 'express'

/** The methods whose requests the shop answers without reading a body. */
const BODILESS = new Set(['GET', 'HEAD', 'OPTIONS'])
/** A body on one of them is read (and dropped) up to this size before it is answered. */
const MAX_DROPPED_BYTES = 1024 * 1024

/**
 * A GET, HEAD or OPTIONS request that carries a body anyway has it read and dropped before it is
 * answered. Answered first, the connection would close with the client still sending, and the
 * unread bytes make the close a reset that can cut the answer short (seen as ECONNRESET by the
 * client). A body over MAX_DROPPED_BYTES is refused with 413, and the connection closed.
 */
const refuse = (req: Parameters<RequestHandler>[0], res: Parameters<RequestHandler>[1]) =>
  res
    .status(413)
    .set('Connection', 'close')
    .json({ error: `A ${req.method} request carries no body; this one is over 1 MB.` })

export const dropBodiesOfBodilessRequests: RequestHandler = (req, res, next) => {
  const declared = Number(req.headers['content-length'] ?? 0)
  const chunked = req.headers['transfer-encoding'] !== undefined
  if (!BODILESS.has(req.method) || (!(declared > 0) && !chunked)) {
    next()
    return
  }
  if (declared > MAX_DROPPED_BYTES) {
    refuse(req, res)
    return
  }
  let read = 0
  const onData = (chunk: Buffer) => {
    read += chunk.length
    if (read <= MAX_DROPPED_BYTES) return
    req.off('data', onData)
    req.off('end', onEnd)
    refuse(req, res)
  }
  const onEnd = () => next()
  req.on('data', onData)
  req.once('end', onEnd)
  req.once('error', () => req.off('end', onEnd))
}

import type { RequestHandler, Response } from 'express'

export type AdmissionSettings = {
  /** Requests served at once; the rest wait their turn. */
  concurrency: number
  /** Requests allowed to wait; one more is turned away at once. */
  queue: number
  /** A request still waiting after this long is turned away. */
  maxWaitMs: number
  /** Why the request was turned away, in the route's own answer shape. */
  busy: (res: Response, retryAfterSeconds: number) => void
}

/**
 * Admission control for an expensive route (checkout): at most `concurrency` requests at work,
 * at most `queue` waiting in arrival order, none waiting past `maxWaitMs`. A saturated shop
 * answers at once (the route's 503 with Retry-After) instead of queueing without bound, so a
 * buyer hears "busy, try again" in a second rather than "Processing..." for ten.
 */
export function admissionGate(settings: AdmissionSettings): RequestHandler & {
  readonly state: () => { active: number; waiting: number }
} {
  const { concurrency, queue, maxWaitMs, busy } = settings
  let active = 0
  const waiting: Array<{ start: () => void; timer: NodeJS.Timeout }> = []
  // How long a turned-away buyer should wait: about the time the queue takes to drain.
  const retryAfter = () => Math.max(1, Math.ceil(maxWaitMs / 1000))

  const release = () => {
    active -= 1
    const next = waiting.shift()
    if (next) {
      clearTimeout(next.timer)
      next.start()
    }
  }

  const gate: RequestHandler = (_req, res, next) => {
    const start = () => {
      active += 1
      let released = false
      const done = () => {
        if (released) return
        released = true
        release()
      }
      res.once('finish', done)
      res.once('close', done)
      // On the next turn of the event loop: the shop's database calls are synchronous, so a
      // checkout started here would run to its end before the requests already read from the
      // sockets are even counted. Deferred, those requests meet the gate first.
      setImmediate(() => next())
    }
    if (active < concurrency) {
      start()
      return
    }
    if (waiting.length >= queue) {
      busy(res, retryAfter())
      return
    }
    const entry = {
      start,
      timer: setTimeout(() => {
        const at = waiting.indexOf(entry)
        if (at >= 0) waiting.splice(at, 1)
        busy(res, retryAfter())
      }, maxWaitMs),
    }
    // A buyer who gave up is no longer waiting.
    res.once('close', () => {
      const at = waiting.indexOf(entry)
      if (at < 0) return
      waiting.splice(at, 1)
      clearTimeout(entry.timer)
    })
    waiting.push(entry)
  }
  return Object.assign(gate, { state: () => ({ active, waiting: waiting.length }) })
}

import type http from 'node:http'

import type { ChainState } from '../chain-state'
import { BadRequest, createRequestLog, createRouter, send } from '../http'
import { createRateGate } from '../rate-limit'
import type { Faults } from '../routes/faults'
import type { ArcCallbacker } from './callbacker'
export type { SentCallback } from './callbacker'
export { createArcCallbacker } from './callbacker'
import { createArcCallbacker } from './callbacker'
import { createArcLedger } from './ledger'
import { problemBody } from './problems'
import { mountArcRoutes } from './routes'

/**
 * The simulator's stand-in for ARC, served under /arc of the same server: its own request
 * record, Bearer key, per-second limit and outage switch, and the ledger of the transactions
 * submitted to it, with the Callbacker that posts their status changes to whoever registered a
 * callback (callbacker.ts). Each request is counted and recorded, then refused while in outage
 * (503), without the key when one is set (401), or over the limit (429 with Retry-After), and
 * routed.
 */

export const ARC_PREFIX = '/arc'

export type ArcLimits = {
  /** ARC requests answered in any one second; more are answered 429 (no limit unless set). */
  perSecond?: number
}

export type ArcStandIn = ReturnType<typeof createArcStandIn>

export function createArcStandIn({
  state,
  faults,
  apiKey,
  limits = {},
  callbacker = createArcCallbacker(),
}: {
  state: ChainState
  faults: Faults
  apiKey?: string
  limits?: ArcLimits
  callbacker?: ArcCallbacker
}) {
  const ledger = createArcLedger(state, (answer) => callbacker.changed(answer))
  const log = createRequestLog()
  const gate = createRateGate(
    { perSecond: limits.perSecond },
    () => undefined,
    (res, seconds) => send(res, 429, problemBody(429), 'json', { 'retry-after': String(seconds) }),
  )
  const api = createRouter()
  mountArcRoutes(api, { state, ledger, faults, callbacker })
  const switches = { outage: false }

  const serveArc = async (
    req: http.IncomingMessage,
    res: http.ServerResponse,
    url: URL,
  ): Promise<void> => {
    const method = req.method ?? 'GET'
    const route = url.pathname.slice(ARC_PREFIX.length)
    const record = log.note({ req, res, method, path: `${route}${url.search}` })
    if (switches.outage) return send(res, 503, 'Service unavailable (simulated outage)', 'text')
    if (apiKey !== undefined && req.headers.authorization !== `Bearer ${apiKey}`)
      return send(res, 401, problemBody(401), 'json', { 'www-authenticate': 'Bearer' })
    if (!gate.admit(res, record)) return
    try {
      if (!(await api.serve(method, route, { req, res, url }))) send(res, 404, problemBody(404))
    } catch (error) {
      if (!(error instanceof BadRequest) || res.headersSent) throw error
      send(res, 400, problemBody(400, { extraInfo: error.message }))
    }
  }

  return {
    ledger,
    callbacker,
    /** ARC requests answered so far, and the last of them. */
    requests: log.count,
    records: log.records,
    setOutage(on: boolean) {
      switches.outage = on
    },
    setLimits: (next: ArcLimits) => gate.setLimits({ perSecond: next.perSecond }),
    /** Lets requests through again at once, whatever the last 429's Retry-After said. */
    lift: gate.lift,
    /** Serves the request when its path is ARC's (under /arc); false otherwise. */
    async serve(req: http.IncomingMessage, res: http.ServerResponse, url: URL): Promise<boolean> {
      const path = url.pathname
      if (path !== ARC_PREFIX && !path.startsWith(`${ARC_PREFIX}/`)) return false
      await serveArc(req, res, url)
      return true
    },
    close() {
      ledger.close()
      callbacker.close()
    },
  }
}

import type http from 'node:http'

import type { ChainState } from '../chain-state'
import type { Router } from '../http'
import { readJson, send } from '../http'
import type { Faults } from '../routes/faults'
import type { ArcCallbacker } from './callbacker'
import type { ArcLedger } from './ledger'
import { ArcRefusal, problemBody } from './problems'
import { ARC_MINING_FEE, submitToArc } from './submit'

/**
 * ARC's API as the stand-in serves it below /arc (the answers' shapes are in server.ts):
 * transactions by txid, submitting one or several, the policy and the health check. A
 * submission's X-CallbackUrl (with X-CallbackToken and X-FullStatusUpdates) registers its
 * transaction's callbacks with the Callbacker, as ARC's API takes them (doc/arc.json).
 */

const TXID = /^[0-9a-f]{64}$/i
const HEX = /^(?:[0-9a-f]{2})+$/i

export function mountArcRoutes(
  api: Router,
  {
    state,
    ledger,
    faults,
    callbacker,
  }: { state: ChainState; ledger: ArcLedger; faults: Faults; callbacker: ArcCallbacker },
) {
  /** One submission's answer: ARC's status, or its refusal (body and code). */
  const submitOne = (rawTx: unknown, req: http.IncomingMessage) => {
    if (typeof rawTx !== 'string' || !HEX.test(rawTx))
      return { status: 400, body: problemBody(400, { extraInfo: 'rawTx must be hex' }) }
    try {
      const answer = submitToArc({ state, ledger, rawTx: rawTx.toLowerCase() })
      faults.arcRemembers(answer.txid)
      const registration = callbackOf(req)
      if (registration) callbacker.register(answer.txid, registration)
      return { status: 200, body: answer }
    } catch (error) {
      if (error instanceof ArcRefusal) return { status: error.status, body: error.body() }
      throw error
    }
  }

  api.on('GET', /^\/v1\/tx\/([^/]*)$/, ({ res, params }) => {
    const txid = params[0]!.toLowerCase()
    if (!TXID.test(txid))
      return send(res, 400, problemBody(400, { extraInfo: 'txid must be 32 bytes of hex' }))
    const answer = faults.arcForgets(txid) ? undefined : ledger.answer(txid)
    if (!answer)
      return send(res, 404, problemBody(404, { txid, extraInfo: 'transaction not found' }))
    send(res, 200, answer)
  })
  api.on('POST', '/v1/tx', async ({ req, res }) => {
    const body = (await readJson(req)) as { rawTx?: unknown }
    const { status, body: answer } = submitOne(body?.rawTx, req)
    send(res, status, answer)
  })
  api.on('POST', '/v1/txs', async ({ req, res }) => {
    const body = await readJson(req)
    if (!Array.isArray(body) || body.length === 0)
      return send(res, 400, problemBody(400, { extraInfo: 'a list of { rawTx } is expected' }))
    // doc/arc.json's examples answer a list, each entry a status or an error.
    send(
      res,
      200,
      body.map((entry) => submitOne((entry as { rawTx?: unknown } | null)?.rawTx, req).body),
    )
  })
  api.on('GET', '/v1/policy', ({ res }) =>
    send(res, 200, {
      timestamp: new Date().toISOString(),
      policy: {
        maxscriptsizepolicy: 500000,
        maxtxsigopscountspolicy: 4294967295,
        maxtxsizepolicy: 10000000,
        miningFee: ARC_MINING_FEE,
        standardFormatSupported: true,
      },
    }),
  )
  api.on('GET', '/v1/health', ({ res }) =>
    send(res, 200, { healthy: true, version: 'simulator', reason: null }),
  )
}

/** The callback a submission registers: its X-CallbackUrl, when it is an http(s) URL. */
function callbackOf(req: http.IncomingMessage) {
  const url = header(req, 'x-callbackurl')
  if (!url || !/^https?:\/\//.test(url)) return undefined
  return {
    url,
    token: header(req, 'x-callbacktoken') || undefined,
    fullStatusUpdates: header(req, 'x-fullstatusupdates')?.toLowerCase() === 'true',
  }
}

const header = (req: http.IncomingMessage, name: string) => {
  const value = req.headers[name]
  return Array.isArray(value) ? value[0] : value
}

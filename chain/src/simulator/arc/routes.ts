import type { ChainState } from '../chain-state'
import type { Router } from '../http'
import { readJson, send } from '../http'
import type { Faults } from '../routes/faults'
import type { ArcLedger } from './ledger'
import { ArcRefusal, problemBody } from './problems'
import { ARC_MINING_FEE, submitToArc } from './submit'

/**
 * ARC's API as the stand-in serves it below /arc (the answers' shapes are in server.ts):
 * transactions by txid, submitting one or several, the policy and the health check.
 */

const TXID = /^[0-9a-f]{64}$/i
const HEX = /^(?:[0-9a-f]{2})+$/i

export function mountArcRoutes(
  api: Router,
  { state, ledger, faults }: { state: ChainState; ledger: ArcLedger; faults: Faults },
) {
  /** One submission's answer: ARC's status, or its refusal (body and code). */
  const submitOne = (rawTx: unknown) => {
    if (typeof rawTx !== 'string' || !HEX.test(rawTx))
      return { status: 400, body: problemBody(400, { extraInfo: 'rawTx must be hex' }) }
    try {
      const answer = submitToArc({ state, ledger, rawTx: rawTx.toLowerCase() })
      faults.arcRemembers(answer.txid)
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
    const { status, body: answer } = submitOne(body?.rawTx)
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
      body.map((entry) => submitOne((entry as { rawTx?: unknown } | null)?.rawTx).body),
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

import { Transaction } from '@bsv/sdk'

import { ChainRejection } from '../chain-state'
import type { SimulatorContext } from '../context'
import type { Router } from '../http'
import { readJson, send } from '../http'

/**
 * The chain's own doings and the simulator's switches, for tests and the dev tools: mining,
 * funding, double-spending, reorganising, the outage switches (WhatsOnChain's and the ARC
 * stand-in's) and the push switch under /simulator, and /healthz (the answers' shapes are in
 * server.ts).
 */
export function mountControlRoutes(control: Router, ctx: SimulatorContext) {
  const { state } = ctx
  control.on('POST', '/simulator/mine', async ({ req, res }) => {
    const body = (await readJson(req)) as { blocks?: number }
    const blocks =
      Number.isInteger(body.blocks) && body.blocks! > 0 && body.blocks! <= 100 ? body.blocks! : 1
    send(res, 200, { height: state.mine(blocks) })
  })
  control.on('POST', '/simulator/faucet', async ({ req, res }) => {
    const body = (await readJson(req)) as { address?: string; satoshis?: number }
    if (
      typeof body.address !== 'string' ||
      !Number.isSafeInteger(body.satoshis) ||
      body.satoshis! <= 0
    )
      return send(res, 400, { error: 'address and satoshis are required' })
    try {
      send(res, 200, { txid: state.mint(body.address, body.satoshis!) })
    } catch (error) {
      send(res, 400, { error: (error as Error).message })
    }
  })
  control.on('POST', '/simulator/double-spend', async ({ req, res }) => {
    const body = (await readJson(req)) as { txid?: unknown; relayed?: unknown }
    if (typeof body.txid !== 'string' || !/^[0-9a-f]{64}$/i.test(body.txid))
      return send(res, 400, { error: 'txid is required' })
    if (body.relayed !== undefined && typeof body.relayed !== 'boolean')
      return send(res, 400, { error: 'relayed must be true or false' })
    const txid = body.txid.toLowerCase()
    try {
      if (body.relayed === false) {
        const hex = state.getHex(txid)
        if (hex) ctx.faults.holdBackSpendsOf(outpointsOf(hex))
      }
      send(res, 200, { txid: state.doubleSpend(txid) })
    } catch (error) {
      if (error instanceof ChainRejection) send(res, 400, { error: error.message })
      else throw error
    }
  })
  control.on('POST', '/simulator/reorg', async ({ req, res }) => {
    const body = (await readJson(req)) as { blocks?: unknown }
    const blocks = Number(body.blocks ?? 1)
    if (!Number.isInteger(blocks) || blocks < 1 || blocks > state.height)
      send(res, 400, { error: 'blocks must be a whole number of blocks on the chain' })
    else send(res, 200, { height: state.reorg(blocks) })
  })
  control.on('POST', '/simulator/outage', async ({ req, res }) => {
    ctx.outage = Boolean(((await readJson(req)) as { on?: boolean }).on)
    send(res, 200, {})
  })
  control.on('POST', '/simulator/arc/outage', async ({ req, res }) => {
    ctx.arc.setOutage(Boolean(((await readJson(req)) as { on?: boolean }).on))
    send(res, 200, {})
  })
  control.on('POST', '/simulator/arc/callbacks', async ({ req, res }) => {
    ctx.arc.callbacker.setSending(Boolean(((await readJson(req)) as { on?: boolean }).on))
    send(res, 200, {})
  })
  control.on('GET', '/simulator/arc/callbacks', ({ res }) =>
    send(res, 200, { sending: ctx.arc.callbacker.sending(), sent: ctx.arc.callbacker.sent() }),
  )
  control.on('POST', '/simulator/push', async ({ req, res }) => {
    ctx.push?.setPush(Boolean(((await readJson(req)) as { on?: boolean }).on))
    send(res, 200, {})
  })
  control.on('*', '/healthz', ({ res }) =>
    send(res, 200, { ok: true, height: state.height, apiRequests: ctx.log.count() }),
  )
}

/** The outputs a raw transaction spends, `txid:vout`. */
function outpointsOf(hex: string): string[] {
  return Transaction.fromHex(hex).inputs.map((i) => `${i.sourceTXID}:${i.sourceOutputIndex}`)
}

import crypto from 'node:crypto'

import type { SimulatorContext } from '../context'
import type { Router } from '../http'
import { send } from '../http'

/** The chain's tip and its blocks: /chain/info and /block/height/{h}. */

/** A block's hash: made up, but the same for the same network and height every time. */
export const blockHash = (network: 'main' | 'test', height: number) =>
  crypto.createHash('sha256').update(`simulated block ${network} ${height}`).digest('hex')

export function mountBlockRoutes(api: Router, { network, state }: SimulatorContext) {
  api.on('GET', '/chain/info', ({ res }) =>
    send(res, 200, {
      chain: network,
      blocks: state.height,
      headers: state.height,
      bestblockhash: blockHash(network, state.height),
      difficulty: 1,
      mediantime: state.blockTime(state.height) ?? Math.floor(Date.now() / 1000),
      verificationprogress: 1,
      pruned: false,
      chainwork: state.height.toString(16).padStart(64, '0'),
    }),
  )
  api.on('GET', /^\/block\/height\/(\d+)$/, ({ res, params }) => {
    const height = Number(params[0])
    const time = state.blockTime(height)
    if (height > state.height || time === undefined) return send(res, 404, 'Not found', 'text')
    send(res, 200, { height, time, confirmations: state.height - height + 1 })
  })
}

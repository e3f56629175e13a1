import type { SimulatorContext } from '../context'
import type { Router } from '../http'
import { readJson, send } from '../http'

/**
 * The faults a test switches on: addresses whose history errs, a transaction every index loses
 * for a while, a burst of 429s, a deaf push stream, transactions the ARC stand-in forgets, and
 * forged TSC proofs and block headers. The state here is what the other routes and the push
 * stream ask; POST and DELETE /simulator/faults switch them over HTTP.
 */

export type SimulatorFaults = {
  /** Addresses whose history, in every history answer, carries an error and no transactions. */
  historyErrorAddresses?: string[]
  /**
   * A transaction every index loses for `seconds`: histories leave it out, /tx/hash and
   * /tx/{txid}/hex answer 404 (as WhatsOnChain does while a just-mined transaction is between
   * its mempool and block indexes).
   */
  loseTxid?: { txid: string; seconds: number }
  /** The next `count` API requests answer 429 with this Retry-After. */
  burst429?: { count: number; retryAfterSeconds: number }
  /**
   * A deaf push stream: connected, answering pings and publishing block headers, but no
   * `woc:mempoolTx` frame at all (neither background traffic nor the chain's own transactions).
   * False turns it off.
   */
  deafStream?: boolean
  /**
   * Transactions the ARC stand-in forgets: GET /arc/v1/tx/{txid} answers 404 for them until they
   * are submitted to it again (as an ARC instance that lost them knows them again).
   */
  arcForgotten?: string[]
  /** Transactions whose TSC proof (/tx/{txid}/proof/tsc) is served with one node changed. */
  forgedProofs?: string[]
  /**
   * Heights whose block and header answers give another merkle root, with the hash as it was:
   * the header no longer hashes to its hash.
   */
  forgedHeaders?: number[]
}

export type Faults = ReturnType<typeof createFaults>

export function createFaults() {
  let erroring = new Set<string>()
  /** Lost transactions, each with when it is found again (ms since the epoch). */
  const lost = new Map<string, number>()
  let burst = { count: 0, retryAfterSeconds: 1 }
  let deafStream = false
  let arcForgotten = new Set<string>()
  let forgedProofs = new Set<string>()
  let forgedHeaders = new Set<number>()
  /** Outputs whose competing spends the push stream does not carry (`txid:vout`). */
  const unrelayed = new Set<string>()

  const isLost = (txid: string) => {
    const until = lost.get(txid)
    if (until === undefined) return false
    if (until > Date.now()) return true
    lost.delete(txid)
    return false
  }

  return {
    /** Switches faults on (each one given replaces the one before). */
    set(faults: SimulatorFaults) {
      if (faults.historyErrorAddresses) erroring = new Set(faults.historyErrorAddresses)
      if (faults.loseTxid)
        lost.set(faults.loseTxid.txid.toLowerCase(), Date.now() + faults.loseTxid.seconds * 1000)
      if (faults.burst429) burst = { ...faults.burst429 }
      if (faults.deafStream !== undefined) deafStream = faults.deafStream
      if (faults.arcForgotten)
        arcForgotten = new Set(faults.arcForgotten.map((txid) => txid.toLowerCase()))
      if (faults.forgedProofs)
        forgedProofs = new Set(faults.forgedProofs.map((txid) => txid.toLowerCase()))
      if (faults.forgedHeaders) forgedHeaders = new Set(faults.forgedHeaders)
    },
    clear() {
      erroring = new Set()
      lost.clear()
      burst = { count: 0, retryAfterSeconds: 1 }
      deafStream = false
      arcForgotten = new Set()
      forgedProofs = new Set()
      forgedHeaders = new Set()
      unrelayed.clear()
    },
    isLost,
    hasHistoryError: (address: string) => erroring.has(address),
    /** The Retry-After (seconds) of the next 429 a burst owes, taking it; undefined when none. */
    takeBurst(): number | undefined {
      if (!(burst.count > 0)) return undefined
      burst.count -= 1
      return burst.retryAfterSeconds
    },
    deafStream: () => deafStream,
    /**
     * From now on, a spend of these outputs is not published on the push stream (a double-spend
     * with `relayed: false`): WhatsOnChain's node keeps the spend it saw first and relays no
     * competitor of it, which reaches miners and ARC all the same.
     */
    holdBackSpendsOf(outpoints: readonly string[]) {
      for (const outpoint of outpoints) unrelayed.add(outpoint)
    },
    /** Whether the push stream carries this transaction (no input held back). */
    relays: (inputs: readonly string[]) => !inputs.some((outpoint) => unrelayed.has(outpoint)),
    /** Whether the ARC stand-in has forgotten this transaction. */
    arcForgets: (txid: string) => arcForgotten.has(txid),
    /** A forgotten transaction submitted to the ARC stand-in again: it knows it again. */
    arcRemembers(txid: string) {
      arcForgotten.delete(txid)
    },
    /** Whether the TSC proof served for this transaction is forged. */
    forgesProof: (txid: string) => forgedProofs.has(txid),
    /** Whether the block and header answers for this height are forged. */
    forgesHeader: (height: number) => forgedHeaders.has(height),
    /** The faults on now, as POST /simulator/faults answers them. */
    current: () => ({
      historyErrorAddresses: [...erroring],
      lostTxids: [...lost.keys()].filter((txid) => isLost(txid)),
      burst429Left: burst.count,
      deafStream,
      arcForgotten: [...arcForgotten],
      forgedProofs: [...forgedProofs],
      forgedHeaders: [...forgedHeaders],
    }),
  }
}

/**
 * POST /simulator/faults switches faults on (after clearing every one with `clear: true`) and
 * answers those now on; DELETE /simulator/faults clears them.
 */
export function mountFaultRoutes(control: Router, ctx: SimulatorContext) {
  control.on('DELETE', '/simulator/faults', ({ res }) => {
    ctx.clearFaults()
    send(res, 200, {})
  })
  control.on('POST', '/simulator/faults', async ({ req, res }) => {
    const body = (await readJson(req)) as SimulatorFaults & { clear?: unknown }
    const problem = faultsProblem(body)
    if (problem) return send(res, 400, { error: problem })
    if (body.clear === true) ctx.clearFaults()
    ctx.faults.set(body)
    send(res, 200, ctx.faults.current())
  })
}

/** What is wrong with faults asked for over HTTP, if anything. */
function faultsProblem(body: SimulatorFaults & { clear?: unknown }): string | undefined {
  const { historyErrorAddresses, loseTxid, burst429, deafStream, arcForgotten } = body
  const { forgedProofs, forgedHeaders } = body
  if (
    historyErrorAddresses !== undefined &&
    (!Array.isArray(historyErrorAddresses) ||
      !historyErrorAddresses.every((a) => typeof a === 'string'))
  )
    return 'historyErrorAddresses must be a list of addresses'
  if (
    loseTxid !== undefined &&
    (typeof loseTxid?.txid !== 'string' ||
      !/^[0-9a-f]{64}$/i.test(loseTxid.txid) ||
      typeof loseTxid.seconds !== 'number' ||
      !(loseTxid.seconds > 0))
  )
    return 'loseTxid must be { txid, seconds }'
  if (
    burst429 !== undefined &&
    (!Number.isInteger(burst429?.count) ||
      burst429.count < 0 ||
      !Number.isInteger(burst429.retryAfterSeconds) ||
      burst429.retryAfterSeconds < 0)
  )
    return 'burst429 must be { count, retryAfterSeconds }'
  if (deafStream !== undefined && typeof deafStream !== 'boolean')
    return 'deafStream must be true or false'
  if (
    arcForgotten !== undefined &&
    (!Array.isArray(arcForgotten) ||
      !arcForgotten.every((t) => typeof t === 'string' && /^[0-9a-f]{64}$/i.test(t)))
  )
    return 'arcForgotten must be a list of txids'
  if (
    forgedProofs !== undefined &&
    (!Array.isArray(forgedProofs) ||
      !forgedProofs.every((t) => typeof t === 'string' && /^[0-9a-f]{64}$/i.test(t)))
  )
    return 'forgedProofs must be a list of txids'
  if (
    forgedHeaders !== undefined &&
    (!Array.isArray(forgedHeaders) ||
      !forgedHeaders.every((h) => Number.isSafeInteger(h) && h >= 0))
  )
    return 'forgedHeaders must be a list of block heights'
  return undefined
}

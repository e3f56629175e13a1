import { Transaction } from '@bsv/sdk'

import { readRawTransaction } from '../../raw-tx'
import type { ChainState } from '../chain-state'
import { ChainRejection } from '../chain-state'
import type { ArcLedger, ArcStatusAnswer } from './ledger'
import { ArcRefusal } from './problems'

/**
 * A raw transaction handed to the ARC stand-in (POST /v1/tx), checked as ARC's docs say it is:
 * - one the simulated chain already has is followed from now on: ANNOUNCED_TO_NETWORK when it
 *   is already in a block (its next status says MINED), else its status now (doc/README.md,
 *   "Multiple submissions to ARC and other transaction processors"); one submitted before
 *   answers its status now ("Multiple submissions to the same ARC instance");
 * - a new one goes to the chain, refused with doc/errors.md's codes: 463 not a transaction or
 *   under 61 bytes, 462 no inputs, 464 no outputs, 460 an input whose parent the chain lacks (a
 *   raw transaction ARC cannot extend), 465 a fee below the policy's, 461 a script that does not
 *   unlock, 409 anything else;
 * - one spending an output another transaction already spends is taken and followed as
 *   DOUBLE_SPEND_ATTEMPTED with that transaction in `competingTxs` (REJECTED once it is mined),
 *   as doc/README.md's "Double spending", scenario 1, answers.
 */

/** The stand-in's mining fee: doc/api.md's GET /v1/policy example (1 satoshi per 1,000 bytes). */
export const ARC_MINING_FEE = { satoshis: 1, bytes: 1000 }

const MIN_TX_BYTES = 61

/** POST /v1/tx's answer (doc/arc.json, TransactionResponse): the status with `status` and `title`. */
export type ArcSubmitAnswer = ArcStatusAnswer & { status: 200; title: 'OK' }

const accepted = (answer: ArcStatusAnswer): ArcSubmitAnswer => ({
  ...answer,
  status: 200,
  title: 'OK',
})

export function submitToArc({
  state,
  ledger,
  rawTx,
}: {
  state: ChainState
  ledger: ArcLedger
  rawTx: string
}): ArcSubmitAnswer {
  const tx = readRawTransaction(rawTx)
  if (!tx) throw new ArcRefusal(463, 'transaction could not be parsed')
  const txid = tx.id('hex')
  if (ledger.knows(txid)) return accepted(ledger.answer(txid)!)
  const onChain = state.status(txid)
  if (onChain) {
    const answer = ledger.answer(ledger.follow(tx).txid)!
    return accepted(
      onChain.height === null
        ? answer
        : {
            ...answer,
            txStatus: 'ANNOUNCED_TO_NETWORK',
            blockHash: '',
            blockHeight: 0,
            merklePath: '',
          },
    )
  }
  checkNew(state, tx, rawTx.length / 2)
  try {
    state.submit(rawTx)
  } catch (error) {
    if (!(error instanceof ChainRejection)) throw error
    if (error.message === 'txn-mempool-conflict')
      return accepted(ledger.answer(ledger.follow(tx, competitorsOf(state, tx)).txid)!)
    if (error.message.startsWith('mandatory-script-verify-flag-failed'))
      throw new ArcRefusal(461, `script validation failed: ${error.message}`, txid)
    if (error.message === 'Missing inputs')
      throw new ArcRefusal(460, 'parent transaction not found', txid)
    throw new ArcRefusal(409, error.message, txid)
  }
  return accepted(ledger.answer(ledger.follow(tx).txid)!)
}

/** What ARC refuses before the chain sees the transaction (sizes, inputs, outputs, fee). */
function checkNew(state: ChainState, tx: Transaction, bytes: number) {
  const txid = tx.id('hex')
  if (bytes < MIN_TX_BYTES)
    throw new ArcRefusal(463, `transaction is ${bytes} bytes, ${MIN_TX_BYTES} at least`, txid)
  if (tx.inputs.length === 0) throw new ArcRefusal(462, 'transaction has no inputs', txid)
  if (tx.outputs.length === 0) throw new ArcRefusal(464, 'transaction has no outputs', txid)
  let inputTotal = 0
  tx.inputs.forEach((input, index) => {
    const parent = input.sourceTXID ? state.getHex(input.sourceTXID) : undefined
    const spent = parent
      ? Transaction.fromHex(parent).outputs[input.sourceOutputIndex]?.satoshis
      : undefined
    if (spent === undefined)
      throw new ArcRefusal(460, `input ${index}: parent transaction not found`, txid)
    inputTotal += spent
  })
  const fee = inputTotal - tx.outputs.reduce((sum, o) => sum + (o.satoshis ?? 0), 0)
  const due = Math.ceil((bytes * ARC_MINING_FEE.satoshis) / ARC_MINING_FEE.bytes)
  if (fee < due)
    throw new ArcRefusal(465, `transaction pays ${fee} satoshis, the policy asks ${due}`, txid)
}

/** The transactions spending the same outputs as `tx`, as the chain knows them now. */
function competitorsOf(state: ChainState, tx: Transaction): string[] {
  const txid = tx.id('hex')
  const spenders = new Set<string>()
  for (const input of tx.inputs) {
    const spender = state.spender(input.sourceTXID!, input.sourceOutputIndex)
    if (spender && spender !== txid) spenders.add(spender)
  }
  return [...spenders]
}

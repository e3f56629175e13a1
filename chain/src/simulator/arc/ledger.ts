import type { Transaction } from '@bsv/sdk'

import type { ChainState } from '../chain-state'

/** The txid of a coinbase input's outpoint. */
const NULL_TXID = '00'.repeat(32)

/**
 * The transactions the ARC stand-in follows (only those submitted to it, as a real instance
 * knows only its own), and what it says of each, as doc/README.md's lifecycle and scenarios
 * describe:
 * - SEEN_ON_NETWORK while in the simulated chain's mempool.
 * - DOUBLE_SPEND_ATTEMPTED, with `competingTxs`, once another transaction spends one of its
 *   inputs (heard through the chain's events, and read from its spend index). The simulator's
 *   double-spend takes the original off the chain: the record here still answers for it.
 * - REJECTED with "double spend attempted" once a competitor is in a block.
 * - MINED with its block's hash, height and merkle path (BUMP) once in a block; "previously
 *   double spend attempted" when it had competitors.
 * - MINED_IN_STALE_BLOCK, keeping the stale block's data, once a reorg takes its block away
 *   (the chain tells no event of it: each answer looks again), until it is mined again.
 * `timestamp` is when the word last changed. Each change after the first word is told to the
 * listener (`onChange`: the Callbacker's).
 */

export type ArcTxStatus =
  | 'ANNOUNCED_TO_NETWORK'
  | 'SEEN_ON_NETWORK'
  | 'DOUBLE_SPEND_ATTEMPTED'
  | 'REJECTED'
  | 'MINED'
  | 'MINED_IN_STALE_BLOCK'

/** A transaction's status as GET /v1/tx/{txid} answers it (doc/arc.json, TransactionStatus). */
export type ArcStatusAnswer = {
  blockHash: string
  blockHeight: number
  extraInfo: string
  timestamp: string
  txStatus: ArcTxStatus
  txid: string
  merklePath: string
  competingTxs?: string[]
}

type Followed = {
  txid: string
  /** The outputs it spends, `txid:vout`. */
  inputs: string[]
  competing: Set<string>
  /** The block it was last seen in, with its merkle path. */
  mined?: { blockHash: string; blockHeight: number; merklePath: string }
  status: ArcTxStatus
  changedAt: string
}

export type ArcLedger = ReturnType<typeof createArcLedger>

export function createArcLedger(
  state: ChainState,
  onChange: (answer: ArcStatusAnswer) => void = () => {},
) {
  const followed = new Map<string, Followed>()
  /** Who follows each output's spending: the followed transactions spending it. */
  const byInput = new Map<string, Set<string>>()

  /** Where the chain has the transaction now, and what ARC would say of it. */
  const statusOf = (f: Followed): ArcTxStatus => {
    const where = state.status(f.txid)
    if (where && where.height !== null) {
      const proof = state.merkleProof(f.txid)
      f.mined = proof ?? {
        blockHash: state.blockHash(where.height),
        blockHeight: where.height,
        merklePath: '',
      }
      return 'MINED'
    }
    for (const outpoint of f.inputs) {
      const [txid, vout] = outpoint.split(':')
      const spender = state.spender(txid!, Number(vout))
      if (spender && spender !== f.txid) f.competing.add(spender)
    }
    const staleBlock =
      f.mined !== undefined &&
      (f.mined.blockHeight > state.height ||
        state.blockHash(f.mined.blockHeight) !== f.mined.blockHash)
    if (where) {
      if (staleBlock) return 'MINED_IN_STALE_BLOCK'
      return f.competing.size > 0 ? 'DOUBLE_SPEND_ATTEMPTED' : 'SEEN_ON_NETWORK'
    }
    const competitorMined = [...f.competing].some((c) => (state.status(c)?.height ?? null) !== null)
    if (competitorMined || f.competing.size === 0) return 'REJECTED'
    return 'DOUBLE_SPEND_ATTEMPTED'
  }

  const refresh = (f: Followed) => {
    const status = statusOf(f)
    if (status !== f.status) {
      f.status = status
      f.changedAt = new Date().toISOString()
      onChange(answerOf(f))
    }
    return f
  }

  // A new transaction changes the word only on those it competes with; a block, on any.
  const unsubscribe = state.subscribe((event) => {
    if (event.kind === 'block') {
      for (const f of followed.values()) refresh(f)
      return
    }
    for (const input of event.tx.inputs) {
      if (input.sourceTXID === NULL_TXID) continue
      const outpoint = `${input.sourceTXID}:${input.sourceOutputIndex}`
      for (const txid of byInput.get(outpoint) ?? []) {
        if (txid === event.txid) continue
        const f = followed.get(txid)!
        f.competing.add(event.txid)
        refresh(f)
      }
    }
  })

  return {
    knows: (txid: string) => followed.has(txid),
    /** Follows a transaction from now on (once); `competing` are spends of its inputs known now. */
    follow(tx: Transaction, competing: readonly string[] = []) {
      const txid = tx.id('hex')
      const known = followed.get(txid)
      if (known) return refresh(known)
      // A coinbase-style input (the null outpoint, as the simulator's faucet mints) is spent by
      // every such transaction and competes with none.
      const inputs = tx.inputs
        .filter((i) => i.sourceTXID !== NULL_TXID)
        .map((i) => `${i.sourceTXID}:${i.sourceOutputIndex}`)
      const f: Followed = {
        txid,
        inputs,
        competing: new Set(competing),
        status: 'SEEN_ON_NETWORK',
        changedAt: new Date().toISOString(),
      }
      for (const outpoint of inputs) {
        if (!byInput.has(outpoint)) byInput.set(outpoint, new Set())
        byInput.get(outpoint)!.add(txid)
      }
      followed.set(txid, f)
      f.status = statusOf(f)
      return f
    },
    /** What GET /v1/tx/{txid} answers now, or undefined for a transaction never submitted. */
    answer(txid: string): ArcStatusAnswer | undefined {
      const f = followed.get(txid)
      return f ? answerOf(refresh(f)) : undefined
    },
    close: unsubscribe,
  }
}

/** Why ARC says what it says, as doc/README.md's "Double spending" words it. */
function extraInfoOf(f: Followed): string {
  if (f.status === 'REJECTED')
    return f.competing.size > 0
      ? 'double spend attempted'
      : 'discarded from mempool: missing inputs'
  if (f.status === 'MINED' && f.competing.size > 0) return 'previously double spend attempted'
  return ''
}

function answerOf(f: Followed): ArcStatusAnswer {
  const inBlock = f.status === 'MINED' || f.status === 'MINED_IN_STALE_BLOCK'
  return {
    blockHash: inBlock ? f.mined!.blockHash : '',
    blockHeight: inBlock ? f.mined!.blockHeight : 0,
    extraInfo: extraInfoOf(f),
    timestamp: f.changedAt,
    txStatus: f.status,
    txid: f.txid,
    merklePath: inBlock ? f.mined!.merklePath : '',
    ...(f.competing.size > 0 ? { competingTxs: [...f.competing] } : {}),
  }
}

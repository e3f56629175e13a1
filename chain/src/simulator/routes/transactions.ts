import { MerklePath, Transaction } from '@bsv/sdk'

import { addressOfScript, ChainRejection } from '../chain-state'
import type { SimulatorContext } from '../context'
import type { Router } from '../http'
import { readJson, send } from '../http'

/**
 * Transactions as WhatsOnChain's indexes see them (a lost transaction is in none of them):
 * /tx/hash/{txid}, /tx/{txid}/hex, /tx/{txid}/{vout}/spent, /utxos/spent, the TSC merkle proof
 * /tx/{txid}/proof/tsc, and broadcasting through /tx/raw. The answers' shapes are in server.ts.
 */

export function mountTransactionRoutes(api: Router, ctx: SimulatorContext) {
  const { state, faults } = ctx
  api.on('GET', /^\/tx\/hash\/([0-9a-f]{64})$/i, ({ res, params }) => {
    const txid = params[0]!.toLowerCase()
    const found = state.status(txid)
    const hex = state.getHex(txid)
    if (!found || !hex || faults.isLost(txid)) return send(res, 404, 'Not found', 'text')
    send(res, 200, describeTransaction(ctx, txid, hex, found.height))
  })
  api.on('GET', /^\/tx\/([0-9a-f]{64})\/proof\/tsc$/i, ({ res, params }) => {
    const txid = params[0]!.toLowerCase()
    const found = state.status(txid)
    if (!found || faults.isLost(txid)) return send(res, 404, 'Not found', 'text')
    // In the mempool: known, with no proof yet (the empty answer wallet-toolbox reads as such).
    if (found.height === null) return send(res, 200, null)
    const proof = tscProof(ctx, txid)
    if (!proof) return send(res, 404, 'Not found', 'text')
    send(res, 200, [proof])
  })
  api.on('GET', /^\/tx\/([0-9a-f]{64})\/hex$/i, ({ res, params }) => {
    const txid = params[0]!.toLowerCase()
    const found = state.getHex(txid)
    if (found && !faults.isLost(txid)) send(res, 200, found, 'text')
    else send(res, 404, 'Not found', 'text')
  })
  api.on('GET', /^\/tx\/([0-9a-f]{64})\/(\d+)\/spent$/i, ({ res, params }) => {
    const info = spentInfo(ctx, params[0]!.toLowerCase(), Number(params[1]))
    if (info === undefined) return send(res, 400, 'Unknown UTXO', 'text')
    if (info === null) return send(res, 404, 'Not found', 'text')
    send(res, 200, info)
  })
  api.on('POST', '/utxos/spent', async ({ req, res }) => {
    const body = (await readJson(req)) as { utxos?: unknown }
    const utxos = Array.isArray(body.utxos) ? body.utxos : []
    if (utxos.length === 0 || utxos.length > 20)
      return send(res, 400, 'between 1 and 20 utxos', 'text')
    send(
      res,
      200,
      utxos.map((utxo) => spentEntry(ctx, utxo)),
    )
  })
  api.on('POST', '/tx/raw', async ({ req, res }) => {
    const body = (await readJson(req)) as { txhex?: unknown }
    if (typeof body.txhex !== 'string') return send(res, 400, 'txhex is required', 'text')
    try {
      send(res, 200, state.submit(body.txhex))
    } catch (error) {
      if (error instanceof ChainRejection) return send(res, 400, error.message, 'text')
      throw error
    }
  })
}

/** A transaction's inputs as /tx/hash/{txid} lists them (a coinbase input as such). */
const describeInputs = (tx: Transaction) =>
  tx.inputs.map((input) =>
    input.sourceTXID === '00'.repeat(32) && input.sourceOutputIndex === 0xffffffff
      ? {
          coinbase: input.unlockingScript?.toHex() ?? '',
          txid: '',
          vout: 0,
          scriptSig: { asm: '', hex: '' },
          sequence: input.sequence ?? 0xffffffff,
        }
      : {
          txid: input.sourceTXID ?? '',
          vout: input.sourceOutputIndex,
          scriptSig: {
            asm: input.unlockingScript?.toASM() ?? '',
            hex: input.unlockingScript?.toHex() ?? '',
          },
          sequence: input.sequence ?? 0xffffffff,
        },
  )

/** A transaction's outputs as /tx/hash/{txid} lists them, with the address each pays. */
const describeOutputs = (tx: Transaction, network: 'main' | 'test') =>
  tx.outputs.map((output, n) => {
    const address = addressOfScript(output.lockingScript, network)
    return {
      value: (output.satoshis ?? 0) / 1e8,
      n,
      scriptPubKey: {
        asm: output.lockingScript.toASM(),
        hex: output.lockingScript.toHex(),
        ...(address
          ? { reqSigs: 1, type: 'pubkeyhash', addresses: [address] }
          : { type: 'nonstandard', addresses: [] }),
        isTruncated: false,
      },
    }
  })

/**
 * A transaction's TSC merkle proof (BRC-10), as /tx/{txid}/proof/tsc gives it: its index in the
 * block, the block's hash as `target`, and one sibling a level from the bottom up, `*` where a
 * level was odd and the node is paired with itself. A txid in the `forgedProofs` fault gets a
 * proof with one node changed.
 */
function tscProof({ state, faults }: SimulatorContext, txid: string) {
  const proof = state.merkleProof(txid)
  if (!proof) return undefined
  const { path } = MerklePath.fromHex(proof.merklePath)
  const index = path[0]!.find((leaf) => leaf.hash === txid)!.offset
  const nodes =
    path.length === 1 && path[0]!.length === 1
      ? []
      : path.map((level, height) => {
          const sibling = level.find((leaf) => leaf.offset === ((index >> height) ^ 1))!
          return sibling.duplicate ? '*' : sibling.hash!
        })
  if (faults.forgesProof(txid)) {
    const first = nodes[0]
    const changed = '5a'.repeat(32)
    if (first === undefined) nodes.push(changed)
    else nodes[0] = first === '*' || first === changed ? '6b'.repeat(32) : changed
  }
  return { index, txOrId: txid, target: proof.blockHash, nodes }
}

/** A transaction as /tx/hash/{txid} describes it (no block fields while `height` is null). */
export function describeTransaction(
  { network, state }: Pick<SimulatorContext, 'network' | 'state'>,
  txid: string,
  hex: string,
  height: number | null,
) {
  const tx = Transaction.fromHex(hex)
  const time = height !== null ? (state.blockTime(height) ?? 0) : undefined
  return {
    txid,
    hash: txid,
    version: tx.version,
    size: hex.length / 2,
    locktime: tx.lockTime,
    vin: describeInputs(tx),
    vout: describeOutputs(tx, network),
    ...(height !== null
      ? {
          blockhash: state.blockHash(height),
          confirmations: state.height - height + 1,
          time,
          blocktime: time,
          blockheight: height,
        }
      : {}),
  }
}

/**
 * Where an output was spent, as WhatsOnChain's spent endpoints say it: null while unspent,
 * undefined when no index knows the output.
 */
function spentInfo({ state, faults }: SimulatorContext, txid: string, vout: number) {
  if (faults.isLost(txid)) return undefined
  const spender = state.spender(txid, vout)
  if (spender === undefined) return undefined
  // An index that lost the spending transaction says the output is unspent.
  if (spender === null || faults.isLost(spender)) return null
  const hex = state.getHex(spender)
  const vin = hex
    ? Transaction.fromHex(hex).inputs.findIndex(
        (i) => i.sourceTXID === txid && i.sourceOutputIndex === vout,
      )
    : 0
  const where = state.status(spender)
  return {
    txid: spender,
    vin,
    status: where?.height != null ? 'confirmed' : 'unconfirmed',
  }
}

/** One output's entry in a /utxos/spent answer. */
function spentEntry(ctx: SimulatorContext, asked: unknown) {
  const { txid, vout } = (asked ?? {}) as { txid?: unknown; vout?: unknown }
  const utxo = { txid, vout }
  if (typeof txid !== 'string' || !/^[0-9a-f]{64}$/i.test(txid) || !Number.isInteger(vout))
    return { utxo, error: 'invalid utxo' }
  const info = spentInfo(ctx, txid.toLowerCase(), vout as number)
  if (info === undefined) return { utxo, error: 'unknown utxo' }
  return info === null ? { utxo, error: '' } : { utxo, spentIn: info, error: '' }
}

import { Transaction } from '@bsv/sdk'

import { targetOfBits } from '../../proof'
import type { BlockHeader } from '../../types'
import type { ChainState } from '../chain-state'
import { addressOfScript } from '../chain-state'
import type { SimulatorContext } from '../context'
import type { Router } from '../http'
import { send } from '../http'
import { describeTransaction } from './transactions'

/**
 * The chain's tip and its blocks, in WhatsOnChain's shapes (docs.taal.com → WhatsOnChain →
 * Block; fixtures/woc-docs): /chain/info, /block/height/{h}, /block/hash/{hash} and
 * /block/{hash or height}/header, and the block header frame of the push stream. A height in
 * the `forgedHeaders` fault is answered with another merkle root and the hash as it was, so the
 * header no longer hashes to its hash.
 */

/** What a block answer is made of: the chain and its network. */
type ChainView = Pick<SimulatorContext, 'state' | 'network'>

/** Transactions a block answer lists in full (WhatsOnChain: up to 1,000, else the first 100). */
const LISTED_TXIDS = 1000

/** Difficulty 1's target (bits 0x1d00ffff), what difficulty is counted against. */
const DIFFICULTY_1 = 0xffffn << 208n

/** How many times harder than difficulty 1 a target is (a float, as nodes print it). */
function difficultyOf(bits: number): number {
  const target = targetOfBits(bits)
  return target === null ? 0 : Number(DIFFICULTY_1) / Number(target)
}

/** The expected hashes to find a block of these bits: 2^256 / (target + 1). */
function workOf(bits: number): bigint {
  const target = targetOfBits(bits)
  return target === null ? 0n : (1n << 256n) / (target + 1n)
}

/** A varint's size in bytes (the transaction count in a serialized block). */
const varintSize = (n: number) => (n < 0xfd ? 1 : n <= 0xffff ? 3 : n <= 0xffffffff ? 5 : 9)

/** The median of the last 11 blocks' times, as nodes give `mediantime`. */
function medianTime(state: ChainState, height: number): number {
  const times: number[] = []
  for (let h = height; h > height - 11; h -= 1) {
    const time = state.blockTime(h)
    if (time !== undefined) times.push(time)
  }
  times.sort((a, b) => a - b)
  return times[Math.floor(times.length / 2)] ?? 0
}

/** A header as a source that lies gives it: `forgedHeaders` heights get another merkle root. */
function headerAsServed({ state, faults }: SimulatorContext, height: number) {
  const header = state.header(height)
  if (!header || !faults.forgesHeader(height)) return header
  const first = header.merkleRoot[0] === '0' ? '1' : '0'
  return { ...header, merkleRoot: `${first}${header.merkleRoot.slice(1)}` }
}

/** The fields every block answer shares (WhatsOnChain's names and forms: bits as hex). */
function commonFields(ctx: ChainView, header: BlockHeader) {
  const { state } = ctx
  const block = state.block(header.height)!
  const hexes = block.txids.map((txid) => state.getHex(txid) ?? '')
  return {
    hash: header.hash,
    confirmations: state.height - header.height + 1,
    size: 80 + varintSize(hexes.length) + hexes.reduce((sum, hex) => sum + hex.length / 2, 0),
    height: header.height,
    version: header.version,
    versionHex: (header.version >>> 0).toString(16).padStart(8, '0'),
    merkleroot: header.merkleRoot,
    txcount: block.txids.length,
    time: header.time,
    mediantime: medianTime(state, header.height),
    nonce: header.nonce,
    bits: (header.bits >>> 0).toString(16).padStart(8, '0'),
    difficulty: difficultyOf(header.bits),
    // Every simulated block carries regtest's bits, each one counted from a genesis at 0.
    chainwork: (workOf(header.bits) * BigInt(header.height + 1)).toString(16).padStart(64, '0'),
    previousblockhash: header.previousHash,
    nextblockhash: state.header(header.height + 1)?.hash ?? '',
  }
}

/** A block as /block/hash/{hash} and /block/height/{h} answer it. */
export function blockDocument(ctx: SimulatorContext, height: number) {
  const header = headerAsServed(ctx, height)
  if (!header) return undefined
  const { txcount, ...fields } = commonFields(ctx, header)
  const { txids } = ctx.state.block(height)!
  const coinbase = txids[0]!
  return {
    ...fields,
    txcount,
    nTx: 0,
    num_tx: txcount,
    tx: txids.length <= LISTED_TXIDS ? txids : txids.slice(0, 100),
    coinbaseTx: describeTransaction(ctx, coinbase, ctx.state.getHex(coinbase)!, null),
  }
}

/** A block's header as /block/{hash}/header answers it. */
export function headerDocument(ctx: SimulatorContext, height: number) {
  const header = headerAsServed(ctx, height)
  if (!header) return undefined
  const { txcount, ...fields } = commonFields(ctx, header)
  return { ...fields, nTx: 0, num_tx: txcount }
}

/** A block as the push stream's `woc:blockHeader` frame carries it (WoC Sockets V2's example). */
export function blockHeaderFrameData(ctx: ChainView, header: BlockHeader) {
  const hex = ctx.state.getHex(ctx.state.block(header.height)!.txids[0]!)!
  const tx = Transaction.fromHex(hex)
  const txid = tx.id('hex')
  return {
    ...commonFields(ctx, header),
    coinbaseTx: {
      hex,
      txid,
      hash: txid,
      size: hex.length / 2,
      version: tx.version,
      locktime: tx.lockTime,
      vin: tx.inputs.map((input, n) => ({
        n,
        coinbase: input.unlockingScript?.toHex() ?? '',
        sequence: input.sequence ?? 0xffffffff,
      })),
      vout: tx.outputs.map((output, n) => {
        const address = addressOfScript(output.lockingScript, ctx.network)
        return {
          value: (output.satoshis ?? 0) / 1e8,
          n,
          scriptPubKey: {
            asm: output.lockingScript.toASM(),
            hex: output.lockingScript.toHex(),
            reqSigs: 1,
            type: address ? 'pubkeyhash' : 'nonstandard',
            addresses: address ? [address] : [],
            isTruncated: false,
          },
        }
      }),
    },
  }
}

/**
 * A block from before the simulator kept headers (an older state file): what is known of it,
 * its time and a made-up hash.
 */
function oldBlock({ state }: SimulatorContext, height: number) {
  const time = state.blockTime(height)
  if (height > state.height || time === undefined) return undefined
  return {
    hash: state.blockHash(height),
    height,
    time,
    confirmations: state.height - height + 1,
  }
}

export function mountBlockRoutes(api: Router, ctx: SimulatorContext) {
  const { network, state } = ctx
  const notFound = (res: Parameters<typeof send>[0]) => send(res, 404, 'Not found', 'text')
  api.on('GET', '/chain/info', ({ res }) =>
    send(res, 200, {
      chain: network,
      blocks: state.height,
      headers: state.height,
      bestblockhash: state.blockHash(state.height),
      difficulty: difficultyOf(state.header(state.height)?.bits ?? 0x207fffff),
      mediantime: state.blockTime(state.height)
        ? medianTime(state, state.height)
        : Math.floor(Date.now() / 1000),
      verificationprogress: 1,
      pruned: false,
      chainwork: (workOf(0x207fffff) * BigInt(state.height + 1)).toString(16).padStart(64, '0'),
    }),
  )
  api.on('GET', /^\/block\/height\/(\d+)$/, ({ res, params }) => {
    const height = Number(params[0])
    const found = blockDocument(ctx, height) ?? oldBlock(ctx, height)
    if (!found) return notFound(res)
    send(res, 200, found)
  })
  api.on('GET', /^\/block\/hash\/([0-9a-f]{64})$/i, ({ res, params }) => {
    const height = state.heightOf(params[0]!)
    const found = height === undefined ? undefined : blockDocument(ctx, height)
    if (!found) return notFound(res)
    send(res, 200, found)
  })
  // WhatsOnChain's header path takes a hash (the docs) or a height (as @bsv/sdk's WhatsOnChain
  // chain tracker asks it).
  api.on('GET', /^\/block\/([0-9a-f]{64}|\d+)\/header$/i, ({ res, params }) => {
    const at = params[0]!
    const height = at.length === 64 ? state.heightOf(at) : Number(at)
    const found = height === undefined ? undefined : headerDocument(ctx, height)
    if (!found) return notFound(res)
    send(res, 200, found)
  })
}

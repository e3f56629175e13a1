import { Hash, MerklePath } from '@bsv/sdk'
import type { ChainTracker } from '@bsv/sdk'

import { displayHex, internalBytes } from './merkle'
import type { BlockHeader } from './types'

/**
 * The shop's own check of a payment's proof, by its own arithmetic: a block header counts only
 * when its 80 bytes hash to the hash it names and that hash meets the proof-of-work target of
 * its bits; a merkle path counts only when it leads from the txid to that header's merkle root,
 * at that header's height, and some source named that very block for the transaction. No
 * source's word that a transaction is confirmed is taken without it. Pure: no I/O.
 */

const HASH = /^[0-9a-f]{64}$/i
const UINT32_MAX = 0xffffffff

/**
 * The 80 bytes a block's hash is the double SHA-256 of: version, previous hash, merkle root,
 * time, bits, nonce (numbers little-endian, hashes in internal order).
 */
export function serializeHeader(header: BlockHeader): number[] {
  const uint32 = (value: number) => {
    const v = value >>> 0
    return [v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, (v >>> 24) & 0xff]
  }
  return [
    ...uint32(header.version),
    ...internalBytes(header.previousHash),
    ...internalBytes(header.merkleRoot),
    ...uint32(header.time),
    ...uint32(header.bits),
    ...uint32(header.nonce),
  ]
}

/** The block's hash from its header's fields: double SHA-256 of the 80 bytes, display order. */
export const blockHashOf = (header: BlockHeader): string =>
  displayHex(Hash.hash256(serializeHeader(header)))

/**
 * The target a compact `bits` value stands for (a block's hash, read as a number, must not
 * exceed it), or null when the bits name no target (negative, zero or beyond 256 bits).
 */
export function targetOfBits(bits: number): bigint | null {
  if (!Number.isInteger(bits) || bits < 0 || bits > UINT32_MAX) return null
  const exponent = bits >>> 24
  const mantissa = BigInt(bits & 0x007fffff)
  if ((bits & 0x00800000) !== 0 || mantissa === 0n) return null
  const target =
    exponent <= 3 ? mantissa >> BigInt(8 * (3 - exponent)) : mantissa << BigInt(8 * (exponent - 3))
  return target > 0n && target < 1n << 256n ? target : null
}

/** Whether a display-order block hash meets the target of `bits`. */
export function meetsTarget(hash: string, bits: number): boolean {
  const target = targetOfBits(bits)
  return target !== null && HASH.test(hash) && BigInt(`0x${hash}`) <= target
}

const bitsHex = (bits: number) => (bits >>> 0).toString(16).padStart(8, '0')

/**
 * What is wrong with a header, worded to follow "The header … for block <height>": a field out
 * of range, a hash its fields do not hash to, or a hash that misses its target; null when none.
 */
function headerFault(header: BlockHeader): string | null {
  const uint32 = (v: unknown) =>
    Number.isInteger(v) && (v as number) >= 0 && (v as number) <= UINT32_MAX
  const fields: [string, unknown, boolean][] = [
    ['height', header.height, Number.isSafeInteger(header.height) && header.height >= 0],
    ['hash', header.hash, typeof header.hash === 'string' && HASH.test(header.hash)],
    [
      'previous block hash',
      header.previousHash,
      typeof header.previousHash === 'string' && HASH.test(header.previousHash),
    ],
    [
      'merkle root',
      header.merkleRoot,
      typeof header.merkleRoot === 'string' && HASH.test(header.merkleRoot),
    ],
    // A version is a 32-bit field, printed signed by some nodes.
    [
      'version',
      header.version,
      Number.isInteger(header.version) &&
        header.version >= -0x80000000 &&
        header.version <= UINT32_MAX,
    ],
    ['time', header.time, uint32(header.time)],
    ['bits', header.bits, uint32(header.bits) && targetOfBits(header.bits) !== null],
    ['nonce', header.nonce, uint32(header.nonce)],
  ]
  for (const [name, value, ok] of fields)
    if (!ok) return `has an unreadable ${name} (${JSON.stringify(value) ?? String(value)})`
  const recomputed = blockHashOf(header)
  if (recomputed !== header.hash.toLowerCase())
    return `does not hash to ${header.hash}: its fields hash to ${recomputed}, so it was changed or is another block's header`
  if (!meetsTarget(recomputed, header.bits))
    return `(${recomputed}) does not meet the proof-of-work target of its bits ${bitsHex(header.bits)}: no miner did the work it claims`
  return null
}

/**
 * Why a header cannot be trusted (a field out of range, a hash its fields do not hash to, a
 * hash that misses the target of its bits), as a sentence; null when it holds.
 */
export function headerProblem(header: BlockHeader): string | null {
  const fault = headerFault(header)
  return fault === null ? null : `The header of block ${String(header?.height)} ${fault}.`
}

/**
 * A source's word on which block holds a transaction (ARC's blockHash, WhatsOnChain's TSC
 * target).
 */
export type NamedBlock = { source: string; blockHash: string }

export type ProofCheck =
  | {
      ok: true
      blockHeight: number
      blockHash: string
      merkleRoot: string
      /** The sources that named this block for the transaction. */
      sources: string[]
    }
  | { ok: false; problem: string }

/**
 * Whether a merkle path proves the transaction is in the block of `header`, by the shop's own
 * arithmetic: the path parses and holds the txid, is for the header's height, the header holds
 * (headerProblem), `MerklePath.verify` with a chain tracker that knows only this checked header
 * says yes, and at least one source named this block (by the recomputed hash) for the
 * transaction. Each refusal says why in a sentence the owner can read.
 */
export async function verifyMerkleProof({
  txid,
  merklePath,
  header,
  blockHashNamedBy,
  headerSource = 'the chain source',
}: {
  txid: string
  /** BRC-74 BUMP hex. */
  merklePath: string
  /** The header one source gave for the block the path claims. */
  header: BlockHeader
  /** Which sources named which block for this transaction. */
  blockHashNamedBy: readonly NamedBlock[]
  /** Who gave the header, for the sentences (e.g. 'WhatsOnChain'). */
  headerSource?: string
}): Promise<ProofCheck> {
  const refuse = (problem: string): ProofCheck => ({ ok: false, problem })
  if (typeof txid !== 'string' || !HASH.test(txid))
    return refuse(
      `${JSON.stringify(txid)} is not a transaction id, so no merkle path can prove it.`,
    )
  const id = txid.toLowerCase()
  let path: MerklePath
  try {
    path = MerklePath.fromHex(merklePath)
  } catch (error) {
    return refuse(`The merkle path for ${id} cannot be read (${(error as Error).message}).`)
  }
  if (!path.path[0]?.some((leaf) => leaf.hash === id))
    return refuse(
      `The merkle path for ${id} does not contain that transaction: it proves another one.`,
    )
  if (path.blockHeight !== header?.height)
    return refuse(
      `The merkle path for ${id} is for block ${path.blockHeight}, but the header ${headerSource} gave is for block ${String(header?.height)}.`,
    )
  const fault = headerFault(header)
  if (fault !== null)
    return refuse(`The header ${headerSource} gave for block ${header.height} ${fault}.`)
  const blockHash = header.hash.toLowerCase()
  const merkleRoot = header.merkleRoot.toLowerCase()
  // A tracker that knows one block: the header checked above, and nothing else.
  const tracker: ChainTracker = {
    isValidRootForHeight: async (root, height) => height === header.height && root === merkleRoot,
    currentHeight: async () => header.height,
  }
  let leads: boolean
  try {
    leads = await path.verify(id, tracker)
  } catch {
    leads = false
  }
  if (!leads)
    return refuse(
      `The merkle path for ${id} does not lead to the merkle root of block ${header.height} (${blockHash}): the proof is forged or wrong.`,
    )
  const sources = blockHashNamedBy
    .filter(
      (named) =>
        typeof named?.blockHash === 'string' && named.blockHash.toLowerCase() === blockHash,
    )
    .map((named) => named.source)
  if (sources.length === 0) {
    const named = blockHashNamedBy.map((n) => `${n.source} named ${String(n.blockHash)}`).join('; ')
    return refuse(
      `No source named the block ${blockHash} (height ${header.height}) for ${id}${named ? ` (${named})` : ''}: the proof is not tied to the block a source reported.`,
    )
  }
  return {
    ok: true,
    blockHeight: header.height,
    blockHash,
    merkleRoot,
    sources: [...new Set(sources)],
  }
}

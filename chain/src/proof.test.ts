import { MerklePath, PrivateKey } from '@bsv/sdk'
import { describe, expect, it } from 'vitest'

import { merkleLevels, merklePathOf, merkleRootOf } from './merkle'
import { blockHashOf, headerProblem, targetOfBits, verifyMerkleProof } from './proof'
import { createChainState } from './simulator/chain-state'
import type { BlockHeader } from './types'

/**
 * The shop's own check of a proof, against real mainnet blocks: the genesis block, and block
 * 575045 of WhatsOnChain's "Get by Hash" example (fixtures/woc-docs/block-hash.json), whose five
 * listed txids give its merkle root.
 */

const GENESIS: BlockHeader = {
  height: 0,
  hash: '000000000019d6689c085ae165831e934ff763ae46a2a6c172b3f1b60a8ce26f',
  version: 1,
  previousHash: '00'.repeat(32),
  merkleRoot: '4a5e1e4baab89f3a32518a88c31bc87f618f76673e2cc77ab2127b7afdeda33b',
  time: 1231006505,
  bits: 0x1d00ffff,
  nonce: 2083236893,
}

const BLOCK_575045: BlockHeader = {
  height: 575045,
  hash: '000000000000000004a288072ebb35e37233f419918f9783d499979cb6ac33eb',
  version: 536928256,
  previousHash: '00000000000000000988156c7075dc9147a5b62922f1310862e8b9000d46dd9b',
  merkleRoot: '4ebcba09addd720991d03473f39dce4b9a72cc164e505cd446687a54df9b1585',
  time: 1553416668,
  bits: 0x180997ee,
  nonce: 87914848,
}

const TXIDS_575045 = [
  'bb146889d71357667c58a37258f40b0521a6ba7a259fbfa721b747d55567551a',
  'c7e8317b48e72644e2b83c87c54f61bcda82326392f969a097fb801aed69b500',
  'fd39debc631cf1a97702052fa60303d53062d6f2c1b624ab1f5fc0d20233736f',
  '65cb37947ccb7c5b7cc4ac36a200613bfc39a7f7c6c0314a23dbcc5b3908b5b8',
  '0f9d562702259822778193ff46f0c6d5e4aa744a433982770d3134e2bf454d10',
]

/** Block 892466, of WoC Sockets V2's header frame example (woc-docs/push-block-header.json). */
const BLOCK_892466: BlockHeader = {
  height: 892466,
  hash: '000000000000000007405fd882e9d4bf3d7b2388010081fe443ee1e323d8a668',
  version: 939524096,
  previousHash: '0000000000000000090fa4de4c971b0b3609acc1061b2020d22dc8d8bf72746a',
  merkleRoot: 'b0ac43a40a42775d8f533a8eda00bed3257e12a5fca3c8cade47188e6b7aa382',
  time: 1744648860,
  bits: 0x181246e3,
  nonce: 2893086732,
}

const TXID = TXIDS_575045[2]!
const pathFor = (index: number, blockHeight = 575045) =>
  merklePathOf({ levels: merkleLevels(TXIDS_575045), index, blockHeight }).toHex()
const WOC_NAMES_IT = [{ source: 'WhatsOnChain', blockHash: BLOCK_575045.hash }]

describe('a block header', () => {
  it.each([
    ['the genesis block', GENESIS],
    ['block 575045', BLOCK_575045],
    ['block 892466', BLOCK_892466],
  ])('of %s hashes to its known hash and holds', (_name, header) => {
    expect(blockHashOf(header)).toBe(header.hash)
    expect(headerProblem(header)).toBeNull()
  })

  it('of block 575045 has the merkle root of its five transactions', () => {
    expect(merkleRootOf(TXIDS_575045)).toBe(BLOCK_575045.merkleRoot)
  })

  it('with a changed field no longer hashes to its hash', () => {
    const changed = { ...BLOCK_575045, time: BLOCK_575045.time + 1 }
    expect(headerProblem(changed)).toBe(
      `The header of block 575045 does not hash to ${BLOCK_575045.hash}: its fields hash to ${blockHashOf(changed)}, so it was changed or is another block's header.`,
    )
  })

  it('with another nonce, named by its own hash, misses the target of its bits', () => {
    const changed = { ...BLOCK_575045, nonce: BLOCK_575045.nonce + 1 }
    const hash = blockHashOf(changed)
    expect(headerProblem({ ...changed, hash })).toBe(
      `The header of block 575045 (${hash}) does not meet the proof-of-work target of its bits 180997ee: no miner did the work it claims.`,
    )
  })

  it('with a field out of range says which', () => {
    expect(headerProblem({ ...BLOCK_575045, nonce: 2 ** 32 })).toBe(
      'The header of block 575045 has an unreadable nonce (4294967296).',
    )
    expect(headerProblem({ ...BLOCK_575045, merkleRoot: 'beef' })).toBe(
      'The header of block 575045 has an unreadable merkle root ("beef").',
    )
    expect(headerProblem({ ...BLOCK_575045, bits: 0x00800000 })).toMatch(/unreadable bits/)
  })

  it('reads its target from bits as nodes do', () => {
    expect(targetOfBits(0x1d00ffff)).toBe(0xffffn << 208n)
    expect(targetOfBits(0x207fffff)).toBe(0x7fffffn << 232n)
    expect(targetOfBits(0x03123456)).toBe(0x123456n)
    expect(targetOfBits(0x01003456)).toBeNull()
    expect(targetOfBits(0x04923456)).toBeNull()
  })
})

describe('a merkle proof', () => {
  it('of a mainnet transaction verifies against its checked header', async () => {
    for (const [index, txid] of TXIDS_575045.entries())
      expect(
        await verifyMerkleProof({
          txid,
          merklePath: pathFor(index),
          header: BLOCK_575045,
          blockHashNamedBy: [{ source: 'ARC', blockHash: '11'.repeat(32) }, ...WOC_NAMES_IT],
        }),
      ).toEqual({
        ok: true,
        blockHeight: 575045,
        blockHash: BLOCK_575045.hash,
        merkleRoot: BLOCK_575045.merkleRoot,
        sources: ['WhatsOnChain'],
      })
  })

  it('with a changed node is refused: it does not lead to the block’s merkle root', async () => {
    const path = MerklePath.fromHex(pathFor(2))
    path.path[1]![0]!.hash = '22'.repeat(32)
    expect(
      await verifyMerkleProof({
        txid: TXID,
        merklePath: path.toHex(),
        header: BLOCK_575045,
        blockHashNamedBy: WOC_NAMES_IT,
      }),
    ).toEqual({
      ok: false,
      problem: `The merkle path for ${TXID} does not lead to the merkle root of block 575045 (${BLOCK_575045.hash}): the proof is forged or wrong.`,
    })
  })

  it('for another height is refused', async () => {
    expect(
      await verifyMerkleProof({
        txid: TXID,
        merklePath: pathFor(2, 575046),
        header: BLOCK_575045,
        blockHashNamedBy: WOC_NAMES_IT,
        headerSource: 'WhatsOnChain',
      }),
    ).toEqual({
      ok: false,
      problem: `The merkle path for ${TXID} is for block 575046, but the header WhatsOnChain gave is for block 575045.`,
    })
  })

  it('checked against the header of another block under this block’s name is refused', async () => {
    const other = { ...BLOCK_892466, height: 575045, hash: BLOCK_575045.hash }
    expect(
      await verifyMerkleProof({
        txid: TXID,
        merklePath: pathFor(2),
        header: other,
        blockHashNamedBy: WOC_NAMES_IT,
        headerSource: 'WhatsOnChain',
      }),
    ).toEqual({
      ok: false,
      problem: `The header WhatsOnChain gave for block 575045 does not hash to ${BLOCK_575045.hash}: its fields hash to ${BLOCK_892466.hash}, so it was changed or is another block's header.`,
    })
  })

  it('that no source tied to this block is refused', async () => {
    const check = (blockHashNamedBy: { source: string; blockHash: string }[]) =>
      verifyMerkleProof({
        txid: TXID,
        merklePath: pathFor(2),
        header: BLOCK_575045,
        blockHashNamedBy,
      })
    expect(await check([])).toEqual({
      ok: false,
      problem: `No source named the block ${BLOCK_575045.hash} (height 575045) for ${TXID}: the proof is not tied to the block a source reported.`,
    })
    expect(await check([{ source: 'ARC', blockHash: '33'.repeat(32) }])).toEqual({
      ok: false,
      problem: `No source named the block ${BLOCK_575045.hash} (height 575045) for ${TXID} (ARC named ${'33'.repeat(32)}): the proof is not tied to the block a source reported.`,
    })
  })

  it('that is unreadable, or proves another transaction, is refused', async () => {
    const base = { header: BLOCK_575045, blockHashNamedBy: WOC_NAMES_IT }
    const unreadable = await verifyMerkleProof({ ...base, txid: TXID, merklePath: 'zz' })
    expect(unreadable.ok).toBe(false)
    expect(!unreadable.ok && unreadable.problem).toMatch(
      new RegExp(`^The merkle path for ${TXID} cannot be read`),
    )
    const stranger = 'ab'.repeat(32)
    expect(await verifyMerkleProof({ ...base, txid: stranger, merklePath: pathFor(2) })).toEqual({
      ok: false,
      problem: `The merkle path for ${stranger} does not contain that transaction: it proves another one.`,
    })
  })

  it('from the simulator verifies, and an orphaned block’s proof fails against the block mined in its place', async () => {
    const state = createChainState({ network: 'test' })
    const paid = state.mint(PrivateKey.fromRandom().toAddress('testnet'), 1000)
    state.mint(PrivateKey.fromRandom().toAddress('testnet'), 2000)
    const height = state.mine()
    const proof = state.merkleProof(paid)!
    const named = [{ source: 'simulator', blockHash: proof.blockHash }]
    const first = await verifyMerkleProof({
      txid: paid,
      merklePath: proof.merklePath,
      header: state.header(height)!,
      blockHashNamedBy: named,
    })
    expect(first).toMatchObject({ ok: true, blockHeight: height, blockHash: proof.blockHash })

    // The block is orphaned and another, with a coinbase of its own, is mined at its height.
    state.reorg(1)
    state.mine()
    const replacement = state.header(height)!
    expect(
      await verifyMerkleProof({
        txid: paid,
        merklePath: proof.merklePath,
        header: replacement,
        blockHashNamedBy: named,
      }),
    ).toEqual({
      ok: false,
      problem: `The merkle path for ${paid} does not lead to the merkle root of block ${height} (${replacement.hash}): the proof is forged or wrong.`,
    })
  })
})

import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

import { MerklePath, PrivateKey, Transaction } from '@bsv/sdk'
import { afterEach, describe, expect, it } from 'vitest'

import { merkleRootOf } from '../merkle'
import { blockHashOf, headerProblem, verifyMerkleProof } from '../proof'
import type { BlockHeader } from '../types'
import type { ChainEvent } from './chain-state'
import { createChainState, madeUpBlockHash, SIMULATED_BITS } from './chain-state'

/** The simulated chain's blocks: real headers with proof of work, and merkle proofs that verify. */

const newAddress = () => PrivateKey.fromRandom().toAddress('testnet')
const dirs: string[] = []
const tempFile = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chain-state-'))
  dirs.push(dir)
  return path.join(dir, 'chain.json')
}

afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true })
})

describe('a mined block', () => {
  it('has an 80-byte header that hashes to its hash, meets its target and links to the block before', () => {
    const state = createChainState({ network: 'test', startHeight: 1000 })
    state.mint(newAddress(), 5000)
    state.mine(3)
    const [first, second, third] = [1001, 1002, 1003].map((h) => state.header(h)!)
    for (const header of [first!, second!, third!]) {
      expect(header.bits).toBe(SIMULATED_BITS)
      expect(blockHashOf(header)).toBe(header.hash)
      expect(headerProblem(header)).toBeNull()
      expect(state.blockHash(header.height)).toBe(header.hash)
      expect(state.heightOf(header.hash)).toBe(header.height)
    }
    expect(first!.previousHash).toBe(madeUpBlockHash('test', 1000))
    expect(second!.previousHash).toBe(first!.hash)
    expect(third!.previousHash).toBe(second!.hash)
    expect(state.header(1004)).toBeUndefined()
    expect(state.header(1000)).toBeUndefined()
  })

  it('opens with a coinbase of its own, then holds the mempool in arrival order', () => {
    const state = createChainState({ network: 'test' })
    const arrived = [state.mint(newAddress(), 1000), state.mint(newAddress(), 2000)]
    const height = state.mine(2)
    const full = state.block(height - 1)!
    const empty = state.block(height)!
    expect(full.txids.slice(1)).toEqual(arrived)
    expect(empty.txids).toHaveLength(1)
    expect(full.txids[0]).not.toBe(empty.txids[0])
    const coinbase = Transaction.fromHex(state.getHex(full.txids[0]!)!)
    expect(coinbase.inputs[0]!.sourceTXID).toBe('00'.repeat(32))
    expect(state.status(full.txids[0]!)).toEqual({ height: height - 1 })
    expect(full.header.merkleRoot).toBe(merkleRootOf(full.txids))
  })

  it.each([1, 2, 3, 5, 16])(
    'of %i transactions proves each of them against its header',
    async (size) => {
      const state = createChainState({ network: 'test' })
      for (let i = 1; i < size; i += 1) state.mint(newAddress(), 1000 + i)
      const height = state.mine()
      const { header, txids } = state.block(height)!
      expect(txids).toHaveLength(size)
      for (const txid of txids) {
        const proof = state.merkleProof(txid)!
        expect(proof).toMatchObject({ blockHash: header.hash, blockHeight: height })
        const merklePath = MerklePath.fromHex(proof.merklePath)
        expect(merklePath.blockHeight).toBe(height)
        expect(merklePath.computeRoot(txid)).toBe(header.merkleRoot)
        const check = await verifyMerkleProof({
          txid,
          merklePath: proof.merklePath,
          header,
          blockHashNamedBy: [{ source: 'simulator', blockHash: proof.blockHash }],
        })
        expect(check).toEqual({
          ok: true,
          blockHeight: height,
          blockHash: header.hash,
          merkleRoot: header.merkleRoot,
          sources: ['simulator'],
        })
      }
    },
  )

  it('marks the duplicated node of an odd level in its merkle path', () => {
    const state = createChainState({ network: 'test' })
    for (let i = 0; i < 4; i += 1) state.mint(newAddress(), 700 + i)
    const { txids } = state.block(state.mine())!
    // Five leaves: the last is paired with itself at the bottom, its parent at the next level.
    const last = MerklePath.fromHex(state.merkleProof(txids[4]!)!.merklePath)
    expect(last.path[0]).toEqual([
      { offset: 4, hash: txids[4], txid: true },
      { offset: 5, duplicate: true },
    ])
    expect(last.path[1]).toEqual([{ offset: 3, duplicate: true }])
    expect(last.path[2]).toHaveLength(1)
  })

  it('tells its listeners with its header', () => {
    const state = createChainState({ network: 'test' })
    const events: ChainEvent[] = []
    state.subscribe((event) => events.push(event))
    const height = state.mine()
    expect(events).toEqual([
      { kind: 'block', height, time: state.blockTime(height), header: state.header(height) },
    ])
  })

  it('gives no proof for a transaction in the mempool or unknown to the chain', () => {
    const state = createChainState({ network: 'test' })
    const waiting = state.mint(newAddress(), 1000)
    expect(state.merkleProof(waiting)).toBeUndefined()
    expect(state.merkleProof('ab'.repeat(32))).toBeUndefined()
  })
})

describe('a reorg', () => {
  it('removes the blocks, puts their transactions back in the mempool, and mines them again under new hashes', () => {
    const state = createChainState({ network: 'test' })
    const paid = state.mint(newAddress(), 1000)
    const height = state.mine(2)
    const orphaned = [state.header(height - 1)!, state.header(height)!]
    const orphanedCoinbases = [state.block(height - 1)!.txids[0]!, state.block(height)!.txids[0]!]
    expect(state.reorg(2)).toBe(height - 2)
    expect(state.header(height - 1)).toBeUndefined()
    expect(state.heightOf(orphaned[0]!.hash)).toBeUndefined()
    expect(state.status(paid)).toEqual({ height: null })
    expect(state.merkleProof(paid)).toBeUndefined()
    for (const coinbase of orphanedCoinbases) expect(state.status(coinbase)).toBeUndefined()

    state.mine(2)
    const again = state.header(height - 1)!
    expect(again.hash).not.toBe(orphaned[0]!.hash)
    expect(again.previousHash).toBe(orphaned[0]!.previousHash)
    expect(state.header(height)!.previousHash).toBe(again.hash)
    expect(state.merkleProof(paid)).toMatchObject({
      blockHash: again.hash,
      blockHeight: height - 1,
    })
    expect(MerklePath.fromHex(state.merkleProof(paid)!.merklePath).computeRoot(paid)).toBe(
      again.merkleRoot,
    )
  })
})

describe('the state file', () => {
  it('keeps each block’s header and transactions', () => {
    const file = tempFile()
    const state = createChainState({ network: 'test', file })
    const paid = state.mint(newAddress(), 1000)
    const height = state.mine()
    const reopened = createChainState({ network: 'test', file })
    expect(reopened.header(height)).toEqual(state.header(height))
    expect(reopened.block(height)!.txids).toEqual(state.block(height)!.txids)
    expect(reopened.merkleProof(paid)).toEqual(state.merkleProof(paid))
  })

  it('from before headers were kept still loads: its blocks have none, and new ones link to a made-up hash', () => {
    const file = tempFile()
    const funding = createChainState({ network: 'test' })
    const hex = funding.getHex(funding.mint(newAddress(), 1000))!
    const txid = Transaction.fromHex(hex).id('hex')
    fs.writeFileSync(
      file,
      JSON.stringify({
        height: 900,
        nonce: 1,
        txs: { [txid]: { hex, height: 900, coinbase: true } },
        blockTimes: { '900': 1_700_000_000 },
      }),
    )
    const state = createChainState({ network: 'test', file })
    expect(state.blockTime(900)).toBe(1_700_000_000)
    expect(state.header(900)).toBeUndefined()
    expect(state.merkleProof(txid)).toBeUndefined()
    expect(state.blockHash(900)).toBe(madeUpBlockHash('test', 900))
    state.mine()
    const header: BlockHeader = state.header(901)!
    expect(header.previousHash).toBe(madeUpBlockHash('test', 900))
    expect(headerProblem(header)).toBeNull()
  })
})

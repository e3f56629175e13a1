import http from 'node:http'
import type { AddressInfo } from 'node:net'

import { MerklePath, PrivateKey } from '@bsv/sdk'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'

import { blockHashOf, headerProblem, verifyMerkleProof } from '../proof'
import type { ChainSimulator } from '../simulator'
import { startChainSimulator } from '../simulator'
import { ChainSourceError } from '../types'
import { createWhatsOnChainClient } from '.'
import { SETTLED_CONFIRMATIONS } from './blocks'

/**
 * The WhatsOnChain client's headers and merkle proofs against the chain simulator (the docs'
 * own examples are in woc-docs.test.ts), and the shop's check of what it brings back.
 */

let sim: ChainSimulator

beforeAll(async () => {
  sim = await startChainSimulator({ backgroundTxPerSecond: 0 })
})

afterAll(async () => {
  await sim?.close()
})

afterEach(() => sim.clearFaults())

const client = () =>
  createWhatsOnChainClient({ baseUrl: sim.wocUrl, maxRequestsPerSecond: 100, retries: 0 })
const newAddress = () => PrivateKey.fromRandom().toAddress('testnet')
const askedPaths = (since: number) =>
  sim
    .requests()
    .slice(since)
    .map((r) => r.path)

/** A payment mined in a block of `others` + 2 transactions; its txid and height. */
function minedPayment(others = 3) {
  const txid = sim.state.mint(newAddress(), 5000)
  for (let i = 0; i < others; i += 1) sim.state.mint(newAddress(), 600 + i)
  return { txid, height: sim.state.mine() }
}

describe('getBlockHeader', () => {
  it('gives the simulator’s header by height and by hash, and it holds', async () => {
    const { height } = minedPayment()
    const header = sim.state.header(height)!
    const woc = client()
    expect(await woc.getBlockHeader(height)).toEqual(header)
    expect(await woc.getBlockHeader(header.hash.toUpperCase())).toEqual(header)
    expect(blockHashOf(header)).toBe(header.hash)
    expect(headerProblem(header)).toBeNull()
  })

  it('is null for a block the chain does not have', async () => {
    const woc = client()
    expect(await woc.getBlockHeader(sim.state.height + 5)).toBeNull()
    expect(await woc.getBlockHeader('77'.repeat(32))).toBeNull()
  })

  it('caches by hash, and by height only once the block is settled', async () => {
    const { height } = minedPayment(0)
    const woc = client()
    const before = sim.requests().length
    await woc.getBlockHeader(height)
    await woc.getBlockHeader(height)
    await woc.getBlockHeader(sim.state.header(height)!.hash)
    // A fresh block is asked again by height; by hash it is known.
    expect(askedPaths(before)).toEqual([`/block/height/${height}`, `/block/height/${height}`])

    sim.state.mine(SETTLED_CONFIRMATIONS)
    const settled = sim.requests().length
    await woc.getBlockHeader(height)
    await woc.getBlockHeader(height)
    expect(askedPaths(settled)).toEqual([`/block/height/${height}`])
  })

  it('sees the block that replaces a reorged one at a recent height', async () => {
    const { height } = minedPayment(0)
    const woc = client()
    const first = await woc.getBlockHeader(height)
    sim.state.reorg(1)
    sim.state.mine()
    const second = await woc.getBlockHeader(height)
    expect(second!.hash).not.toBe(first!.hash)
    expect(second).toEqual(sim.state.header(height))
  })

  it('throws on an answer it cannot read, naming the field', async () => {
    const { height } = minedPayment(0)
    const real = (await (await fetch(`${sim.wocUrl}/block/${height}/header`)).json()) as object
    // Bits it cannot read for this height; any other height is answered with this block.
    const liar = http.createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      const asked = req.url === `/block/height/${height}`
      res.end(JSON.stringify(asked ? { ...real, bits: 'tall' } : real))
    })
    await new Promise<void>((resolve) => liar.listen(0, '127.0.0.1', resolve))
    try {
      const port = (liar.address() as AddressInfo).port
      const woc = createWhatsOnChainClient({ baseUrl: `http://127.0.0.1:${port}`, retries: 0 })
      const failure = await woc.getBlockHeader(height).catch((error: unknown) => error)
      expect(failure).toBeInstanceOf(ChainSourceError)
      expect((failure as Error).message).toBe(
        `WhatsOnChain block ${height}: unreadable answer (bits)`,
      )
      // Another block than the one asked for is no answer either.
      await expect(woc.getBlockHeader(height + 1)).rejects.toThrow(
        `WhatsOnChain block ${height + 1}: the answer is block ${height} (${sim.state.blockHash(height)})`,
      )
    } finally {
      liar.closeAllConnections()
      await new Promise((resolve) => liar.close(resolve))
    }
  })
})

describe('getMerkleProof', () => {
  it.each([0, 1, 2, 4, 15])(
    'turns the TSC proof of a block of %i more transactions into a BUMP that verifies',
    async (others) => {
      const { txid, height } = minedPayment(others)
      const header = sim.state.header(height)!
      const woc = client()
      const proof = await woc.getMerkleProof(txid)
      expect(proof).toMatchObject({ txid, blockHash: header.hash, blockHeight: height })
      expect(MerklePath.fromHex(proof!.merklePath).computeRoot(txid)).toBe(header.merkleRoot)
      const check = await verifyMerkleProof({
        txid,
        merklePath: proof!.merklePath,
        header: (await woc.getBlockHeader(proof!.blockHash))!,
        blockHashNamedBy: [{ source: 'WhatsOnChain', blockHash: proof!.blockHash }],
        headerSource: 'WhatsOnChain',
      })
      expect(check).toMatchObject({ ok: true, blockHeight: height, sources: ['WhatsOnChain'] })
    },
  )

  it('proves the last transaction of an odd level, whose node WhatsOnChain marks `*`', async () => {
    const { height } = minedPayment(3)
    const last = sim.state.block(height)!.txids[4]!
    const tsc = (await (await fetch(`${sim.wocUrl}/tx/${last}/proof/tsc`)).json()) as {
      index: number
      nodes: string[]
    }[]
    expect(tsc[0]!.index).toBe(4)
    expect(tsc[0]!.nodes.slice(0, 2)).toEqual(['*', '*'])
    const proof = await client().getMerkleProof(last)
    expect(MerklePath.fromHex(proof!.merklePath).computeRoot(last)).toBe(
      sim.state.header(height)!.merkleRoot,
    )
  })

  it('is null for a transaction in the mempool or unknown to the chain', async () => {
    const waiting = sim.state.mint(newAddress(), 700)
    const woc = client()
    expect(await woc.getMerkleProof(waiting)).toBeNull()
    expect(await woc.getMerkleProof('cd'.repeat(32))).toBeNull()
    sim.state.mine()
  })

  it('with a forged node (the forgedProofs fault) is refused by the shop’s check', async () => {
    const { txid, height } = minedPayment()
    sim.setFaults({ forgedProofs: [txid] })
    const woc = client()
    const proof = (await woc.getMerkleProof(txid))!
    const header = (await woc.getBlockHeader(height))!
    const check = await verifyMerkleProof({
      txid,
      merklePath: proof.merklePath,
      header,
      blockHashNamedBy: [{ source: 'WhatsOnChain', blockHash: proof.blockHash }],
      headerSource: 'WhatsOnChain',
    })
    expect(check).toEqual({
      ok: false,
      problem: `The merkle path for ${txid} does not lead to the merkle root of block ${height} (${header.hash}): the proof is forged or wrong.`,
    })
  })

  it('checked against a forged header (the forgedHeaders fault) is refused: it does not hash to its hash', async () => {
    const { txid, height } = minedPayment()
    sim.setFaults({ forgedHeaders: [height] })
    const woc = client()
    const proof = (await woc.getMerkleProof(txid))!
    const header = (await woc.getBlockHeader(height))!
    expect(header.hash).toBe(sim.state.header(height)!.hash)
    expect(header.merkleRoot).not.toBe(sim.state.header(height)!.merkleRoot)
    const check = await verifyMerkleProof({
      txid,
      merklePath: proof.merklePath,
      header,
      blockHashNamedBy: [{ source: 'WhatsOnChain', blockHash: proof.blockHash }],
      headerSource: 'WhatsOnChain',
    })
    expect(check.ok).toBe(false)
    expect(!check.ok && check.problem).toBe(
      `The header WhatsOnChain gave for block ${height} does not hash to ${header.hash}: its fields hash to ${blockHashOf(header)}, so it was changed or is another block's header.`,
    )
  })

  it('names the block in its target, and the chain info names the tip', async () => {
    const { txid, height } = minedPayment(1)
    const info = (await (await fetch(`${sim.wocUrl}/chain/info`)).json()) as {
      bestblockhash: string
      blocks: number
    }
    expect(info).toMatchObject({ blocks: height, bestblockhash: sim.state.header(height)!.hash })
    expect((await client().getMerkleProof(txid))!.blockHash).toBe(info.bestblockhash)
  })
})

describe('the faults endpoint', () => {
  it('switches forged proofs and headers on over HTTP, and refuses what it cannot read', async () => {
    const post = async (body: unknown) => {
      const response = await fetch(`${sim.url}/simulator/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
      return { status: response.status, json: (await response.json()) as Record<string, unknown> }
    }
    const txid = 'ef'.repeat(32)
    expect((await post({ forgedProofs: [txid], forgedHeaders: [7] })).json).toMatchObject({
      forgedProofs: [txid],
      forgedHeaders: [7],
    })
    expect(await post({ forgedProofs: ['nope'] })).toEqual({
      status: 400,
      json: { error: 'forgedProofs must be a list of txids' },
    })
    expect(await post({ forgedHeaders: [-1] })).toEqual({
      status: 400,
      json: { error: 'forgedHeaders must be a list of block heights' },
    })
    expect((await post({ clear: true })).json).toMatchObject({
      forgedProofs: [],
      forgedHeaders: [],
    })
  })
})

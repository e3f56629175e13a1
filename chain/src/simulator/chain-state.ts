import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'

import type { LockingScript } from '@bsv/sdk'
import { P2PKH, PrivateKey, Spend, Transaction, UnlockingScript, Utils } from '@bsv/sdk'

import { merkleLevels, merklePathOf } from '../merkle'
import { blockHashOf, meetsTarget } from '../proof'
import type { BlockHeader } from '../types'

/**
 * The simulated chain: a mempool, blocks, and an index of which transactions pay which address.
 * It checks what a node would refuse for a payment (unknown or already spent inputs, outputs worth
 * more than inputs, bad signatures) and can mint coinbase-style funding for the test wallet.
 * State is kept in memory and, when a file is given, written after every change.
 *
 * Blocks are real: each holds a coinbase of its own first, then the mempool's transactions in
 * arrival order; its header (version, previous hash, merkle root, time, bits, nonce) is 80 bytes
 * whose double SHA-256 meets regtest's easy target (bits 0x207fffff), so a merkle path for any
 * of its transactions verifies against it, as on mainnet.
 */

type StoredTx = { hex: string; height: number | null; coinbase: boolean }
/** A mined block: its header's fields and its transactions, the coinbase first. */
type StoredBlock = Omit<BlockHeader, 'height'> & { txids: string[] }
type StateFile = {
  height: number
  txs: Record<string, StoredTx>
  nonce: number
  /** Each mined block's time (unix seconds), by height. */
  blockTimes?: Record<string, number>
  /** Each mined block, by height (blocks from before they were kept have none). */
  blocks?: Record<string, StoredBlock>
}

/** Regtest's target: about every other hash meets it, so a header is ground in a try or two. */
export const SIMULATED_BITS = 0x207fffff
/** The version mined blocks carry (BIP9's top bits, as mainnet's blocks do). */
const BLOCK_VERSION = 0x20000000

/**
 * The hash of a block the simulator has no header for (the one before its first block, and any
 * from a state file older than its headers): made up, but the same for a network and height.
 */
export const madeUpBlockHash = (network: 'main' | 'test', height: number) =>
  crypto.createHash('sha256').update(`simulated block ${network} ${height}`).digest('hex')

export type ChainEvent =
  | { kind: 'tx'; txid: string; tx: Transaction }
  | { kind: 'block'; height: number; time: number; header: BlockHeader }

/** A merkle proof of one transaction as the simulator gives it (BRC-74 BUMP hex). */
export type SimulatedMerkleProof = { blockHash: string; blockHeight: number; merklePath: string }

/** One transaction touching an address, in the order the chain took them in. */
export type AddressEntry = {
  txid: string
  /** Block height, or null while in the mempool. */
  height: number | null
  /** Arrival order: within a block and in the mempool, later transactions have larger numbers. */
  seq: number
}

export class ChainRejection extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ChainRejection'
  }
}

export function addressOfScript(script: LockingScript, network: 'main' | 'test'): string | null {
  const chunks = script.chunks
  // OP_DUP OP_HASH160 <20 bytes> OP_EQUALVERIFY OP_CHECKSIG
  if (
    chunks.length !== 5 ||
    chunks[0]?.op !== 0x76 ||
    chunks[1]?.op !== 0xa9 ||
    chunks[3]?.op !== 0x88 ||
    chunks[4]?.op !== 0xac
  )
    return null
  const hash = chunks[2]?.data
  if (!hash || hash.length !== 20) return null
  return Utils.toBase58Check(hash, [network === 'main' ? 0x00 : 0x6f])
}

export type ChainState = {
  readonly height: number
  /** Hears of every transaction the chain takes in and every block mined; returns an unsubscribe. */
  subscribe(listener: (event: ChainEvent) => void): () => void
  /** Accepts a signed transaction the way a node would (minus fees and policy). */
  submit(hex: string): string
  /** A coinbase-style transaction paying `satoshis` to `address` (test wallet funding). */
  mint(address: string, satoshis: number): string
  /** Puts every mempool transaction in a new block; `count` blocks in all, timed now. */
  mine(count?: number): number
  /**
   * Double-spends a mempool transaction: it and whatever spends it leave the chain, and a
   * conflicting transaction spending the same inputs to another address takes its place (a
   * simulator may sign nothing: this is the chain's own doing). Returns the replacement's id.
   */
  doubleSpend(txid: string): string
  /** Orphans the last `blocks` blocks: their transactions go back to the mempool. */
  reorg(blocks: number): number
  /** Where a transaction is: in a block, in the mempool, or unknown to the chain. */
  status(txid: string): { height: number | null } | undefined
  /** A block's time (unix seconds); blocks from before the simulator started have none. */
  blockTime(height: number): number | undefined
  /** A mined block's header; blocks from before the simulator kept headers have none. */
  header(height: number): BlockHeader | undefined
  /** A mined block's header and transactions (the coinbase first), by height. */
  block(height: number): { header: BlockHeader; txids: string[] } | undefined
  /** The height of the block with this hash (display order) on the chain, if any. */
  heightOf(hash: string): number | undefined
  /** The hash of the block at a height: its header's, or a made-up one before headers were kept. */
  blockHash(height: number): string
  /**
   * A merkle proof that a transaction is in its block, built from the block's tree: undefined
   * while it is in the mempool, unknown, or in a block without a header.
   */
  merkleProof(txid: string): SimulatedMerkleProof | undefined
  getHex(txid: string): string | undefined
  /**
   * The transactions touching an address, newest first (WhatsOnChain's default order): in
   * blocks by height then arrival, or in the mempool by arrival.
   */
  entries(address: string, kind: 'confirmed' | 'unconfirmed'): AddressEntry[]
  /**
   * Which transaction spends an output: its txid, null while unspent, undefined when the
   * output does not exist.
   */
  spender(txid: string, vout: number): string | null | undefined
  history(
    address: string,
    kind: 'confirmed' | 'unconfirmed',
  ): { tx_hash: string; height?: number }[]
}

/** The chain as stored, and the indexes kept beside it (built again when it is loaded). */
type Ledger = {
  network: 'main' | 'test'
  file?: string
  chain: StateFile
  /** The transaction spending each output (`txid:vout`). */
  spent: Map<string, string>
  /** The transactions paying each address. */
  byAddress: Map<string, Set<string>>
  /** Arrival order of each transaction (a file's transactions are in the order they came in). */
  seqOf: Map<string, number>
  nextSeq: number
  /** Each block's merkle tree, by block hash, built when a proof is first asked for. */
  trees: Map<string, string[][]>
  /** Who hears of each new transaction and block (the simulator's push stream). */
  listeners: Set<(event: ChainEvent) => void>
}

export function createChainState({
  network,
  file,
  startHeight = 800_000,
}: {
  network: 'main' | 'test'
  file?: string
  startHeight?: number
}): ChainState {
  const ledger = openLedger({ network, file, startHeight })
  return {
    get height() {
      return ledger.chain.height
    },
    subscribe(listener) {
      ledger.listeners.add(listener)
      return () => ledger.listeners.delete(listener)
    },
    submit: (hex) => submit(ledger, hex),
    mint: (address, satoshis) => mint(ledger, address, satoshis),
    mine: (count = 1) => mine(ledger, count),
    doubleSpend: (txid) => doubleSpend(ledger, txid),
    reorg: (blocks) => reorg(ledger, blocks),
    status(txid) {
      const stored = ledger.chain.txs[txid]
      return stored ? { height: stored.height } : undefined
    },
    blockTime: (height) => ledger.chain.blockTimes?.[String(height)],
    header: (height) => headerAt(ledger, height),
    block(height) {
      const header = headerAt(ledger, height)
      const stored = ledger.chain.blocks?.[String(height)]
      return header && stored ? { header, txids: [...stored.txids] } : undefined
    },
    heightOf(hash) {
      const wanted = hash.toLowerCase()
      for (const [height, block] of Object.entries(ledger.chain.blocks ?? {}))
        if (block.hash === wanted && Number(height) <= ledger.chain.height) return Number(height)
      return undefined
    },
    blockHash: (height) => blockHashAt(ledger, height),
    merkleProof: (txid) => merkleProof(ledger, txid),
    getHex: (txid) => ledger.chain.txs[txid]?.hex,
    entries: (address, kind) => entries(ledger, address, kind),
    spender: (txid, vout) => spender(ledger, txid, vout),
    history: (address, kind) => history(ledger, address, kind),
  }
}

function openLedger({
  network,
  file,
  startHeight,
}: {
  network: 'main' | 'test'
  file?: string
  startHeight: number
}): Ledger {
  let chain: StateFile = { height: startHeight, txs: {}, nonce: 0 }
  if (file && fs.existsSync(file)) chain = JSON.parse(fs.readFileSync(file, 'utf8')) as StateFile
  const ledger: Ledger = {
    network,
    file,
    chain,
    spent: new Map(),
    byAddress: new Map(),
    seqOf: new Map(),
    nextSeq: 0,
    trees: new Map(),
    listeners: new Set(),
  }
  for (const [txid, stored] of Object.entries(chain.txs)) index(ledger, txid, stored)
  return ledger
}

function emit(ledger: Ledger, event: ChainEvent) {
  for (const listener of ledger.listeners) listener(event)
}

/** Adds a transaction to the indexes: the outputs it spends, the addresses it pays. */
function index(ledger: Ledger, txid: string, stored: StoredTx) {
  ledger.seqOf.set(txid, ledger.nextSeq++)
  const tx = Transaction.fromHex(stored.hex)
  if (!stored.coinbase)
    for (const input of tx.inputs)
      ledger.spent.set(`${input.sourceTXID}:${input.sourceOutputIndex}`, txid)
  tx.outputs.forEach((output) => {
    const address = addressOfScript(output.lockingScript, ledger.network)
    if (!address) return
    let set = ledger.byAddress.get(address)
    if (!set) ledger.byAddress.set(address, (set = new Set()))
    set.add(txid)
  })
}

/** Writes the chain to its file, if it has one (whole, through a temporary file). */
function save({ file, chain }: Ledger) {
  if (!file) return
  fs.mkdirSync(path.dirname(file), { recursive: true })
  const temp = `${file}.${process.pid}.tmp`
  fs.writeFileSync(temp, JSON.stringify(chain))
  fs.renameSync(temp, file)
}

/** Takes a transaction into the mempool (once) and tells the listeners. */
function add(ledger: Ledger, tx: Transaction, coinbase: boolean) {
  const txid = tx.id('hex')
  if (ledger.chain.txs[txid]) return txid
  const stored = { hex: tx.toHex(), height: null, coinbase }
  ledger.chain.txs[txid] = stored
  index(ledger, txid, stored)
  save(ledger)
  emit(ledger, { kind: 'tx', txid, tx })
  return txid
}

/** Takes a transaction and everything spending its outputs off the chain. */
function remove(ledger: Ledger, txid: string) {
  const stored = ledger.chain.txs[txid]
  if (!stored) return
  const tx = Transaction.fromHex(stored.hex)
  tx.outputs.forEach((_, vout) => {
    const child = [...ledger.spent.entries()].find(
      ([outpoint]) => outpoint === `${txid}:${vout}`,
    )?.[1]
    if (child) remove(ledger, child)
  })
  if (!stored.coinbase)
    for (const input of tx.inputs)
      ledger.spent.delete(`${input.sourceTXID}:${input.sourceOutputIndex}`)
  for (const set of ledger.byAddress.values()) set.delete(txid)
  ledger.seqOf.delete(txid)
  delete ledger.chain.txs[txid]
}

function submit(ledger: Ledger, hex: string): string {
  let tx: Transaction
  try {
    tx = Transaction.fromHex(hex)
  } catch {
    throw new ChainRejection('TX decode failed')
  }
  const txid = tx.id('hex')
  if (ledger.chain.txs[txid]) return txid
  if (tx.inputs.length === 0 || tx.outputs.length === 0) throw new ChainRejection('bad-txns-empty')
  let inputTotal = 0
  tx.inputs.forEach((_, inputIndex) => {
    inputTotal += checkInput(ledger, tx, inputIndex)
  })
  const outputTotal = tx.outputs.reduce((sum, o) => sum + (o.satoshis ?? 0), 0)
  if (outputTotal > inputTotal) throw new ChainRejection('bad-txns-in-belowout')
  return add(ledger, tx, false)
}

/**
 * Checks one input as a node would: it spends an output the chain has and nothing else spends,
 * and its unlocking script unlocks it. Returns the satoshis it brings in.
 */
function checkInput(ledger: Ledger, tx: Transaction, inputIndex: number): number {
  const input = tx.inputs[inputIndex]!
  const sourceTXID = input.sourceTXID
  const source = sourceTXID ? ledger.chain.txs[sourceTXID] : undefined
  if (!sourceTXID || !source) throw new ChainRejection('Missing inputs')
  const outpoint = `${sourceTXID}:${input.sourceOutputIndex}`
  if (ledger.spent.has(outpoint)) throw new ChainRejection('txn-mempool-conflict')
  const sourceOutput = Transaction.fromHex(source.hex).outputs[input.sourceOutputIndex]
  if (!sourceOutput || sourceOutput.satoshis === undefined)
    throw new ChainRejection('Missing inputs')
  const valid = new Spend({
    sourceTXID,
    sourceOutputIndex: input.sourceOutputIndex,
    sourceSatoshis: sourceOutput.satoshis,
    lockingScript: sourceOutput.lockingScript,
    transactionVersion: tx.version,
    otherInputs: tx.inputs.filter((_, i) => i !== inputIndex),
    outputs: tx.outputs,
    unlockingScript: input.unlockingScript ?? new UnlockingScript(),
    inputSequence: input.sequence ?? 0xffffffff,
    inputIndex,
    lockTime: tx.lockTime,
  })
  let ok: boolean
  try {
    ok = valid.validate()
  } catch (error) {
    throw new ChainRejection(
      `mandatory-script-verify-flag-failed (${(error as Error).message.slice(0, 80)})`,
    )
  }
  if (!ok) throw new ChainRejection('mandatory-script-verify-flag-failed')
  return sourceOutput.satoshis
}

function mint(ledger: Ledger, address: string, satoshis: number): string {
  ledger.chain.nonce += 1
  // Unique per funding, like a coinbase's height and extra nonce.
  const tag = Utils.toArray(`sim-${ledger.chain.nonce}-${Date.now()}`, 'utf8')
  const tx = new Transaction()
  tx.addInput({
    sourceTXID: '00'.repeat(32),
    sourceOutputIndex: 0xffffffff,
    unlockingScript: new UnlockingScript([{ op: tag.length, data: tag }]),
    sequence: 0xffffffff,
  })
  tx.addOutput({ lockingScript: new P2PKH().lock(address), satoshis })
  return add(ledger, tx, true)
}

function mine(ledger: Ledger, count: number): number {
  const { chain } = ledger
  chain.blockTimes ??= {}
  chain.blocks ??= {}
  const mempool = Object.entries(chain.txs)
    .filter(([, stored]) => stored.height === null)
    .map(([txid]) => txid)
    .sort((a, b) => (ledger.seqOf.get(a) ?? 0) - (ledger.seqOf.get(b) ?? 0))
  for (let i = 0; i < count; i += 1) {
    const height = chain.height + 1
    const time = Math.floor(Date.now() / 1000)
    const coinbase = blockCoinbase(ledger, height)
    const txids = [coinbase, ...(i === 0 ? mempool : [])]
    for (const txid of txids) chain.txs[txid]!.height = height
    chain.blocks[String(height)] = minedBlock({
      previousHash: blockHashAt(ledger, height - 1),
      txids,
      time,
    })
    chain.blockTimes[String(height)] = time
    chain.height = height
  }
  save(ledger)
  for (let h = chain.height - count + 1; h <= chain.height; h += 1)
    emit(ledger, {
      kind: 'block',
      height: h,
      time: chain.blockTimes[String(h)]!,
      header: headerAt(ledger, h)!,
    })
  return chain.height
}

/**
 * The coinbase a block at `height` opens with: unique to this block (its height and a counter in
 * the script, as a miner's extra nonce), paying the subsidy to a key nobody watches. It joins the
 * chain's transactions (so WhatsOnChain's lookups know it) without telling the listeners: a
 * coinbase is never in the mempool.
 */
function blockCoinbase(ledger: Ledger, height: number): string {
  ledger.chain.nonce += 1
  const tag = Utils.toArray(`sim-block-${height}-${ledger.chain.nonce}-${Date.now()}`, 'utf8')
  const tx = new Transaction()
  tx.addInput({
    sourceTXID: '00'.repeat(32),
    sourceOutputIndex: 0xffffffff,
    unlockingScript: new UnlockingScript([{ op: tag.length, data: tag }]),
    sequence: 0xffffffff,
  })
  tx.addOutput({ lockingScript: new P2PKH().lock(MINER_KEY_HASH), satoshis: 625_000_000 })
  const txid = tx.id('hex')
  const stored = { hex: tx.toHex(), height: null, coinbase: true }
  ledger.chain.txs[txid] = stored
  index(ledger, txid, stored)
  return txid
}

/** The simulated miner's key hash: a fixed key nobody holds. */
const MINER_KEY_HASH = Utils.toArray('51'.repeat(20), 'hex')

/**
 * A block over these transactions: its merkle root, and a nonce ground until its hash meets the
 * target.
 */
function minedBlock({
  previousHash,
  txids,
  time,
}: {
  previousHash: string
  txids: string[]
  time: number
}): StoredBlock {
  const levels = merkleLevels(txids)
  const fields = {
    height: 0,
    hash: '',
    version: BLOCK_VERSION,
    previousHash,
    merkleRoot: levels.at(-1)![0]!,
    time,
    bits: SIMULATED_BITS,
    nonce: 0,
  }
  for (;;) {
    const hash = blockHashOf(fields)
    if (meetsTarget(hash, fields.bits)) {
      const { height: _height, ...header } = { ...fields, hash }
      return { ...header, txids }
    }
    fields.nonce += 1
  }
}

/** The header of the block at `height`, if it was mined with one. */
function headerAt({ chain }: Ledger, height: number): BlockHeader | undefined {
  if (height > chain.height) return undefined
  const stored = chain.blocks?.[String(height)]
  if (!stored) return undefined
  const { txids: _txids, ...header } = stored
  return { height, ...header }
}

/** The hash of the block at `height`: its header's, or the made-up one where it has none. */
function blockHashAt(ledger: Ledger, height: number): string {
  return headerAt(ledger, height)?.hash ?? madeUpBlockHash(ledger.network, height)
}

function merkleProof(ledger: Ledger, txid: string): SimulatedMerkleProof | undefined {
  const id = txid.toLowerCase()
  const height = ledger.chain.txs[id]?.height
  if (height === null || height === undefined) return undefined
  const block = ledger.chain.blocks?.[String(height)]
  const index = block?.txids.indexOf(id) ?? -1
  if (!block || index < 0) return undefined
  let levels = ledger.trees.get(block.hash)
  if (!levels) {
    levels = merkleLevels(block.txids)
    // A handful of recent blocks is what proofs are asked of.
    if (ledger.trees.size >= 64) ledger.trees.delete(ledger.trees.keys().next().value!)
    ledger.trees.set(block.hash, levels)
  }
  return {
    blockHash: block.hash,
    blockHeight: height,
    merklePath: merklePathOf({ levels, index, blockHeight: height }).toHex(),
  }
}

function doubleSpend(ledger: Ledger, txid: string): string {
  const original = ledger.chain.txs[txid]
  if (!original) throw new ChainRejection('No such transaction')
  if (original.height !== null) throw new ChainRejection('Already in a block')
  const tx = Transaction.fromHex(original.hex)
  const total = tx.outputs.reduce((sum, o) => sum + (o.satoshis ?? 0), 0)
  remove(ledger, txid)
  const replacement = new Transaction()
  for (const input of tx.inputs)
    replacement.addInput({
      sourceTXID: input.sourceTXID,
      sourceOutputIndex: input.sourceOutputIndex,
      unlockingScript: input.unlockingScript,
      sequence: input.sequence,
    })
  ledger.chain.nonce += 1
  const elsewhere = PrivateKey.fromString(
    (ledger.chain.nonce + 1000).toString(16).padStart(64, '0'),
    'hex',
  )
  replacement.addOutput({
    lockingScript: new P2PKH().lock(
      elsewhere.toAddress(ledger.network === 'main' ? 'mainnet' : 'testnet'),
    ),
    satoshis: total,
  })
  return add(ledger, replacement, false)
}

function reorg(ledger: Ledger, blocks: number): number {
  const { chain } = ledger
  const from = chain.height - blocks + 1
  // The orphaned blocks' coinbases leave the chain with them; the rest go back to the mempool.
  for (let h = from; h <= chain.height; h += 1) {
    const block = chain.blocks?.[String(h)]
    if (block) {
      remove(ledger, block.txids[0]!)
      ledger.trees.delete(block.hash)
    }
    delete chain.blocks?.[String(h)]
    delete chain.blockTimes?.[String(h)]
  }
  for (const stored of Object.values(chain.txs))
    if (stored.height !== null && stored.height >= from) stored.height = null
  chain.height = from - 1
  save(ledger)
  return chain.height
}

function entries(
  { chain, byAddress, seqOf }: Ledger,
  address: string,
  kind: 'confirmed' | 'unconfirmed',
): AddressEntry[] {
  const out: AddressEntry[] = []
  for (const txid of byAddress.get(address) ?? []) {
    const stored = chain.txs[txid]
    if (!stored || (kind === 'confirmed') !== (stored.height !== null)) continue
    out.push({ txid, height: stored.height, seq: seqOf.get(txid) ?? 0 })
  }
  return out.sort((a, b) => (b.height ?? 0) - (a.height ?? 0) || b.seq - a.seq)
}

function spender({ chain, spent }: Ledger, txid: string, vout: number): string | null | undefined {
  const stored = chain.txs[txid]
  if (!stored || !Number.isInteger(vout) || vout < 0) return undefined
  if (vout >= Transaction.fromHex(stored.hex).outputs.length) return undefined
  return spent.get(`${txid}:${vout}`) ?? null
}

function history(
  { chain, byAddress }: Ledger,
  address: string,
  kind: 'confirmed' | 'unconfirmed',
): { tx_hash: string; height?: number }[] {
  const out: { tx_hash: string; height?: number }[] = []
  for (const txid of byAddress.get(address) ?? []) {
    const stored = chain.txs[txid]
    if (!stored) continue
    if (kind === 'confirmed' && stored.height !== null)
      out.push({ tx_hash: txid, height: stored.height })
    if (kind === 'unconfirmed' && stored.height === null) out.push({ tx_hash: txid })
  }
  return out
}

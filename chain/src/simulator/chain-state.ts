import fs from 'node:fs'
import path from 'node:path'

import type { LockingScript } from '@bsv/sdk'
import { P2PKH, PrivateKey, Spend, Transaction, UnlockingScript, Utils } from '@bsv/sdk'

/**
 * The simulated chain: a mempool, blocks, and an index of which transactions pay which address.
 * It checks what a node would refuse for a payment (unknown or already spent inputs, outputs worth
 * more than inputs, bad signatures) and can mint coinbase-style funding for the test wallet.
 * State is kept in memory and, when a file is given, written after every change.
 */

type StoredTx = { hex: string; height: number | null; coinbase: boolean }
type StateFile = {
  height: number
  txs: Record<string, StoredTx>
  nonce: number
  /** Each mined block's time (unix seconds), by height. */
  blockTimes?: Record<string, number>
}

export type ChainEvent =
  { kind: 'tx'; txid: string; tx: Transaction } | { kind: 'block'; height: number; time: number }

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
  for (let i = 0; i < count; i += 1) {
    chain.height += 1
    chain.blockTimes[String(chain.height)] = Math.floor(Date.now() / 1000)
    if (i === 0)
      for (const stored of Object.values(chain.txs))
        if (stored.height === null) stored.height = chain.height
  }
  save(ledger)
  for (let h = chain.height - count + 1; h <= chain.height; h += 1)
    emit(ledger, { kind: 'block', height: h, time: chain.blockTimes[String(h)]! })
  return chain.height
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
  for (const stored of Object.values(chain.txs))
    if (stored.height !== null && stored.height >= from) stored.height = null
  for (let h = from; h <= chain.height; h += 1) delete chain.blockTimes?.[String(h)]
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

import crypto from 'node:crypto'
import { Worker } from 'node:worker_threads'

import { HD, Utils } from '@bsv/sdk'

/**
 * Payment addresses and the buyer's optional token address. No I/O: derivation uses only the
 * owner's extended public key (the server never holds a private key).
 */

export type BsvNetwork = 'main' | 'test'

const VERSION_BYTE: Record<BsvNetwork, number> = { main: 0x00, test: 0x6f }

const hdCache = new Map<string, HD>()

/** The P2PKH address of the xpub's public child at a non-hardened path such as m/0/7. */
export function deriveP2PKHAddress({
  xpub,
  path,
  network,
}: {
  xpub: string
  path: string
  network: BsvNetwork
}): string {
  // The parent of the last step (m/0 for order addresses) is cached: one derivation per address.
  const cut = path.lastIndexOf('/')
  const last = path.slice(cut + 1)
  const parentPath = path.slice(0, cut)
  if (cut > 1 && /^\d+$/.test(last) && Number(last) < 2 ** 31) {
    return publicChildAddress(parentAt(xpub, parentPath), Number(last), network)
  }
  return rootOf(xpub).derive(path).pubKey.toAddress(toNetwork(network))
}

/**
 * BIP32 public child derivation, the secp256k1 work done by OpenSSL (node:crypto): the tweak's
 * point IL*G from ECDH, one affine point addition in BigInt, HASH160 natively. @bsv/sdk's
 * pure-JavaScript `deriveChild` takes about 1.5 ms of every checkout (decision 014); this is about a
 * quarter of it. `addresses.test.ts` checks it against @bsv/sdk on random keys and indexes; the
 * cases BIP32 calls invalid (IL >= n, or a child at infinity: odds about 2^-127) answer null and
 * go to @bsv/sdk.
 *
 * Self-contained (it uses only its argument and Node's globals): the address thread runs it from
 * its source text (`addressThread`).
 */
export function childAddressDeriver(
  nodeCrypto: typeof crypto,
): (parent: ParentKey, index: number, version: number) => string | null {
  const P = 2n ** 256n - 2n ** 32n - 977n
  const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n
  const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'
  const ecdh = nodeCrypto.createECDH('secp256k1')
  const toBig = (bytes: Uint8Array) => BigInt(`0x${Buffer.from(bytes).toString('hex')}`)
  const mod = (a: bigint) => ((a % P) + P) % P
  const sha256 = (data: Uint8Array) => nodeCrypto.createHash('sha256').update(data).digest()
  /** a^-1 mod P (extended Euclid; a is never 0 here). */
  const invert = (a: bigint) => {
    let [r0, r1, s0, s1] = [P, a, 0n, 1n]
    while (r1 !== 0n) {
      const q = r0 / r1
      ;[r0, r1] = [r1, r0 - q * r1]
      ;[s0, s1] = [s1, s0 - q * s1]
    }
    return mod(s0)
  }
  const base58check = (version: number, hash: Uint8Array) => {
    const body = Buffer.concat([Buffer.of(version), hash])
    const bytes = Buffer.concat([body, sha256(sha256(body)).subarray(0, 4)])
    let out = ''
    for (let n = toBig(bytes); n > 0n; n /= 58n) out = BASE58[Number(n % 58n)] + out
    for (let i = 0; i < bytes.length && bytes[i] === 0; i += 1) out = `1${out}`
    return out
  }
  return (parent, index, version) => {
    const data = Buffer.alloc(37)
    data.set(parent.compressed)
    data.writeUInt32BE(index, 33)
    const tweak = nodeCrypto
      .createHmac('sha512', parent.chainCode)
      .update(data)
      .digest()
      .subarray(0, 32)
    const t = toBig(tweak)
    if (t === 0n || t >= N) return null
    ecdh.setPrivateKey(tweak)
    const point = ecdh.getPublicKey() // uncompressed: 04 || x || y
    const gx = toBig(point.subarray(1, 33))
    const gy = toBig(point.subarray(33))
    if (gx === parent.x) return null // doubling or infinity
    const slope = mod((gy - parent.y) * invert(mod(gx - parent.x)))
    const x = mod(slope * slope - parent.x - gx)
    const y = mod(slope * (parent.x - x) - parent.y)
    const child = Buffer.alloc(33)
    child[0] = y & 1n ? 0x03 : 0x02
    Buffer.from(x.toString(16).padStart(64, '0'), 'hex').copy(child, 1)
    return base58check(version, nodeCrypto.createHash('ripemd160').update(sha256(child)).digest())
  }
}

/** A parent public key, as child derivation needs it (and as it crosses to the address thread). */
type ParentKey = { x: bigint; y: bigint; compressed: Uint8Array; chainCode: Uint8Array }
type Parent = ParentKey & { hd: HD }

const parents = new Map<string, Parent>()
const childAddress = childAddressDeriver(crypto)

/** The xpub's public key at `path`, kept for the process's life. */
function parentAt(xpub: string, path: string): Parent {
  const key = `${xpub}|${path}`
  let parent = parents.get(key)
  if (!parent) {
    parent = parentOf(rootOf(xpub).derive(path))
    parents.set(key, parent)
  }
  return parent
}

function parentOf(hd: HD): Parent {
  const uncompressed = Buffer.from(hd.pubKey.encode(false) as number[])
  return {
    hd,
    x: BigInt(`0x${uncompressed.subarray(1, 33).toString('hex')}`),
    y: BigInt(`0x${uncompressed.subarray(33).toString('hex')}`),
    // Arrays of their own: a Buffer may be a view of a shared 8 KB pool, all of which a message
    // to the address thread would copy.
    compressed: Uint8Array.from(hd.pubKey.encode(true) as number[]),
    chainCode: Uint8Array.from(hd.chainCode),
  }
}

function publicChildAddress(parent: Parent, index: number, network: BsvNetwork): string {
  return (
    childAddress(parent, index, VERSION_BYTE[network]) ??
    parent.hd.deriveChild(index).pubKey.toAddress(toNetwork(network))
  )
}

const toNetwork = (network: BsvNetwork) => (network === 'main' ? 'mainnet' : 'testnet')

function rootOf(xpub: string): HD {
  let root = hdCache.get(xpub)
  if (!root) {
    root = HD.fromString(xpub)
    hdCache.set(xpub, root)
  }
  return root
}

type Wallet = { xpub: string; network: BsvNetwork }

/** The payment address of an order: BIP32 path m/0/index of the owner's xpub (receive chain). */
export function deriveOrderAddress({ xpub, index, network }: Wallet & { index: number }): string {
  if (!Number.isSafeInteger(index) || index < 0 || index >= 2 ** 31)
    throw new RangeError(`Not an address index: ${index}`)
  return (
    prepared.get(walletKey({ xpub, network }))?.ready.get(index) ??
    deriveP2PKHAddress({ xpub, path: `m/0/${index}`, network })
  )
}

/** Order addresses derived ahead of need by default (about a second of work, some 100 KB). */
export const ORDER_ADDRESSES_AHEAD = 1000

type Prepared = {
  wallet: Wallet
  ready: Map<number, string>
  from: number
  count: number
  /** The indexes up to this one (not included) have been asked of the address thread. */
  askedTo: number
  /** The ask of this turn of the event loop, once one is due. */
  asking?: NodeJS.Immediate
  /** Settled once every address of the range is ready. */
  whenReady?: { promise: Promise<void>; resolve: () => void }
}

const prepared = new Map<string, Prepared>()
const walletKey = ({ xpub, network }: Wallet) => `${network}|${xpub}`

/**
 * Derives the addresses of the `count` indexes from `from` ahead of need, on a thread of its own
 * (`addressThread`); `deriveOrderAddress` then answers them from memory. A checkout derived its
 * address while the buyer waited: about a millisecond of elliptic-curve work on the web process,
 * a sixth of a checkout under a rush (decision 014). Derived by the web process itself, in idle
 * moments, a rush past the prepared ones would derive each while its buyer waited, on the one
 * thread that answers every buyer. Called again with a later `from` (each checkout does), it
 * forgets the indexes before it and asks for the next ones, an eighth of the range at a time.
 * Resolves once all it asked for are ready (or once the thread is gone: then they are derived
 * when asked).
 */
export function prepareOrderAddresses({
  xpub,
  network,
  from,
  count = ORDER_ADDRESSES_AHEAD,
}: Wallet & { from: number; count?: number }): Promise<void> {
  const key = walletKey({ xpub, network })
  let state = prepared.get(key)
  if (!state) {
    state = { wallet: { xpub, network }, ready: new Map(), from, count, askedTo: from }
    prepared.set(key, state)
  }
  if (from > state.from) forget(state, from)
  state.count = count
  const end = Math.min(state.from + count, 2 ** 31)
  if (!state.whenReady) {
    let resolve!: () => void
    const promise = new Promise<void>((settle) => (resolve = settle))
    state.whenReady = { promise, resolve }
  }
  const { promise } = state.whenReady
  // Asked in parts of an eighth of the range (each ask is a message to the thread), at the end of
  // the turn of the event loop.
  const part = Math.max(1, count >> 3)
  if (!state.asking && end - Math.max(state.askedTo, state.from) >= part && !threadFailed)
    state.asking = setImmediate(() => ask(state)).unref()
  settleIfReady(state)
  return promise
}

/** Asks the address thread for the indexes of the range not asked for yet. */
function ask(state: Prepared) {
  const { xpub, network } = state.wallet
  state.asking = undefined
  const end = Math.min(state.from + state.count, 2 ** 31)
  const from = Math.max(state.askedTo, state.from)
  const worker = from < end ? addressThread() : undefined
  if (!worker) return settleIfReady(state)
  const parent = parentAt(xpub, 'm/0')
  worker.postMessage({
    key: walletKey({ xpub, network }),
    parent: {
      x: parent.x,
      y: parent.y,
      compressed: parent.compressed,
      chainCode: parent.chainCode,
    },
    version: VERSION_BYTE[network],
    from,
    to: end,
  } satisfies AddressJob)
  state.askedTo = end
}

/** Forgets the indexes before `from`: those a checkout just passed, one at a time. */
function forget(state: Prepared, from: number) {
  if (from - state.from <= state.ready.size)
    for (let index = state.from; index < from; index += 1) state.ready.delete(index)
  else for (const index of state.ready.keys()) if (index < from) state.ready.delete(index)
  state.from = from
}

/** Settles the wait for the range once all that was asked of the thread is ready. */
function settleIfReady(state: Prepared) {
  const asked = state.askedTo > state.from
  if (!state.whenReady) return
  if (!threadFailed && (state.asking || (asked && !state.ready.has(state.askedTo - 1)))) return
  state.whenReady.resolve()
  state.whenReady = undefined
}

/** A range of indexes for the address thread, and what it answers, a part at a time. */
type AddressJob = { key: string; parent: ParentKey; version: number; from: number; to: number }
type AddressPart = { key: string; from: number; addresses: (string | null)[] }

let thread: Worker | undefined
/** The address thread could not start, or failed: addresses are derived when asked. */
let threadFailed = false

/**
 * The thread that derives order addresses ahead, started at the first need. It runs
 * `addressThreadMain` with `childAddressDeriver` from their source text, so it loads no module of
 * the shop (the same in a test, a development run and the production bundle). It never keeps the
 * process alive; if it fails, the addresses are derived when asked, as before it existed.
 */
function addressThread(): Worker | undefined {
  if (thread) return thread
  try {
    thread = new Worker(`(${addressThreadMain.toString()})(${childAddressDeriver.toString()})`, {
      eval: true,
      name: 'order addresses',
    })
  } catch (error) {
    console.warn('[addresses] no address thread; deriving addresses when asked:', error)
    threadFailed = true
    return undefined
  }
  thread.unref()
  thread.on('message', (part: AddressPart) => {
    const state = prepared.get(part.key)
    if (!state) return
    part.addresses.forEach((address, i) => {
      const index = part.from + i
      if (index < state.from) return
      state.ready.set(
        index,
        address ?? deriveP2PKHAddress({ ...state.wallet, path: `m/0/${index}` }),
      )
    })
    settleIfReady(state)
  })
  thread.on('error', (error) => {
    console.warn('[addresses] the address thread failed; deriving addresses when asked:', error)
    thread = undefined
    threadFailed = true
    for (const state of prepared.values()) settleIfReady(state)
  })
  return thread
}

/**
 * The address thread's body, run from its source text: it may use only its argument and Node's
 * globals. It derives each range it is asked for, in order, a part of 64 at a time, answering each
 * part as it is done and letting messages in between parts.
 */
function addressThreadMain(deriver: typeof childAddressDeriver) {
  const { parentPort } = process.getBuiltinModule('node:worker_threads')
  const derive = deriver(process.getBuiltinModule('node:crypto'))
  const jobs: AddressJob[] = []
  let running = false
  const step = () => {
    const job = jobs[0]
    if (!job) {
      running = false
      return
    }
    const end = Math.min(job.from + 64, job.to)
    const addresses: (string | null)[] = []
    for (let index = job.from; index < end; index += 1)
      addresses.push(derive(job.parent, index, job.version))
    parentPort!.postMessage({ key: job.key, from: job.from, addresses } satisfies AddressPart)
    job.from = end
    if (job.from >= job.to) jobs.shift()
    setImmediate(step)
  }
  parentPort!.on('message', (job: AddressJob) => {
    jobs.push(job)
    if (!running) {
      running = true
      setImmediate(step)
    }
  })
}

/** The network of a valid P2PKH address (base58check, 20-byte hash), or null. */
export function p2pkhNetwork(address: string): BsvNetwork | null {
  if (!/^[1-9A-HJ-NP-Za-km-z]{25,35}$/.test(address)) return null
  try {
    const { prefix, data } = Utils.fromBase58Check(address)
    const version = Array.isArray(prefix) ? prefix[0] : Number.parseInt(String(prefix), 16)
    const length = typeof data === 'string' ? data.length / 2 : data.length
    if (length !== 20 || (Array.isArray(prefix) && prefix.length !== 1)) return null
    if (version === VERSION_BYTE.main) return 'main'
    if (version === VERSION_BYTE.test) return 'test'
    return null
  } catch {
    return null
  }
}

export function isP2PKHAddress(address: string, network?: BsvNetwork): boolean {
  const found = p2pkhNetwork(address)
  return found !== null && (network === undefined || found === network)
}

/** alias@domain.tld (bsvalias). The format only: resolving it is the sender's wallet's job. */
export function isPaymail(value: string): boolean {
  if (value.length > 254) return false
  return /^[a-z0-9._+-]{1,64}@(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i.test(
    value,
  )
}

/** The spec's token address: optional, trimmed, '' is none; otherwise a paymail or a P2PKH address. */
export function normalizeTokenAddress(
  value: string | null | undefined,
): { ok: true; value: string | null } | { ok: false } {
  const trimmed = (value ?? '').trim()
  if (trimmed === '') return { ok: true, value: null }
  if (isPaymail(trimmed) || isP2PKHAddress(trimmed)) return { ok: true, value: trimmed }
  return { ok: false }
}

import crypto from 'node:crypto'
import { performance, type EventLoopUtilization } from 'node:perf_hooks'

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
    const key = `${xpub}|${parentPath}`
    let parent = parents.get(key)
    if (!parent) {
      parent = parentOf(rootOf(xpub).derive(parentPath))
      parents.set(key, parent)
    }
    return publicChildAddress(parent, Number(last), network)
  }
  return rootOf(xpub).derive(path).pubKey.toAddress(toNetwork(network))
}

/**
 * BIP32 public child derivation, the secp256k1 work done by OpenSSL (node:crypto): the tweak's
 * point IL*G from ECDH, one affine point addition in BigInt, HASH160 natively. @bsv/sdk's
 * pure-JavaScript `deriveChild` took about 1.5 ms of every checkout (issue 18); this is about a
 * quarter of it. `addresses.test.ts` checks it against @bsv/sdk on random keys and indexes; the
 * cases BIP32 calls invalid (IL >= n, or a child at infinity: odds about 2^-127) go to @bsv/sdk.
 */
type Parent = { hd: HD; x: bigint; y: bigint; compressed: Buffer; chainCode: Buffer }

const P = 2n ** 256n - 2n ** 32n - 977n
const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n
const parents = new Map<string, Parent>()
const ecdh = crypto.createECDH('secp256k1')

const toBig = (bytes: Uint8Array) => BigInt(`0x${Buffer.from(bytes).toString('hex')}`)
const mod = (a: bigint) => ((a % P) + P) % P

/** a^-1 mod P (extended Euclid; a is never 0 here). */
function invert(a: bigint): bigint {
  let [r0, r1, s0, s1] = [P, a, 0n, 1n]
  while (r1 !== 0n) {
    const q = r0 / r1
    ;[r0, r1] = [r1, r0 - q * r1]
    ;[s0, s1] = [s1, s0 - q * s1]
  }
  return mod(s0)
}

function parentOf(hd: HD): Parent {
  const uncompressed = Buffer.from(hd.pubKey.encode(false) as number[])
  return {
    hd,
    x: toBig(uncompressed.subarray(1, 33)),
    y: toBig(uncompressed.subarray(33)),
    compressed: Buffer.from(hd.pubKey.encode(true) as number[]),
    chainCode: Buffer.from(hd.chainCode),
  }
}

function publicChildAddress(parent: Parent, index: number, network: BsvNetwork): string {
  const data = Buffer.alloc(37)
  parent.compressed.copy(data)
  data.writeUInt32BE(index, 33)
  const tweak = crypto.createHmac('sha512', parent.chainCode).update(data).digest().subarray(0, 32)
  const t = toBig(tweak)
  const sdk = () => parent.hd.deriveChild(index).pubKey.toAddress(toNetwork(network))
  if (t === 0n || t >= N) return sdk()
  ecdh.setPrivateKey(tweak)
  const point = ecdh.getPublicKey() // uncompressed: 04 || x || y
  const gx = toBig(point.subarray(1, 33))
  const gy = toBig(point.subarray(33))
  if (gx === parent.x) return sdk() // doubling or infinity
  const slope = mod((gy - parent.y) * invert(mod(gx - parent.x)))
  const x = mod(slope * slope - parent.x - gx)
  const y = mod(slope * (parent.x - x) - parent.y)
  const child = Buffer.alloc(33)
  child[0] = y & 1n ? 0x03 : 0x02
  Buffer.from(x.toString(16).padStart(64, '0'), 'hex').copy(child, 1)
  const sha = crypto.createHash('sha256').update(child).digest()
  const hash160 = crypto.createHash('ripemd160').update(sha).digest()
  return Utils.toBase58Check([...hash160], [VERSION_BYTE[network]])
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
  ready: Map<number, string>
  from: number
  count: number
  timer?: NodeJS.Timeout
  /** The event loop's use at the last tick, to tell a busy process from an idle one. */
  used?: EventLoopUtilization
  /** Settled once every address of the range is ready. */
  whenReady?: { promise: Promise<void>; resolve: () => void }
}

const prepared = new Map<string, Prepared>()
const walletKey = ({ xpub, network }: Wallet) => `${network}|${xpub}`

/**
 * How often, and for how long at most, the process derives while it is idle: a millisecond in
 * twenty (about one address), so a request arriving meanwhile waits a millisecond at most, and
 * the next 1,000 are ready some 20 s after a start or a rush.
 */
const TICK_MS = 20
const SLICE_MS = 1
/** Busier than this since the last tick (share of the time), the process derives nothing. */
const BUSY = 0.25

/**
 * Derives the addresses of the `count` indexes from `from` ahead of need, in slices of a
 * millisecond while the process is otherwise idle; `deriveOrderAddress` then answers them from
 * memory. A checkout derived its address while the buyer waited: about a millisecond of
 * elliptic-curve work on the web process, a sixth of a checkout under a rush (issue 18). Called
 * again with a later `from`, it forgets the indexes before it and derives the next ones.
 * Resolves once all are ready.
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
    state = { ready: new Map(), from, count }
    prepared.set(key, state)
  }
  if (from > state.from) forget(state, from)
  state.count = count
  if (!state.whenReady) {
    let resolve!: () => void
    const promise = new Promise<void>((settle) => (resolve = settle))
    state.whenReady = { promise, resolve }
  }
  const { promise } = state.whenReady
  // Later, never now: called from a checkout, it must not derive while the buyer waits.
  if (!state.timer) schedule({ xpub, network }, state, 0)
  return promise
}

/** Forgets the indexes before `from`: those a checkout just passed, one at a time. */
function forget(state: Prepared, from: number) {
  if (from - state.from <= state.ready.size)
    for (let index = state.from; index < from; index += 1) state.ready.delete(index)
  else for (const index of state.ready.keys()) if (index < from) state.ready.delete(index)
  state.from = from
}

function schedule(wallet: Wallet, state: Prepared, ms: number) {
  state.timer = setTimeout(() => tick(wallet, state), ms)
  state.timer.unref()
}

function tick(wallet: Wallet, state: Prepared) {
  state.timer = undefined
  const used = performance.eventLoopUtilization()
  const busy = state.used && performance.eventLoopUtilization(used, state.used).utilization > BUSY
  state.used = used
  const end = Math.min(state.from + state.count, 2 ** 31)
  let index = state.from
  if (!busy) {
    const started = performance.now()
    for (; index < end && performance.now() - started < SLICE_MS; index += 1)
      if (!state.ready.has(index))
        state.ready.set(index, deriveP2PKHAddress({ ...wallet, path: `m/0/${index}` }))
  }
  while (index < end && state.ready.has(index)) index += 1
  if (index >= end) {
    state.whenReady?.resolve()
    state.whenReady = undefined
    return
  }
  schedule(wallet, state, TICK_MS)
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

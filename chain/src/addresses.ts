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
  if (cut > 1 && /^\d+$/.test(last)) {
    const key = `${xpub}|${parentPath}`
    let parent = hdCache.get(key)
    if (!parent) {
      parent = rootOf(xpub).derive(parentPath)
      hdCache.set(key, parent)
    }
    return parent.deriveChild(Number(last)).pubKey.toAddress(toNetwork(network))
  }
  return rootOf(xpub).derive(path).pubKey.toAddress(toNetwork(network))
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

/** The payment address of an order: BIP32 path m/0/index of the owner's xpub (receive chain). */
export function deriveOrderAddress({
  xpub,
  index,
  network,
}: {
  xpub: string
  index: number
  network: BsvNetwork
}): string {
  if (!Number.isSafeInteger(index) || index < 0 || index >= 2 ** 31)
    throw new RangeError(`Not an address index: ${index}`)
  return deriveP2PKHAddress({ xpub, path: `m/0/${index}`, network })
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

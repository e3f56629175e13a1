import net from 'node:net'

/** What express's `trust proxy` accepts from TRUST_PROXY: nobody, a hop count, or addresses. */
export type TrustProxy = false | number | string[]

const NAMED = new Set(['loopback', 'linklocal', 'uniquelocal'])

/**
 * Reads TRUST_PROXY. Default: trust nobody, so a client cannot choose its own address with a
 * forged X-Forwarded-For (every per-client rate limit depends on it). Behind a reverse proxy,
 * name the proxy: `loopback`, its address or subnet (`172.18.0.0/16`), a comma-separated list,
 * or the number of proxy hops. `true` (trust anyone) is refused: it is the forgery hole itself.
 */
export function parseTrustProxy(value: string | undefined): TrustProxy | { problem: string } {
  const text = value?.trim() ?? ''
  if (text === '' || text === 'false' || text === '0') return false
  if (text === 'true')
    return {
      problem:
        'TRUST_PROXY=true would let any client forge its address: name the proxy (loopback, its address or subnet) or give the number of hops.',
    }
  if (/^\d+$/.test(text)) return Number(text)
  const entries = text.split(',').map((entry) => entry.trim())
  for (const entry of entries) {
    if (NAMED.has(entry)) continue
    const [address, prefix, ...rest] = entry.split('/')
    const family = net.isIP(address ?? '')
    const prefixOk =
      prefix === undefined || (/^\d+$/.test(prefix) && Number(prefix) <= (family === 6 ? 128 : 32))
    if (!family || !prefixOk || rest.length > 0)
      return {
        problem: `TRUST_PROXY: "${entry}" is not loopback, linklocal, uniquelocal, an IP address or a subnet.`,
      }
  }
  return entries
}

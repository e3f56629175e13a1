import http from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Socket } from 'node:net'

/**
 * A WhatsOnChain stand-in that misbehaves: a local HTTP proxy in front of the chain simulator
 * that, on a seeded random schedule, answers 5xx or 429, hangs until the client gives up,
 * resets the connection, or sends malformed or wrongly shaped JSON. Everything else is passed
 * through unchanged.
 */

export const FAULT_KINDS = [
  'error-500',
  'error-503',
  'throttled-429',
  'malformed-json',
  'wrong-shape',
  'reset',
  'hang',
] as const
export type FaultKind = (typeof FAULT_KINDS)[number]

export type FaultyChain = {
  /** The WhatsOnChain base URL to give the worker. */
  wocUrl: string
  injected: Record<FaultKind, number>
  passed: () => number
  /** Stops injecting faults (the chain recovers). */
  heal: () => void
  close: () => Promise<void>
}

/** mulberry32: a small seeded generator, so a failing schedule can be replayed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

export async function startFaultyChain({
  target,
  seed,
  faultRate = 0.2,
  maxHangs = 2,
}: {
  /** The simulator's WhatsOnChain base URL (…/v1/bsv/test). */
  target: string
  seed: number
  faultRate?: number
  maxHangs?: number
}): Promise<FaultyChain> {
  const random = seededRandom(seed)
  const targetUrl = new URL(target)
  const injected = Object.fromEntries(FAULT_KINDS.map((k) => [k, 0])) as Record<FaultKind, number>
  let passed = 0
  let healthy = false
  const sockets = new Set<Socket>()

  const pickFault = (): FaultKind | null => {
    if (healthy || random() >= faultRate) return null
    const kinds = FAULT_KINDS.filter((k) => k !== 'hang' || injected.hang < maxHangs)
    return kinds[Math.floor(random() * kinds.length)]!
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      void (async () => {
        const fault = pickFault()
        if (fault) injected[fault] += 1
        if (fault === 'hang') return // never answers: the client's timeout must fire
        if (fault === 'reset') return req.socket.destroy()
        if (fault?.startsWith('error') || fault === 'throttled-429') {
          res.writeHead(Number(fault.slice(-3)), { 'content-type': 'text/plain' })
          return res.end('simulated failure')
        }
        const upstream = await fetch(
          `${targetUrl.origin}${targetUrl.pathname}${req.url!.slice(prefixOf(req.url!, targetUrl))}`,
          {
            method: req.method,
            headers: { 'content-type': req.headers['content-type'] ?? 'application/json' },
            body: req.method === 'GET' ? undefined : Buffer.concat(chunks),
          },
        )
        const body = await upstream.text()
        const type = upstream.headers.get('content-type') ?? 'text/plain'
        if (fault === 'malformed-json') {
          res.writeHead(200, { 'content-type': 'application/json' })
          return res.end(body.length > 2 ? body.slice(0, Math.floor(body.length / 2)) : '{"x":')
        }
        if (fault === 'wrong-shape') {
          res.writeHead(200, { 'content-type': 'application/json' })
          return res.end(JSON.stringify({ unexpected: true, blocks: 'many', result: 'nope' }))
        }
        passed += 1
        res.writeHead(upstream.status, { 'content-type': type })
        res.end(body)
      })().catch(() => {
        if (!res.headersSent) res.writeHead(502).end()
      })
    })
  })
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    wocUrl: `http://127.0.0.1:${port}${targetUrl.pathname}`,
    injected,
    passed: () => passed,
    heal: () => {
      healthy = true
    },
    close: async () => {
      for (const socket of sockets) socket.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

/** The proxy listens under the same path prefix as the simulator; strip it when forwarding. */
function prefixOf(url: string, target: URL): number {
  return url.startsWith(target.pathname) ? target.pathname.length : 0
}

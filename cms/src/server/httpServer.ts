import http from 'node:http'

import type { Express } from 'express'

/**
 * How long an idle keep-alive connection stays open: longer than the clients and proxies in
 * front keep theirs (undici's 4 s, Caddy's 2 minutes go by the server's `Keep-Alive` hint), so
 * the server never closes a connection at the moment a client sends on it. With Node's 5 s, a
 * request that a client sent on a connection idle for about 5 s met a closed socket and failed
 * with ECONNRESET: a POST is not retried.
 */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000

/** The shop's HTTP server around its express app: production's and the tests' alike. */
export function createHttpServer(app: Express): http.Server {
  const server = http.createServer(app)
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS
  return server
}

/**
 * Stops taking connections and resolves once every request in flight has been answered: idle
 * keep-alive connections close at once, busy ones as soon as their answer is sent (Node's
 * `close()` alone keeps them open for the keep-alive time), and those still busy after
 * `graceMs` are cut.
 */
export async function closeServer(server: http.Server, graceMs = 5_000): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()))
  const sweep = setInterval(() => server.closeIdleConnections(), 20)
  const cut = setTimeout(() => server.closeAllConnections(), graceMs)
  server.closeIdleConnections()
  try {
    await closed
  } finally {
    clearInterval(sweep)
    clearTimeout(cut)
  }
}

import http from 'node:http'

import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import type { TestShop } from '../support/testShop'
import { startTestShop } from '../support/testShop'

/**
 * A GET, HEAD or OPTIONS request that carries a body gets its whole answer: the body is read
 * before the answer goes, so closing the connection afterwards does not reset it. One over 1 MB
 * is refused with 413 and a reason.
 */

let shop: TestShop

beforeAll(async () => {
  shop = await startTestShop()
})

afterAll(async () => {
  await shop?.close()
})

/** One request on its own connection (closed after the answer), and what came back. */
function send(method: string, path: string, body: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; text: string } | { error: string }>((resolve) => {
    const url = new URL(shop.url)
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        method,
        path,
        agent: false,
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      },
      (res) => {
        let text = ''
        res.on('data', (chunk: Buffer) => (text += chunk.toString()))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }))
        res.on('error', (error) => resolve({ error: error.message }))
      },
    )
    req.on('error', (error) =>
      resolve({ error: (error as NodeJS.ErrnoException).code ?? error.message }),
    )
    req.end(body)
  })
}

describe('a bodiless request with a body', () => {
  it('is answered in full, however quick the answer', async () => {
    const etag = (await fetch(`${shop.url}/api/shop-config`)).headers.get('etag')
    const outcomes = new Map<string, number>()
    for (let i = 0; i < 40; i += 1)
      for (const [method, path, headers] of [
        ['GET', '/healthz', {}],
        ['GET', '/test-mode/outbox', {}],
        ['GET', '/store', { 'accept-encoding': 'identity' }],
        ['GET', '/api/products', {}],
        ['GET', '/api/shop-config', etag ? { 'if-none-match': etag } : {}],
        ['OPTIONS', '/api/products', {}],
        ['GET', '/api/no-such-route', { 'content-type': 'application/json; charset=utf-16' }],
      ] as const) {
        const answer = await send(method, path, 'x'.repeat(70_000 + i * 5_000), headers)
        const key = 'error' in answer ? `${method} ${path}: ${answer.error}` : `${answer.status}`
        outcomes.set(key, (outcomes.get(key) ?? 0) + 1)
      }
    expect([...outcomes.keys()].filter((k) => k.includes(':'))).toEqual([])
  })

  it('is refused with 413 and a reason over 1 MB', async () => {
    const answer = await send('GET', '/api/products', 'x'.repeat(1024 * 1024 + 1))
    expect(answer).toEqual({
      status: 413,
      text: JSON.stringify({ error: 'A GET request carries no body; this one is over 1 MB.' }),
    })
  })
})

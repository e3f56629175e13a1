import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { Writable } from 'node:stream'

import express from 'express'
import pino from 'pino'
import { pinoHttp } from 'pino-http'
import { describe, expect, it } from 'vitest'

import { logEachRequest, orderIdOf, requestLogOptions } from './requestLog'

/** One short line per request, without the headers (with every header, a line is 1.4 KB). */
describe('the request log', () => {
  it('writes method, path, status, time and the order id, and no headers', async () => {
    const lines: string[] = []
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk))
        done()
      },
    })
    const app = express()
    app.use(pinoHttp({ logger: pino({}, sink) as pino.Logger, ...requestLogOptions }))
    app.get('/api/orders/:id/info', (_req, res) => {
      res.json({ ok: true })
    })
    const server = http.createServer(app)
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const id = '6f1c2b9e-4d7a-4c1e-9b3f-2a8d5e7c1f04'
    const { port } = server.address() as AddressInfo
    await fetch(`http://127.0.0.1:${port}/api/orders/${id}/info?token=secret-in-query`, {
      headers: { cookie: 'payload-token=very-secret-cookie', 'user-agent': 'x'.repeat(300) },
    })
    await new Promise<void>((resolve) => server.close(() => resolve()))
    expect(lines).toHaveLength(1)
    const line = JSON.parse(lines[0]!) as Record<string, unknown>
    expect(line.msg).toMatch(new RegExp(`^GET /api/orders/${id}/info 200 \\d+ ms$`))
    expect(line.orderId).toBe(id)
    expect(line.req).toBeUndefined()
    expect(line.res).toBeUndefined()
    expect(lines[0]).not.toContain('very-secret-cookie')
    expect(lines[0]).not.toContain('secret-in-query')
    expect(lines[0]).not.toContain('xxxxxxxx')
    expect(lines[0]!.length).toBeLessThan(300)
  })

  it("is the same line, at the status's level, from a route ahead of pino-http (checkout)", async () => {
    const lines: [string, string][] = []
    const logger = {
      info: (line: string) => void lines.push(['info', line]),
      warn: (line: string) => void lines.push(['warn', line]),
      error: (line: string) => void lines.push(['error', line]),
    }
    const app = express()
    app.use('/api/orders/create', logEachRequest(logger), (req, res) => {
      res.status(Number(req.query.status)).json({ ok: true })
    })
    const server = http.createServer(app)
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const { port } = server.address() as AddressInfo
    for (const status of [201, 429, 503])
      await fetch(`http://127.0.0.1:${port}/api/orders/create?status=${status}`, { method: 'POST' })
    await new Promise<void>((resolve) => server.close(() => resolve()))
    expect(lines.map(([level]) => level)).toEqual(['info', 'warn', 'error'])
    expect(lines.map(([, line]) => line.replace(/\d+ ms$/, 'N ms'))).toEqual([
      'POST /api/orders/create 201 N ms',
      'POST /api/orders/create 429 N ms',
      'POST /api/orders/create 503 N ms',
    ])
  })

  it('finds the order id in the paths that carry one', () => {
    const id = '6f1c2b9e-4d7a-4c1e-9b3f-2a8d5e7c1f04'
    expect(orderIdOf(`/api/orders/${id}/payment-status`)).toBe(id)
    expect(orderIdOf(`/api/admin/orders/${id}`)).toBe(id)
    expect(orderIdOf(`/pay/${id}?x=1`)).toBe(id)
    expect(orderIdOf('/api/orders/create')).toBeUndefined()
    expect(orderIdOf('/api/products')).toBeUndefined()
  })
})

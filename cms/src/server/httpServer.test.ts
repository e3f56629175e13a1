import type http from 'node:http'
import type { AddressInfo } from 'node:net'

import express from 'express'
import { afterEach, describe, expect, it } from 'vitest'

import { closeServer, createHttpServer } from './httpServer'

/** A server whose `/slow` answers 20 kB after `delayMs`, the time a busy shop might take. */
async function serverAnsweringAfter(delayMs: number) {
  const app = express()
  app.get('/slow', (_req, res) => {
    setTimeout(() => res.type('text').send('x'.repeat(20_000)), delayMs)
  })
  app.get('/quick', (_req, res) => res.type('text').send('ok'))
  const server = createHttpServer(app)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return { server, url }
}

let open: http.Server | undefined
afterEach(() => {
  open?.closeAllConnections()
  open?.close()
})

describe('closeServer', () => {
  it('answers the requests in flight in full, then closes, not after the keep-alive time', async () => {
    const { server, url } = await serverAnsweringAfter(300)
    open = server
    // An idle keep-alive connection, and one busy with an answer still to come.
    expect(await (await fetch(`${url}/quick`)).text()).toBe('ok')
    const answer = fetch(`${url}/slow`).then((response) => response.text())
    await new Promise<void>((resolve) => server.once('request', () => resolve()))
    const started = Date.now()
    await closeServer(server)
    expect(await answer).toHaveLength(20_000)
    // The keep-alive time is 65 s; the connection closes as soon as its answer is sent.
    expect(Date.now() - started).toBeLessThan(5_000)
    expect(server.listening).toBe(false)
  })

  it('cuts a request still unanswered after the grace time', async () => {
    const { server, url } = await serverAnsweringAfter(60_000)
    open = server
    const answer = fetch(`${url}/slow`).then(
      () => 'answered',
      (error: Error) => error.message,
    )
    await new Promise<void>((resolve) => server.once('request', () => resolve()))
    await closeServer(server, 200)
    expect(await answer).toBe('fetch failed')
    expect(server.listening).toBe(false)
  })
})

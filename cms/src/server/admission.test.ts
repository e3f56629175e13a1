import type { AddressInfo } from 'node:net'
import type { Server } from 'node:http'

import express from 'express'
import { afterEach, describe, expect, it } from 'vitest'

import { admissionGate } from './admission'

let server: Server | undefined
afterEach(
  () => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())),
)

/** A real express app whose route holds each request until the test lets it go. */
async function appWith(settings: { concurrency: number; queue: number; maxWaitMs: number }) {
  const held: Array<() => void> = []
  const gate = admissionGate({
    ...settings,
    busy: (res, retryAfterSeconds) =>
      res
        .status(503)
        .set('Retry-After', String(retryAfterSeconds))
        .json({ success: false, busy: true, error: 'busy' }),
  })
  const app = express()
  app.post('/work', gate, (_req, res) => {
    held.push(() => res.json({ success: true }))
  })
  server = app.listen(0, '127.0.0.1')
  await new Promise((resolve) => server!.once('listening', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/work`
  const send = (init: RequestInit = {}) => fetch(url, { method: 'POST', ...init })
  const until = async (check: () => boolean) => {
    while (!check()) await new Promise((resolve) => setImmediate(resolve))
  }
  return { gate, held, send, until }
}

describe('admission gate', () => {
  it('serves up to its concurrency, queues up to its queue, and turns the next away at once', async () => {
    const { gate, held, send, until } = await appWith({
      concurrency: 1,
      queue: 1,
      maxWaitMs: 10_000,
    })
    const first = send()
    await until(() => held.length === 1)
    const second = send()
    await until(() => gate.state().waiting === 1)

    const started = Date.now()
    const third = await send()
    expect(third.status).toBe(503)
    expect(third.headers.get('retry-after')).toBe('10')
    expect(await third.json()).toEqual({ success: false, busy: true, error: 'busy' })
    expect(Date.now() - started).toBeLessThan(1000)

    held.shift()!()
    expect((await first).status).toBe(200)
    await until(() => held.length === 1)
    expect(gate.state()).toEqual({ active: 1, waiting: 0 })
    held.shift()!()
    expect((await second).status).toBe(200)
    await until(() => gate.state().active === 0)
  })

  it('turns away a request still waiting after maxWaitMs, and lets the next one in', async () => {
    const { gate, held, send, until } = await appWith({ concurrency: 1, queue: 5, maxWaitMs: 150 })
    const first = send()
    await until(() => held.length === 1)
    const waited = await send()
    expect(waited.status).toBe(503)
    expect(waited.headers.get('retry-after')).toBe('1')
    expect(gate.state()).toEqual({ active: 1, waiting: 0 })

    held.shift()!()
    expect((await first).status).toBe(200)
    const later = send()
    await until(() => held.length === 1)
    held.shift()!()
    expect((await later).status).toBe(200)
  })

  it('frees the place of a buyer who gave up while waiting', async () => {
    const { gate, held, send, until } = await appWith({
      concurrency: 1,
      queue: 1,
      maxWaitMs: 10_000,
    })
    const first = send()
    await until(() => held.length === 1)
    const controller = new AbortController()
    const abandoned = send({ signal: controller.signal }).catch(() => 'aborted')
    await until(() => gate.state().waiting === 1)
    controller.abort()
    expect(await abandoned).toBe('aborted')
    await until(() => gate.state().waiting === 0)
    // The place is free again: the next buyer queues instead of being turned away.
    const next = send()
    await until(() => gate.state().waiting === 1)
    held.shift()!()
    expect((await first).status).toBe(200)
    await until(() => held.length === 1)
    held.shift()!()
    expect((await next).status).toBe(200)
  })
})

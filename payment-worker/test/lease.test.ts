import type { ChildProcess } from 'node:child_process'

import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { slugs } from '@shop/cms/engine'
import { claimLease, releaseLease, WORKER_LEASE } from '@shop/cms/testing'
import { sharedShopEnv, spawnTs } from './payments/spawn'
import type { PaymentsHarness } from './payments/support'
import {
  api,
  createOrder,
  productIdOf,
  startPaymentsHarness,
  waitFor,
  waitForStatus,
} from './payments/support'

/**
 * One worker at a time (decision 010): two worker processes on one database, one runs
 * passes, the other waits; killed, the active one is replaced within the lease's time.
 */
const LEASE_SECONDS = 3
let h: PaymentsHarness
let pdfId: number
const workers: { child: ChildProcess; output: () => string; exited: Promise<number | null> }[] = []

beforeAll(async () => {
  h = await startPaymentsHarness({ worker: false, env: { CONFIRMATIONS_REQUIRED: '0' } })
  pdfId = await productIdOf(h.shop.payload, 'DIGITAL')
})

afterAll(async () => {
  for (const w of workers) if (w.child.exitCode === null) w.child.kill('SIGKILL')
  await h?.close()
})

const startWorker = () => {
  const worker = spawnTs('payment-worker/src/main.ts', {
    ...sharedShopEnv(),
    LOG_LEVEL: 'info',
    WORKER_LEASE_SECONDS: String(LEASE_SECONDS),
  })
  workers.push(worker)
  return worker
}
const holds = (w: { output: () => string }) =>
  w.output().includes('payment worker holds the lease: running passes')
const standsBy = (w: { output: () => string }) =>
  w.output().includes('another payment worker holds the lease')

describe('the worker lease', () => {
  it('is held by one claimant at a time, renewed by its holder in its epoch, free once it runs out or is given up', async () => {
    const { payload } = h.shop
    const name = 'lease-test'
    expect(await claimLease({ payload, name, holder: 'a', ttlMs: 60_000 })).toBe(1)
    expect(await claimLease({ payload, name, holder: 'b', ttlMs: 60_000 })).toBeNull()
    // A renewal of a running lease keeps its epoch.
    expect(await claimLease({ payload, name, holder: 'a', ttlMs: 200 })).toBe(1)
    const ranOut = async () => {
      const [lease] = (
        await payload.find({ collection: slugs.leases, where: { name: { equals: name } } })
      ).docs
      return lease && new Date(lease.expiresAt).getTime() < Date.now()
    }
    await waitFor(ranOut)
    // The same holder after its lease lapsed: a new epoch (someone may have held it meanwhile).
    expect(await claimLease({ payload, name, holder: 'a', ttlMs: 200 })).toBe(2)
    await waitFor(ranOut)
    // Concurrent claims after it ran out: exactly one wins, in the next epoch.
    const claims = await Promise.all(
      ['c', 'd', 'e', 'f'].map((holder) => claimLease({ payload, name, holder, ttlMs: 60_000 })),
    )
    expect(claims.filter((epoch) => epoch !== null)).toEqual([3])
    const winner = ['c', 'd', 'e', 'f'][claims.indexOf(3)]!
    await releaseLease({ payload, name, holder: 'someone else' })
    expect(await claimLease({ payload, name, holder: 'g', ttlMs: 60_000 })).toBeNull()
    await releaseLease({ payload, name, holder: winner })
    expect(await claimLease({ payload, name, holder: 'g', ttlMs: 60_000 })).toBe(4)
  })

  it('lets one of two workers run; the standby takes over within the lease time when it is killed', async () => {
    const first = startWorker()
    await waitFor(async () => holds(first), { timeoutMs: 60_000 })
    const second = startWorker()
    await waitFor(async () => standsBy(second), { timeoutMs: 60_000 })

    // The active worker serves orders; the standby does nothing meanwhile.
    const before = await createOrder(h.shop, pdfId)
    expect((await api(h.shop, `/api/test-mode/orders/${before}/pay`, { body: {} })).status).toBe(
      200,
    )
    await waitForStatus(h.shop.payload, before, 'PAID', 30_000)
    expect(holds(second)).toBe(false)
    const [lease] = (
      await h.shop.payload.find({
        collection: slugs.leases,
        where: { name: { equals: WORKER_LEASE } },
      })
    ).docs
    expect(lease?.holder).toBe(`${lease?.holder.split(':')[0]}:${first.child.pid}`)

    first.child.kill('SIGKILL')
    const killedAt = Date.now()
    await first.exited
    await waitFor(async () => holds(second), { timeoutMs: 30_000, intervalMs: 50 })
    const takeover = Date.now() - killedAt
    console.log(`[lease] the standby took over ${takeover} ms after the active worker was killed`)
    expect(takeover).toBeLessThanOrEqual((LEASE_SECONDS + LEASE_SECONDS / 3 + 2) * 1000)

    const after = await createOrder(h.shop, pdfId)
    expect((await api(h.shop, `/api/test-mode/orders/${after}/pay`, { body: {} })).status).toBe(200)
    await waitForStatus(h.shop.payload, after, 'PAID', 30_000)

    // A clean stop gives the lease up at once: no standby waits for it to run out.
    second.child.kill('SIGTERM')
    expect(await second.exited).toBe(0)
    const [given] = (
      await h.shop.payload.find({
        collection: slugs.leases,
        where: { name: { equals: WORKER_LEASE } },
      })
    ).docs
    expect(new Date(given!.expiresAt).getTime()).toBeLessThan(Date.now())
  })

  it('detects a payment made 5 s after the holder is SIGKILLed within two lease periods plus 5 s', async () => {
    const holder = startWorker()
    await waitFor(async () => holds(holder), { timeoutMs: 60_000 })
    const standby = startWorker()
    await waitFor(async () => standsBy(standby), { timeoutMs: 60_000 })
    // A buyer at the pay screen when the holder dies: its order is fresh.
    const orderId = await createOrder(h.shop, pdfId)
    holder.child.kill('SIGKILL')
    const killedAt = Date.now()
    await holder.exited
    await waitFor(async () => Date.now() >= killedAt + 5_000, { timeoutMs: 10_000, intervalMs: 50 })
    expect((await api(h.shop, `/api/test-mode/orders/${orderId}/pay`, { body: {} })).status).toBe(
      200,
    )
    const bound = 2 * LEASE_SECONDS * 1000 + 5_000
    await waitForStatus(h.shop.payload, orderId, 'PAID', killedAt + bound - Date.now())
    console.log(`[lease] paid ${Date.now() - killedAt} ms after the holder was killed`)
    expect(Date.now() - killedAt).toBeLessThanOrEqual(bound)
    expect(holds(standby)).toBe(true)
    standby.child.kill('SIGTERM')
    expect(await standby.exited).toBe(0)
  })
})

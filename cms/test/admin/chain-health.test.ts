import type { ChainSourceStats } from '@shop/chain'
import type { AdminStats } from '@shop/domain'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { slugs } from '../../src/collections/slugs'
import { arcCallbackToken } from '../../src/operations/arcCallbacks/token'
import { recordChainHealth } from '../../src/operations/chainHealth/recordChainHealth'
import type { TestShop } from '../support/testShop'
import { startTestShop } from '../support/testShop'
import type { AdminClient } from './client'
import { adminClient, createStaff, signedIn } from './client'

/**
 * The owner sees the chain source's health on the dashboard: the payment worker records what its
 * chain client counts (calls today against the cap, calls in the last second against the limit,
 * a 429's wait, errors of the last hour by kind, addresses that keep failing) and the last look
 * that succeeded; the web process, a separate process, reads it back from the database.
 */

let shop: TestShop
let admin: AdminClient
let orderId: string
const FAILING = '1FailingAddressOfAnOrder00000000'

beforeAll(async () => {
  shop = await startTestShop({ seed: false, env: { CHAIN_ALERT_MINUTES: '25' } })
  await createStaff({
    payload: shop.payload,
    email: 'owner@example.com',
    password: 'Quartz-ledger-owner-7193',
    role: 'admin',
  })
  admin = await signedIn(shop.url, 'owner@example.com', 'Quartz-ledger-owner-7193')
  const product = await shop.payload.create({
    collection: slugs.products,
    data: { name: 'The book', type: 'DIGITAL', priceEUR: 10, isAvailable: false },
  })
  orderId = String(
    (
      await shop.payload.create({
        collection: slugs.orders,
        data: {
          product: product.id,
          productName: 'The book',
          productType: 'DIGITAL',
          userEmail: 'buyer@example.com',
          priceAtPurchaseUSD: 10,
          bsvUsdRateAtPurchase: 40,
          amountSatoshiExpected: 25_000_000,
          paymentAddress: FAILING,
          addressIndex: 7,
          gatewayExpiresAt: new Date(Date.now() + 20 * 60_000).toISOString(),
        } as never,
      })
    ).id,
  )
})

afterAll(async () => {
  await shop?.close()
})

const health = async () => {
  const response = await admin.request('GET', '/stats')
  expect(response.status).toBe(200)
  return ((await response.json()) as AdminStats).health.chain
}

describe("the chain source's health on the dashboard", () => {
  it('shows what the worker recorded: calls against the limits, errors, failing addresses, the last good look', async () => {
    const before = await health()
    expect(before).toMatchObject({
      source: 'simulator',
      lastCheckAt: null,
      lastLookOkAt: null,
      usage: null,
      alertAfterMinutes: 25,
      outage: null,
    })
    // Before the worker recorded anything: both sources (ARC is the simulator's stand-in here).
    expect(before.sources).toEqual([
      {
        name: 'WhatsOnChain',
        origin: expect.any(String),
        usage: null,
        lastAnswerAt: null,
        disagreements: [],
      },
      {
        name: 'ARC',
        origin: expect.any(String),
        usage: null,
        lastAnswerAt: null,
        disagreements: [],
        callbacks: {
          url: expect.stringMatching(/\/api\/arc\/callback$/),
          lastAt: null,
          lastDay: 0,
        },
      },
    ])

    const now = new Date()
    const lastLookOkAt = new Date(now.getTime() - 90_000)
    const throttledUntil = new Date(now.getTime() + 30_000)
    const stats: ChainSourceStats = {
      callsToday: 41_207,
      capPerDay: 100_000,
      callsLastSecond: 3,
      limitPerSecond: 10,
      throttledUntil,
      errorsByKind: { network: 2, throttled: 17, server: 0 },
      failingAddresses: [
        { address: '1OnceFailing', reason: 'Failed to get history', since: now, failures: 1 },
        {
          address: FAILING,
          reason: 'Failed to get history',
          since: new Date(now.getTime() - 600_000),
          failures: 9,
        },
      ],
    }
    expect(await recordChainHealth({ payload: shop.payload, stats, lastLookOkAt, now })).toBe(true)

    const chain = await health()
    expect(chain.source).toBe('simulator')
    expect(chain.lastLookOkAt).toBe(lastLookOkAt.toISOString())
    expect(chain.outage).toBeNull()
    expect(chain.usage).toEqual({
      recordedAt: now.toISOString(),
      callsToday: 41_207,
      capPerDay: 100_000,
      callsLastSecond: 3,
      limitPerSecond: 10,
      throttledUntil: throttledUntil.toISOString(),
      // The most frequent first; kinds without an error are left out.
      errorsLastHour: [
        { kind: 'throttled', count: 17 },
        { kind: 'network', count: 2 },
      ],
      // The most failures first, each with the order its address was given to.
      failingAddresses: [
        {
          address: FAILING,
          reason: 'Failed to get history',
          since: new Date(now.getTime() - 600_000).toISOString(),
          failures: 9,
          orderId,
        },
        {
          address: '1OnceFailing',
          reason: 'Failed to get history',
          since: now.toISOString(),
          failures: 1,
          orderId: null,
        },
      ],
      failingAddressCount: 2,
    })
  })

  it('is written at most every few seconds, and a worker that has not looked yet keeps the last good look', async () => {
    const now = new Date(Date.now() + 3_600_000)
    const stats = (callsToday: number): ChainSourceStats => ({
      callsToday,
      capPerDay: null,
      callsLastSecond: 0,
      limitPerSecond: 3,
      throttledUntil: null,
      errorsByKind: {},
      failingAddresses: [],
    })
    const lastLookOkAt = new Date(now.getTime() - 1000)
    expect(
      await recordChainHealth({ payload: shop.payload, stats: stats(10), lastLookOkAt, now }),
    ).toBe(true)
    const soon = new Date(now.getTime() + 2000)
    expect(
      await recordChainHealth({ payload: shop.payload, stats: stats(11), lastLookOkAt, now: soon }),
    ).toBe(false)
    expect((await health()).usage?.callsToday).toBe(10)

    const later = new Date(now.getTime() + 6000)
    expect(
      await recordChainHealth({
        payload: shop.payload,
        stats: stats(12),
        lastLookOkAt: null,
        now: later,
      }),
    ).toBe(true)
    const chain = await health()
    expect(chain.usage).toMatchObject({
      callsToday: 12,
      capPerDay: null,
      throttledUntil: null,
      errorsLastHour: [],
      failingAddresses: [],
      failingAddressCount: 0,
    })
    expect(chain.lastLookOkAt).toBe(lastLookOkAt.toISOString())
  })

  it('answers one entry per source: WhatsOnChain, and ARC beside it', async () => {
    const now = new Date(Date.now() + 7_200_000)
    const wocStats: ChainSourceStats = {
      callsToday: 900,
      capPerDay: 100_000,
      callsLastSecond: 1,
      limitPerSecond: 3,
      throttledUntil: null,
      errorsByKind: { network: 1 },
      failingAddresses: [],
    }
    const arcStats: ChainSourceStats = {
      callsToday: 57,
      capPerDay: null,
      callsLastSecond: 0,
      limitPerSecond: 50,
      throttledUntil: null,
      errorsByKind: { server: 4 },
      failingAddresses: [],
    }
    const disagreement = {
      txid: 'd'.repeat(64),
      at: new Date(now.getTime() - 60_000).toISOString(),
      whatsonchain: 'in block 812345',
      arc: 'DOUBLE_SPEND_ATTEMPTED',
    }
    const arcAnswerAt = new Date(now.getTime() - 4_000)
    const wocLookAt = new Date(now.getTime() - 2_000)
    expect(
      await recordChainHealth({
        payload: shop.payload,
        source: 'arc',
        stats: arcStats,
        lastLookOkAt: arcAnswerAt,
        now,
        disagreements: [disagreement],
      }),
    ).toBe(true)
    // Each source is throttled on its own: ARC's write does not hold WhatsOnChain's back.
    expect(
      await recordChainHealth({
        payload: shop.payload,
        stats: wocStats,
        lastLookOkAt: wocLookAt,
        now,
      }),
    ).toBe(true)

    const chain = await health()
    expect(chain.sources.map((s) => s.name)).toEqual(['WhatsOnChain', 'ARC'])
    const [woc, arc] = chain.sources
    expect(woc).toMatchObject({
      lastAnswerAt: wocLookAt.toISOString(),
      usage: {
        callsToday: 900,
        capPerDay: 100_000,
        errorsLastHour: [{ kind: 'network', count: 1 }],
      },
      disagreements: [],
    })
    // WhatsOnChain's figures are also where they always were.
    expect(chain.usage?.callsToday).toBe(900)
    expect(chain.lastLookOkAt).toBe(wocLookAt.toISOString())
    expect(arc).toEqual({
      name: 'ARC',
      origin: 'http://127.0.0.1:3100',
      lastAnswerAt: arcAnswerAt.toISOString(),
      usage: expect.objectContaining({
        recordedAt: now.toISOString(),
        callsToday: 57,
        capPerDay: null,
        limitPerSecond: 50,
        errorsLastHour: [{ kind: 'server', count: 4 }],
      }),
      disagreements: [disagreement],
      callbacks: { url: 'http://localhost:3000/api/arc/callback', lastAt: null, lastDay: 0 },
    })
  })

  it("counts ARC's callbacks of the last day and says when the last came", async () => {
    const at = (await health()).sources[1]!.callbacks
    expect(at).toEqual({ url: 'http://localhost:3000/api/arc/callback', lastAt: null, lastDay: 0 })
    const received = await fetch(`${shop.url}/api/arc/callback`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${arcCallbackToken(shop.payload)}`,
      },
      body: JSON.stringify({
        count: 2,
        callbacks: [
          {
            timestamp: new Date().toISOString(),
            txid: 'e'.repeat(64),
            txStatus: 'SEEN_ON_NETWORK',
          },
          { timestamp: new Date().toISOString(), txid: 'e'.repeat(64), txStatus: 'MINED' },
        ],
      }),
    })
    expect(received.status).toBe(200)
    const callbacks = (await health()).sources[1]!.callbacks!
    expect(callbacks.lastDay).toBe(2)
    expect(Date.now() - Date.parse(callbacks.lastAt!)).toBeLessThan(60_000)
  })

  it("keeps ARC's disagreements across writes, each once, the newest 20 first", async () => {
    const now = new Date(Date.now() + 10_800_000)
    const at = (minutesAgo: number) => new Date(now.getTime() - minutesAgo * 60_000).toISOString()
    const noted = (n: number) => ({
      txid: n.toString(16).padStart(64, '0'),
      at: at(100 - n),
      whatsonchain: 'unconfirmed',
      arc: 'REJECTED',
    })
    // A row of its own: what an earlier worker kept is not part of this count.
    await shop.payload.delete({ collection: slugs.chainHealth, where: { name: { equals: 'arc' } } })
    const first = Array.from({ length: 12 }, (_, i) => noted(i))
    expect(
      await recordChainHealth({
        payload: shop.payload,
        source: 'arc',
        stats: undefined,
        lastLookOkAt: new Date(now.getTime() - 1_000),
        now,
        disagreements: first,
      }),
    ).toBe(true)
    // A restarted worker hands only what it noted since, and the same one again.
    const later = Array.from({ length: 12 }, (_, i) => noted(i + 12))
    expect(
      await recordChainHealth({
        payload: shop.payload,
        source: 'arc',
        stats: undefined,
        lastLookOkAt: null,
        now: new Date(now.getTime() + 6_000),
        disagreements: [...later, noted(11)],
      }),
    ).toBe(true)
    const arc = (await health()).sources.find((s) => s.name === 'ARC')!
    expect(arc.disagreements.map((d) => d.txid)).toEqual(
      Array.from({ length: 20 }, (_, i) => noted(23 - i).txid),
    )
    // A client that counts nothing leaves no figures, and its last good answer is kept.
    expect(arc.usage).toBeNull()
    expect(arc.lastAnswerAt).toBe(new Date(now.getTime() - 1_000).toISOString())
  })

  it('lists ARC only when it is configured or has recorded figures', async () => {
    const { getAdminHealth } = await import('../../src/operations/dashboard/getAdminHealth')
    const { loadEnv } = await import('../../src/config/env')
    const env = { ...loadEnv(), arcUrl: undefined }
    await shop.payload.delete({ collection: slugs.chainHealth, where: { name: { equals: 'arc' } } })
    const names = async (settings: typeof env) =>
      (await getAdminHealth({ payload: shop.payload, env: settings })).chain.sources.map(
        (s) => s.name,
      )
    expect(await names(env)).toEqual(['WhatsOnChain'])
    expect(await names(loadEnv())).toEqual(['WhatsOnChain', 'ARC'])
    await recordChainHealth({
      payload: shop.payload,
      source: 'arc',
      stats: undefined,
      lastLookOkAt: new Date(),
      now: new Date(Date.now() + 86_400_000),
    })
    const sources = (await getAdminHealth({ payload: shop.payload, env })).chain.sources
    expect(sources.map((s) => s.name)).toEqual(['WhatsOnChain', 'ARC'])
    expect(sources[1]!.origin).toBeNull()
  })

  it('is for admins only', async () => {
    expect((await adminClient(shop.url).request('GET', '/stats')).status).toBe(401)
  })
})

import http from 'node:http'
import type { AddressInfo } from 'node:net'

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'

import { slugs } from '../../src/collections/slugs'
import type { Env } from '../../src/config/env'
import { runDueJobs } from '../../src/jobs'
import { checkChainAlert } from '../../src/operations/chainHealth/checkChainAlert'
import { recordChainHealth } from '../../src/operations/chainHealth/recordChainHealth'
import type { EmailOutbox, WebhookDelivery } from '../../src/payload-types'
import type { TestShop } from '../support/testShop'
import { startTestShop } from '../support/testShop'

/**
 * The owner is alerted, as for the other alerts (an e-mail to OWNER_EMAIL and a webhook, through
 * the outboxes and the jobs queue), when no look at the watched orders has succeeded for
 * CHAIN_ALERT_MINUTES: once per outage, again only after a look has succeeded and a new outage
 * has lasted as long; never while looks succeed, and never while nothing is watched (a shop
 * with nothing to watch makes no looks).
 */

const OWNER = 'owner-alerts@example.com'
const received: string[] = []
const receiver = http.createServer((req, res) => {
  let body = ''
  req.on('data', (chunk) => (body += chunk))
  req.on('end', () => {
    received.push(body)
    res.statusCode = 204
    res.end()
  })
})

let shop: TestShop
let env: Env

beforeAll(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
  const port = (receiver.address() as AddressInfo).port
  shop = await startTestShop({
    seed: false,
    env: {
      OWNER_EMAIL: OWNER,
      WEBHOOK_URL: `http://127.0.0.1:${port}/hooks/shop`,
      WEBHOOK_SECRET: 'webhook-secret-for-tests-0123',
      CHAIN_ALERT_MINUTES: '15',
    },
  })
  // The settings this shop was started with (read once its environment is set).
  ;({ env } = await import('../../src/config/runtime'))
})

afterAll(async () => {
  await shop?.close()
  await new Promise<void>((resolve) => receiver.close(() => resolve()))
})

beforeEach(async () => {
  for (const collection of [
    slugs.chainHealth,
    slugs.emailOutbox,
    slugs.webhookDeliveries,
    'payload-jobs',
  ] as const)
    await shop.payload.delete({ collection, where: { id: { exists: true } } })
  received.length = 0
})

const MINUTE = 60_000
const at = (base: Date, minutes: number) => new Date(base.getTime() + minutes * MINUTE)

const check = (now: Date, lastLookOkAt: Date | null, watching = true) =>
  checkChainAlert({ payload: shop.payload, env, now, lastLookOkAt, watching })

async function queued() {
  const [emails, webhooks] = await Promise.all([
    shop.payload.find({ collection: slugs.emailOutbox, depth: 0, sort: 'createdAt' }),
    shop.payload.find({ collection: slugs.webhookDeliveries, depth: 0, sort: 'createdAt' }),
  ])
  return {
    emails: emails.docs as EmailOutbox[],
    webhooks: webhooks.docs as WebhookDelivery[],
  }
}

describe('the chain source alert', () => {
  it('queues one e-mail and one webhook per outage, and again only after a look succeeded', async () => {
    const lastOk = new Date(Date.now() + MINUTE)
    await recordChainHealth({
      payload: shop.payload,
      now: lastOk,
      lastLookOkAt: lastOk,
      stats: {
        callsToday: 100_000,
        capPerDay: 100_000,
        callsLastSecond: 0,
        limitPerSecond: 10,
        throttledUntil: null,
        errorsByKind: { 'daily-cap': 40 },
        failingAddresses: [],
      },
    })
    expect(await check(at(lastOk, 10), lastOk)).toBe(false)
    expect(await check(at(lastOk, 14.9), lastOk)).toBe(false)
    expect((await queued()).emails).toHaveLength(0)

    expect(await check(at(lastOk, 15), lastOk)).toBe(true)
    // The same outage: later passes, and a restarted worker that has not looked yet.
    expect(await check(at(lastOk, 16), lastOk)).toBe(false)
    expect(await check(at(lastOk, 120), lastOk)).toBe(false)
    expect(await check(at(lastOk, 180), null)).toBe(false)

    const first = await queued()
    expect(first.emails).toHaveLength(1)
    expect(first.emails[0]).toMatchObject({
      kind: 'owner-chain-down',
      to: OWNER,
      status: 'pending',
    })
    expect(first.emails[0]!.order ?? null).toBeNull()
    expect(first.webhooks).toHaveLength(1)
    expect(first.webhooks[0]).toMatchObject({ event: 'ChainSourceDown', status: 'pending' })
    expect(first.webhooks[0]!.order ?? null).toBeNull()
    expect(JSON.parse(first.webhooks[0]!.body)).toMatchObject({
      type: 'ChainSourceDown',
      isRedelivery: false,
      chainSource: {
        source: 'simulator',
        lastLookOkAt: lastOk.toISOString(),
        alertAfterMinutes: 15,
        callsToday: 100_000,
        capPerDay: 100_000,
        errorsLastHour: { 'daily-cap': 40 },
        failingAddresses: 0,
      },
    })

    // A look succeeds: the outage is over. A new one is alerted once it has lasted as long.
    const nextOk = at(lastOk, 181)
    expect(await check(at(nextOk, 1), nextOk)).toBe(false)
    expect(await check(at(nextOk, 14), nextOk)).toBe(false)
    expect(await check(at(nextOk, 15), nextOk)).toBe(true)
    expect(await check(at(nextOk, 30), nextOk)).toBe(false)
    const second = await queued()
    expect(second.emails).toHaveLength(2)
    expect(second.webhooks).toHaveLength(2)
    expect(new Set(second.emails.map((e) => e.key)).size).toBe(2)
    expect(JSON.parse(second.webhooks[1]!.body).chainSource.lastLookOkAt).toBe(nextOk.toISOString())

    // Test mode's outbox shows the alert as it is sent.
    const outbox = await (await fetch(`${shop.url}/test-mode/outbox`)).text()
    expect(outbox).toContain('Chain source down: no look has succeeded for 15 minutes')

    // The jobs queue sends them, and the webhook reaches the owner.
    await runDueJobs(shop.payload, { email: true })
    const sent = await queued()
    expect(sent.emails.map((e) => e.status)).toEqual(['sent', 'sent'])
    expect(sent.webhooks.map((w) => w.status)).toEqual(['sent', 'sent'])
    expect(received.map((body) => JSON.parse(body).type)).toEqual([
      'ChainSourceDown',
      'ChainSourceDown',
    ])
  })

  it('stays silent while looks succeed', async () => {
    const start = new Date(Date.now() + MINUTE)
    for (let minutes = 0; minutes <= 180; minutes += 10) {
      const now = at(start, minutes)
      expect(await check(now, new Date(now.getTime() - 20_000))).toBe(false)
    }
    const { emails, webhooks } = await queued()
    expect(emails).toHaveLength(0)
    expect(webhooks).toHaveLength(0)
  })

  it('stays silent while nothing is watched, and counts an outage from when orders are watched again', async () => {
    const start = new Date(Date.now() + MINUTE)
    const lastOk = at(start, -300)
    for (const minutes of [0, 30, 60])
      expect(await check(at(start, minutes), lastOk, false)).toBe(false)
    expect((await queued()).emails).toHaveLength(0)

    // Orders again after an hour of nothing to watch, and the chain fails from the start.
    expect(await check(at(start, 61), lastOk)).toBe(false)
    expect(await check(at(start, 70), lastOk)).toBe(false)
    expect((await queued()).emails).toHaveLength(0)
    expect(await check(at(start, 75.5), lastOk)).toBe(true)
    const { emails, webhooks } = await queued()
    expect(emails).toHaveLength(1)
    expect(webhooks).toHaveLength(1)
  })
})

import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { globalSlugs, slugs } from '@shop/cms/engine'
import { createStaff } from '@shop/cms/testing'
import { SHIPPING, productIdOf } from '@shop/payment-worker/testing'
import type { TestShop } from '@shop/cms/testing'
import { startTestShop } from '@shop/cms/testing'
import { report } from './support/settings'

/**
 * One table over every collection and global of Payload's REST under /cms/api, for an
 * anonymous visitor, an editor and an admin: what each may read, create, update and delete.
 * "allowed" means Payload took the request on (it may still refuse the body, 400); "refused"
 * means 401 or 403. No cell may answer 5xx.
 */

type Role = 'anonymous' | 'editor' | 'admin'
type Verdict = 'allowed' | 'refused'
type Op = 'read' | 'create' | 'update' | 'delete'
type Row = Record<Op, Record<Role, Verdict>>

const ADMIN = { email: 'table-admin@example.com', password: 'Quartz-ledger-owner-7193' }
const EDITOR = { email: 'table-editor@example.com', password: 'Quartz-ledger-editor-8264' }

const all = (verdict: Verdict): Record<Role, Verdict> => ({
  anonymous: verdict,
  editor: verdict,
  admin: verdict,
})
const staffOnly: Record<Role, Verdict> = {
  anonymous: 'refused',
  editor: 'allowed',
  admin: 'allowed',
}
const adminOnly: Record<Role, Verdict> = {
  anonymous: 'refused',
  editor: 'refused',
  admin: 'allowed',
}
const nobody = all('refused')

const row = (read: Record<Role, Verdict>, write: Record<Role, Verdict>): Row => ({
  read,
  create: write,
  update: write,
  delete: write,
})

/** The shop's rules, collection by collection. */
const COLLECTIONS: Record<string, Row> = {
  [slugs.papers]: row(all('allowed'), staffOnly),
  [slugs.timeline]: row(all('allowed'), staffOnly),
  [slugs.documents]: row(all('allowed'), staffOnly),
  [slugs.media]: row(all('allowed'), adminOnly),
  [slugs.products]: row(adminOnly, adminOnly),
  [slugs.digitalFiles]: row(adminOnly, adminOnly),
  // Orders come from checkout; an admin may correct the buyer's details (never the money or the
  // status, see cms/test/rules); nobody deletes one.
  [slugs.orders]: { read: adminOnly, create: nobody, update: adminOnly, delete: nobody },
  // Written by the payment engine only.
  [slugs.payments]: row(adminOnly, nobody),
  [slugs.counters]: row(adminOnly, nobody),
  [slugs.leases]: row(adminOnly, nobody),
  [slugs.chainHealth]: row(adminOnly, nobody),
  [slugs.arcCallbacks]: row(adminOnly, nobody),
  [slugs.rateLimits]: row(adminOnly, nobody),
  [slugs.emailOutbox]: row(adminOnly, nobody),
  [slugs.webhookDeliveries]: row(adminOnly, nobody),
  // Issued by delivery, the buyer's request for a new link and the owner's reissue only.
  [slugs.downloadTokens]: row(adminOnly, nobody),
}

const GLOBALS = Object.values(globalSlugs)

let shop: TestShop
const jwt: Partial<Record<Role, string>> = {}
const ids: Record<string, string | number> = {}

async function call(role: Role, method: string, path: string, body?: unknown) {
  const headers: Record<string, string> = { 'content-type': 'application/json' }
  if (jwt[role]) headers.authorization = `JWT ${jwt[role]}`
  const response = await fetch(`${shop.url}/cms/api${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await response.text()
  return { status: response.status, text }
}

const verdictOf = (status: number): Verdict =>
  status === 401 || status === 403 ? 'refused' : 'allowed'

beforeAll(async () => {
  shop = await startTestShop({ withCms: true, env: { ORDER_CREATE_RATE_LIMIT: '1000' } })
  await createStaff({ payload: shop.payload, ...ADMIN, role: 'admin' })
  await createStaff({ payload: shop.payload, ...EDITOR, role: 'editor' })
  for (const [role, credentials] of [
    ['admin', ADMIN],
    ['editor', EDITOR],
  ] as const) {
    const { token } = await shop.payload.login({ collection: slugs.staff, data: credentials })
    jwt[role] = token
  }
  const productId = await productIdOf(shop.payload, 'PHYSICAL')
  const order = await fetch(`${shop.url}/api/orders/create`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ productId, userEmail: 'table@example.com', ...SHIPPING }),
  })
  ids[slugs.orders] = ((await order.json()) as { orderId: string }).orderId
  // One document in each collection only the payment engine writes.
  const orderId = String(ids[slugs.orders])
  const now = new Date().toISOString()
  ids[slugs.payments] = (
    await shop.payload.create({
      collection: slugs.payments,
      data: {
        outpoint: `${'a'.repeat(64)}:0`,
        order: orderId,
        txid: 'a'.repeat(64),
        vout: 0,
        satoshis: 1,
        address: 'table-address',
        seenAt: now,
      },
    })
  ).id
  // Checkout queued the order's "order created" e-mail with the order.
  ids[slugs.emailOutbox] = (
    await shop.payload.find({
      collection: slugs.emailOutbox,
      where: { key: { equals: `order-created:${orderId}` } },
      limit: 1,
    })
  ).docs[0]!.id
  ids[slugs.webhookDeliveries] = (
    await shop.payload.create({
      collection: slugs.webhookDeliveries,
      data: {
        key: `OrderPaid:${orderId}`,
        deliveryId: 'table-delivery',
        event: 'OrderPaid',
        order: orderId,
        body: '{}',
        status: 'pending',
        attempts: 0,
      },
    })
  ).id
  ids[slugs.downloadTokens] = (
    await shop.payload.create({
      collection: slugs.downloadTokens,
      data: {
        tokenHash: 'b'.repeat(64),
        tokenSealed: 'sealed',
        order: orderId,
        product: productId,
        expiresAt: now,
        maxUses: 1,
        uses: 0,
      },
    })
  ).id
  ids[slugs.leases] = (
    await shop.payload.create({
      collection: slugs.leases,
      data: { name: 'table-lease', holder: 'table', epoch: 1, expiresAt: now },
    })
  ).id
  ids[slugs.chainHealth] = (
    await shop.payload.create({
      collection: slugs.chainHealth,
      data: { name: 'table-chain-source', lastLookOkAt: now },
    })
  ).id
  ids[slugs.arcCallbacks] = (
    await shop.payload.create({
      collection: slugs.arcCallbacks,
      data: { txid: 'ab'.repeat(32), txStatus: 'MINED', arcTimestamp: now },
    })
  ).id
  ids[slugs.rateLimits] = (
    await shop.payload.create({
      collection: slugs.rateLimits,
      data: { key: 'table:127.0.0.1', hits: 1, resetAt: now },
    })
  ).id
  for (const slug of Object.keys(COLLECTIONS)) {
    if (ids[slug]) continue
    const found = await shop.payload.find({ collection: slug as never, limit: 1, depth: 0 })
    ids[slug] = (found.docs[0] as { id: string | number } | undefined)?.id ?? 'missing'
  }
})

afterAll(async () => {
  await shop?.close()
})

describe('every /cms/api collection, for every role', () => {
  it('has a row for every collection of the shop (staff has its own table below)', () => {
    const shopCollections = shop.payload.config.collections
      .map((c) => c.slug)
      .filter((slug) => !slug.startsWith('payload-') && slug !== slugs.staff)
    expect(Object.keys(COLLECTIONS).sort()).toEqual(shopCollections.sort())
  })

  const cells = Object.entries(COLLECTIONS).flatMap(([slug, rules]) =>
    (['anonymous', 'editor', 'admin'] as const).map((role) => [slug, role, rules] as const),
  )
  let checked = 0

  it.each(cells)('%s as %s', async (slug, role, rules) => {
    const id = ids[slug]
    const read = await call(role, 'GET', `/${slug}?depth=0&limit=5`)
    expect(read.status, `read ${read.text.slice(0, 200)}`).toBeLessThan(500)
    expect(verdictOf(read.status), 'read').toBe(rules.read[role])
    if (rules.read[role] === 'allowed' && role !== 'admin')
      expect(read.text, 'no private field leaks').not.toMatch(
        /"(userEmail|paymentAddress|tokenHash)"/,
      )

    for (const [op, method, path, body] of [
      ['create', 'POST', `/${slug}`, {}],
      ['update', 'PATCH', `/${slug}/${id}`, {}],
      ['delete', 'DELETE', `/${slug}/${id}`, undefined],
    ] as const) {
      // A delete that is allowed is not tried: the other cells still need the document.
      if (op === 'delete' && rules.delete[role] === 'allowed') continue
      const answer = await call(role, method, path, body)
      expect(answer.status, `${method} ${answer.text.slice(0, 200)}`).toBeLessThan(500)
      expect(verdictOf(answer.status), `${op}: ${answer.text.slice(0, 120)}`).toBe(rules[op][role])
    }
    checked += 1
    if (checked === cells.length)
      report(
        `cms access table: ${cells.length} collection x role cells, each read, created, updated, deleted; no 5xx`,
      )
  })

  it.each(GLOBALS)('global %s: everyone reads, staff write, anonymous cannot', async (slug) => {
    for (const role of ['anonymous', 'editor', 'admin'] as const) {
      const read = await call(role, 'GET', `/globals/${slug}`)
      expect(read.status).toBe(200)
      const write = await call(role, 'POST', `/globals/${slug}`, {})
      expect(write.status).toBeLessThan(500)
      expect(verdictOf(write.status), `${role} writes ${slug}`).toBe(staffOnly[role])
    }
  })

  it('staff accounts: an editor sees and changes only itself, and cannot unlock or promote', async () => {
    const asEditor = JSON.parse((await call('editor', 'GET', '/staff?limit=10')).text) as {
      docs: { email: string }[]
    }
    expect(asEditor.docs.map((d) => d.email)).toEqual([EDITOR.email])
    const admin = await shop.payload.find({
      collection: slugs.staff,
      where: { email: { equals: ADMIN.email } },
    })
    expect(
      verdictOf(
        (await call('editor', 'PATCH', `/staff/${admin.docs[0]!.id}`, { name: 'x' })).status,
      ),
    ).toBe('refused')
    expect((await call('editor', 'POST', '/staff/unlock', { email: ADMIN.email })).status).toBe(403)
    expect((await call('anonymous', 'GET', '/staff')).status).toBe(403)
    const me = await shop.payload.find({
      collection: slugs.staff,
      where: { email: { equals: EDITOR.email } },
    })
    await call('editor', 'PATCH', `/staff/${me.docs[0]!.id}`, { role: 'admin' })
    const after = await shop.payload.findByID({ collection: slugs.staff, id: me.docs[0]!.id })
    expect(after.role).toBe('editor')
  })

  it('the jobs queue: admins read it; nobody queues, runs, changes or deletes a job over HTTP', async () => {
    // The e-mail queued above is a job waiting in the 'email' queue.
    const waiting = await shop.payload.find({
      collection: 'payload-jobs',
      where: { taskSlug: { equals: 'send-email' } },
      limit: 1,
    })
    const job = waiting.docs[0]!
    expect(job.processing).toBe(false)
    expect((await call('anonymous', 'GET', '/payload-jobs')).status).toBe(403)
    expect((await call('editor', 'GET', '/payload-jobs')).status).toBe(403)
    expect((await call('admin', 'GET', `/payload-jobs/${job.id}`)).status).toBe(200)
    for (const role of ['anonymous', 'editor', 'admin'] as const) {
      // Running jobs in a web process would run them beside the worker that holds the lease.
      for (const path of ['/payload-jobs/run?queue=email', '/payload-jobs/handle-schedules']) {
        const run = await call(role, 'GET', path)
        expect(verdictOf(run.status), `${role} GET ${path}: ${run.status}`).toBe('refused')
      }
      const create = await call(role, 'POST', '/payload-jobs', { taskSlug: 'send-email' })
      expect(verdictOf(create.status), `${role} create`).toBe('refused')
      const update = await call(role, 'PATCH', `/payload-jobs/${job.id}`, { processing: true })
      expect(verdictOf(update.status), `${role} update`).toBe('refused')
      const remove = await call(role, 'DELETE', `/payload-jobs/${job.id}`)
      expect(verdictOf(remove.status), `${role} delete`).toBe('refused')
    }
    const after = await shop.payload.findByID({ collection: 'payload-jobs', id: job.id })
    expect(after.processing).toBe(false)
    expect(after.totalTried ?? 0).toBe(0)
  })

  it('document locks and preferences: nobody anonymous, and no lock names an order', async () => {
    expect((await call('anonymous', 'GET', '/payload-locked-documents')).status).toBe(403)
    expect((await call('anonymous', 'GET', '/payload-preferences')).status).toBe(403)
    // Migrations are no API: not found for anyone (it answered 501 naming the server's URL).
    for (const role of ['anonymous', 'editor', 'admin'] as const) {
      const migrations = await call(role, 'GET', '/payload-migrations')
      expect(migrations.status).toBe(404)
      expect(migrations.text).not.toContain('http')
    }
    const lock = await call('editor', 'POST', '/payload-locked-documents', {
      document: { relationTo: slugs.orders, value: ids[slugs.orders] },
    })
    expect(lock.status).toBeGreaterThanOrEqual(400)
    expect(lock.status).toBeLessThan(500)
  })
})

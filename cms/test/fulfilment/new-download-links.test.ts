import { RESEND_LINKS_ANSWER } from '@shop/domain'
import type { Payload } from 'payload'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { slugs } from '../../src/collections/slugs'
import { loadEnv } from '../../src/config/env'
import { runDueJobs } from '../../src/jobs'
import { TASKS } from '../../src/jobs/queues'
import { shopInfoOf } from '../../src/email/renderOrderEmail'
import { renderOutboxMessage } from '../../src/email/sendOutboxEmail'
import type { DownloadToken, EmailOutbox, Order } from '../../src/payload-types'
import type { AdminClient } from '../admin/client'
import { adminClient, createStaff, signedInNewAdmin } from '../admin/client'
import { cmsApi, cmsSessionCookie } from '../support/cmsApi'
import { createOrder, getOrder, productIdOf, waitFor } from '../support/shopApi'
import type { TestShop } from '../support/testShop'
import { startTestShop } from '../support/testShop'

/**
 * A buyer never loses the book they paid for. A used-up or expired link's page leads to
 * /resend-link, where the buyer's e-mail address gets a fresh link for every paid PDF order of
 * it, with one answer for every address (nobody learns who bought the book); the owner can send
 * one from the order's page. Each new link is a new token with the usual limits: old links keep
 * theirs.
 */

const OWNER = { email: 'links-owner@example.com', password: 'Quartz-ledger-owner-5531' }
const EDITOR = { email: 'links-editor@example.com', password: 'Quartz-ledger-editor-5531' }
/** Requests from one client a minute, for downloads and for new links alike (DOWNLOAD_RATE_LIMIT). */
const PER_CLIENT = 12

let shop: TestShop
let payload: Payload
let admin: AdminClient
let pdfId: number
let printedId: number
let nextClient = 1
/** Read after the shop starts: importing the route earlier would read the settings too soon. */
let RESEND_ANSWER_FLOOR_MS: number

/** A new client address for each caller (the shop trusts the loopback proxy's X-Forwarded-For). */
const newClient = () => `198.51.100.${nextClient++}`

beforeAll(async () => {
  shop = await startTestShop({
    withCms: true,
    env: {
      TRUST_PROXY: 'loopback',
      DOWNLOAD_RATE_LIMIT: String(PER_CLIENT),
      LINK_RESENDS_PER_ADDRESS_PER_HOUR: '3',
      ORDER_CREATE_RATE_LIMIT: '1000',
    },
  })
  payload = shop.payload
  ;({ RESEND_ANSWER_FLOOR_MS } = await import('../../src/api/resend-links'))
  pdfId = await productIdOf(payload, 'DIGITAL')
  printedId = await productIdOf(payload, 'PHYSICAL')
  admin = await signedInNewAdmin(shop, OWNER)
  await createStaff({ payload, ...EDITOR, role: 'editor' })
})

afterAll(async () => {
  await shop?.close()
})

/** A PDF order of `email`, paid and delivered as the worker would: its first link. */
async function paidPdfOrder(email: string): Promise<{ orderId: string; link: string }> {
  const orderId = await createOrder(shop, pdfId, { userEmail: email })
  await payload.update({ collection: slugs.orders, id: orderId, data: { status: 'PAID' } })
  await runDueJobs(payload, { email: false })
  const order = await getOrder(payload, orderId)
  expect(order.fulfilledAt).toEqual(expect.any(String))
  const status = await fetch(`${shop.url}/api/orders/${orderId}/payment-status`)
  const link = String(((await status.json()) as { downloadUrl: string }).downloadUrl)
  expect(link).toMatch(/^\/download\/pdf\/[\w-]{40,}$/)
  return { orderId, link }
}

const download = (path: string, client = newClient()) =>
  fetch(`${shop.url}${path}`, { headers: { 'x-forwarded-for': client } })

async function askForNewLinks(body: unknown, client = newClient()) {
  const started = performance.now()
  const response = await fetch(`${shop.url}/api/orders/resend-links`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': client },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })
  const text = await response.text()
  return {
    status: response.status,
    text,
    ms: performance.now() - started,
    rateHeaders: [...response.headers.keys()].filter((name) => /ratelimit|retry/i.test(name)),
  }
}

const linkMessagesTo = async (email: string) =>
  (
    await payload.find({
      collection: slugs.emailOutbox,
      where: { and: [{ kind: { equals: 'download-links' } }, { to: { equals: email } }] },
      sort: 'createdAt',
      depth: 0,
      pagination: false,
    })
  ).docs as EmailOutbox[]

const resendJobs = async () =>
  (
    await payload.count({
      collection: 'payload-jobs',
      where: { taskSlug: { equals: TASKS.resendDownloadLinks } },
    })
  ).totalDocs

/** Runs the jobs as the payment worker does until no request for links and no e-mail waits. */
async function deliverMail() {
  await waitFor(async () => {
    await runDueJobs(payload, { email: true })
    const left = await payload.find({
      collection: 'payload-jobs',
      depth: 0,
      limit: 0,
      pagination: false,
    })
    return left.docs.every((job) => job.hasError)
  })
}

/** The message as the buyer reads it: its subject, its text and the download paths in it. */
async function read(message: EmailOutbox) {
  const env = loadEnv()
  const email = await renderOutboxMessage({ payload, message, shop: shopInfoOf(env), chain: env })
  expect(email).not.toBeNull()
  const paths = [...email!.text.matchAll(/https?:\/\/[^/\s]+(\/download\/pdf\/[\w-]+)/g)].map(
    (m) => m[1]!,
  )
  return { ...email!, paths: [...new Set(paths)] }
}

const tokensOf = async (orderId: string) =>
  (
    await payload.find({
      collection: slugs.downloadTokens,
      where: { order: { equals: orderId } },
      sort: 'createdAt',
      depth: 0,
      pagination: false,
    })
  ).docs as DownloadToken[]

describe('a buyer whose link is used up', () => {
  it('is led from the link page to /resend-link, gets a new link by e-mail that downloads the PDF, and the old one stays refused', async () => {
    const email = 'used-up-buyer@example.com'
    const { orderId, link } = await paidPdfOrder(email)
    const client = newClient()
    for (let i = 0; i < 5; i += 1) {
      const served = await download(link, client)
      expect(served.status).toBe(200)
      await served.arrayBuffer()
    }
    const refused = await download(link)
    expect(refused.status).toBe(410)
    expect(refused.headers.get('download-link-state')).toBe('used-up')
    const page = await refused.text()
    expect(page).toContain('Download limit reached')
    expect(page).toMatch(/<a class="button button--primary" href="\/resend-link">Get a new/)
    // HEAD tells the success page the same without spending anything.
    const head = await fetch(`${shop.url}${link}`, {
      method: 'HEAD',
      headers: { 'x-forwarded-for': newClient() },
    })
    expect(head.status).toBe(410)
    expect(head.headers.get('download-link-state')).toBe('used-up')

    // The address as the buyer may type it: the shop stored it lower-cased.
    const asked = await askForNewLinks({ email: '  Used-Up-Buyer@Example.com ' })
    expect(asked.status).toBe(200)
    expect(JSON.parse(asked.text)).toEqual(RESEND_LINKS_ANSWER)
    await deliverMail()

    const [message, ...more] = await linkMessagesTo(email)
    expect(more).toEqual([])
    expect(message!.status).toBe('sent')
    const mail = await read(message!)
    expect(mail.subject).toMatch(/^Your new download link: /)
    expect(mail.paths).toHaveLength(1)
    const [fresh] = mail.paths
    expect(fresh).not.toBe(link)

    const served = await download(fresh!)
    expect(served.status).toBe(200)
    expect(
      Buffer.from(await served.arrayBuffer())
        .subarray(0, 4)
        .toString('latin1'),
    ).toBe('%PDF')
    expect((await download(link)).status).toBe(410)

    // A new token with the usual lifetime and uses; the old one is untouched.
    const [old, renewed] = await tokensOf(orderId)
    expect(old!.uses).toBe(5)
    expect(renewed!.maxUses).toBe(5)
    expect(renewed!.uses).toBe(1)
    const hoursLeft = (new Date(renewed!.expiresAt).getTime() - Date.now()) / 3_600_000
    expect(hoursLeft).toBeGreaterThan(71.5)
    expect(hoursLeft).toBeLessThanOrEqual(72)
  })

  it('whose link expired is led to /resend-link too', async () => {
    const { orderId, link } = await paidPdfOrder('expired-buyer@example.com')
    const [token] = await tokensOf(orderId)
    await payload.db.updateOne({
      collection: slugs.downloadTokens,
      where: { id: { equals: token!.id } },
      data: { expiresAt: new Date(Date.now() - 1000).toISOString() },
    })
    const refused = await download(link)
    expect(refused.status).toBe(410)
    expect(refused.headers.get('download-link-state')).toBe('expired')
    const page = await refused.text()
    expect(page).toContain('Download link expired')
    expect(page).toContain('href="/resend-link"')
  })

  it('gets one message with a fresh link for each paid PDF order of the address, and none for the others', async () => {
    const email = 'two-books@example.com'
    const first = await paidPdfOrder(email)
    const second = await paidPdfOrder(email)
    const unpaid = await createOrder(shop, pdfId, { userEmail: email })
    const printed = await createOrder(shop, printedId, { userEmail: email })
    await payload.update({ collection: slugs.orders, id: printed, data: { status: 'PAID' } })
    await runDueJobs(payload, { email: false })
    expect((await getOrder(payload, printed)).status).toBe('PROCESSING_DELIVERY')

    expect((await askForNewLinks({ email })).status).toBe(200)
    await deliverMail()
    const [message] = await linkMessagesTo(email)
    const mail = await read(message!)
    expect(mail.subject).toBe('Your new download links (2 books)')
    expect(mail.paths).toHaveLength(2)
    expect(mail.text).toContain(first.orderId)
    expect(mail.text).toContain(second.orderId)
    expect(mail.text).not.toContain(unpaid)
    expect(mail.text).not.toContain(printed)
    expect(await tokensOf(unpaid)).toEqual([])
    expect(await tokensOf(printed)).toEqual([])
    for (const path of mail.paths) expect((await download(path)).status).toBe(200)
  })
})

describe('the answer to POST /api/orders/resend-links', () => {
  it('is the same for a known and an unknown address: status, body, headers and time', async () => {
    const known = 'known-buyer@example.com'
    await paidPdfOrder(known)
    const jobsBefore = await resendJobs()
    const answers = {
      known: [] as Awaited<ReturnType<typeof askForNewLinks>>[],
      unknown: [] as Awaited<ReturnType<typeof askForNewLinks>>[],
    }
    for (let i = 0; i < 3; i += 1) {
      answers.known.push(await askForNewLinks({ email: known }))
      answers.unknown.push(await askForNewLinks({ email: `nobody-${i}@example.com` }))
    }
    // Both queue the same job: the request never reads the address's orders.
    expect(await resendJobs()).toBe(jobsBefore + 6)
    const all = [...answers.known, ...answers.unknown]
    for (const answer of all) {
      expect(answer.status).toBe(200)
      expect(answer.text).toBe(JSON.stringify(RESEND_LINKS_ANSWER))
      expect(answer.rateHeaders).toEqual([])
      expect(answer.ms).toBeGreaterThanOrEqual(RESEND_ANSWER_FLOOR_MS - 5)
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
    const gap = Math.abs(
      median(answers.known.map((a) => a.ms)) - median(answers.unknown.map((a) => a.ms)),
    )
    expect(gap).toBeLessThan(100)

    await deliverMail()
    expect(await linkMessagesTo(known)).toHaveLength(3)
    expect(await linkMessagesTo('nobody-0@example.com')).toEqual([])
  })

  it('sends at most three e-mails to an address however often it asks in an hour, with the same answer each time', async () => {
    const email = 'eager-buyer@example.com'
    await paidPdfOrder(email)
    const answers = await Promise.all(Array.from({ length: 10 }, () => askForNewLinks({ email })))
    for (const answer of answers) {
      expect(answer.status).toBe(200)
      expect(answer.text).toBe(JSON.stringify(RESEND_LINKS_ANSWER))
    }
    await deliverMail()
    expect(await linkMessagesTo(email)).toHaveLength(3)
  })

  it('is the same when the client is over its limit, and sends nothing then', async () => {
    const email = 'limited-buyer@example.com'
    await paidPdfOrder(email)
    const client = newClient()
    for (let i = 0; i < PER_CLIENT; i += 1) {
      const answer = await askForNewLinks({ email: `stranger-${i}@example.com` }, client)
      expect(answer.status).toBe(200)
    }
    const jobsBefore = await resendJobs()
    const limited = [
      await askForNewLinks({ email }, client),
      await askForNewLinks({ email: 'stranger-x@example.com' }, client),
    ]
    for (const answer of limited) {
      expect(answer.status).toBe(200)
      expect(answer.text).toBe(JSON.stringify(RESEND_LINKS_ANSWER))
      expect(answer.rateHeaders).toEqual([])
      expect(answer.ms).toBeGreaterThanOrEqual(RESEND_ANSWER_FLOOR_MS - 5)
    }
    expect(await resendJobs()).toBe(jobsBefore)
    await deliverMail()
    expect(await linkMessagesTo(email)).toEqual([])
  })

  it('is a 400 with the reason for a malformed body', async () => {
    for (const body of [{}, { email: 'not-an-address' }, { email: 5 }, { mail: 'a@b.co' }]) {
      const answer = await askForNewLinks(body)
      expect(answer.status, JSON.stringify(body)).toBe(400)
      expect(JSON.parse(answer.text)).toEqual({ error: 'Please enter a valid email address.' })
    }
    const notJson = await askForNewLinks('{"email":')
    expect(notJson.status).toBe(400)
    expect(JSON.parse(notJson.text)).toEqual({ error: 'Request body is not valid JSON.' })
  })
})

describe("the owner's new download link", () => {
  const reissue = (client: AdminClient, orderId: string) =>
    client.request('POST', `/orders/${orderId}/download-link`, { json: {} })

  it('e-mails the buyer a fresh link and records who sent it in the history', async () => {
    const email = 'owner-helped@example.com'
    const { orderId, link } = await paidPdfOrder(email)
    const response = await reissue(admin, orderId)
    expect(response.status).toBe(200)
    const detail = (await response.json()) as { history: { action: string; by: string }[] }
    expect(detail.history.at(-1)).toMatchObject({ action: 'download-link', by: OWNER.email })
    const stored = (await getOrder(payload, orderId)) as Order
    expect(stored.history?.at(-1)).toMatchObject({ action: 'download-link', by: OWNER.email })
    expect(stored.status).toBe('PAID')

    await deliverMail()
    const [message] = await linkMessagesTo(email)
    expect(message!.status).toBe('sent')
    const mail = await read(message!)
    expect(mail.paths).toHaveLength(1)
    expect(mail.paths[0]).not.toBe(link)
    expect((await download(mail.paths[0]!)).status).toBe(200)
    // The first link keeps its own limits: nothing was extended.
    const [first, second] = await tokensOf(orderId)
    expect(first!.uses).toBe(0)
    expect(second!.uses).toBe(1)
  })

  it('is refused to editors and to anonymous callers, and for an unpaid or printed order', async () => {
    const { orderId } = await paidPdfOrder('not-for-editors@example.com')
    // The admin area refuses an editor's sign-in; their own Payload session is refused too.
    expect((await adminClient(shop.url).request('POST', '/login', { json: EDITOR })).status).toBe(
      403,
    )
    const editor = adminClient(shop.url)
    const { token } = await payload.login({ collection: slugs.staff, data: EDITOR })
    editor.cookie = `payload-token=${token}`
    expect((await reissue(editor, orderId)).status).toBe(403)
    expect((await reissue(adminClient(shop.url), orderId)).status).toBe(401)

    const unpaid = await createOrder(shop, pdfId, { userEmail: 'unpaid@example.com' })
    const printed = await createOrder(shop, printedId, { userEmail: 'printed@example.com' })
    await payload.update({ collection: slugs.orders, id: printed, data: { status: 'PAID' } })
    await runDueJobs(payload, { email: false })
    for (const id of [unpaid, printed]) {
      const refused = await reissue(admin, id)
      expect(refused.status).toBe(409)
      expect(((await refused.json()) as { error: string }).error).toMatch(
        /only a paid and delivered PDF order/,
      )
    }
    expect((await reissue(admin, '00000000-0000-4000-8000-000000000000')).status).toBe(404)
    for (const id of [orderId, unpaid, printed]) {
      expect((await tokensOf(id)).length).toBeLessThanOrEqual(1)
      expect((await getOrder(payload, id)).history ?? []).not.toContainEqual(
        expect.objectContaining({ action: 'download-link' }),
      )
    }
    expect(await linkMessagesTo('not-for-editors@example.com')).toEqual([])
  })

  it('cannot be had through /cms/api: nobody writes a download token there, the owner included', async () => {
    const { orderId } = await paidPdfOrder('cms-door@example.com')
    const [token] = await tokensOf(orderId)
    const cookie = await cmsSessionCookie(shop, OWNER)
    const extended = await cmsApi(shop, { cookie }, 'PATCH', `/download-tokens/${token!.id}`, {
      uses: 0,
      maxUses: 500,
      expiresAt: new Date(Date.now() + 10 * 365 * 86_400_000).toISOString(),
    })
    expect(extended.status).toBe(403)
    const created = await cmsApi(shop, { cookie }, 'POST', '/download-tokens', {
      tokenHash: 'x'.repeat(64),
      tokenSealed: 'x',
      order: orderId,
      product: pdfId,
      expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
      maxUses: 5,
    })
    expect(created.status).toBe(403)
    const mailed = await cmsApi(shop, { cookie }, 'POST', '/email-outbox', {
      key: 'forged',
      kind: 'download-links',
      to: 'cms-door@example.com',
      downloadTokens: [token!.id],
    })
    expect(mailed.status).toBe(403)
    const [after, ...others] = await tokensOf(orderId)
    expect(others).toEqual([])
    expect(after).toMatchObject({ uses: 0, maxUses: token!.maxUses, expiresAt: token!.expiresAt })
  })
})

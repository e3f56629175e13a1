import { slugs } from '../../src/collections/slugs'
import { SHIPPING } from '../support/shopApi'
import type { TestShop } from '../support/testShop'

/**
 * Payload's own writes beside the shop's (decision 008), as a scenario the cms suite and the
 * hardening suite both run: every Payload auth, preference and lock call that writes on its own
 * (forgot-password's request stamp, login attempt counters, unlock, preferences, document locks,
 * sessions, first-register) fired together with checkouts, `rounds` times over. Hung requests
 * are reported, not thrown.
 */
export type PayloadWritesResult = {
  /** "<path> <status>" for each Payload call; a hung one ends in its error's name. */
  answers: string[]
  checkouts: { status: number | string; orderId?: string }[]
  /** Checkouts answered 201 whose order is not in the database. */
  lost: number
}

export const answeredWithout5xx = (answer: string) => / [1-4]\d\d$/.test(answer)

export async function payloadWritesBesideCheckouts({
  shop,
  productId,
  owner,
  ownerCookie,
  rounds,
  checkoutsPerRound = 5,
}: {
  shop: TestShop
  productId: number
  owner: { email: string }
  ownerCookie: string
  rounds: number
  checkoutsPerRound?: number
}): Promise<PayloadWritesResult> {
  async function cms(path: string, init: RequestInit = {}, cookie?: string) {
    const headers = new Headers(init.headers)
    if (init.body && !headers.has('content-type')) headers.set('content-type', 'application/json')
    if (cookie) {
      headers.set('cookie', cookie)
      headers.set('sec-fetch-site', 'same-origin') // as from a page of the shop (Payload's CSRF check)
    }
    try {
      const response = await fetch(`${shop.url}/cms/api${path}`, {
        ...init,
        headers,
        signal: AbortSignal.timeout(20_000),
      })
      await response.arrayBuffer()
      return `${path} ${response.status}`
    } catch (error) {
      // A hung request (the deadlock) is reported as such rather than thrown.
      return `${path} ${(error as Error).name}`
    }
  }

  async function checkout(i: number) {
    try {
      return await tryCheckout(i)
    } catch (error) {
      return { status: (error as Error).name, orderId: undefined }
    }
  }

  async function tryCheckout(i: number) {
    const response = await fetch(`${shop.url}/api/orders/create`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        productId,
        userEmail: `writer-buyer-${i}@example.com`,
        tokenAddress: null,
        ...SHIPPING,
      }),
      signal: AbortSignal.timeout(20_000),
    })
    const body = (await response.json()) as { orderId?: string }
    return { status: response.status, orderId: body.orderId }
  }

  const payloadCalls: (() => Promise<string>)[] = [
    () =>
      cms('/staff/forgot-password', {
        method: 'POST',
        body: JSON.stringify({ email: owner.email }),
      }),
    () =>
      cms('/staff/forgot-password', {
        method: 'POST',
        body: JSON.stringify({ email: 'nobody@example.com' }),
      }),
    () =>
      cms('/staff/login', {
        method: 'POST',
        body: JSON.stringify({ email: owner.email, password: 'wrong-password-wrong' }),
      }),
    () =>
      cms('/staff/login', {
        method: 'POST',
        body: JSON.stringify({ email: 'nobody@example.com', password: 'wrong-password-wrong' }),
      }),
    () =>
      cms(
        '/staff/unlock',
        { method: 'POST', body: JSON.stringify({ email: owner.email }) },
        ownerCookie,
      ),
    () =>
      cms(
        '/payload-preferences/writer-test',
        { method: 'POST', body: JSON.stringify({ value: { columns: ['id'] } }) },
        ownerCookie,
      ),
    () => cms('/staff/me', {}, ownerCookie),
    () => cms('/staff/refresh-token', { method: 'POST' }, ownerCookie),
    () =>
      cms(
        '/payload-locked-documents',
        {
          method: 'POST',
          body: JSON.stringify({
            document: { relationTo: slugs.papers, value: 1 },
            globalSlug: null,
          }),
        },
        ownerCookie,
      ),
    () =>
      cms('/staff/first-register', {
        method: 'POST',
        body: JSON.stringify({ email: 'intruder@example.com', password: 'x'.repeat(20) }),
      }),
  ]

  const calls: Promise<string>[] = []
  const checkouts: Promise<{ status: number | string; orderId?: string }>[] = []
  for (let round = 0; round < rounds; round += 1) {
    for (const call of payloadCalls) calls.push(call())
    for (let i = 0; i < checkoutsPerRound; i += 1)
      checkouts.push(checkout(round * checkoutsPerRound + i))
  }
  const answers = await Promise.all(calls)
  const done = await Promise.all(checkouts)
  const created = done.filter((d) => d.status === 201).map((d) => d.orderId!)
  const stored = await shop.payload.count({
    collection: slugs.orders,
    where: { id: { in: created } },
  })
  return { answers, checkouts: done, lost: created.length - stored.totalDocs }
}

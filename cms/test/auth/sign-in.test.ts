import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { slugs } from '../../src/collections/slugs'
import { SESSION_MAX_AGE_HOURS } from '../../src/collections/Staff/hooks/accountChanges'
import { CMS_AUTH_RATE_LIMIT } from '../../src/server/cmsDoors'
import { adminClient, createStaff } from '../admin/client'
import type { TestShop } from '../support/testShop'
import { startTestShop } from '../support/testShop'

/**
 * Sign-in (decision 007): wrong passwords from anyone never lock the real owner out; neither the
 * answers nor the time they take tell known from unknown accounts; refreshing a session does not
 * extend it forever; Payload's own sign-in has a limit per client.
 */

let shop: TestShop

beforeAll(async () => {
  shop = await startTestShop({ withCms: true, seed: false })
})

afterAll(async () => {
  await shop?.close()
})

const cmsSignIn = async (body: unknown) => {
  const started = performance.now()
  const response = await fetch(`${shop.url}/cms/api/staff/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  const json = (await response.json()) as Record<string, unknown>
  return { status: response.status, json, ms: performance.now() - started }
}

const adminSignIn = async (body: unknown) => {
  const started = performance.now()
  const response = await adminClient(shop.url).request('POST', '/login', { json: body })
  const json = (await response.json()) as Record<string, unknown>
  return { status: response.status, json, ms: performance.now() - started }
}

/** Time since now by the wall clock and by the monotonic one, whichever saw longer. */
function stopwatch() {
  const wall = Date.now()
  const monotonic = performance.now()
  return () => Math.max(Date.now() - wall, performance.now() - monotonic)
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!

let accounts = 0
async function newAccount(role: 'admin' | 'editor' = 'admin') {
  accounts += 1
  const account = { email: `account-${accounts}@example.com`, password: 'Quartz-ledger-owner-7193' }
  await createStaff({ payload: shop.payload, ...account, role })
  return account
}

describe('no lockout: the owner still signs in after guesses', () => {
  it.each([
    ['/api/admin/login', adminSignIn],
    ['/cms/api/staff/login', cmsSignIn],
  ])('through %s, the right password works after five wrong ones', async (_door, signIn) => {
    const owner = await newAccount()
    const statuses: number[] = []
    for (let i = 1; i <= 5; i++)
      statuses.push((await signIn({ email: owner.email, password: `wrong-guess-${i}` })).status)
    expect(statuses).toEqual([401, 401, 401, 401, 401])
    const right = await signIn(owner)
    expect(right.status).toBe(200)
  })

  it('spaces out guesses at one account, however many arrive at once', async () => {
    const owner = await newAccount()
    // The throttle spaces turns by the wall clock (Date.now, shared by every web process) and
    // waits them out on the monotonic one (setTimeout). A virtual machine's wall clock is set
    // now and then, a few tens of ms either way (2,979 ms by the monotonic clock once, 2,931 ms
    // by the wall clock another time, on loaded CI machines): a wait counts as long enough
    // when either clock saw it last.
    const started = stopwatch()
    const answers = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        cmsSignIn({ email: owner.email, password: `concurrent-guess-${i}` }),
      ),
    )
    const elapsed = started()
    expect(answers.map((a) => a.status)).toEqual([401, 401, 401, 401, 401])
    // Three free failures, then 1 s and 2 s between attempts: the fifth waits 3 s.
    expect(elapsed).toBeGreaterThanOrEqual(3000)
    // The Local API counts in the same throttle: the account's next turn is 4 s after the
    // fifth's, 7 s after the first guess (timed from there: the fifth's answer, hashed after its
    // turn, may come late on a loaded machine and leave less than 4 s of the wait to see).
    await expect(
      shop.payload.login({ collection: slugs.staff, data: owner }),
    ).resolves.toMatchObject({ token: expect.any(String) })
    expect(started()).toBeGreaterThanOrEqual(7000)
  })
})

describe('known and unknown accounts look alike', () => {
  it.each([
    ['/api/admin/login', adminSignIn],
    ['/cms/api/staff/login', cmsSignIn],
  ])('through %s: the same answer and a similar time', async (_door, signIn) => {
    const known: Awaited<ReturnType<typeof signIn>>[] = []
    const unknown: Awaited<ReturnType<typeof signIn>>[] = []
    // A fresh account per try: the throttle's spacing must not enter the timing. Five of each,
    // alternating, so a busy moment of the shared machine weighs on both medians alike.
    for (let i = 0; i < 5; i++) {
      const account = await newAccount()
      known.push(await signIn({ email: account.email, password: 'Not-the-right-one-4471' }))
      unknown.push(
        await signIn({
          email: `nobody-${i}-${accounts}@example.com`,
          password: 'Not-the-right-one-4471',
        }),
      )
    }
    expect(new Set([...known, ...unknown].map((a) => a.status))).toEqual(new Set([401]))
    expect(new Set([...known, ...unknown].map((a) => JSON.stringify(a.json))).size).toBe(1)
    const ratio = median(unknown.map((a) => a.ms)) / median(known.map((a) => a.ms))
    // Before: an unknown account answered in a few milliseconds, a known one after hashing.
    // (Bounds wide enough for a shared, busy machine; the gap they close was 50 to 100 times.)
    expect(ratio).toBeGreaterThan(0.4)
    expect(ratio).toBeLessThan(2.5)
    // Its ten wrong passwords are this test's, not the next tests': the client's allowance at
    // Payload's doors starts afresh (the limit itself is tested at the end of this file).
    await shop.payload.delete({
      collection: slugs.rateLimits,
      where: { key: { like: 'cms-auth' } },
    })
  })
})

describe('password reset requests', () => {
  const forgot = async (email: string) => {
    const response = await fetch(`${shop.url}/cms/api/staff/forgot-password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email }),
    })
    return { status: response.status, body: await response.text() }
  }

  it('answer alike for known and unknown addresses, and are spaced out per address', async () => {
    const account = await newAccount('editor')
    const known = await forgot(account.email)
    const unknown = await forgot(`nobody-reset-${accounts}@example.com`)
    expect(known).toEqual(unknown)
    expect(known.status).toBe(200)

    // One address flooded with requests: they wait their turn (the e-mails cannot pile up).
    // By the throttle's own clock, as above.
    const started = Date.now()
    const answers = await Promise.all(Array.from({ length: 4 }, () => forgot(account.email)))
    expect(answers.every((a) => a.status === 200)).toBe(true)
    // Five in all: three free, then 1 s and 2 s between them.
    expect(Date.now() - started).toBeGreaterThanOrEqual(3000)
  })
})

describe('sessions have an absolute maximum age', () => {
  const refresh = (token: string) =>
    fetch(`${shop.url}/cms/api/staff/refresh-token`, {
      method: 'POST',
      headers: { authorization: `JWT ${token}` },
    })

  it('refuses to refresh a session past its maximum age from sign-in', async () => {
    const account = await newAccount('editor')
    const { token, user } = await shop.payload.login({ collection: slugs.staff, data: account })
    expect((await refresh(token!)).status).toBe(200)

    // The same session, signed in almost a day ago and refreshed ever since.
    const stored = (await shop.payload.db.findOne({
      collection: slugs.staff,
      where: { id: { equals: user.id } },
    })) as { sessions: { createdAt: string | Date }[] }
    const signedInAt = new Date(Date.now() - (SESSION_MAX_AGE_HOURS - 1) * 3600 * 1000)
    await shop.payload.db.updateOne({
      collection: slugs.staff,
      id: user.id,
      data: {
        ...stored,
        sessions: stored.sessions.map((s) => ({ ...s, createdAt: signedInAt })),
      },
      returning: false,
    })
    const refused = await refresh(token!)
    expect(refused.status).toBe(401)
    expect(JSON.stringify(await refused.json())).toMatch(/maximum age/)
  })
})

describe('sign-in through /cms/api, per client', () => {
  const attempt = (path: string, body: unknown) =>
    fetch(`${shop.url}/cms/api/staff/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then(async (response) => {
      await response.arrayBuffer()
      return response.status
    })

  // Last in this file: it uses up this client's allowance.
  it('stops a client after its allowance of failed attempts', async () => {
    const statuses: number[] = []
    for (let i = 0; i < CMS_AUTH_RATE_LIMIT.limit + 5; i += 1) {
      const status = await attempt('login', {
        email: `guess${i}@example.com`,
        password: 'not-the-password',
      })
      statuses.push(status)
      if (status === 429) break
    }
    // Failures earlier in this file count too; the allowance is never passed.
    expect(statuses.at(-1)).toBe(429)
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(CMS_AUTH_RATE_LIMIT.limit)
    expect(await attempt('reset-password', { token: 'x', password: 'y' })).toBe(429)
  })
})

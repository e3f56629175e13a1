import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

import { createRequestSpacer, type RequestClass } from './spacer'

/** When each of `count` requests may begin, asked for all at once. */
async function startTimes(waitForSlot: () => Promise<void>, count: number): Promise<number[]> {
  const t0 = Date.now()
  const times: number[] = []
  const all = Array.from({ length: count }, () =>
    waitForSlot().then(() => times.push(Date.now() - t0)),
  )
  await vi.runAllTimersAsync()
  await Promise.all(all)
  return times.toSorted((a, b) => a - b)
}

/** The most requests that began within any one second. */
function busiestSecond(times: number[]): number {
  let worst = 0
  for (let i = 0, j = 0; i < times.length; i += 1) {
    while (times[i]! - times[j]! >= 1000) j += 1
    worst = Math.max(worst, i - j + 1)
  }
  return worst
}

beforeEach(() => {
  vi.useFakeTimers()
  vi.setSystemTime(new Date('2026-11-25T12:00:00Z'))
})

afterEach(() => {
  vi.useRealTimers()
})

describe("the WhatsOnChain client's request budget", () => {
  it('lets a request go at once while the last second has room (the fetch after a look)', async () => {
    const waitForSlot = createRequestSpacer(3)
    // Spaced a third of a second apart, the second request waited 333 ms behind the first.
    expect(await startTimes(waitForSlot, 3)).toEqual([0, 0, 0])
  })

  it('never begins more than the limit in any second, however many are asked for', async () => {
    const waitForSlot = createRequestSpacer(3)
    const times = await startTimes(waitForSlot, 30)
    expect(busiestSecond(times)).toBe(3)
    // Held to the limit, with the margin: 30 requests take ten windows of 1,050 ms.
    expect(times.at(-1)).toBe(9 * 1050)
  })

  it('counts requests that began earlier in the same second', async () => {
    const waitForSlot = createRequestSpacer(3)
    await startTimes(waitForSlot, 2)
    vi.advanceTimersByTime(600)
    // One more fits in the second that began 600 ms ago; the next waits for it to end.
    expect(await startTimes(waitForSlot, 2)).toEqual([0, 450])
  })

  it('spaces every request evenly for a limit that is not a whole number', async () => {
    const waitForSlot = createRequestSpacer(2.5, { marginMs: 0 })
    expect(await startTimes(waitForSlot, 4)).toEqual([0, 400, 800, 1200])
  })
})

describe('background requests (looks at older orders)', () => {
  it('leave two requests of each second to the others', async () => {
    const waitForSlot = createRequestSpacer(3)
    const background = await startTimes(() => waitForSlot({ background: true }), 3)
    expect(background).toEqual([0, 1050, 2100])
    // A buyer's look and the transaction it found go at once beside them.
    expect(await startTimes(waitForSlot, 2)).toEqual([0, 0])
  })

  it('keep a share of their own under a higher limit (an API key)', async () => {
    const waitForSlot = createRequestSpacer(10)
    expect(await startTimes(() => waitForSlot({ background: true }), 9)).toEqual([
      0, 0, 0, 0, 0, 0, 0, 0, 1050,
    ])
  })

  it('keep their share while the others come steadily, one at a time', async () => {
    const waitForSlot = createRequestSpacer(3)
    const t0 = Date.now()
    // A buyer's order looked for every 400 ms: never three in a second, never a second without.
    const buyer = setInterval(() => void waitForSlot(), 400)
    await waitForSlot()
    let began: number | undefined
    void waitForSlot({ background: true }).then(() => (began = Date.now() - t0))
    await vi.advanceTimersByTimeAsync(5000)
    clearInterval(buyer)
    // Before, it waited for a second with no request at all: here, for ever.
    expect(began).toBe(0)
  })

  it('still count against the limit of the second', async () => {
    const waitForSlot = createRequestSpacer(3)
    const times = await startTimes(waitForSlot, 2)
    const more = await Promise.all([
      startTimes(() => waitForSlot({ background: true }), 3),
      startTimes(waitForSlot, 3),
    ])
    expect(busiestSecond([...times, ...more.flat()].toSorted((a, b) => a - b))).toBe(3)
  })
})

describe('requests waiting for a free place', () => {
  it("go by class: a found payment's transaction first, looks at older orders last", async () => {
    const waitForSlot = createRequestSpacer(3)
    const t0 = Date.now()
    // The second is full: three looks began 200 ms apart.
    for (let i = 0; i < 3; i += 1) {
      await waitForSlot()
      await vi.advanceTimersByTimeAsync(200)
    }
    const began: Record<string, number> = {}
    const ask = (name: string, requestClass: RequestClass) =>
      void waitForSlot(requestClass).then(() => (began[name] = Date.now() - t0))
    ask('older look', { background: true })
    ask("buyer's look", {})
    ask('transaction', { urgent: true })
    await vi.advanceTimersByTimeAsync(3000)
    // Before, each went when its own timer fired, in the order asked: the transaction last.
    expect(began).toEqual({ transaction: 1050, "buyer's look": 1250, 'older look': 1450 })
  })

  it('let the others pass a background request whose share is used', async () => {
    const waitForSlot = createRequestSpacer(3)
    const t0 = Date.now()
    await waitForSlot({ background: true })
    const began: Record<string, number> = {}
    void waitForSlot({ background: true }).then(() => (began.older = Date.now() - t0))
    void waitForSlot().then(() => (began.buyer = Date.now() - t0))
    await vi.advanceTimersByTimeAsync(2000)
    expect(began).toEqual({ buyer: 0, older: 1050 })
  })
})

describe('a place waited for (the worker deciding what to ask once it can ask)', () => {
  /** Three requests 200 ms apart: the second is full until 1,050 ms. */
  async function fillTheSecond(waitForSlot: () => Promise<void>) {
    for (let i = 0; i < 3; i += 1) {
      await waitForSlot()
      await vi.advanceTimersByTimeAsync(200)
    }
  }

  it('is kept for the next request, and a background one cannot take it', async () => {
    const spacer = createRequestSpacer(3)
    // Room at once: it says it did not wait.
    expect(await spacer.waitForRoom()).toBe(false)
    vi.advanceTimersByTime(2000)
    const t0 = Date.now()
    await fillTheSecond(spacer)
    const began: Record<string, number> = {}
    void spacer({ background: true }).then(() => (began.older = Date.now() - t0))
    let waited: boolean | undefined
    void spacer.waitForRoom().then((w) => {
      waited = w
      began.room = Date.now() - t0
    })
    await vi.advanceTimersByTimeAsync(1100 - (Date.now() - t0))
    expect(waited).toBe(true)
    void spacer().then(() => (began.look = Date.now() - t0))
    await vi.advanceTimersByTimeAsync(1000)
    expect(began).toEqual({ room: 1050, look: 1100, older: 1250 })
  })

  it('is given up when no request comes for it', async () => {
    const spacer = createRequestSpacer(3, { holdMs: 100 })
    const t0 = Date.now()
    await fillTheSecond(spacer)
    const began: Record<string, number> = {}
    void spacer({ background: true }).then(() => (began.older = Date.now() - t0))
    void spacer.waitForRoom().then(() => (began.room = Date.now() - t0))
    await vi.advanceTimersByTimeAsync(2000)
    expect(began).toEqual({ room: 1050, older: 1150 })
  })
})

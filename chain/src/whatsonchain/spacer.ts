/**
 * At most `maxPerSecond` requests begin in any one second (WhatsOnChain's limit is per second,
 * not a fixed gap): a request goes at once while the last second has room, so the transaction
 * fetched right after the look that found a payment does not wait a third of a second behind
 * it (decision 013); a steady stream is still held to the limit. The window is longer
 * than a second by `marginMs`, for requests that reach the server closer together than they
 * left. A limit that is not a whole number spaces every request evenly.
 *
 * Background requests (the worker's looks at older orders while buyers wait) take at most all
 * but two of each second's requests (one without a key), so the rest have two: a buyer's payment
 * is looked for, and its transaction fetched, without waiting behind thousands of late looks.
 * They are counted apart, so the others coming steadily (a buyer's look every half second)
 * never keep them out of their share (a late look would wait for an empty second, which never
 * comes, and the worker's pass with it).
 *
 * Requests waiting for a free place go in order of class, then of asking: urgent ones (the
 * transaction of a payment a look has just found) first, background ones last: at 10,000
 * watched orders a buyer's transaction would otherwise wait behind an older look asked before it.
 *
 * `waitForRoom` waits until a request could begin, and keeps that place for the next one (not
 * a background one) for `holdMs`: the worker decides what to ask only once it can ask, so an
 * order placed while it waited is in the call (a call planned before a wait of most of a second
 * would go without the order placed meanwhile, which would wait for the next).
 */
export function createRequestSpacer(
  maxPerSecond: number,
  { marginMs = 50, holdMs = 200 } = {},
): RequestSpacer {
  const perWindow = Number.isInteger(maxPerSecond) ? maxPerSecond : 1
  const windowMs = (1000 * perWindow) / maxPerSecond + marginMs
  const backgroundPerWindow = Math.max(1, perWindow - 2)
  /** When the requests of the last window began, oldest first: all, and background ones. */
  const starts: number[] = []
  const backgroundStarts: number[] = []
  /** How long until one more of `limit` fits in the window `begun` describes (0: now). */
  const waitFor = (begun: number[], limit: number, now: number) => {
    while (begun.length > 0 && begun[0]! <= now - windowMs) begun.shift()
    return begun.length < limit ? 0 : begun[begun.length - limit]! + windowMs - now
  }
  /** Until when a place is kept for the next request that is not a background one. */
  let heldUntil = 0
  type Waiter = { rank: number; background: boolean; hold: boolean; go: () => void }
  /** Requests waiting, by rank then in the order they asked. */
  const waiting: Waiter[] = []
  let timer: NodeJS.Timeout | undefined

  /** Lets waiting requests go while there is room; sets a timer for when there is more. */
  const admit = () => {
    clearTimeout(timer)
    timer = undefined
    while (waiting.length > 0) {
      const now = Date.now()
      const held = heldUntil > now ? 1 : 0
      const wait = waitFor(starts, perWindow, now)
      // A background request also needs room in its own share, and leaves a kept place alone;
      // the others may pass it.
      const backgroundWait = Math.max(
        waitFor(backgroundStarts, backgroundPerWindow, now),
        held
          ? Math.min(
              perWindow > held ? waitFor(starts, perWindow - held, now) : Infinity,
              heldUntil - now,
            )
          : 0,
      )
      const next = waiting.findIndex((w) => !w.background || backgroundWait <= 0)
      const until = next < 0 ? Math.max(wait, backgroundWait) : wait
      if (until > 0) {
        timer = setTimeout(admit, until)
        return
      }
      const [admitted] = waiting.splice(next, 1)
      if (admitted!.hold) {
        heldUntil = now + holdMs
      } else {
        starts.push(now)
        if (admitted!.background) backgroundStarts.push(now)
        else heldUntil = 0
      }
      admitted!.go()
    }
  }

  /** Resolves once the request may go: true when it had to wait, false when it went at once. */
  const enqueue = async (rank: number, background: boolean, hold: boolean) => {
    let atOnce = false
    await new Promise<void>((go) => {
      const at = waiting.findIndex((w) => w.rank > rank)
      waiting.splice(at < 0 ? waiting.length : at, 0, { rank, background, hold, go })
      admit()
      atOnce = !waiting.some((w) => w.go === go)
    })
    return !atOnce
  }

  const waitForSlot = async ({ background = false, urgent = false }: RequestClass = {}) => {
    await enqueue(urgent ? 0 : background ? 2 : 1, background, false)
  }
  return Object.assign(waitForSlot, { waitForRoom: () => enqueue(1, false, true) })
}

export type RequestSpacer = ((requestClass?: RequestClass) => Promise<void>) & {
  /**
   * Resolves when a request could begin, keeping that place for the next one a while: true
   * when it had to wait for it.
   */
  waitForRoom: () => Promise<boolean>
}

/** Which share of the request budget a request draws on, and its place when requests wait. */
export type RequestClass = { background?: boolean; urgent?: boolean }

/**
 * When the second source (ARC) is asked about a payment it follows (worker/follow.ts): a short
 * schedule that thins out, counted from when the payment was first followed (the first ask
 * submits it), then once after each of a few blocks once the schedule is spent. At most
 * ASK_AT_MS.length + ASKS_AFTER_BLOCKS calls over a payment's life.
 */
export const ASK_AT_MS = [
  0, 2_000, 4_000, 7_000, 11_000, 16_000, 25_000, 40_000, 60_000, 120_000, 240_000, 480_000,
]
/** Asks after a block, once the schedule is spent (the block that mines it brings its path). */
export const ASKS_AFTER_BLOCKS = 3

/**
 * The calls a payment followed from `followedAt` costs the second source until it is proven at
 * `provenAt`, blocks mined at `blocksAt` (the schedule's asks due before it, and one per block
 * once the schedule is spent, at most ASKS_AFTER_BLOCKS).
 */
export function followCalls(followedAt: number, provenAt: number, blocksAt: readonly number[]) {
  const scheduled = ASK_AT_MS.filter((at) => followedAt + at <= provenAt).length
  const spentAt = followedAt + ASK_AT_MS.at(-1)!
  const afterBlocks = blocksAt.filter((b) => b > spentAt && b <= provenAt).length
  return Math.max(1, scheduled) + Math.min(ASKS_AFTER_BLOCKS, afterBlocks)
}

/**
 * A 429's Retry-After header (seconds, or an HTTP date) in ms from `now`; a missing or odd one
 * is a second. Every chain source client keeps the window it gives.
 */
export function retryAfterMs(header: string | null, now: number): number {
  if (header === null || header.trim() === '') return 1000
  const seconds = Number(header)
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000)
  const at = Date.parse(header)
  return Number.isNaN(at) ? 1000 : Math.max(0, at - now)
}

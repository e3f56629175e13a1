/**
 * Whether the push stream has earned the worker's trust (a pure rule, no I/O): the worker slows
 * its own looks only while the stream is connected AND has shown, recently, that it carries
 * mempool transactions. WhatsOnChain's mempool carries many transactions every second, so a
 * stream that is connected but has carried fewer than STREAM_TRUST_FRAMES of them in the last
 * STREAM_TRUST_WINDOW_MS is deaf (only pings and block headers, a channel the server dropped,
 * a subscription it never took): it counts as down, and the worker polls as if it were.
 */

/** Mempool frames the stream must have carried within the window to be trusted. */
export const STREAM_TRUST_FRAMES = 3
export const STREAM_TRUST_WINDOW_MS = 10_000

export type StreamSignals = {
  connected: boolean
  /** How many mempool transaction frames the stream carried since `since` (ms epoch). */
  mempoolFrames: (since: number) => number
}

export const streamCarriesPayments = (signals: StreamSignals, now: number) =>
  signals.connected && signals.mempoolFrames(now - STREAM_TRUST_WINDOW_MS) >= STREAM_TRUST_FRAMES

/**
 * The times of the last mempool frames, enough to answer `mempoolFrames` for the trust rule in
 * bounded memory, whatever the stream's rate.
 */
export function mempoolFrameLog(size = STREAM_TRUST_FRAMES) {
  const times: number[] = []
  return {
    heard(at: number) {
      times.push(at)
      if (times.length > size) times.shift()
    },
    since: (since: number) => times.filter((t) => t >= since).length,
    clear: () => {
      times.length = 0
    },
  }
}

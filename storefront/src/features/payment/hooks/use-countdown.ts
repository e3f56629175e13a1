import { useEffect, useState } from 'react'

const secondsLeft = (expiresAtMs: number) =>
  Math.max(0, Math.ceil((expiresAtMs - Date.now()) / 1000))

/**
 * Seconds until `expiresAt`, re-read from the clock once a second (so a sleeping tab catches
 * up). Stops ticking when `running` is false; null when the date is missing or invalid.
 */
export function useCountdown(
  expiresAt: string | null | undefined,
  running: boolean,
): number | null {
  const expiresAtMs = expiresAt ? Date.parse(expiresAt) : NaN
  const valid = Number.isFinite(expiresAtMs)
  const [seconds, setSeconds] = useState(() => (valid ? secondsLeft(expiresAtMs) : null))

  useEffect(() => {
    if (!valid) {
      setSeconds(null)
      return
    }
    setSeconds(secondsLeft(expiresAtMs))
    if (!running) return
    const timer = window.setInterval(() => {
      const left = secondsLeft(expiresAtMs)
      setSeconds(left)
      if (left === 0) window.clearInterval(timer)
    }, 1000)
    return () => window.clearInterval(timer)
  }, [expiresAtMs, valid, running])

  return seconds
}

export function formatCountdown(seconds: number): string {
  const minutes = Math.floor(seconds / 60)
  return `${String(minutes).padStart(2, '0')}:${String(seconds % 60).padStart(2, '0')}`
}

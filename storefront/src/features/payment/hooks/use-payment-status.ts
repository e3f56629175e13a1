import { useCallback, useEffect, useRef, useState } from 'react'

import { getPaymentStatus } from '../api/get-payment-status'
import type { PaymentStatus } from '../api/get-payment-status'
import { isFinalPayStatus, toOrderStatus } from '../status'

/**
 * Polls GET /api/orders/{id}/payment-status every `intervalMs` while `enabled`, stopping at a
 * final status. A failed poll is only logged and the next one still runs (spec section 8):
 * SWR's refreshInterval skips every tick once a request has failed, so it is not used here.
 */
export function usePaymentStatus(orderId: string, enabled: boolean, intervalMs: number) {
  const [data, setData] = useState<PaymentStatus | null>(null)
  const [pollNow, setPollNow] = useState(0)
  const dataRef = useRef<PaymentStatus | null>(null)

  useEffect(() => {
    if (!enabled) return
    if (dataRef.current && isFinalPayStatus(toOrderStatus(dataRef.current.status))) return
    let cancelled = false
    let timer: number | undefined

    const tick = async () => {
      try {
        const latest = await getPaymentStatus(orderId)
        if (cancelled) return
        dataRef.current = latest
        setData(latest)
        if (isFinalPayStatus(toOrderStatus(latest.status))) return
      } catch (error) {
        if (cancelled) return
        console.error('Payment status poll failed', error)
      }
      timer = window.setTimeout(() => void tick(), intervalMs)
    }

    void tick()
    // Coming back from the wallet app: ask at once instead of waiting for the next tick.
    const onVisible = () => {
      if (document.visibilityState !== 'visible') return
      window.clearTimeout(timer)
      void tick()
    }
    document.addEventListener('visibilitychange', onVisible)
    return () => {
      cancelled = true
      window.clearTimeout(timer)
      document.removeEventListener('visibilitychange', onVisible)
    }
  }, [orderId, enabled, intervalMs, pollNow])

  /** Polls at once (after a test-mode payment, for example). */
  const refresh = useCallback(() => setPollNow((n) => n + 1), [])

  return { data, refresh }
}

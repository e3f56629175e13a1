import type { Payload } from 'payload'

import { claimWorkerLease, releaseWorkerLease } from '@shop/cms/engine'

/**
 * One payment worker at a time: the lease `payment-worker` in the database. The
 * active worker renews it a third of its time into it, before each pass and during long ones; a
 * second worker (a replica, a restart overlap) waits as a hot standby, asking for it as often,
 * and takes it over within WORKER_LEASE_SECONDS (plus a third) of the active one's death. A
 * clean stop gives it up at once.
 */

export type LeaseHolder = {
  /** Renews the lease when due, or takes it when free: false while another worker holds it. */
  hold: () => Promise<boolean>
  /** Whether the lease was lost since the last hold() (a pass stops at its next step). */
  lost: () => boolean
  release: () => Promise<void>
  /** How long a standby waits between asks, and the holder between renewals. */
  renewEveryMs: number
}

type Log = Pick<Payload['logger'], 'info' | 'warn'>

export function createLeaseHolder({
  payload,
  holder,
  ttlMs,
  logger,
}: {
  payload: Payload
  holder: string
  ttlMs: number
  logger: Log
}): LeaseHolder {
  const renewEveryMs = Math.max(200, Math.floor(ttlMs / 3))
  let held = false
  let renewedAt = 0
  let wasLost = false
  let announcedStandby = false
  let renewing: Promise<boolean> | undefined

  async function claim(): Promise<boolean> {
    renewing ??= claimWorkerLease({ payload, holder, ttlMs }).finally(() => {
      renewing = undefined
    })
    const now = Date.now()
    const got = await renewing
    if (got) {
      if (!held) logger.info({ holder }, 'payment worker holds the lease: running passes')
      held = true
      renewedAt = now
      announcedStandby = false
    } else {
      if (held) {
        wasLost = true
        logger.warn({ holder }, 'payment worker lost its lease: standing by')
      } else if (!announcedStandby) {
        logger.info({ holder }, 'another payment worker holds the lease: standing by')
        announcedStandby = true
      }
      held = false
    }
    return got
  }

  return {
    renewEveryMs,
    async hold() {
      wasLost = false
      if (held && Date.now() - renewedAt < renewEveryMs) return true
      return claim()
    },
    lost() {
      // Renewed in the background while a pass runs long; the pass checks this between steps.
      if (held && Date.now() - renewedAt >= renewEveryMs && !renewing) void claim()
      return wasLost || (held && Date.now() - renewedAt >= ttlMs)
    },
    async release() {
      if (!held) return
      held = false
      await releaseWorkerLease({ payload, holder })
      logger.info({ holder }, 'payment worker gave up its lease')
    },
  }
}

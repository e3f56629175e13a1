import type { Payload } from 'payload'

import { asOneWorkUnit, claimWorkerLease, releaseWorkerLease } from '@shop/cms/engine'

/**
 * One payment worker at a time: the lease `payment-worker` in the database. The lease says the
 * worker is alive, not that it makes progress: once held, it is renewed on its own timer, a
 * third of its time apart, whatever the passes are doing (a long look, a chain outage, 404
 * retries), so a worker waiting on the chain never loses it. A second worker (a replica, a
 * restart overlap) waits as a hot standby, asking for it as often, and takes it over within
 * WORKER_LEASE_SECONDS (plus a third) of the holder's death. A clean stop gives it up at once.
 *
 * Writes are fenced: a worker whose lease ran out (its renewals failed for a whole lease time,
 * or the process stalled) or came back in a new epoch (someone may have held it meanwhile) is
 * told by `lost()`, and writes nothing more until it has read everything afresh.
 */

export type LeaseHolder = {
  /** Takes the lease when free (or renews it): false while another worker holds it. */
  hold: () => Promise<boolean>
  /** Whether this worker may not write now: the lease ran out, or was taken, since it held it. */
  lost: () => boolean
  /** The epoch of the lease as this worker holds it (undefined before it first holds it). */
  epoch: () => number | undefined
  release: () => Promise<void>
  /** How long a standby waits between asks, and the holder between renewals. */
  renewEveryMs: number
}

type Log = Pick<Payload['logger'], 'info' | 'warn' | 'error'>

type Lease = {
  payload: Payload
  holder: string
  ttlMs: number
  renewEveryMs: number
  logger: Log
  clock: () => number
  held: boolean
  epoch?: number
  /** When the last successful claim was asked (its expiry counts from there). */
  renewedAt: number
  /** Set when the lease ran out or changed hands; cleared by the next hold(). */
  wasLost: boolean
  announcedStandby: boolean
  renewing?: Promise<boolean>
  timer?: NodeJS.Timeout
}

const heldFor = (lease: Lease) =>
  lease.held ? lease.clock() - lease.renewedAt : Number.POSITIVE_INFINITY

function lose(lease: Lease, why: string) {
  if (!lease.held) return
  lease.held = false
  lease.wasLost = true
  clearInterval(lease.timer)
  const { holder, epoch } = lease
  lease.logger.warn({ holder, epoch, why }, 'payment worker lost its lease: standing by')
}

async function claimOnce(lease: Lease): Promise<boolean> {
  const { payload, holder, ttlMs, logger } = lease
  const askedAt = lease.clock()
  const got = await claimWorkerLease({ payload, holder, ttlMs })
  if (got === null) {
    lose(lease, 'another worker holds it')
    if (!lease.announcedStandby) {
      logger.info({ holder }, 'another payment worker holds the lease: standing by')
      lease.announcedStandby = true
    }
    return false
  }
  // Held again in another epoch: the lease lapsed in between (another worker may have run).
  if (lease.held && got !== lease.epoch) lose(lease, 'it lapsed and was taken anew')
  if (!lease.held) {
    logger.info({ holder, epoch: got }, 'payment worker holds the lease: running passes')
    startRenewing(lease)
  }
  lease.held = true
  lease.epoch = got
  lease.renewedAt = askedAt
  lease.announcedStandby = false
  return true
}

/** One claim at a time (the timer's and a pass's hold() share it). */
function claim(lease: Lease): Promise<boolean> {
  lease.renewing ??= claimOnce(lease).finally(() => {
    lease.renewing = undefined
  })
  return lease.renewing
}

function startRenewing(lease: Lease) {
  clearInterval(lease.timer)
  lease.timer = setInterval(() => {
    // A write of its own (a unit of its own): never joined to a transaction of the pass that
    // happened to start the timer, which could roll it back.
    asOneWorkUnit(() => claim(lease)).catch((error: unknown) => {
      // The database did not answer: the lease holds until its time runs out, and each tick
      // tries again; `lost()` says so once it has run out.
      lease.logger.error({ err: error, holder: lease.holder }, 'renewing the worker lease failed')
      if (heldFor(lease) >= lease.ttlMs) lose(lease, 'its renewals failed for a whole lease time')
    })
  }, lease.renewEveryMs)
  lease.timer.unref()
}

export function createLeaseHolder({
  payload,
  holder,
  ttlMs,
  logger,
  clock = Date.now,
}: {
  payload: Payload
  holder: string
  ttlMs: number
  logger: Log
  clock?: () => number
}): LeaseHolder {
  const lease: Lease = {
    payload,
    holder,
    ttlMs,
    renewEveryMs: Math.max(200, Math.floor(ttlMs / 3)),
    logger,
    clock,
    held: false,
    renewedAt: 0,
    wasLost: false,
    announcedStandby: false,
  }
  return {
    renewEveryMs: lease.renewEveryMs,
    async hold() {
      if (lease.held && heldFor(lease) < lease.renewEveryMs) return true
      const got = await claim(lease)
      if (got) lease.wasLost = false
      return got
    },
    lost() {
      if (lease.held && heldFor(lease) >= ttlMs) lose(lease, 'its time ran out before a renewal')
      return lease.wasLost || !lease.held
    },
    epoch: () => lease.epoch,
    async release() {
      clearInterval(lease.timer)
      if (!lease.held) return
      lease.held = false
      await releaseWorkerLease({ payload, holder })
      logger.info({ holder }, 'payment worker gave up its lease')
    },
  }
}

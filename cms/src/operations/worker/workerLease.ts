import type { Payload } from 'payload'

import { claimLease, releaseLease, WORKER_LEASE } from '../../db/leases'

/**
 * The payment worker's lease: one worker watches the chain at a time. True when `holder` holds
 * it until now + ttlMs (it held it already, or the last holder's time ran out).
 */
export const claimWorkerLease = (args: { payload: Payload; holder: string; ttlMs: number }) =>
  claimLease({ ...args, name: WORKER_LEASE })

/** Gives the lease up at once (a clean stop), so a standby need not wait for it to run out. */
export const releaseWorkerLease = (args: { payload: Payload; holder: string }) =>
  releaseLease({ ...args, name: WORKER_LEASE })

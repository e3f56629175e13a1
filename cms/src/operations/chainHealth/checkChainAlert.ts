import type { Payload } from 'payload'
import { commitTransaction, createLocalReq, initTransaction, killTransaction } from 'payload'

import type { Env } from '../../config/env'
import { queueChainOutageEmail } from '../../email/queueChainOutageEmail'
import { queueChainOutageWebhook } from '../webhooks/webhooks'
import { findChainHealthRow, latest, saveChainHealthRow } from './chainHealthRow'
import { chainOutageOf } from './chainOutage'

/**
 * While nothing is watched, the time the outage clock starts from is written at most this often
 * (an outage may then count up to this much too early: nothing beside CHAIN_ALERT_MINUTES).
 */
export const IDLE_WRITE_EVERY_MS = 30_000

/** When each Payload instance (each worker process) last wrote that nothing was watched. */
const lastIdleWrite = new WeakMap<Payload, number>()

/**
 * The owner's alert when the chain cannot be read: once no look at the watched orders has
 * succeeded for CHAIN_ALERT_MINUTES, one e-mail (OWNER_EMAIL) and one ChainSourceDown webhook
 * (WEBHOOK_URL) are queued, through the outboxes and the jobs queue as the other alerts are.
 * Once per outage: not again until a look has succeeded and a new outage has lasted as long.
 *
 * The outage is counted from the last successful look (this process's, or the one recorded in
 * the chain health row by an earlier worker), and never from before orders were watched: a shop
 * with nothing to watch makes no looks, and that is no outage. The dashboard shows the alert
 * (the row's alertedAt) even when neither OWNER_EMAIL nor WEBHOOK_URL is set.
 *
 * Called by the worker holding the lease after each pass; cheap while looks succeed (no database
 * call). Never throws: a failure is logged and the next pass tries again. Answers whether it
 * alerted now.
 */
export async function checkChainAlert({
  payload,
  env,
  now = new Date(),
  lastLookOkAt,
  watching,
}: {
  payload: Payload
  env: Pick<Env, 'ownerEmail' | 'webhook' | 'chainAlertMinutes' | 'chainSource' | 'wocApiUrl'>
  now?: Date
  /** The last look at the watched orders that succeeded in this process; null before one did. */
  lastLookOkAt: Date | null
  /** Orders are being watched now (the worker's watch list is not empty). */
  watching: boolean
}): Promise<boolean> {
  const alertAfterMs = env.chainAlertMinutes * 60_000
  try {
    if (!watching) {
      const last = lastIdleWrite.get(payload)
      if (last !== undefined && now.getTime() - last < IDLE_WRITE_EVERY_MS && now.getTime() >= last)
        return false
      lastIdleWrite.set(payload, now.getTime())
      await saveChainHealthRow(payload, { idleAt: now.toISOString() })
      return false
    }
    lastIdleWrite.delete(payload)
    if (lastLookOkAt && now.getTime() - lastLookOkAt.getTime() < alertAfterMs) return false

    const row = await findChainHealthRow(payload)
    const lastOk = latest(lastLookOkAt, row?.lastLookOkAt)
    // No look ever succeeded and nothing was ever recorded: the clock starts now.
    if (!row && !lastOk) {
      await saveChainHealthRow(payload, {}, { row })
      return false
    }
    // Without a good look ever, the outage runs from the row's first write.
    const outageStart = latest(lastOk, row?.idleAt, lastOk ? null : row?.createdAt)!
    if (now.getTime() - outageStart.getTime() < alertAfterMs) return false
    // This outage was alerted: no look has succeeded since.
    const alertedAt = latest(row?.alertedAt)
    if (alertedAt && (!lastOk || lastOk <= alertedAt)) return false

    const outageKey = lastOk?.toISOString() ?? 'never'
    const req = await createLocalReq({}, payload)
    const ownsTransaction = await initTransaction(req)
    try {
      const saved = await saveChainHealthRow(
        payload,
        {
          alertedAt: now.toISOString(),
          outageSince: lastOk?.toISOString() ?? null,
          lastLookOkAt: lastOk?.toISOString() ?? null,
        },
        { req, row },
      )
      const outage = chainOutageOf({ row: saved, env })
      if (env.ownerEmail)
        await queueChainOutageEmail({ payload, req, to: env.ownerEmail, outageKey })
      if (env.webhook) await queueChainOutageWebhook({ payload, req, outage, outageKey })
      if (ownsTransaction) await commitTransaction(req)
    } catch (error) {
      await killTransaction(req)
      throw error
    }
    payload.logger.warn(
      { lastLookOkAt: lastOk, alertAfterMinutes: env.chainAlertMinutes },
      'no look at the chain has succeeded: the owner is alerted',
    )
    return true
  } catch (error) {
    payload.logger.error({ err: error }, 'could not check the chain source alert')
    return false
  }
}

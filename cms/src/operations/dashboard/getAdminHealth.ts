import type { AdminHealth, ArcCallbacksHealth, ChainSourceHealth, ChainUsage } from '@shop/domain'
import type { Payload } from 'payload'

import { slugs } from '../../collections/slugs'
import type { Env } from '../../config/env'
import { CHAIN_LOOKS_COUNTER } from '../../db/counters'
import { WORKER_LEASE } from '../../db/leases'
import type { ChainHealth, Order } from '../../payload-types'
import {
  findChainHealthRow,
  latest,
  parseStoredDisagreements,
  parseStoredStats,
} from '../chainHealth/chainHealthRow'

/** An URL's origin only: a path may carry a key (WhatsOnChain's, a webhook's token). */
export function originOf(url: string): string {
  try {
    return new URL(url).origin
  } catch {
    return 'not a valid URL'
  }
}

/**
 * The chain source's figures as the worker recorded them, each failing address with the order
 * it was given to (one query for the few listed).
 */
async function chainUsageOf(payload: Payload, row: ChainHealth | null): Promise<ChainUsage | null> {
  const stats = parseStoredStats(row?.stats)
  if (!row?.statsAt || !stats) return null
  const addresses = stats.failingAddresses.map((f) => f.address)
  const orders =
    addresses.length === 0
      ? []
      : ((
          await payload.find({
            collection: slugs.orders,
            where: { paymentAddress: { in: addresses } },
            select: { paymentAddress: true },
            depth: 0,
            limit: addresses.length,
            pagination: false,
          })
        ).docs as Pick<Order, 'id' | 'paymentAddress'>[])
  const orderOf = new Map(orders.map((o) => [o.paymentAddress, String(o.id)]))
  return {
    recordedAt: row.statsAt,
    callsToday: stats.callsToday,
    capPerDay: stats.capPerDay,
    callsLastSecond: stats.callsLastSecond,
    limitPerSecond: stats.limitPerSecond,
    throttledUntil: stats.throttledUntil,
    errorsLastHour: stats.errorsLastHour,
    failingAddresses: stats.failingAddresses.map((f) => ({
      ...f,
      orderId: orderOf.get(f.address) ?? null,
    })),
    failingAddressCount: stats.failingAddressCount,
  }
}

/**
 * One entry per chain source for the chain-health card: WhatsOnChain always (the source the shop
 * looks up addresses with), ARC when it is configured (ARC_URL, or the simulator's stand-in) or
 * has a row from when it was.
 */
async function chainSourcesOf({
  payload,
  env,
  now,
  wocRow,
  wocUsage,
  arcRow,
}: {
  payload: Payload
  env: { wocApiUrl: string; arcUrl?: string | undefined; arcCallbackUrl?: string | undefined }
  now: Date
  wocRow: ChainHealth | null
  wocUsage: ChainUsage | null
  arcRow: ChainHealth | null
}): Promise<ChainSourceHealth[]> {
  const sources: ChainSourceHealth[] = [
    {
      name: 'WhatsOnChain',
      origin: originOf(env.wocApiUrl),
      usage: wocUsage,
      lastAnswerAt: wocRow?.lastLookOkAt ?? null,
      disagreements: parseStoredDisagreements(wocRow?.stats),
    },
  ]
  if (env.arcUrl || arcRow)
    sources.push({
      name: 'ARC',
      origin: env.arcUrl ? originOf(env.arcUrl) : null,
      usage: await chainUsageOf(payload, arcRow),
      lastAnswerAt: arcRow?.lastLookOkAt ?? null,
      disagreements: parseStoredDisagreements(arcRow?.stats),
      callbacks: await arcCallbacksOf(payload, env.arcCallbackUrl, now),
    })
  return sources
}

/** ARC's callbacks of the last day (the worker prunes them after a day), and where they go. */
async function arcCallbacksOf(
  payload: Payload,
  url: string | undefined,
  now: Date,
): Promise<ArcCallbacksHealth> {
  const since = new Date(now.getTime() - 24 * 3_600_000).toISOString()
  // The newest of the day, and (its page's totalDocs) how many there were.
  const lastDay = await payload.find({
    collection: slugs.arcCallbacks,
    where: { createdAt: { greater_than: since } },
    sort: '-createdAt',
    limit: 1,
    depth: 0,
    select: { createdAt: true },
  })
  return {
    url: url ?? null,
    lastAt: lastDay.docs[0]?.createdAt ?? null,
    lastDay: lastDay.totalDocs,
  }
}

/** The outage the owner was alerted about, while no look has succeeded since the alert. */
function outageOf(row: ChainHealth | null): AdminHealth['chain']['outage'] {
  const alertedAt = latest(row?.alertedAt)
  const lastOk = latest(row?.lastLookOkAt)
  if (!alertedAt || (lastOk && lastOk > alertedAt)) return null
  return { since: row?.outageSince ?? null, alertedAt: alertedAt.toISOString() }
}

/**
 * Whether the payment worker runs (it holds its lease), when it last looked at the chain, how
 * each chain source fares (its calls, errors and failing addresses as the worker recorded them,
 * and where WhatsOnChain and ARC disagreed), and how the e-mail outbox fares: what the owner
 * checks first when buyers say nothing happens.
 */
export async function getAdminHealth({
  payload,
  env,
  now = new Date(),
}: {
  payload: Payload
  env: Pick<Env, 'chainSource' | 'wocApiUrl' | 'emailDelivery' | 'chainAlertMinutes'> &
    Partial<Pick<Env, 'arcUrl' | 'arcCallbackUrl'>>
  now?: Date
}): Promise<AdminHealth> {
  const [lease, lastLook, chainRow, arcRow, pending, failed, lastSent, lastFailed] =
    await Promise.all([
      payload.find({
        collection: slugs.leases,
        where: { name: { equals: WORKER_LEASE } },
        limit: 1,
        depth: 0,
      }),
      payload.find({
        collection: slugs.counters,
        where: { name: { equals: CHAIN_LOOKS_COUNTER } },
        limit: 1,
        depth: 0,
      }),
      findChainHealthRow(payload),
      findChainHealthRow(payload, undefined, 'arc'),
      payload.count({ collection: slugs.emailOutbox, where: { status: { equals: 'pending' } } }),
      payload.count({ collection: slugs.emailOutbox, where: { status: { equals: 'failed' } } }),
      payload.find({
        collection: slugs.emailOutbox,
        where: { status: { equals: 'sent' } },
        sort: '-sentAt',
        limit: 1,
        depth: 0,
        select: { sentAt: true },
      }),
      payload.find({
        collection: slugs.emailOutbox,
        where: { status: { equals: 'failed' } },
        sort: '-updatedAt',
        limit: 1,
        depth: 0,
        select: { lastError: true },
      }),
    ])
  const leaseUntil = lease.docs[0]?.expiresAt ?? null
  const usage = await chainUsageOf(payload, chainRow)
  return {
    worker: {
      running: leaseUntil !== null && new Date(leaseUntil).getTime() > now.getTime(),
      leaseUntil,
    },
    chain: {
      source: env.chainSource,
      origin: originOf(env.wocApiUrl),
      lastCheckAt: lastLook.docs[0]?.updatedAt ?? null,
      lastLookOkAt: chainRow?.lastLookOkAt ?? null,
      usage,
      sources: await chainSourcesOf({
        payload,
        env,
        now,
        wocRow: chainRow,
        wocUsage: usage,
        arcRow,
      }),
      alertAfterMinutes: env.chainAlertMinutes,
      outage: outageOf(chainRow),
    },
    email: {
      delivery: env.emailDelivery,
      pending: pending.totalDocs,
      failed: failed.totalDocs,
      lastSentAt: lastSent.docs[0]?.sentAt ?? null,
      lastError: lastFailed.docs[0]?.lastError ?? null,
    },
  }
}

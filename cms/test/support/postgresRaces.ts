import type { Payload } from 'payload'

import { consumeDownloadUse } from '../../src/db/downloadTokens'
import { postgres } from '../../src/db/engine'
import { claimLease } from '../../src/db/leases'
import { countRateLimitHit } from '../../src/db/rateLimits'
import { reserveStock } from '../../src/db/stock'
import type { NewOrderFields } from '../../src/db/storeNewOrder'
import { storeNewOrder } from '../../src/db/storeNewOrder'

/** What one process got of the rows two processes race for (postgres-two-processes.test.ts). */
/** A printed book's order as checkout stores it (the buyer's details changed by `extra`). */
export const orderFields = (
  product: number,
  extra: Partial<NewOrderFields> = {},
): NewOrderFields => ({
  product,
  productName: 'Book',
  productType: 'PHYSICAL',
  userEmail: 'buyer@example.com',
  clientKey: 'client',
  tokenAddress: null,
  priceAtPurchaseUSD: 10,
  shippingCostEUR: 0,
  bsvUsdRateAtPurchase: 40,
  amountSatoshiExpected: 25_000_000,
  gatewayExpiresAt: new Date(Date.now() + 20 * 60_000).toISOString(),
  shippingName: 'Ada',
  shippingAddressLine1: '1 Street',
  shippingAddressLine2: null,
  shippingCity: 'London',
  shippingStateProvince: null,
  shippingPostalCode: 'N1',
  shippingCountry: 'United Kingdom',
  shippingPhone: null,
  ...extra,
})

export type RaceOutcome = {
  copies: number
  lease: number[]
  hits: number[]
  downloads: number
  lastCopy: string[]
  indexes: number[]
}

export const RACERS = 20

/** Rate-limit hits each caller counts, one after another. */
export const HITS = 10

/** Opens RACERS connections of this process's pool, so neither process starts cold. */
export const warmPool = (payload: Payload) =>
  Promise.all(Array.from({ length: RACERS }, () => postgres(payload).query('SELECT 1')))

/**
 * Races for every row at once, RACERS callers a noun, on this process's pool, from `startAt`
 * (epoch ms): two processes have no event they can both await at the same instant, so they meet
 * at a time on the clock.
 */
export async function claimRaces({
  payload,
  who,
  productId,
  lastCopyId,
  leaseName,
  tokenHash,
  startAt,
}: {
  payload: Payload
  who: string
  productId: number
  lastCopyId: number
  leaseName: string
  tokenHash: string
  startAt: number
}): Promise<RaceOutcome> {
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, startAt - Date.now())))
  const each = <T>(call: (i: number) => Promise<T>) =>
    Promise.all(Array.from({ length: RACERS }, (_, i) => call(i)))
  const indexes: number[] = []
  // Each caller goes on until the shelf or the token is used up, and counts HITS hits, so the two
  // processes' races last long enough to overlap however late one of them starts.
  const untilRefused = async (call: () => Promise<boolean>) => {
    let got = 0
    while (await call()) got += 1
    return got
  }
  const hitsInTurn = async () => {
    const seen: number[] = []
    for (let i = 0; i < HITS; i++)
      seen.push(
        (await countRateLimitHit({ payload, key: 'two-processes', windowMs: 60_000, delta: 1 }))
          .hits,
      )
    return seen
  }
  const [copies, lease, hits, downloads, lastCopy] = await Promise.all([
    each(() => untilRefused(() => reserveStock({ payload, productId }))),
    each((i) => claimLease({ payload, name: leaseName, holder: `${who}-${i}`, ttlMs: 60_000 })),
    each(hitsInTurn),
    each(() => untilRefused(async () => (await consumeDownloadUse({ payload, tokenHash })).ok)),
    each((i) =>
      storeNewOrder({
        payload,
        addressFor: (index) => {
          indexes.push(index)
          return `${who}-address-${index}`
        },
        fields: orderFields(lastCopyId, {
          productName: 'Last copy',
          userEmail: `${who}-${i}@example.com`,
          clientKey: `${who}-${i}`,
          gatewayExpiresAt: new Date(Date.now() + 60_000).toISOString(),
        }),
      }),
    ),
  ])
  const sum = (counts: number[]) => counts.reduce((a, b) => a + b, 0)
  return {
    copies: sum(copies),
    lease: lease.filter((epoch): epoch is number => epoch !== null),
    hits: hits.flat(),
    downloads: sum(downloads),
    lastCopy: lastCopy.flatMap((s) => (s && 'orderId' in s ? [s.orderId] : [])),
    indexes,
  }
}

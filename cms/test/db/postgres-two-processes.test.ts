import { spawn } from 'node:child_process'
import readline from 'node:readline'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { slugs } from '../../src/collections/slugs'
import { fromRoot } from '../../src/config/paths'
import { claimLease } from '../../src/db/leases'
import { storeNewOrder } from '../../src/db/storeNewOrder'
import { TS_NODE_ARGS } from '../support/nodeArgs'
import type { RaceOutcome } from '../support/postgresRaces'
import { claimRaces, HITS, RACERS, warmPool } from '../support/postgresRaces'
import { createPrintedBook } from '../support/shopApi'
import type { TestShop } from '../support/testShop'
import { startTestShop } from '../support/testShop'

/**
 * Two processes on one PostgreSQL database (the web process and the worker, or two web
 * processes), each with its own pool, racing for the same rows at the same moment: the copies
 * of a book, a lapsed lease, a rate-limit window, a download token's uses and, at checkout, the
 * last copy and the next address index.
 */
let shop: TestShop

beforeAll(async () => {
  shop = await startTestShop({ engine: 'postgres', seed: false })
})

afterAll(async () => {
  await shop?.close()
})

/** The claimant child, connected and waiting for the time to start at. */
async function startClaimant(args: string[]) {
  const child = spawn(
    process.execPath,
    [...TS_NODE_ARGS, fromRoot('cms/test/support/postgresClaimant.ts'), ...args],
    {
      cwd: fromRoot('cms'),
      env: {
        ...process.env,
        NODE_ENV: 'test',
        DATABASE_URI: shop.databaseUri,
        DATA_DIR: shop.dataDir,
        DB_PUSH: 'false',
        LOG_LEVEL: 'fatal',
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    },
  )
  let errors = ''
  child.stderr.on('data', (chunk) => (errors += chunk))
  const lines = readline.createInterface({ input: child.stdout })
  const next = () =>
    new Promise<string>((resolve, reject) => {
      lines.once('line', resolve)
      child.once('exit', (code) => reject(new Error(`claimant exited ${code}: ${errors}`)))
    })
  await expect(next()).resolves.toBe('ready')
  return {
    go: async (startAt: number): Promise<RaceOutcome> => {
      const answer = next()
      child.stdin.write(`${startAt}\n`)
      return JSON.parse(await answer) as RaceOutcome
    },
    exited: new Promise((resolve) => child.once('exit', resolve)),
    kill: () => child.kill(),
  }
}

describe('two processes on one PostgreSQL database', () => {
  it('never hand the same row to both', async () => {
    const payload = shop.payload
    const book = await createPrintedBook(payload, { name: 'Shared shelf', stock: 300 })
    const last = await createPrintedBook(payload, { name: 'Shared last copy', stock: 1 })
    const leaseName = 'shared-lease'
    await claimLease({ payload, name: leaseName, holder: 'gone', ttlMs: -1 })
    const downloaded = await createPrintedBook(payload, { name: 'Downloaded', stock: 1 })
    const tokenHash = 'shared-token'
    // A token needs an order: a checkout of a book of its own.
    const stored = await storeNewOrder({
      payload,
      addressFor: (i) => `token-order-${i}`,
      fields: {
        product: downloaded,
        productName: 'Downloaded',
        productType: 'PHYSICAL',
        userEmail: 'token@example.com',
        clientKey: null,
        tokenAddress: null,
        priceAtPurchaseUSD: 1,
        shippingCostEUR: null,
        bsvUsdRateAtPurchase: 40,
        amountSatoshiExpected: 1,
        gatewayExpiresAt: new Date(Date.now() + 60_000).toISOString(),
        shippingName: null,
        shippingAddressLine1: null,
        shippingAddressLine2: null,
        shippingCity: null,
        shippingStateProvince: null,
        shippingPostalCode: null,
        shippingCountry: null,
        shippingPhone: null,
      },
    })
    if (!stored || !('orderId' in stored)) throw new Error('the token order was not stored')
    await payload.create({
      collection: slugs.downloadTokens,
      data: {
        tokenHash,
        tokenSealed: 'sealed',
        order: stored.orderId,
        product: downloaded,
        expiresAt: new Date(Date.now() + 60_000).toISOString(),
        maxUses: 150,
        uses: 0,
      },
    })

    const claimant = await startClaimant([String(book), String(last), leaseName, tokenHash])
    try {
      await warmPool(payload)
      const startAt = Date.now() + 250
      const race = { payload, productId: book, lastCopyId: last, leaseName, tokenHash, startAt }
      const [child, parent] = await Promise.all([
        claimant.go(startAt),
        claimRaces({ ...race, who: 'parent' }),
      ])
      expect(child.copies + parent.copies).toBe(300)
      expect([...child.lease, ...parent.lease]).toEqual([2])
      expect([...child.hits, ...parent.hits].sort((a, b) => a - b)).toEqual(
        Array.from({ length: 2 * RACERS * HITS }, (_, i) => i + 1),
      )
      expect(child.downloads + parent.downloads).toBe(150)
      expect([...child.lastCopy, ...parent.lastCopy]).toHaveLength(1)
      expect([...child.indexes, ...parent.indexes]).toHaveLength(1)
    } finally {
      claimant.kill()
      await claimant.exited
    }
    const shelf = await payload.findByID({ collection: slugs.products, id: book, depth: 0 })
    expect(Number(shelf.currentStock)).toBe(0)
  })
})

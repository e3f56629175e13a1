// The bench's own reads and writes of the production shop's SQLite database (watched orders,
// the stock check after the rush), beside the shop's processes.
import path from 'node:path'

import { createClient } from '@libsql/client'

import { productionDir, sleep } from './context.mjs'

/** A client of the production shop's database; the caller closes it. */
export const openShopDb = () =>
  createClient({ url: `file:${path.join(productionDir(), 'shop.db')}` })

/**
 * Runs a statement batch of the bench's own client, again while the shop holds SQLite's write
 * lock: @libsql/client's connection after a transaction has no busy timeout (FIELD-NOTES), so
 * a batch meeting the worker's write would fail the whole run with SQLITE_BUSY.
 */
export async function whenNotBusy(run, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    try {
      return await run()
    } catch (error) {
      if (!String(error?.code).startsWith('SQLITE_BUSY') || Date.now() > deadline) throw error
      await sleep(20)
    }
  }
}

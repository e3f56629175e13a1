// The checkout and detection sections again with the shop on PostgreSQL, in the same run as on
// SQLite: the SQLite shop is stopped and the production bundle starts on a fresh database of the
// bench's throwaway cluster (bench/lib/postgres.mjs): its first run applies the PostgreSQL
// migrations, then the admin, the catalogue, and the sections as on SQLite (Payload's REST write
// beside the checkout rush measured on PostgreSQL too). Without PostgreSQL installed the table
// says so in one row and the run goes on.
import { addProducts, adminLogin, createAdmin, warmCms } from '../lib/admin.mjs'
import { log, resultsOn, run } from '../lib/context.mjs'
import { postgresCluster } from '../lib/postgres.mjs'
import {
  freshShop,
  productionEnv,
  shop,
  startShop,
  stopShop,
  useDatabase,
  waitForQuiet,
} from '../lib/shop.mjs'
import { benchCheckout } from './checkout.mjs'
import { benchDetection } from './detection.mjs'
import { memoryAtRest } from './memory.mjs'

export async function benchOnPostgres({ detection, checkout }) {
  const results = resultsOn('postgres')
  let cluster
  try {
    cluster = await postgresCluster()
  } catch (error) {
    results.skipped = error.message
    log(`PostgreSQL skipped: ${error.message}`)
    return
  }
  await stopShop()
  useDatabase(freshShop('postgres_sections', await cluster.createDatabase('sections')))
  log('PostgreSQL: production bundle, first run on a fresh database (migrations)')
  const first = await startShop('production', { profile: run.profile })
  await createAdmin(await productionEnv())
  results.startup = { version: cluster.version, firstRunMs: first.firstPageMs }
  run.results.memory['at rest, production on PostgreSQL'] = await memoryAtRest()
  await adminLogin()
  await warmCms()
  await addProducts()
  if (detection) await benchDetection({ engine: 'postgres' })
  if (checkout) {
    await waitForQuiet('PostgreSQL: checkout')
    await benchCheckout({ engine: 'postgres' })
    results.webPid = shop.pids.web
  }
  await stopShop()
}

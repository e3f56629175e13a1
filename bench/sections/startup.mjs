// Start-up: time from launch to the first served page, for test mode (`npm start`) and the
// production bundle, each on a fresh database and again later; and the memory at rest after the
// later start. It leaves the production shop running (with `--cpu-prof` when profiling) for the
// sections after it, and the admin account created.
import { log, run } from '../lib/context.mjs'
import { createAdmin } from '../lib/admin.mjs'
import { startSimulator } from '../lib/servers.mjs'
import { buildStale, productionEnv, startShop, stopShop } from '../lib/shop.mjs'
import { memoryAtRest } from './memory.mjs'

export async function benchStartup() {
  await buildStale()
  log('start-up, test mode: first run on a fresh database')
  const testFirst = await startShop('test mode')
  await stopShop()
  log('start-up, test mode: later run')
  const testLater = await startShop('test mode')
  const testRest = await memoryAtRest()
  await stopShop()

  await startSimulator()
  log('start-up, production bundle: first run on a fresh database')
  const prodFirst = await startShop('production')
  await createAdmin(await productionEnv())
  await stopShop()
  log('start-up, production bundle: later run')
  const prodLater = await startShop('production', { profile: run.profile })
  const prodRest = await memoryAtRest()
  run.results.startup = {
    testMode: { firstRunMs: testFirst.firstPageMs, laterRunMs: testLater.firstPageMs },
    production: { firstRunMs: prodFirst.firstPageMs, laterRunMs: prodLater.firstPageMs },
  }
  run.results.memory = { 'at rest, test mode': testRest, 'at rest, production': prodRest }
  log(
    `start-up: test mode ${testFirst.firstPageMs} / ${testLater.firstPageMs} ms, production ${prodFirst.firstPageMs} / ${prodLater.firstPageMs} ms; web at rest ${prodRest.web} MB`,
  )
}

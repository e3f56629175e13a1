// Chain calls per order over its whole watch (30 days after its expiry), from the worker's own
// schedule run over virtual time (payment-worker/src/watch/lifetime.ts): with the push stream
// connected, as the shop runs, and polling alone, at 100 and 1,000 orders a day.
import fs from 'node:fs'
import { pathToFileURL } from 'node:url'

import { build } from 'esbuild'

import { esbuildOptions, root } from '../../scripts/esbuild-options.mjs'
import { log, run, workPath } from '../lib/context.mjs'

export async function benchLifetime() {
  const outfile = workPath('lifetime.mjs')
  await build({
    ...esbuildOptions,
    entryPoints: [`${root}/payment-worker/src/watch/lifetime.ts`],
    outfile,
  })
  const { callsOverLife, DEFAULT_LIFETIME_SETTINGS: SETTINGS } = await import(
    pathToFileURL(outfile).href
  )
  fs.rmSync(outfile, { force: true })
  const rows = []
  const cases = run.quick
    ? [
        [100, true],
        [100, false],
      ]
    : [
        [100, true],
        [1000, true],
        [100, false],
      ]
  for (const [ordersPerDay, pushConnected] of cases) {
    const row = callsOverLife({ ordersPerDay, pushConnected, settings: SETTINGS })
    log(
      `calls per order over its life, ${ordersPerDay} orders a day, push ${pushConnected ? 'connected' : 'down'}: ${row.callsPerOrder} (${row.looksPerOrder} looks; ${row.tipCallsPerDay} tip calls a day)`,
    )
    rows.push(row)
  }
  run.results.lifetime = rows
}

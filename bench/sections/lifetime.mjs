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
  // [orders a day, push connected, ARC on]
  const cases = run.quick
    ? [
        [10, true, true],
        [100, true, true],
        [100, false, true],
      ]
    : [
        [10, true, true],
        [100, true, true],
        [1000, true, true],
        [10, true, false],
        [100, false, true],
      ]
  for (const [ordersPerDay, pushConnected, arc] of cases) {
    const row = callsOverLife({ ordersPerDay, pushConnected, arc, settings: SETTINGS })
    log(
      `calls per order over its life, ${ordersPerDay} orders a day, push ${pushConnected ? 'connected' : 'down'}, ARC ${arc ? 'on' : 'off'}: WhatsOnChain ${row.callsPerOrder} (${row.looksPerOrder} looks; ${row.tipCallsPerDay} tip calls a day), ARC per paid order at most ${row.arcCallsPerPaidOrder.max}`,
    )
    rows.push(row)
  }
  run.results.lifetime = rows
  await benchWindowOfDoubt()
}

/**
 * The window of doubt up to the deadline, from the worker's own schedule over virtual time
 * (payment-worker/src/watch/doubt.ts): polling alone with 1, 100 and 1,000 orders open at once,
 * and with a deaf stream (connected, no mempool transactions).
 */
async function benchWindowOfDoubt() {
  const outfile = workPath('doubt.mjs')
  await build({
    ...esbuildOptions,
    entryPoints: [`${root}/payment-worker/src/watch/doubt.ts`],
    outfile,
  })
  const { windowOfDoubt, DEFAULT_DOUBT_SETTINGS } = await import(pathToFileURL(outfile).href)
  fs.rmSync(outfile, { force: true })
  const cases = [
    [1, 'off'],
    [100, 'off'],
    [1000, 'off'],
    [100, 'deaf'],
  ]
  const rows = []
  for (const [openOrders, stream] of cases) {
    const row = windowOfDoubt({
      openOrders,
      stream,
      settings: DEFAULT_DOUBT_SETTINGS,
      lifetimes: 1,
    })
    log(
      `window of doubt, ${openOrders} open, stream ${stream}: widest ${(row.maxMs / 1000).toFixed(1)} s (median order ${(row.medianMs / 1000).toFixed(1)} s, ${row.callsPerSecond} calls/s)`,
    )
    rows.push(row)
  }
  run.results.doubt = rows
}

// `npm run bench`: measures the shop as owners run it (the production bundle, NODE_ENV=production,
// against the chain simulator and local rate and mail servers), beside test mode's start-up, and
// prints one table with every target marked `met` or `MISSED`. The same rows go to
// bench/results/<time>.json; `npm run bench -- --compare A.json B.json` prints the ratios of two
// runs. Each section is a file of bench/sections/, the pieces they share are in bench/lib/; see
// bench/README.md for what each row means.
import fs from 'node:fs'

import { addProducts, adminLogin, warmCms } from './lib/admin.mjs'
import { beginRun, run } from './lib/context.mjs'
import { stopEverything, stopEverythingOnExit } from './lib/processes.mjs'
import { report } from './lib/report.mjs'
import { shop, waitForQuiet } from './lib/shop.mjs'
import { benchCatalogue } from './sections/catalogue.mjs'
import { benchCheckout } from './sections/checkout.mjs'
import { benchDetection } from './sections/detection.mjs'
import { benchLifetime } from './sections/lifetime.mjs'
import { memoryAtEnd, withMemory } from './sections/memory.mjs'
import { benchPages } from './sections/pages.mjs'
import { benchOnPostgres } from './sections/postgres.mjs'
import { benchRush } from './sections/rush.mjs'
import { benchStartup } from './sections/startup.mjs'
import { compareRuns } from './table.mjs'

const argv = process.argv.slice(2)
if (argv[0] === '--compare') {
  if (argv.length !== 3) {
    console.error('usage: npm run bench -- --compare A.json B.json')
    process.exit(2)
  }
  compareRuns(...argv.slice(1).map((f) => JSON.parse(fs.readFileSync(f, 'utf8'))))
  process.exit(0)
}
/** The value of `--name=value`, or undefined. */
const flag = (name) => argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3)
// `--only=a,b` picks sections among catalogue, pages, detection, lifetime, checkout and rush;
// start-up and memory at rest always run (`--only=none` runs just those).
const only = flag('only')?.split(',')
const want = (name) => !only || only.includes(name)
try {
  beginRun({
    quick: argv.includes('--quick'),
    profile: argv.includes('--profile'),
    // `--engines=sqlite,postgres`: where checkout, detection and the rush run (both by default).
    // The rush: `--rush=N` orders, `--past=N` past orders, `--expired=N` orders expired before
    // it, `--variants=empty,past,expired` (BENCH_RUSH, BENCH_PAST, BENCH_EXPIRED too).
    flags: Object.fromEntries(
      ['engines', 'rush', 'past', 'expired', 'variants'].map((name) => [name, flag(name)]),
    ),
  })
} catch (error) {
  console.error(`[bench] ${error.message}`)
  process.exit(2)
}
stopEverythingOnExit()
const onSqlite = run.engines.includes('sqlite')

async function main() {
  await benchStartup()
  await adminLogin()
  await warmCms()
  await addProducts()
  if (want('catalogue')) await benchCatalogue()
  // The pages of a shop at rest, as a visitor finds them: before the sections that leave the
  // worker with orders to watch and e-mails to send.
  if (want('pages')) {
    await waitForQuiet('pages')
    await withMemory('pages', benchPages)
  }
  if (want('detection') && onSqlite) await benchDetection()
  if (want('lifetime')) await benchLifetime()
  if (want('checkout') && onSqlite) {
    // The rush comes to a shop at rest, as on launch day (not to one still loading /cms).
    await waitForQuiet('checkout')
    await benchCheckout()
  }
  memoryAtEnd()
  run.results.webPid = shop.pids.web
  // The same sections with the shop on PostgreSQL (the SQLite shop stops first).
  if (run.engines.includes('postgres') && (want('detection') || want('checkout')))
    await benchOnPostgres({ detection: want('detection'), checkout: want('checkout') })
  // Fresh shops, one per engine and variant.
  if (want('rush')) await benchRush()
}

let failure
try {
  await main()
} catch (error) {
  failure = error
} finally {
  await stopEverything()
}
if (!report(failure)) process.exit(1)

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
// `--only=a,b` picks sections among catalogue, pages, detection, lifetime and checkout; start-up and
// memory at rest always run (`--only=none` runs just those).
const only = argv
  .find((a) => a.startsWith('--only='))
  ?.slice(7)
  .split(',')
const want = (name) => !only || only.includes(name)
beginRun({ quick: argv.includes('--quick'), profile: argv.includes('--profile') })
stopEverythingOnExit()

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
  if (want('detection')) await benchDetection()
  if (want('lifetime')) await benchLifetime()
  if (want('checkout')) {
    // The rush comes to a shop at rest, as on launch day (not to one still loading /cms).
    await waitForQuiet('checkout')
    await benchCheckout()
  }
  memoryAtEnd()
  run.results.webPid = shop.pids.web
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

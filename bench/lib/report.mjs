// The end of a run: its rows, the table (every target `met` or `MISSED`), with `--profile` where
// the web process spent the checkout rush, and every row as JSON in bench/results/<time>.json.
import fs from 'node:fs'
import path from 'node:path'

import { printTable, rowsOf } from '../table.mjs'
import { profileDir, root, run } from './context.mjs'
import { printProfile, summarizeProfile } from './profile.mjs'

const resultsDir = path.join(root, 'bench/results')

/**
 * Prints the run's table and writes its results; on a failure prints why and the rows measured
 * before it, and writes nothing (the temporary folder stays for a look). False on a failure.
 */
export function report(failure) {
  const { results } = run
  results.rows = rowsOf(results)
  const stamp = results.when.replace(/[:.]/g, '-')
  if (run.profile && !failure) {
    keepProfile(results, stamp, 'web', 'SQLite')
    if (results.postgres) keepProfile(results.postgres, stamp, 'web-postgres', 'PostgreSQL')
  }
  if (failure) {
    console.error(`[bench] failed: ${failure.message ?? failure}`)
    if (results.rows.length > 0) printTable(results)
    return false
  }
  printTable(results)
  for (const { profile } of [results, results.postgres ?? {}]) {
    if (!profile) continue
    printProfile(profile)
    console.log(
      `[bench] the web process's CPU profile: ${profile.file} (open it in Chrome DevTools)`,
    )
  }
  fs.mkdirSync(resultsDir, { recursive: true })
  const file = path.join(resultsDir, `${stamp}.json`)
  fs.writeFileSync(file, JSON.stringify(results, null, 2))
  console.log(`\n[bench] results written to ${path.relative(root, file)}`)
  fs.rmSync(run.work, { recursive: true, force: true })
  return true
}

/**
 * The web process's profile of an engine's checkout (written when it exited, found by its pid)
 * is kept beside the results as `<time>-<name>.cpuprofile`, and summarized over the checkout
 * rush's window.
 */
function keepProfile(results, stamp, name, engine) {
  const { webPid, checkout } = results
  if (!checkout || !webPid) return
  const file = fs.readdirSync(profileDir()).find((f) => f.includes(`.${webPid}.`))
  if (!file) return
  fs.mkdirSync(resultsDir, { recursive: true })
  const kept = path.join(resultsDir, `${stamp}-${name}.cpuprofile`)
  fs.copyFileSync(path.join(profileDir(), file), kept)
  results.profile = {
    file: path.relative(root, kept),
    ...summarizeProfile(kept, { ...checkout.window, label: `the checkout rush (${engine})` }),
  }
}

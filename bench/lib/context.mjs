// What every part of a run shares: the ports and addresses, the admin's credentials, the run's
// flags, its working folder and the results it collects, and waiting for a condition.
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')

export const PORT = Number(process.env.BENCH_PORT ?? 3800)
export const SIM_PORT = PORT + 1
export const STATIC_PORT = PORT + 2
// Caddy in front of the shop for the pages section, as owners run it (HTTPS, then HTTP).
export const FRONT_HTTPS_PORT = PORT + 3
export const FRONT_HTTP_PORT = PORT + 4
export const base = `http://127.0.0.1:${PORT}`
export const simBase = `http://127.0.0.1:${SIM_PORT}`
export const PASSWORD = `Bench-${crypto.randomBytes(12).toString('base64url')}`
export const ADMIN_EMAIL = 'admin@example.com'
export const EUR_PER_BSV = 40
// BIP32 test vector 2: a real xpub that is not the published test-mode key (production refuses that).
export const XPUB =
  'xpub661MyMwAqRbcFW31YEwpkMuc5THy2PSt5bDMsktWQcFF8syAmRUapSCGu8ED9W6oDMSgv6Zz8idoc4a6mr8BDzTJY47LJhkJ8UB7WEGuduB'

/**
 * The run under way, set once by `beginRun`: `--quick` (shorter load runs, fewer watched
 * orders), `--profile` (CPU profiles of the production processes), the temporary folder that
 * holds its databases and profiles, and the results every section writes into.
 */
export const run = {
  quick: false,
  profile: false,
  /** Seconds of each catalogue load run (autocannon's default duration). */
  seconds: 5,
  /** Watched orders at which payment detection is measured. */
  sizes: [10, 1000, 10000],
  /** The engines the checkout, detection and rush sections run on (`--engines=`). */
  engines: ['sqlite', 'postgres'],
  /**
   * The rush section: its orders (`--rush=`, BENCH_RUSH), the past orders of its `past` variant
   * (`--past=`, BENCH_PAST), the orders expired just before its `expired` variant (`--expired=`,
   * BENCH_EXPIRED), and which variants run (`--variants=empty,past,expired`).
   */
  rush: { orders: 1000, past: 100_000, expired: 5000, variants: ['empty', 'past', 'expired'] },
  work: '',
  results: undefined,
}

export const ENGINES = ['sqlite', 'postgres']
export const RUSH_VARIANTS = ['empty', 'past', 'expired']
/** How an engine is named in the table. */
export const engineName = (engine) => (engine === 'postgres' ? 'PostgreSQL' : 'SQLite')

/** A whole number of at least `min` from a flag or a setting, or the default. */
function count(value, fallback, what, min = 1) {
  if (value === undefined || value === '') return fallback
  const n = Number(String(value).replaceAll('_', '').replaceAll(',', ''))
  if (!Number.isInteger(n) || n < min) throw new Error(`${what} must be a whole number >= ${min}`)
  return n
}

/** A list flag's values, each one of `allowed`, or the default. */
function listOf(value, fallback, what, allowed) {
  if (value === undefined) return fallback
  const items = value.split(',').filter(Boolean)
  const unknown = items.filter((i) => !allowed.includes(i))
  if (unknown.length > 0)
    throw new Error(`${what}: unknown ${unknown.join(', ')} (one of ${allowed.join(', ')})`)
  return items
}

export function beginRun({ quick, profile, flags = {} }) {
  run.quick = quick
  run.profile = profile
  run.seconds = quick ? 2 : 5
  run.sizes = quick ? [10, 1000] : [10, 1000, 10000]
  run.engines = listOf(flags.engines, ENGINES, '--engines', ENGINES)
  run.rush = {
    orders: count(flags.rush ?? process.env.BENCH_RUSH, quick ? 200 : 1000, '--rush'),
    past: count(flags.past ?? process.env.BENCH_PAST, quick ? 10_000 : 100_000, '--past'),
    expired: count(flags.expired ?? process.env.BENCH_EXPIRED, quick ? 1000 : 5000, '--expired'),
    variants: listOf(flags.variants, RUSH_VARIANTS, '--variants', RUSH_VARIANTS),
  }
  run.work = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-bench-'))
  run.results = {
    when: new Date().toISOString(),
    machine: machineInfo(),
    quick,
    engines: run.engines,
  }
}

/**
 * Where a section's results go on an engine: SQLite's at the top of the results (as before
 * PostgreSQL was measured, so `--compare` with older runs finds them), PostgreSQL's under
 * `postgres`.
 */
export const resultsOn = (engine) =>
  engine === 'postgres' ? (run.results.postgres ??= {}) : run.results

/** A memory phase's name on an engine (SQLite's as before). */
export const phaseOn = (engine, phase) => (engine === 'postgres' ? `PostgreSQL: ${phase}` : phase)

/** A path inside the run's temporary folder. */
export const workPath = (...parts) => path.join(run.work, ...parts)
/** The production shop's data folder (its SQLite database is `shop.db` there). */
export const productionDir = () => workPath('production')
/** Where the production processes write their CPU profiles with `--profile`. */
export const profileDir = () => workPath('profiles')

export const log = (...args) => console.log('[bench]', ...args)
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms))

function machineInfo() {
  return {
    cpus: os.cpus().length,
    cpu: os.cpus()[0]?.model,
    memGB: +(os.totalmem() / 2 ** 30).toFixed(1),
    node: process.version,
  }
}

/** Polls `fn` until it returns a truthy value; an error with `fatal` set ends the wait at once. */
export async function waitUntil(
  fn,
  { timeoutMs = 120_000, everyMs = 25, what = 'a condition' } = {},
) {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    try {
      const value = await fn()
      if (value) return value
    } catch (error) {
      if (error?.fatal) throw error
    }
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)
    await sleep(everyMs)
  }
}

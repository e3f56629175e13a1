// `npm test`: lint, typecheck and build side by side, then every Vitest project (unit,
// component, integration on real SQLite files, browser tests in Chromium, hardening).
import { spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const env = {
  // The hardening suite, bounded to keep the whole of `npm test` short on 2 cores
  // (`npm run test:hardening` runs the full numbers: 150 cases per endpoint, 100 payment cycles,
  // 8 worker kills, 5 web kills, 300 s of load). Explicit settings win.
  HARDENING_FUZZ_RUNS: '40',
  HARDENING_PAYMENT_CYCLES: '25',
  HARDENING_WORKER_KILLS: '3',
  HARDENING_WEB_KILLS: '2',
  HARDENING_LOAD_SECONDS: '30',
  ...process.env,
  NEXT_TELEMETRY_DISABLED: '1',
  FORCE_COLOR: process.env.CI ? '0' : '1',
}
const vitestArgs = process.argv.slice(2)

/** Runs a command; its output is printed when it fails. Resolves with `{ ok, output }`. */
function run(label, command, args, extraEnv = {}) {
  const started = Date.now()
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: root,
      env: { ...env, ...extraEnv },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    child.stdout.on('data', (chunk) => (output += chunk))
    child.stderr.on('data', (chunk) => (output += chunk))
    child.on('exit', (code) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1)
      console.log(`[test] ${label}: ${code === 0 ? 'ok' : `FAILED (exit ${code})`} in ${seconds} s`)
      if (code !== 0)
        console.log(
          output
            .split('\n')
            .filter((l) => !l.includes('Unknown user config'))
            .slice(-80)
            .join('\n'),
        )
      resolve({ ok: code === 0, output })
    })
  })
}

const checks = await Promise.all([
  run('lint', 'npm', ['run', 'lint']),
  run('typecheck', 'npm', ['run', 'typecheck']),
  run('build', 'npm', ['run', 'build']),
])
if (checks.some((check) => !check.ok)) {
  console.log('0 passed, 1 failed')
  process.exit(1)
}

// Three Vitest runs side by side, each with its own pool: the integration projects; the browser
// tests, then the production bundle's test (installed meanwhile, in the background, from what
// the build step built); and the hardening suite, whose files run one at a time, then the unit
// and component projects. Alone, the hardening suite kept about one core and a third busy for
// four minutes; beside the others every core stays busy (99 % in a measured run), so the whole
// run is what its CPU costs. The load test, which measures memory, runs alone after them. What
// each group spends: docs/decisions/020.
const reports = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-vitest-'))

/**
 * The failed tests of a run's JSON report, a line each with the first line of the failure: what
 * the summary repeats at the very end, where a log cut to its tail still shows it.
 */
function failuresIn(label, testResults = []) {
  return testResults.flatMap((file) => {
    const where = path.relative(root, file.name)
    const failed = file.assertionResults
      .filter((test) => test.status === 'failed')
      .map((test) => `${label}: ${where} > ${test.fullName}: ${firstLine(test.failureMessages)}`)
    // A file that failed outside its tests (an import, a hook) has no failed test of its own.
    return failed.length > 0 || file.status !== 'failed'
      ? failed
      : [`${label}: ${where}: ${firstLine([file.message])}`]
  })
}
const firstLine = (messages = []) =>
  String(messages[0] ?? '')
    .split('\n')[0]
    .slice(0, 300)
function vitest(label, projects, extraEnv = {}, files = []) {
  const report = path.join(reports, `${label}.json`)
  const args = [
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${report}`,
    ...projects.flatMap((p) => ['--project', p]),
    // Files or filters given to `npm test -- ...` go to every group (instead of a group's own
    // files); a group may then have none.
    ...(vitestArgs.length > 0 ? vitestArgs : files),
    ...(vitestArgs.length > 0 ? ['--passWithNoTests'] : []),
  ]
  const started = Date.now()
  return new Promise((resolve) => {
    const child = spawn(path.join(root, 'node_modules/.bin/vitest'), args, {
      cwd: root,
      env: { ...env, ...extraEnv },
      stdio: 'inherit',
    })
    child.on('exit', (code) => {
      let counts = { passed: 0, failed: 1, skipped: 0, failures: [`${label}: no report`] }
      try {
        const { numPassedTests, numFailedTests, numPendingTests, testResults } = JSON.parse(
          fs.readFileSync(report, 'utf8'),
        )
        counts = {
          passed: numPassedTests,
          failed: numFailedTests,
          skipped: numPendingTests,
          failures: failuresIn(label, testResults),
        }
      } catch {
        // No report: the run itself failed (counted as one failure).
      }
      if (code !== 0 && counts.failures.length === 0)
        counts.failures = [
          `${label}: Vitest exited with ${code}, outside any test (see its output)`,
        ]
      const seconds = ((Date.now() - started) / 1000).toFixed(1)
      console.log(
        `[test] ${label}: ${counts.failed === 0 && code === 0 ? 'ok' : 'FAILED'} in ${seconds} s`,
      )
      resolve({ ...counts, ok: code === 0 && counts.failed === 0 })
    })
  })
}

/**
 * The production bundle packed and installed as the image installs it (`npm ci --omit=dev`), in
 * a folder its test's unprivileged user can reach: what the production test would otherwise do
 * first, for a minute and a half.
 */
function installProduction() {
  // Files or filters given to `npm test -- ...`: the production test installs it itself if it
  // is among them.
  if (vitestArgs.length > 0) return Promise.resolve({ ok: false, dir: undefined })
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-production-app-'))
  return run('production install', 'node', ['scripts/pack-bundle.mjs', dir, '--install']).then(
    ({ ok, output }) => ({ ok, dir, seconds: /installed in (\d+) s/.exec(output)?.[1] }),
  )
}

/**
 * The suites that reach the database through the shop's own code, run a second time on a real
 * PostgreSQL server (a throwaway cluster, cms/test/support/postgres.ts): checkout, limits,
 * the order row, search, sign-in, e-mail rules, deliveries, download links, and the payment
 * worker's own (payments, expiry, revival, jobs, owner actions, a failing order, the lease
 * across processes). Raw SQL in them goes through cms/test/support/sql.ts, on either engine. The
 * PostgreSQL nouns' own tests run with the integration projects.
 */
const POSTGRES_SUITES = [
  'cms/test/checkout/shipping-details.test.ts',
  'cms/test/checkout/saturation.test.ts',
  'cms/test/checkout/hoarding.test.ts',
  'cms/test/checkout/order-row.test.ts',
  'cms/test/public-api.test.ts',
  'cms/test/fulfilment/new-download-links.test.ts',
  'cms/test/fulfilment/delivery-job.test.ts',
  'cms/test/rules/order-email-every-door.test.ts',
  'cms/test/auth/sign-in.test.ts',
  'cms/test/db/payload-writes-beside-checkouts.test.ts',
  'cms/test/admin/orders-find.test.ts',
  // Every query of the worker and its jobs planned and measured on 20,000 past orders.
  'cms/test/db/query-plans.test.ts',
  'cms/test/admin/dashboard.test.ts',
  'cms/test/admin/chain-health.test.ts',
  'cms/test/rules/arc-callbacks-every-door.test.ts',
  'payment-worker/test/payments/checkout-flow.test.ts',
  'payment-worker/test/payments/payment-cases.test.ts',
  'payment-worker/test/payments/revived.test.ts',
  'payment-worker/test/payments/invalid-and-reorg.test.ts',
  'payment-worker/test/payments/on-time.test.ts',
  'payment-worker/test/payments/jobs.test.ts',
  'payment-worker/test/payments/emails-and-zero-conf.test.ts',
  'payment-worker/test/payments/woc-faults.test.ts',
  'payment-worker/test/payments/payment-restored.test.ts',
  'payment-worker/test/payments/chain-time.test.ts',
  'payment-worker/test/payments/late-watch.test.ts',
  'payment-worker/test/payments/one-failing-order.test.ts',
  'payment-worker/test/payments/owner-actions.test.ts',
  'payment-worker/test/payments/paid-over-in-one-step.test.ts',
  'payment-worker/test/payments/second-source.test.ts',
  'payment-worker/test/payments/arc-callbacks.test.ts',
  'payment-worker/test/lease.test.ts',
  'payment-worker/test/watch-list-reads.test.ts',
  // A rush of 300 paid orders settled together, the worker SIGKILLed in the middle.
  'payment-worker/test/payments/rush.test.ts',
  // A worker dying inside the job that delivers a paid order (WORKER_CRASH_AT), and after
  // recording a payment: the next one delivers it once.
  'payment-worker/test/worker-restart.test.ts',
]

/**
 * The hardening suite's invariants and kill cycles on PostgreSQL: the web process SIGKILLed inside
 * checkouts and the worker SIGKILLed among payment cycles (faults), Payload's own writes beside
 * checkouts, and bad input on every endpoint with its record fingerprint
 * (hardening/support/fingerprint.ts reads either engine). A Vitest run of their own beside the
 * one above: Vitest runs projects of different `maxWorkers` together only in groups one after
 * the other, and the hardening project runs one file at a time. Access (its limits and sign-in
 * turns are nouns the runs above race on PostgreSQL), uploads and the admin table run on SQLite
 * only.
 */
const POSTGRES_HARDENING = [
  'hardening/faults.test.ts',
  'hardening/payload-writes.test.ts',
  'hardening/bad-input.test.ts',
]

const started = Date.now()
const installing = installProduction()
const lanes = await Promise.all([
  vitest('integration', ['cms', 'payment-worker']),
  vitest('browser', ['e2e']).then(async (browser) => {
    const install = await installing
    const production =
      install.ok || !install.dir
        ? await vitest(
            'production',
            ['production'],
            install.ok
              ? {
                  PRODUCTION_APP_DIR: install.dir,
                  PRODUCTION_INSTALL_SECONDS: install.seconds ?? '',
                }
              : {},
          )
        : {
            passed: 0,
            failed: 1,
            skipped: 0,
            ok: false,
            failures: ['production: the bundle did not install'],
          }
    return [browser, production]
  }),
  // The quick unit projects and the PostgreSQL run after the hardening suite, which ends first
  // of the three.
  vitest('hardening', ['hardening']).then(async (hardening) => [
    hardening,
    await vitest('unit', ['domain', 'chain', 'storefront']),
    ...(await Promise.all([
      vitest(
        'postgres',
        ['cms', 'payment-worker'],
        { TEST_DB_ENGINE: 'postgres' },
        POSTGRES_SUITES,
      ),
      vitest(
        'postgres-hardening',
        ['hardening'],
        { TEST_DB_ENGINE: 'postgres' },
        POSTGRES_HARDENING,
      ),
    ])),
  ]),
]).then(([a, b, c]) => [a, ...b, ...c])
const results = [...lanes, await vitest('load', ['hardening-load'])].map((r) => ({
  failures: [],
  ...r,
}))
const { dir: productionApp } = await installing
if (productionApp) {
  spawnSync('chmod', ['-R', 'u+w', productionApp])
  fs.rmSync(productionApp, { recursive: true, force: true })
}
const passed = results.reduce((n, r) => n + r.passed, 0)
const failed = results.reduce((n, r) => n + r.failed, 0)
const skipped = results.reduce((n, r) => n + r.skipped, 0)
console.log(`[test] vitest: ${((Date.now() - started) / 1000).toFixed(1)} s`)
for (const failure of results.flatMap((r) => r.failures)) console.log(`[test] failed: ${failure}`)
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`)
process.exit(results.every((r) => r.ok) ? 0 : 1)

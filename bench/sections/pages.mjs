// Pages: Lighthouse (default mobile preset) on the machine's Chromium for `/`, `/store` and
// `/product/{id}`, reached through Caddy as shoppers reach them in production (or from the web
// process when Caddy is missing); the median of several runs per page.
import fs from 'node:fs'

import { base, log, run } from '../lib/context.mjs'
import { getJson } from '../lib/http.mjs'
import { stop } from '../lib/processes.mjs'
import { startFrontDoor } from '../lib/servers.mjs'

/**
 * Lighthouse runs per page; the median run is reported. Five, as Lighthouse's variability advice
 * has it ("the median Lighthouse score of 5 runs is twice as stable as 1 run"): with three, one
 * page's median moved between 97 and 99 from run to run of the same build.
 */
const LIGHTHOUSE_RUNS = 5

export async function benchPages() {
  const chromium = findChromium()
  if (chromium.skipped) {
    log(`pages: skipped: ${chromium.skipped}`)
    run.results.pages = { skipped: chromium.skipped }
    return
  }
  const tools = await lighthouseTools()
  const products = await getJson(`${base}/api/products`)
  const front = await startFrontDoor()
  const via = front.base
    ? 'through Caddy (deploy/Caddyfile: HTTPS, HTTP/2)'
    : `from the web process (HTTP/1.1): ${front.skipped}`
  log(`pages: measured ${via}`)
  const pageBase = front.base ?? base
  const pages = [
    ['/', `${pageBase}/`],
    ['/store', `${pageBase}/store`],
    ['/product/{id}', `${pageBase}/product/${products[0].id}`],
  ]
  const chrome = await tools.chromeLauncher.launch({
    chromePath: chromium.path,
    chromeFlags: [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      // Caddy's certificate comes from its own local authority, which this browser does not know.
      ...(front.base ? ['--ignore-certificate-errors'] : []),
    ],
  })
  const rows = {}
  try {
    for (const [name, url] of pages) {
      rows[name] = await measurePage(tools, chrome.port, url, via)
      log(
        `pages ${name}: performance ${rows[name].performance} (runs ${rows[name].runs.join(', ')}), accessibility ${rows[name].accessibility}, LCP ${rows[name].lcpMs} ms, JS ${rows[name].jsKB} KB`,
      )
    }
  } finally {
    await chrome.kill()
    if (front.proc) await stop(front.proc)
  }
  run.results.pages = rows
}

/** Lighthouse, its simulator (whose node timings say what the first paint waited for), and Chrome. */
async function lighthouseTools() {
  const { default: lighthouse } = await import('lighthouse')
  const { Simulation } = await import('lighthouse/core/lib/lantern/lantern.js')
  const chromeLauncher = await import('chrome-launcher')
  const { computeMedianRun } = await import('lighthouse/core/lib/median-run.js')
  return { lighthouse, Simulation, chromeLauncher, computeMedianRun }
}

/**
 * One page's row. Lighthouse's own advice on its variability: several runs, and the median one
 * (the run nearest the median FCP and TTI, its `computeMedianRun`), not one sample.
 */
async function measurePage({ lighthouse, Simulation, computeMedianRun }, port, url, via) {
  const runs = []
  for (let i = 0; i < LIGHTHOUSE_RUNS; i += 1) {
    const { lhr } = await lighthouse(url, {
      port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility'],
    })
    runs.push({
      lhr,
      // What its simulated first paint waited for, read before the next run replaces it.
      fcpPath: firstPaintPath(
        Simulation.Simulator.allNodeTimings.get('pessimisticFirstContentfulPaint'),
      ),
    })
  }
  const median = computeMedianRun(runs.map((r) => r.lhr))
  const { lhr, fcpPath } = runs.find((r) => r.lhr === median)
  return pageRow(lhr, fcpPath, runs, via)
}

/** The median run's numbers, how the page was reached, and every run's performance score. */
function pageRow(lhr, fcpPath, runs, via) {
  const scripts = lhr.audits['network-requests'].details.items.filter(
    (i) => i.resourceType === 'Script',
  )
  return {
    performance: Math.round(lhr.categories.performance.score * 100),
    accessibility: Math.round(lhr.categories.accessibility.score * 100),
    fcpMs: Math.round(lhr.audits['first-contentful-paint'].numericValue),
    lcpMs: Math.round(lhr.audits['largest-contentful-paint'].numericValue),
    tbtMs: Math.round(lhr.audits['total-blocking-time'].numericValue),
    cls: +lhr.audits['cumulative-layout-shift'].numericValue.toFixed(3),
    jsKB: +(scripts.reduce((s, i) => s + i.transferSize, 0) / 1024).toFixed(1),
    scripts: scripts.map((i) => new URL(i.url).pathname),
    adminCode: scripts.some((i) => /admin/i.test(i.url)),
    fcpPath,
    via,
    runs: runs.map((r) => Math.round(r.lhr.categories.performance.score * 100)),
    failed: Object.values(lhr.audits)
      .filter(
        (a) =>
          a.score !== null &&
          a.score < 1 &&
          lhr.categories.accessibility.auditRefs.some((r) => r.id === a.id && r.weight > 0),
      )
      .map((a) => a.id),
  }
}

/**
 * What Lighthouse's simulated first contentful paint (the pessimistic estimate) waited for: the
 * page itself, the main thread's work before the paint (at Lighthouse's 4 x slower CPU), and the
 * request that ended last, with when it started and ended in the simulation.
 */
function firstPaintPath(timings) {
  if (!timings) return null
  const entries = [...timings.entries()]
  const network = entries.filter(([node]) => node.type === 'network')
  const [lastNode, last] = network.reduce((a, b) => (b[1].endTime > a[1].endTime ? b : a))
  const document = network.find(([node]) => node.isMainDocument())
  return {
    documentMs: Math.round(document?.[1].endTime ?? 0),
    mainThreadMs: Math.round(
      entries
        .filter(([node]) => node.type === 'cpu')
        .reduce((sum, [, t]) => sum + t.endTime - t.startTime, 0),
    ),
    lastRequest: {
      path: new URL(lastNode.request.url).pathname,
      kB: +(lastNode.request.transferSize / 1024).toFixed(1),
      startMs: Math.round(last.startTime),
      endMs: Math.round(last.endTime),
    },
  }
}

/** The machine's Chromium, or why the pages section cannot run. */
function findChromium() {
  const candidates = [process.env.CHROME_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser']
  const found = candidates.find((c) => c && fs.existsSync(c))
  return found
    ? { path: found }
    : {
        skipped: `Chromium not found (${candidates.filter(Boolean).join(', ')}): install it (apt-get install chromium) or set CHROME_PATH`,
      }
}

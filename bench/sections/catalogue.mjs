// Catalogue: autocannon against the shop's product list and product page with 1 and 50
// connections, beside the same data through Payload's own REST and the same bytes from
// express.static (the ceiling); then whether an admin's change is visible on the next request.
import fs from 'node:fs'
import path from 'node:path'

import { STATIC_PORT, base, log, run, workPath } from '../lib/context.mjs'
import { adminHeaders, adminSetStock } from '../lib/admin.mjs'
import { cannon, getJson } from '../lib/http.mjs'
import { stop } from '../lib/processes.mjs'
import { startStaticServer } from '../lib/servers.mjs'
import { withMemory } from './memory.mjs'

export async function benchCatalogue() {
  const products = await getJson(`${base}/api/products`)
  const id = products[0].id
  const server = await startStaticCeiling(id)
  // The admin's session as the admin screens send it: Payload refuses a cookie without them (403).
  const payloadHeaders = adminHeaders()
  const targets = [
    ['GET /api/products', `${base}/api/products`, {}],
    ['GET /api/products/{id}', `${base}/api/products/${id}`, {}],
    ['Payload REST list', `${base}/cms/api/products?depth=1`, payloadHeaders],
    ['Payload REST one', `${base}/cms/api/products/${id}?depth=1`, payloadHeaders],
    ['static list', `http://127.0.0.1:${STATIC_PORT}/products.json`, {}],
    ['static one', `http://127.0.0.1:${STATIC_PORT}/product.json`, {}],
  ]
  const rows = {}
  await withMemory('catalogue', async () => {
    for (const connections of [1, 50]) Object.assign(rows, await loadRows(targets, connections))
  })
  await stop(server)
  rows.freshAfterAdminChange = await freshAfterAdminChange(id)
  run.results.catalogue = rows
}

/** The ceiling: the same bytes from express.static in a process of its own. */
async function startStaticCeiling(id) {
  const staticDir = workPath('static')
  fs.mkdirSync(staticDir)
  fs.writeFileSync(
    path.join(staticDir, 'products.json'),
    await (await fetch(`${base}/api/products`)).text(),
  )
  fs.writeFileSync(
    path.join(staticDir, 'product.json'),
    await (await fetch(`${base}/api/products/${id}`)).text(),
  )
  return startStaticServer(staticDir, STATIC_PORT)
}

/**
 * Every target at one number of connections, a row each (`<name> c<connections>`). At 50
 * connections every target runs twice, in turn, and its row is the mean of the two: one run's
 * p99 is a handful of the slowest requests, and a pause of the machine in one run can move a p99
 * to twice another target's (the p99 target compares two of them).
 */
async function loadRows(targets, connections) {
  const rounds = connections === 50 ? 2 : 1
  const runs = new Map(targets.map(([name]) => [name, []]))
  for (let round = 0; round < rounds; round += 1)
    for (const [name, url, headers] of targets) {
      const r = await cannon({ url, connections, headers })
      runs.get(name).push(r)
      log(
        `catalogue ${name} c=${connections}: ${Math.round(r.requests.average)} req/s, p99 ${r.latency.p99} ms`,
      )
    }
  const rows = {}
  for (const [name, rs] of runs) {
    const mean = (of) => rs.reduce((sum, r) => sum + of(r), 0) / rs.length
    rows[`${name} c${connections}`] = {
      rps: Math.round(mean((r) => r.requests.average)),
      p50: +mean((r) => r.latency.p50).toFixed(1),
      p99: +mean((r) => r.latency.p99).toFixed(1),
      errors: rs.reduce((sum, r) => sum + r.errors + r.non2xx, 0),
      ...(rs.length > 1 ? { p99s: rs.map((r) => r.latency.p99) } : {}),
    }
  }
  return rows
}

/**
 * Cache check: an admin's stock change is visible on the next request to both endpoints (the
 * catalogue is cached in memory, keyed by a version read from the database on every request).
 */
async function freshAfterAdminChange(id) {
  const product = (await getJson(`${base}/api/admin/products`, { headers: adminHeaders() })).find(
    (p) => p.id === id,
  )
  await adminSetStock(product, product.currentStock + 7)
  const after = await getJson(`${base}/api/products/${id}`)
  const list = await getJson(`${base}/api/products`)
  return (
    after.currentStock === product.currentStock + 7 &&
    list.find((p) => p.id === id).currentStock === after.currentStock
  )
}

import { describe, expect, it } from 'vitest'

import { rowsOf } from '../bench/table.mjs'

/**
 * A ratio to a baseline that refused is no measurement, and is never met. When the bench sends
 * the admin's cookie without the same-origin headers Payload asks for, Payload's REST answers
 * every catalogue read with 403 (`errors: 884` of 884 at 50 connections), and a table that
 * ignored the errors would print "x Payload REST 9.8 met": the shop's reads against the rate of
 * refusals.
 */
const catalogue = (payloadErrors: number) => {
  const row = (rps: number, errors = 0) => ({ rps, p50: 1, p99: 4, errors })
  return {
    'GET /api/products c50': row(1800),
    'GET /api/products/{id} c50': row(1900),
    'Payload REST list c50': row(170, payloadErrors),
    'Payload REST one c50': row(160, payloadErrors),
    'static list c50': row(2200),
    'static one c50': row(2300),
    'GET /api/products c1': row(1500),
    'GET /api/products/{id} c1': row(1500),
    'Payload REST list c1': row(120, payloadErrors),
    'Payload REST one c1': row(120, payloadErrors),
    'static list c1': row(750),
    'static one c1': row(1300),
    freshAfterAdminChange: true,
  }
}
const checkout = (payloadStatuses: Record<string, number>) => {
  const load = (perSecond: number, statuses: Record<string, number>) => ({
    perSecond,
    p50: 200,
    p99: 800,
    max: 1300,
    answered2xx: statuses['201'] ?? 0,
    statuses,
    errors: 0,
    timeouts: 0,
  })
  return {
    ours: load(190, { '201': 1900 }),
    payloadRest: load(50, payloadStatuses),
    ordersInDb: 1900,
    stockExact: true,
  }
}
const payloadRows = (results: Record<string, unknown>) =>
  rowsOf(results).filter((r) => r.label.startsWith('  x Payload REST') && r.target)

describe("the bench's ratios to Payload's REST", () => {
  it('are met or missed on their numbers when Payload answered every request', () => {
    const rows = payloadRows({ catalogue: catalogue(0), checkout: checkout({ '201': 500 }) })
    expect(rows.map((r) => [r.label, r.value, r.met])).toEqual([
      ['  x Payload REST (170 req/s)', 10.6, true],
      ['  x Payload REST (160 req/s)', 11.9, true],
      ['  x Payload REST create (50/s)', 3.8, true],
    ])
  })

  it("say which runs Payload's write was the mean of", () => {
    const results = checkout({ '201': 1000 })
    const [row] = payloadRows({
      checkout: { ...results, payloadRest: { ...results.payloadRest, runs: [45, 55] } },
    })
    expect(row!.detail).toBe('Payload REST p50 200 ms, p99 800 ms; mean of runs at 45 and 55/s')
  })

  it('are no measurement, never met, when Payload refused any request, and say so', () => {
    const rows = payloadRows({
      catalogue: catalogue(884),
      checkout: checkout({ '201': 400, '403': 100 }),
    })
    expect(rows.map((r) => [r.met, r.detail])).toEqual([
      [false, 'not measured: Payload REST answered 884 errors'],
      [false, 'not measured: Payload REST answered 884 errors'],
      [false, 'not measured: Payload REST answered 100 x 403'],
    ])
  })
})

describe("the bench's pages section", () => {
  const page = (via: string) => ({
    performance: 99,
    accessibility: 100,
    fcpMs: 1400,
    lcpMs: 1500,
    tbtMs: 40,
    cls: 0,
    jsKB: 76.8,
    adminCode: false,
    fcpPath: null,
    via,
    runs: [99, 99, 98, 100, 99],
    failed: [],
  })

  it('says first how the pages were reached: through Caddy, or the web process and why', () => {
    for (const via of [
      'through Caddy (deploy/Caddyfile: HTTPS, HTTP/2)',
      'from the web process (HTTP/1.1): Caddy not found on PATH (apt-get install caddy)',
    ]) {
      const rows = rowsOf({ pages: { '/': page(via), '/store': page(via) } })
      const pages = rows.filter((r) => r.section === 'Pages (Lighthouse mobile)')
      expect(pages[0]).toMatchObject({ label: 'measured', detail: via })
      expect(pages.filter((r) => r.label === 'measured')).toHaveLength(1)
      expect(pages.find((r) => r.label.includes('/store performance'))).toMatchObject({
        value: 99,
        met: true,
      })
    }
  })
})

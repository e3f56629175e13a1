import fs from 'node:fs'
import zlib from 'node:zlib'

import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { fromRoot } from '../../src/config/paths'
import type { TestShop } from '../support/testShop'
import { rawGet } from '../support/rawGet'
import { startTestShop } from '../support/testShop'

/**
 * The build writes each file's brotli copy at the highest quality and the web process sends it
 * to browsers that accept brotli: compressed on the fly at a fast level, a shopper's page would
 * download 88-90 KB of JavaScript.
 */

let shop: TestShop
const assets = fromRoot('storefront/dist/assets')
const manifest = JSON.parse(
  fs.readFileSync(fromRoot('storefront/dist/.vite/manifest.json'), 'utf8'),
) as Record<string, { file: string; css?: string[]; isEntry?: boolean }>
const entry = Object.values(manifest).find((chunk) => chunk.isEntry)!

beforeAll(async () => {
  shop = await startTestShop({ seed: false })
})
afterAll(async () => {
  await shop?.close()
})

const raw = (path: string, headers: Record<string, string> = {}) =>
  rawGet(`${shop.url}${path}`, headers)

describe("the storefront's built files", () => {
  it('each script and stylesheet over 1 KB has a brotli copy of exactly its bytes', () => {
    const built = fs.readdirSync(assets).filter((name) => /\.(js|css)$/.test(name))
    const large = built.filter((name) => fs.statSync(`${assets}/${name}`).size >= 1024)
    expect(large).toContain(entry.file.replace('assets/', ''))
    for (const name of large) {
      const copy = zlib.brotliDecompressSync(fs.readFileSync(`${assets}/${name}.br`))
      expect(copy.equals(fs.readFileSync(`${assets}/${name}`)), name).toBe(true)
    }
  })

  it('go to a browser that accepts brotli as the copy: smaller than on the fly, same type and caching', async () => {
    const copy = fs.readFileSync(`${assets}/${entry.file.replace('assets/', '')}.br`)
    const res = await raw(`/${entry.file}`, { 'accept-encoding': 'gzip, deflate, br, zstd' })
    expect(res.status).toBe(200)
    expect(res.headers['content-encoding']).toBe('br')
    expect(res.headers['content-type']).toMatch(/^(application|text)\/javascript/)
    expect(res.headers['cache-control']).toContain('immutable')
    expect(res.headers.vary).toMatch(/Accept-Encoding/i)
    expect(res.body.equals(copy)).toBe(true)
    const onTheFly = await raw(`/${entry.file}`, { 'accept-encoding': 'gzip' })
    expect(onTheFly.headers['content-encoding']).toBe('gzip')
    expect(res.body.length).toBeLessThan(onTheFly.body.length * 0.92)
  })

  it('go as they are to a client without brotli, and a missing file is still a 404', async () => {
    const plain = await raw(`/${entry.file}`)
    expect(plain.headers['content-encoding']).toBeUndefined()
    expect(
      plain.body.equals(fs.readFileSync(`${assets}/${entry.file.replace('assets/', '')}`)),
    ).toBe(true)
    const refused = await raw(`/${entry.file}`, { 'accept-encoding': 'gzip, br;q=0' })
    expect(refused.headers['content-encoding']).toBe('gzip')
    const missing = await raw('/assets/nothing-here.js', { 'accept-encoding': 'br' })
    expect(missing.status).toBe(404)
    expect(missing.headers['content-encoding']).toBeUndefined()
    const outside = await raw('/assets/..%2f..%2fpackage.json', { 'accept-encoding': 'br' })
    expect(outside.status).toBeGreaterThanOrEqual(400)
    expect(outside.status).toBeLessThan(500)
  })
})

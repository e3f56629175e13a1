import { spawn } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

import { afterAll, beforeAll, describe, expect, it } from 'vitest'

/**
 * A production start loads only what it uses: the MongoDB adapter on SQLite, the AWS SDK and
 * Payload's S3 plugin with local storage, React Email before any e-mail (about a second together
 * on this machine) load on first use. This starts the built
 * web process (dist/, as the image does) with a module hook that records every package it
 * imports from node_modules and every file of the bundle it loads, and reads the record once the
 * first page is served. The bundle's packages are read from its metafile (dist/bundle-meta.json).
 */

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-start-'))
const record = path.join(work, 'imports.txt')
let port = 0
let web: ReturnType<typeof spawn> | undefined
let output = ''

/** A port nobody listens on now (the web process takes it a moment later). */
async function freePort(): Promise<number> {
  const server = net.createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port: free } = server.address() as net.AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return free
}

beforeAll(async () => {
  port = await freePort()
  if (!fs.existsSync(path.join(repo, 'dist/web.mjs')))
    throw new Error('dist/web.mjs is missing: run `npm run build` first (npm test does).')
  web = spawn(
    process.execPath,
    [
      '--conditions=production',
      '--import',
      path.join(repo, 'production/support/record-imports.mjs'),
      'dist/web.mjs',
    ],
    {
      cwd: repo,
      env: {
        PATH: process.env.PATH,
        HOME: work,
        RECORD_IMPORTS_FILE: record,
        NODE_ENV: 'production',
        NEXT_TELEMETRY_DISABLED: '1',
        PORT: String(port),
        HOST: '127.0.0.1',
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        DATA_DIR: path.join(work, 'data'),
        DATABASE_URI: `file:${path.join(work, 'data', 'shop.db')}`,
        PAYLOAD_SECRET: 'start-test-secret-start-test-secret-0123',
        BSV_NETWORK: 'main',
        BSV_XPUB:
          'xpub661MyMwAqRbcFW31YEwpkMuc5THy2PSt5bDMsktWQcFF8syAmRUapSCGu8ED9W6oDMSgv6Zz8idoc4a6mr8BDzTJY47LJhkJ8UB7WEGuduB',
        CHAIN_SOURCE: 'whatsonchain',
        WOC_API_URL: 'http://127.0.0.1:9/v1/bsv/main',
        EMAIL_DELIVERY: 'off',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  web.stdout!.on('data', (chunk) => (output += chunk))
  web.stderr!.on('data', (chunk) => (output += chunk))
  const deadline = Date.now() + 60_000
  for (;;) {
    if (web.exitCode !== null) throw new Error(`the web process exited:\n${output}`)
    if (Date.now() > deadline) throw new Error(`no first page within 60 s:\n${output}`)
    const page = await fetch(`http://127.0.0.1:${port}/`).catch(() => null)
    if (page?.ok) break
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}, 90_000)

afterAll(async () => {
  if (web && web.exitCode === null) {
    const exited = new Promise((resolve) => web!.once('exit', resolve))
    web.kill('SIGTERM')
    await exited
  }
  fs.rmSync(work, { recursive: true, force: true })
})

/** The package a source path of the bundle comes from, or null for the shop's own code. */
const packageOf = (input: string) => /.*node_modules\/((@[^/]+\/)?[^/]+)/.exec(input)?.[1] ?? null

/** Every package the process loaded: from node_modules, or inside a file of the bundle. */
function loadedPackages(): Set<string> {
  const meta = JSON.parse(fs.readFileSync(path.join(repo, 'dist/bundle-meta.json'), 'utf8')) as {
    outputs: Record<string, { inputs: Record<string, unknown> }>
  }
  const loaded = new Set<string>()
  for (const line of fs.readFileSync(record, 'utf8').split('\n').filter(Boolean)) {
    if (!line.startsWith('file:')) {
      loaded.add(line.startsWith('@') ? line.split('/').slice(0, 2).join('/') : line.split('/')[0]!)
      continue
    }
    const output = path.relative(repo, fileURLToPath(line)).split(path.sep).join('/')
    for (const input of Object.keys(meta.outputs[output]?.inputs ?? {})) {
      const name = packageOf(input)
      if (name) loaded.add(name)
    }
  }
  return loaded
}

describe('what a production start loads', () => {
  it('loads no unused database engine, storage SDK or e-mail renderer', () => {
    const imported = loadedPackages()
    // The record sees what the process does load.
    expect(imported).toContain('payload')
    expect(imported).toContain('@payloadcms/db-sqlite')
    for (const unused of [
      '@payloadcms/db-mongodb',
      '@payloadcms/storage-s3',
      '@aws-sdk/client-s3',
      '@react-email/components',
      // The password checker's dictionaries load with the first password set, the seed's PDF
      // library only in test mode (this session's start profile found both in every start).
      '@zxcvbn-ts/language-common',
      'pdf-lib',
    ])
      expect(imported, unused).not.toContain(unused)
  })
})

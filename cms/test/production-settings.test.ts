import { execFile, spawn } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'

import { EnvError, TEST_XPUB, loadEnv } from '../src/config/env'
import { fromRoot } from '../src/config/paths'
import { TS_NODE_ARGS } from './support/nodeArgs'

const run = promisify(execFile)

// BIP32 test vector 2's master public key: a well-formed xpub that is not the shop's test key.
const OWNER_XPUB =
  'xpub661MyMwAqRbcFW31YEwpkMuc5THy2PSt5bDMsktWQcFF8syAmRUapSCGu8ED9W6oDMSgv6Zz8idoc4a6mr8BDzTJY47LJhkJ8UB7WEGuduB'

describe('production start-up', () => {
  it('refuses to start without its required settings and names each one', async () => {
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, NODE_ENV: 'production', PORT: '3999' }
    const failure = await run(
      process.execPath,
      [...TS_NODE_ARGS, fromRoot('cms/src/server/main.ts')],
      {
        cwd: fromRoot('cms'),
        env,
        timeout: 60_000,
      },
    ).then(
      () => null,
      (error: { code: number; stderr: string }) => error,
    )
    expect(failure).not.toBeNull()
    expect(failure!.code).toBe(1)
    for (const setting of [
      'PAYLOAD_SECRET',
      'BSV_XPUB',
      'CHAIN_SOURCE',
      'PUBLIC_URL',
      'SMTP_HOST',
    ]) {
      expect(failure!.stderr).toContain(setting)
    }
  })

  it('accepts a complete production configuration', () => {
    const env = loadEnv({
      NODE_ENV: 'production',
      PAYLOAD_SECRET: 'x'.repeat(40),
      BSV_XPUB: OWNER_XPUB,
      CHAIN_SOURCE: 'whatsonchain',
      PUBLIC_URL: 'https://shop.example',
      SMTP_HOST: 'smtp.example',
    })
    expect(env.isProduction).toBe(true)
    expect(env.rateSource).toBe('live')
    expect(env.chainSource).toBe('whatsonchain')
    expect(env.emailDelivery).toBe('smtp')
  })

  it('refuses production without SMTP unless e-mail is turned off on purpose', () => {
    const settings = {
      NODE_ENV: 'production',
      PAYLOAD_SECRET: 'x'.repeat(40),
      BSV_XPUB: OWNER_XPUB,
      CHAIN_SOURCE: 'whatsonchain',
      PUBLIC_URL: 'https://shop.example',
    }
    let problems: string[] = []
    try {
      loadEnv(settings)
    } catch (error) {
      problems = (error as EnvError).problems
    }
    expect(problems).toEqual([
      expect.stringMatching(/^SMTP_HOST is required in production.*EMAIL_DELIVERY=off/),
    ])
    expect(loadEnv({ ...settings, EMAIL_DELIVERY: 'off' }).emailDelivery).toBe('off')
    expect(loadEnv({ EMAIL_DELIVERY: 'smtp' }).emailDelivery).toBe('log')
    expect(() => loadEnv({ ...settings, EMAIL_DELIVERY: 'sometimes' })).toThrow(EnvError)
  })

  it('rejects the published test key, a short secret and a fixed rate in production', () => {
    const attempt = () =>
      loadEnv({
        NODE_ENV: 'production',
        PAYLOAD_SECRET: 'short',
        BSV_XPUB: TEST_XPUB,
        CHAIN_SOURCE: 'whatsonchain',
        RATE_SOURCE: 'fixed',
        PUBLIC_URL: 'https://shop.example',
        SMTP_HOST: 'smtp.example',
      })
    expect(attempt).toThrow(EnvError)
    try {
      attempt()
    } catch (error) {
      expect((error as EnvError).problems).toHaveLength(3)
    }
  })

  it('refuses a private key or garbage as BSV_XPUB, naming the risk', () => {
    const problemsWith = (xpub: string) => {
      try {
        loadEnv({
          NODE_ENV: 'production',
          PAYLOAD_SECRET: 'x'.repeat(40),
          BSV_XPUB: xpub,
          CHAIN_SOURCE: 'whatsonchain',
          PUBLIC_URL: 'https://shop.example',
          SMTP_HOST: 'smtp.example',
        })
      } catch (error) {
        return (error as EnvError).problems
      }
      return []
    }
    // BIP32 test vector 1's master private key (the test xpub's own xprv).
    const xprv =
      'xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVvvNKmPGJxWUtg6LnF5kejMRNNU3TGtRBeJgk33yuGBxrMPHi'
    expect(problemsWith(xprv)).toEqual([expect.stringMatching(/PRIVATE key.*spend/)])
    expect(problemsWith('xpub-of-the-owner')).toEqual([
      expect.stringMatching(/not a valid extended public key/),
    ])
    expect(problemsWith('hello')).toHaveLength(1)
    expect(() => loadEnv({ BSV_XPUB: xprv })).toThrow(EnvError)
  })

  it('runs in test mode with nothing configured', () => {
    const env = loadEnv({})
    expect(env.isProduction).toBe(false)
    expect(env.databaseEngine).toBe('sqlite')
    expect(env.databaseUri).toMatch(/^file:\/.*data\/shop\.db$/)
    expect(env.chainSource).toBe('simulator')
    expect(env.rateSource).toBe('fixed')
  })

  it('selects MongoDB for a mongodb URI', () => {
    expect(loadEnv({ DATABASE_URI: 'mongodb://localhost:27017/shop' }).databaseEngine).toBe(
      'mongodb',
    )
    expect(loadEnv({ DATABASE_URI: 'mongodb+srv://cluster.example/shop' }).databaseEngine).toBe(
      'mongodb',
    )
    expect(() => loadEnv({ DATABASE_URI: 'mysql://nope' })).toThrow(EnvError)
  })

  it('selects PostgreSQL for a postgres URI', () => {
    for (const uri of ['postgres://shop@db:5432/shop', 'postgresql://shop@db/shop'])
      expect(loadEnv({ DATABASE_URI: uri })).toMatchObject({
        databaseEngine: 'postgres',
        databaseUri: uri,
      })
  })
})

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo
      server.close(() => resolve(port))
    })
  })

describe('production database', () => {
  it('creates a fresh SQLite database from the migrations, serves the API, keeps first-register shut and lets the owner create the first admin', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-prod-'))
    const port = await freePort()
    const productionEnv = {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URI: `file:${path.join(dataDir, 'shop.db')}`,
      PAYLOAD_SECRET: 'p'.repeat(40),
      BSV_XPUB: OWNER_XPUB,
      CHAIN_SOURCE: 'whatsonchain',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      EMAIL_DELIVERY: 'off',
      LOG_LEVEL: 'warn',
      NEXT_TELEMETRY_DISABLED: '1',
      ORDER_CREATE_RATE_LIMIT: '2',
    }
    const child = spawn(process.execPath, [...TS_NODE_ARGS, fromRoot('cms/src/server/main.ts')], {
      cwd: fromRoot('cms'),
      env: productionEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    child.stdout.on('data', (chunk) => (output += chunk))
    child.stderr.on('data', (chunk) => (output += chunk))
    try {
      const deadline = Date.now() + 90_000
      let status = 0
      while (status !== 200) {
        if (child.exitCode !== null) throw new Error(`exited ${child.exitCode}: ${output}`)
        if (Date.now() > deadline) throw new Error(`no answer within 90 s: ${output}`)
        status = await fetch(`http://127.0.0.1:${port}/api/products`).then(
          (r) => r.status,
          () => 0,
        )
        if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 250))
      }
      const products = await (await fetch(`http://127.0.0.1:${port}/api/products`)).json()
      expect(products).toEqual([])
      // Every kind of table the public pages read exists (collections, arrays, globals).
      for (const path of [
        '/api/papers',
        '/api/timeline',
        '/api/content/faqs',
        '/api/content/legal',
      ]) {
        expect((await fetch(`http://127.0.0.1:${port}${path}`)).status).toBe(200)
      }
      const hsts = (await fetch(`http://127.0.0.1:${port}/store`)).headers.get(
        'strict-transport-security',
      )
      expect(hsts).toContain('max-age=')

      // Reached directly, a client cannot pick its rate-limit bucket with X-Forwarded-For.
      const forged = []
      for (let i = 0; i < 4; i += 1) {
        const response = await fetch(`http://127.0.0.1:${port}/api/orders/create`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': `198.51.100.${i}` },
          body: JSON.stringify({ productId: '1', userEmail: 'a@example.com' }),
        })
        forged.push(response.status)
      }
      expect(forged.slice(2)).toEqual([429, 429])

      // Nobody can register the first user through /cms on a fresh production shop...
      const base = `http://127.0.0.1:${port}`
      const register = await fetch(`${base}/cms/api/staff/first-register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          email: 'intruder@example.com',
          password: 'Quartz-ledger-owner-7193',
        }),
      })
      expect(register.status).toBe(403)
      expect(await register.text()).toContain('npm run create-admin')
      expect((await fetch(`${base}/cms/create-first-user`)).status).toBe(403)
      // ...by any other spelling of the path either (the Staff collection refuses it too).
      for (const spelling of [
        '/cms/api/staff/first-regist%65r',
        '/cms/api/staff/first-register/',
        '/cms//api/staff/first-register',
        '/cms/api/%73taff/first-register',
      ]) {
        const other = await fetch(`${base}${spelling}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            email: 'intruder@example.com',
            password: 'Quartz-ledger-owner-7193',
          }),
        })
        expect(other.status, spelling).toBe(403)
        expect(await other.text(), spelling).toContain('npm run create-admin')
      }
      for (const spelling of ['/cms/create-first-user/', '/cms/create-first-us%65r'])
        expect((await fetch(`${base}${spelling}`)).status, spelling).toBe(403)
      // The developer's mailbox and the e-mail previews are test mode's only.
      for (const path of [
        '/test-mode/outbox',
        '/test-mode/emails',
        '/test-mode/emails/order-paid/pdf',
      ])
        expect((await fetch(`${base}${path}`)).status, path).toBe(404)

      // ...the owner creates the first admin with one command, and signs in with it.
      const owner = { email: 'owner@shop.example', password: 'Quartz-ledger-owner-7193' }
      const created = await run(
        process.execPath,
        [
          ...TS_NODE_ARGS,
          fromRoot('cms/src/cli/create-admin.ts'),
          '--email',
          owner.email,
          '--password',
          owner.password,
        ],
        { cwd: fromRoot('cms'), env: productionEnv, timeout: 60_000 },
      )
      expect(created.stdout).toContain(`${owner.email} can now sign in`)
      const again = await run(
        process.execPath,
        [
          ...TS_NODE_ARGS,
          fromRoot('cms/src/cli/create-admin.ts'),
          '--email',
          owner.email,
          '--password',
          owner.password,
        ],
        { cwd: fromRoot('cms'), env: productionEnv, timeout: 60_000 },
      )
      expect(again.stdout).toContain('already an admin')
      const login = await fetch(`${base}/api/admin/login`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-requested-with': 'XMLHttpRequest',
          origin: base,
        },
        body: JSON.stringify(owner),
      })
      expect(login.status).toBe(200)
      expect(await login.json()).toMatchObject({ success: true, admin: { email: owner.email } })

      const noTerminal = await run(
        process.execPath,
        [...TS_NODE_ARGS, fromRoot('cms/src/cli/create-admin.ts')],
        { cwd: fromRoot('cms'), env: productionEnv, timeout: 60_000 },
      ).then(
        () => null,
        (error: { code: number; stderr: string }) => error,
      )
      expect(noTerminal?.code).toBe(1)
      expect(noTerminal?.stderr).toContain('E-mail is missing (give it as a flag)')
    } finally {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve))
        child.kill('SIGTERM')
        await exited
      }
      fs.rmSync(dataDir, { recursive: true, force: true })
    }
  }, 120_000)
})

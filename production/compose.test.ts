import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { WORKER_NODE_ARGS } from '../scripts/node-args.mjs'

/**
 * The compose files as Debian's docker-compose 1.29 reads them (`config` needs no engine, only
 * the env_file): PostgreSQL by default, MongoDB with docker-compose.mongodb.yml, each filled with
 * the .env.example settings an owner fills in (README, "Run in production").
 */

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-compose-'))
const example = fs.readFileSync(path.join(repo, '.env.example'), 'utf8')
const MONGO_OVERRIDE = ['-f', 'docker-compose.yml', '-f', 'docker-compose.mongodb.yml']

type Service = {
  image?: string
  environment?: Record<string, string>
  depends_on?: Record<string, { condition: string }>
  deploy?: { replicas?: number }
  healthcheck?: { test: string[] }
  volumes?: string[]
  read_only?: boolean
  command?: string[]
}
type Config = { services: Record<string, Service>; volumes?: Record<string, unknown> }

/** docker-compose's interpreter (it needs PyYAML, so that one has it): YAML to JSON. */
function yamlToJson(yaml: string): unknown {
  const compose = execFileSync('sh', ['-c', 'command -v docker-compose']).toString().trim()
  const shebang = fs.readFileSync(compose, 'utf8').split('\n')[0]!
  const python = /^#!\s*(\S+)/.exec(shebang)?.[1] ?? 'python3'
  const json = execFileSync(
    python,
    ['-c', 'import json, sys, yaml; print(json.dumps(yaml.safe_load(sys.stdin)))'],
    { input: yaml },
  )
  return JSON.parse(json.toString())
}

function config(files: string[] = []): { text: string; parsed: Config } {
  const text = execFileSync('docker-compose', [...files, 'config'], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe'],
  }).toString()
  return { text, parsed: yamlToJson(text) as Config }
}

/** What `config -q` says on stderr when it refuses. */
function refusal(files: string[] = []): string {
  try {
    execFileSync('docker-compose', [...files, 'config', '-q'], { cwd: dir, stdio: 'pipe' })
  } catch (error) {
    return String((error as { stderr?: Buffer }).stderr)
  }
  return ''
}

const filled = (replace: Record<string, string>) =>
  Object.entries(replace).reduce(
    (text, [name, value]) => text.replace(new RegExp(`^${name}=.*$`, 'm'), `${name}=${value}`),
    example,
  )

const OWNER_SETTINGS = {
  SHOP_DOMAIN: 'shop.example.com',
  ACME_EMAIL: 'owner@example.com',
  POSTGRES_PASSWORD: 'p0stgr3s',
  MONGO_ROOT_PASSWORD: 'a1b2c3',
  MONGO_APP_PASSWORD: 'd4e5f6',
  MONGO_REPLICA_KEY: 'g7h8i9',
}

beforeAll(() => {
  for (const file of ['docker-compose.yml', 'docker-compose.mongodb.yml'])
    fs.copyFileSync(path.join(repo, file), path.join(dir, file))
  fs.cpSync(path.join(repo, 'deploy'), path.join(dir, 'deploy'), { recursive: true })
})

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

const SHOP = ['web', 'web-2', 'worker']

/** The reverse_proxy handler in Caddy's JSON config. */
function reverseProxyIn(node: unknown): Record<string, unknown> | undefined {
  if (!node || typeof node !== 'object') return undefined
  if ((node as { handler?: string }).handler === 'reverse_proxy')
    return node as Record<string, unknown>
  for (const value of Object.values(node)) {
    const found = reverseProxyIn(value)
    if (found) return found
  }
  return undefined
}

describe('docker-compose.yml (PostgreSQL)', () => {
  it('is accepted with the .env.example settings and runs PostgreSQL, two web processes and two workers', () => {
    fs.writeFileSync(path.join(dir, '.env'), filled(OWNER_SETTINGS))
    const { text, parsed } = config()
    const { services } = parsed
    expect(Object.keys(services).sort()).toEqual(['caddy', 'db', 'web', 'web-2', 'worker'])
    expect(services.db!.image).toMatch(/^postgres:1[56]$/)
    expect(services.db!.environment).toMatchObject({ POSTGRES_PASSWORD: 'p0stgr3s' })
    expect(services.db!.healthcheck!.test.join(' ')).toMatch(/pg_isready/)
    expect(services.db!.volumes).toEqual(['postgres-data:/var/lib/postgresql/data:rw'])
    expect(Object.keys(parsed.volumes ?? {})).toContain('postgres-data')
    for (const name of SHOP) {
      const service = services[name]!
      expect(service.environment!.DATABASE_URI, name).toBe(
        'postgres://shop:p0stgr3s@db:5432/bookshop',
      )
      expect(service.environment!.PUBLIC_URL, name).toBe('https://shop.example.com')
      expect(service.read_only, name).toBe(true)
      expect(service.depends_on!.db, name).toEqual({ condition: 'service_healthy' })
    }
    // web-2 waits for web, which applies the migrations: never two migrating an empty database.
    expect(services['web-2']!.depends_on!.web).toEqual({ condition: 'service_healthy' })
    expect(services.worker!.deploy!.replicas).toBe(2)
    // The worker starts as the bench and the production test start it (its heap sized for speed).
    expect(services.worker!.command).toEqual(['node', ...WORKER_NODE_ARGS, 'dist/worker.mjs'])
    // Caddy spreads requests over both web processes and starts once both answer.
    expect(services.caddy!.environment!.SHOP_UPSTREAM).toBe('web:3000 web-2:3000')
    expect(Object.keys(services.caddy!.depends_on!).sort()).toEqual(['web', 'web-2'])
    // No MongoDB: no service, image, volume or URI (the .env's MONGO_* settings, unused, are
    // only passed through to the shop processes' environment).
    expect(Object.keys(services).filter((name) => /mongo/.test(name))).toEqual([])
    expect(Object.values(services).map((s) => s.image ?? '')).not.toContainEqual(
      expect.stringMatching(/mongo/),
    )
    expect(Object.keys(parsed.volumes ?? {})).not.toContain('mongo-data')
    expect(text).not.toMatch(/mongodb:\/\//)
  })

  it('refuses to start without the owner settings, naming them', () => {
    const { SHOP_DOMAIN, ...withoutDomain } = OWNER_SETTINGS
    expect(SHOP_DOMAIN).toBeTruthy()
    fs.writeFileSync(path.join(dir, '.env'), filled({ ...withoutDomain, SHOP_DOMAIN: '' }))
    expect(refusal()).toMatch(/set SHOP_DOMAIN in \.env/)
    fs.writeFileSync(path.join(dir, '.env'), filled({ ...OWNER_SETTINGS, POSTGRES_PASSWORD: '' }))
    expect(refusal()).toMatch(/set POSTGRES_PASSWORD in \.env/)
    // Caddy would read an empty `email` option and not start.
    fs.writeFileSync(path.join(dir, '.env'), filled({ ...OWNER_SETTINGS, ACME_EMAIL: '' }))
    expect(refusal()).toMatch(/set ACME_EMAIL in \.env/)
  })

  it('has Caddy balance the two web processes, checking their health', () => {
    // Caddy as the compose file starts it (its environment), the Caddyfile read as JSON.
    fs.writeFileSync(path.join(dir, '.env'), filled(OWNER_SETTINGS))
    const { caddy } = config().parsed.services
    const adapted = execFileSync(
      'caddy',
      ['adapt', '--config', path.join(dir, 'deploy/Caddyfile'), '--adapter', 'caddyfile'],
      { env: { PATH: process.env.PATH, ...caddy!.environment }, stdio: ['ignore', 'pipe', 'pipe'] },
    ).toString()
    const proxy = reverseProxyIn(JSON.parse(adapted.split('\n')[0]!))
    expect(proxy, adapted).toBeDefined()
    expect(proxy).toMatchObject({
      health_checks: { active: { uri: '/healthz' } },
      upstreams: [{ dial: 'web:3000' }, { dial: 'web-2:3000' }],
    })
  })
})

describe('docker-compose.mongodb.yml (MongoDB instead)', () => {
  it('swaps the database for a MongoDB replica set', () => {
    fs.writeFileSync(path.join(dir, '.env'), filled(OWNER_SETTINGS))
    const { services } = config(MONGO_OVERRIDE).parsed
    expect(services.db!.image).toBe('mongo:8')
    expect(services.db!.volumes).toContain('mongo-data:/data/db:rw')
    expect(services.db!.healthcheck!.test.join(' ')).toMatch(/isWritablePrimary/)
    expect(services['mongo-init']!.image).toBe('mongo:8')
    for (const name of SHOP) {
      expect(services[name]!.environment!.DATABASE_URI, name).toBe(
        'mongodb://shop:d4e5f6@mongo:27017/bookshop?replicaSet=rs0&authSource=bookshop',
      )
      expect(services[name]!.depends_on!['mongo-init'], name).toEqual({
        condition: 'service_completed_successfully',
      })
    }
    expect(services.worker!.deploy!.replicas).toBe(2)
  })

  it('refuses to start without the MongoDB settings, naming them', () => {
    fs.writeFileSync(path.join(dir, '.env'), filled({ ...OWNER_SETTINGS, MONGO_APP_PASSWORD: '' }))
    expect(refusal(MONGO_OVERRIDE)).toMatch(/set MONGO_APP_PASSWORD in \.env/)
    // The default file does not need them.
    expect(refusal()).toBe('')
  })
})

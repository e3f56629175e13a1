import { execFileSync, spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { TestProject } from 'vitest/node'

declare module 'vitest' {
  export interface ProvidedContext {
    /** One shop per browser worker: worker N (VITEST_POOL_ID) uses the Nth. */
    baseURLs: string[]
    demoAdmin: { email: string; password: string }
  }
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo
      server.close(() => resolve(port))
    })
  })
}

async function waitFor(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`The shop exited with code ${child.exitCode} before it was ready.`)
    try {
      const response = await fetch(url)
      if (response.ok) return
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  throw new Error(`The shop did not answer ${url} within ${timeoutMs} ms.`)
}

const demoAdmin = { email: 'admin@example.com', password: 'e2e-demo-password-1' }

type RunningShop = { baseURL: string; stop: () => Promise<void> }

/** One whole shop (`npm start` on a fresh data folder and a free port, test mode). */
async function startShop(): Promise<RunningShop> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-e2e-'))
  const port = await freePort()
  const simulatorPort = await freePort()
  const logFile = path.join(dataDir, 'shop.log')
  const log = fs.openSync(logFile, 'a')
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'development',
      PORT: String(port),
      HOST: '127.0.0.1',
      SIMULATOR_PORT: String(simulatorPort),
      DATA_DIR: dataDir,
      DATABASE_URI: `file:${path.join(dataDir, 'shop.db')}`,
      DEMO_ADMIN_EMAIL: demoAdmin.email,
      DEMO_ADMIN_PASSWORD: demoAdmin.password,
      // The browser tests buy many books from one machine.
      MAX_OPEN_ORDERS_PER_CLIENT: '100000',
      MAX_OPEN_ORDERS_PER_EMAIL: '100000',
      EMAILS_PER_ADDRESS_PER_HOUR: '100000',
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', log, log],
    detached: true,
  })
  const baseURL = `http://127.0.0.1:${port}`
  try {
    await waitFor(`${baseURL}/healthz`, child, 180_000)
  } catch (error) {
    console.error(fs.readFileSync(logFile, 'utf8').slice(-4000))
    process.kill(-child.pid!, 'SIGKILL')
    throw error
  }
  const stop = async () => {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        try {
          process.kill(-child.pid!, 'SIGKILL')
        } catch {
          // already gone
        }
        resolve()
      }, 15_000)
      child.once('exit', () => {
        clearTimeout(timer)
        resolve()
      })
      process.kill(-child.pid!, 'SIGTERM')
    })
    if (process.env.KEEP_E2E_DATA !== '1') fs.rmSync(dataDir, { recursive: true, force: true })
  }
  return { baseURL, stop }
}

/**
 * Starts one whole shop per browser worker (`maxWorkers` of the e2e project, one by default),
 * and stops them afterwards. A test file uses its worker's shop (support/browser.ts,
 * `baseURL`): the files of one worker run one after another on their shop, and those of another
 * worker beside them on another shop, never on the same one.
 */
export default async function setup(project: TestProject) {
  const workers = Math.max(1, Number(project.config.maxWorkers) || 1)
  // What is stale is built once, before the shops start (each start would build it again).
  execFileSync(process.execPath, ['scripts/start.mjs', '--build-only'], {
    cwd: root,
    stdio: 'inherit',
  })
  const shops = await Promise.all(Array.from({ length: workers }, () => startShop()))
  project.provide(
    'baseURLs',
    shops.map((shop) => shop.baseURL),
  )
  project.provide('demoAdmin', demoAdmin)
  return async () => {
    await Promise.all(shops.map((shop) => shop.stop()))
  }
}

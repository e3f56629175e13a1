import { execFileSync, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'

/**
 * A throwaway PostgreSQL server for tests: Debian's PostgreSQL binaries (off PATH), a cluster
 * made by initdb in a temporary folder, listening on a free loopback port and a socket in that
 * folder, run as the `postgres` user when the tests run as root (PostgreSQL refuses root).
 *
 * One cluster per test process, shared by every `startPostgres()` of that process: each call
 * gets a database of its own, dropped by its `stop()`; the last `stop()` stops the cluster and
 * removes its folder. A process that ends without stopping it stops it on exit.
 */
export type TestPostgres = {
  /** postgres://postgres@127.0.0.1:PORT/DB, a fresh empty database. */
  uri: string
  stop: () => Promise<void>
}

type Cluster = {
  dir: string
  port: number
  users: number
  databases: number
  onExit: () => void
}

// Kept on globalThis: the test set-up file evaluates this module afresh for every test file of
// a shared worker process.
const shared = globalThis as typeof globalThis & { __shopTestPostgres?: Promise<Cluster> }

/** The folder of PostgreSQL's server binaries (initdb, pg_ctl), the newest installed. */
export function postgresBinaries(): string | null {
  const root = '/usr/lib/postgresql'
  if (!fs.existsSync(root)) return null
  const versions = fs
    .readdirSync(root)
    .filter((v) => fs.existsSync(path.join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a))
  return versions[0] ? path.join(root, versions[0], 'bin') : null
}

const asRoot = () => process.getuid?.() === 0

/** Runs a PostgreSQL binary, as the postgres user when we are root. */
function runBinary(bin: string, args: string[], cwd: string) {
  const [command, argv] = asRoot()
    ? ['runuser', ['-u', 'postgres', '--', bin, ...args]]
    : [bin, args]
  execFileSync(command, argv, { cwd, stdio: ['ignore', 'pipe', 'pipe'] })
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo
      server.close(() => resolve(port))
    })
  })
}

function stopCluster(dir: string) {
  const bin = postgresBinaries()
  if (bin && fs.existsSync(path.join(dir, 'data', 'postmaster.pid'))) {
    const args = ['-D', path.join(dir, 'data'), '-m', 'immediate', '-w', 'stop']
    const [command, argv] = asRoot()
      ? ['runuser', ['-u', 'postgres', '--', path.join(bin, 'pg_ctl'), ...args]]
      : [path.join(bin, 'pg_ctl'), args]
    spawnSync(command, argv, { cwd: dir, stdio: 'ignore' })
  }
  fs.rmSync(dir, { recursive: true, force: true })
}

async function startCluster(): Promise<Cluster> {
  const bin = postgresBinaries()
  if (!bin) throw new Error('PostgreSQL is not installed (apt-get install -y postgresql).')
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-pg-'))
  const onExit = () => stopCluster(dir)
  process.once('exit', onExit)
  try {
    if (asRoot()) execFileSync('chown', ['postgres:', dir])
    const data = path.join(dir, 'data')
    runBinary(
      path.join(bin, 'initdb'),
      ['-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--no-sync'],
      dir,
    )
    // A throwaway cluster: nothing in it must survive a power cut, so no fsync.
    const options = `-p PORT -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off`
    for (let attempt = 1; ; attempt++) {
      const port = await freePort()
      const log = path.join(dir, 'server.log')
      try {
        runBinary(
          path.join(bin, 'pg_ctl'),
          ['-D', data, '-o', options.replace('PORT', String(port)), '-l', log, '-w', 'start'],
          dir,
        )
        return { dir, port, users: 0, databases: 0, onExit }
      } catch (error) {
        // Another process took the port between our look and the server's bind: another one.
        if (attempt >= 3) {
          const said = fs.existsSync(log) ? fs.readFileSync(log, 'utf8') : ''
          throw new Error(`PostgreSQL did not start: ${String(error)}\n${said}`, { cause: error })
        }
      }
    }
  } catch (error) {
    process.off('exit', onExit)
    stopCluster(dir)
    throw error
  }
}

const adminUri = (cluster: Cluster, database = 'postgres') =>
  `postgres://postgres@127.0.0.1:${cluster.port}/${database}`

async function asAdmin<T>(cluster: Cluster, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUri(cluster) })
  await client.connect()
  try {
    return await work(client)
  } finally {
    await client.end()
  }
}

/** A fresh database on this process's throwaway cluster (started on the first call). */
export async function startPostgres(): Promise<TestPostgres> {
  const starting = (shared.__shopTestPostgres ??= startCluster())
  let cluster: Cluster
  try {
    cluster = await starting
  } catch (error) {
    if (shared.__shopTestPostgres === starting) shared.__shopTestPostgres = undefined
    throw error
  }
  cluster.users += 1
  const database = `shop_${process.pid}_${++cluster.databases}`
  let stopped = false
  const stop = async () => {
    if (stopped) return
    stopped = true
    try {
      // FORCE: a pool left open by a failed test does not keep the database alive.
      await asAdmin(cluster, (c) => c.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`))
    } finally {
      cluster.users -= 1
      if (cluster.users === 0 && shared.__shopTestPostgres === starting) {
        shared.__shopTestPostgres = undefined
        process.off('exit', cluster.onExit)
        stopCluster(cluster.dir)
      }
    }
  }
  try {
    await asAdmin(cluster, (c) => c.query(`CREATE DATABASE ${database}`))
  } catch (error) {
    await stop()
    throw error
  }
  return { uri: adminUri(cluster, database), stop }
}

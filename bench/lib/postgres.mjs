// The bench's PostgreSQL: a throwaway cluster made as cms/test/support/postgres.ts makes the
// tests' one (Debian's binaries off PATH under /usr/lib/postgresql/*/bin, initdb in a temporary
// folder, a free loopback port and a socket in that folder, run as the `postgres` user when the
// bench runs as root), but with PostgreSQL's own durability settings: fsync and
// synchronous_commit stay on, as on a server owners run (the tests' cluster turns fsync off; the
// shop's SQLite commits with synchronous=FULL, so both engines wait for the disk here). One
// cluster a run, started on first use, each shop on a database of its own; stopped when the bench
// stops.
import { execFileSync, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

import pg from 'pg'

import { freePort } from '../../scripts/outside-services.mjs'
import { log } from './context.mjs'
import { closeAtEnd } from './processes.mjs'

/** The folder of PostgreSQL's server binaries (initdb, pg_ctl), the newest installed, or null. */
export function postgresBinaries() {
  const root = '/usr/lib/postgresql'
  if (!fs.existsSync(root)) return null
  const versions = fs
    .readdirSync(root)
    .filter((v) => fs.existsSync(path.join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a))
  return versions[0] ? path.join(root, versions[0], 'bin') : null
}

const asRoot = () => process.getuid?.() === 0

/** Runs a PostgreSQL binary, as the postgres user when we are root (PostgreSQL refuses root). */
function runBinary(bin, args, cwd) {
  const [command, argv] = asRoot()
    ? ['runuser', ['-u', 'postgres', '--', bin, ...args]]
    : [bin, args]
  return execFileSync(command, argv, { cwd, stdio: ['ignore', 'pipe', 'pipe'] })
}

let cluster

/**
 * The run's cluster, started on the first call: `{ version, uri(database), createDatabase(name),
 * dropDatabase(name) }`. Throws with the reason when PostgreSQL is not installed.
 */
export async function postgresCluster() {
  cluster ??= startCluster().catch((error) => {
    cluster = undefined
    throw error
  })
  return cluster
}

async function startCluster() {
  const bin = postgresBinaries()
  if (!bin) throw new Error('PostgreSQL is not installed (apt-get install -y postgresql)')
  // Its own temporary folder, not the run's: the run's is private to the bench's user, and the
  // server runs as `postgres`.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-bench-pg-'))
  const data = path.join(dir, 'data')
  const stop = () => {
    if (fs.existsSync(path.join(data, 'postmaster.pid'))) {
      const args = ['-D', data, '-m', 'fast', '-w', 'stop']
      const [command, argv] = asRoot()
        ? ['runuser', ['-u', 'postgres', '--', path.join(bin, 'pg_ctl'), ...args]]
        : [path.join(bin, 'pg_ctl'), args]
      spawnSync(command, argv, { cwd: dir, stdio: 'ignore' })
    }
    const kept = process.env.BENCH_LOG_DIR
    if (kept && fs.existsSync(path.join(dir, 'server.log')))
      fs.copyFileSync(path.join(dir, 'server.log'), path.join(kept, `postgres-${process.pid}.log`))
    fs.rmSync(dir, { recursive: true, force: true })
  }
  process.once('exit', stop)
  closeAtEnd(async () => stop())
  if (asRoot()) execFileSync('chown', ['postgres:', dir])
  // --no-sync: only initdb's own files; the server itself runs with fsync on.
  runBinary(
    path.join(bin, 'initdb'),
    ['-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--no-sync'],
    dir,
  )
  const port = await freePort()
  const logFile = path.join(dir, 'server.log')
  // BENCH_PG_OPTIONS adds server settings (`-c log_min_duration_statement=20` logs a run's slow
  // statements); with BENCH_LOG_DIR the server's log is kept there when the cluster stops.
  const options = process.env.BENCH_PG_OPTIONS ? ` ${process.env.BENCH_PG_OPTIONS}` : ''
  try {
    runBinary(
      path.join(bin, 'pg_ctl'),
      [
        '-D',
        data,
        '-o',
        `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1${options}`,
        '-l',
        logFile,
        '-w',
        'start',
      ],
      dir,
    )
  } catch (error) {
    const said = fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8') : ''
    throw new Error(`PostgreSQL did not start: ${error}\n${said}`, { cause: error })
  }
  const uri = (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`
  const asAdmin = async (sql) => {
    const client = new pg.Client({ connectionString: uri() })
    await client.connect()
    try {
      return await client.query(sql)
    } finally {
      await client.end()
    }
  }
  const version = (await asAdmin('show server_version')).rows[0].server_version
  log(`PostgreSQL ${version} on port ${port} (fsync on, synchronous_commit on)`)
  return {
    version,
    uri,
    createDatabase: async (name) => {
      await asAdmin(`CREATE DATABASE ${name}`)
      return uri(name)
    },
    // FORCE: the connections of a shop that did not end cleanly do not keep it alive.
    dropDatabase: (name) => asAdmin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  }
}

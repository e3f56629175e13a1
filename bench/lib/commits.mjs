// Counting the write transactions the shop's processes commit over a window, from outside the
// shop (its production bundle is not changed), on either engine.
//
// SQLite (WAL mode, as the shop runs it): every transaction that changed the database appends its
// pages to the WAL, and the last frame of each carries the database's size after the commit (a
// "commit frame"; every other frame has 0 there). The bench reads the WAL file as it grows (every
// 5 ms, only what is new) and counts commit frames whose salts are the current header's. The WAL
// starts again from its beginning once a checkpoint has copied all of it (SQLite's auto-checkpoint,
// at 1,000 pages): the new header's salts tell, and the old generation's frames not yet read are
// read where the new one has not overwritten them. A loss is possible only if the new generation
// overwrote frames not yet read (more frames written in 5 ms than the WAL held at its restart);
// `lossless` says whether that could have happened. Frames after the last commit frame are read
// again next time (a rolled-back transaction's spilled pages are overwritten by the next one). A
// transaction that changed nothing writes no frame and is not counted; nothing of a reader is.
//
// PostgreSQL: transaction ids are handed out only to transactions that write (or lock rows), so
// the next id to be handed out (`pg_snapshot_xmax(pg_current_snapshot())`) before and after
// counts them at once, with no flush delay; it counts the cluster's, and the bench's cluster holds
// one shop at a time (autovacuum's ANALYZE takes one now and then). Beside it `xact_commit` of
// pg_stat_database: every committed transaction of the database, the reads included, less the
// bench's own; backends report it when idle, up to 10 s late (PGSTAT_IDLE_INTERVAL), so both
// readings wait 11 s for it, and it then also holds up to 11 s of the shop at rest after the
// window (lease renewals: a few a second), and the bench's own readings (a handful).
import fs from 'node:fs'
import path from 'node:path'

import pg from 'pg'

import { sleep } from './context.mjs'

const WAL_HEADER = 32
const FRAME_HEADER = 24
/** Backends report their statistics when idle at most this late (PostgreSQL's 10 s, and 1 more). */
export const PG_STATS_DELAY_MS = 11_000

/**
 * Starts counting on `database` (`{ engine, uri }`); `db` is the bench's own client of it, whose
 * transactions are left out of `xact_commit`. Answers `{ read(), stop() }`: `read()` the write
 * transactions so far (at once), `stop()` the totals `{ writes, lossless?, xactCommit? }`.
 */
export async function countCommits(database, db) {
  return database.engine === 'postgres'
    ? postgresCommits(database.uri, db)
    : sqliteCommits(database.uri.replace(/^file:/, ''))
}

function sqliteCommits(file) {
  const wal = `${path.resolve(file)}-wal`
  const state = { salts: null, pageSize: 0, next: 0, commits: 0, lossless: true, size: 0 }
  const fd = fs.openSync(wal, 'r')
  const readAt = (offset, length) => {
    const buffer = Buffer.alloc(length)
    const n = fs.readSync(fd, buffer, 0, length, offset)
    return buffer.subarray(0, n)
  }
  const frameSize = () => FRAME_HEADER + state.pageSize
  const frameOffset = (i) => WAL_HEADER + i * frameSize()
  /** Commit frames from frame `from` with these salts; where the run of valid frames ends. */
  const scan = (salts, from) => {
    const size = fs.fstatSync(fd).size
    let commits = 0
    let i = from
    let afterLastCommit = from
    // Frame headers only: one read per frame header, in chunks of the file as it is now.
    while (frameOffset(i) + FRAME_HEADER <= size) {
      const header = readAt(frameOffset(i), FRAME_HEADER)
      if (header.length < FRAME_HEADER) break
      if (header.readUInt32BE(8) !== salts[0] || header.readUInt32BE(12) !== salts[1]) break
      i += 1
      if (header.readUInt32BE(4) !== 0) {
        commits += 1
        afterLastCommit = i
      }
    }
    return { commits, end: i, afterLastCommit }
  }
  const header = () => {
    const h = readAt(0, WAL_HEADER)
    if (h.length < WAL_HEADER) return null
    return { pageSize: h.readUInt32BE(8), salts: [h.readUInt32BE(16), h.readUInt32BE(20)] }
  }
  const poll = () => {
    const h = header()
    if (!h) return
    // SQLite cuts a WAL longer than the shop's journal_size_limit (64 MB) after a restart: what
    // it cut and was not read yet is lost.
    const size = fs.fstatSync(fd).size
    if (size < state.size) state.lossless = false
    state.size = size
    if (!state.salts) {
      // The start: what is in the WAL already is before the window.
      state.salts = h.salts
      state.pageSize = h.pageSize
      state.next = scan(h.salts, 0).afterLastCommit
      return
    }
    if (h.salts[0] !== state.salts[0] || h.salts[1] !== state.salts[1]) {
      // A new generation: its frames so far, then the old one's that it has not overwritten.
      const fresh = scan(h.salts, 0)
      if (state.next < fresh.end) state.lossless = false
      state.commits += scan(state.salts, Math.max(state.next, fresh.end)).commits
      state.commits += fresh.commits
      state.salts = h.salts
      state.next = fresh.afterLastCommit
      return
    }
    const more = scan(state.salts, state.next)
    state.commits += more.commits
    state.next = more.afterLastCommit
  }
  poll()
  const timer = setInterval(poll, 5)
  return {
    read: async () => {
      poll()
      return state.commits
    },
    stop: async () => {
      poll()
      clearInterval(timer)
      fs.closeSync(fd)
      return { writes: state.commits, lossless: state.lossless }
    },
  }
}

async function postgresCommits(uri, db) {
  const client = new pg.Client({ connectionString: uri })
  await client.connect()
  const nextXid = async () =>
    Number((await client.query('select pg_snapshot_xmax(pg_current_snapshot()) as x')).rows[0].x)
  const xactCommit = async () =>
    Number(
      (
        await client.query(
          'select xact_commit from pg_stat_database where datname = current_database()',
        )
      ).rows[0].xact_commit,
    )
  // What the shop did before the window is reported by now.
  await sleep(PG_STATS_DELAY_MS)
  const xid0 = await nextXid()
  const commits0 = await xactCommit()
  const own0 = db.transactions
  return {
    read: async () => (await nextXid()) - xid0,
    stop: async () => {
      const writes = (await nextXid()) - xid0
      await sleep(PG_STATS_DELAY_MS)
      // Less the bench's own reads of the rush's progress (this connection's few readings and
      // the connections' start-up stay in: a handful in all).
      const xact = (await xactCommit()) - commits0 - (db.transactions - own0)
      await client.end()
      return { writes, xactCommit: xact }
    },
  }
}

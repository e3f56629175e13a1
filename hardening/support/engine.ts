import type { Payload } from 'payload'

/**
 * The database engine a hardening file's shop runs on, for its report lines: SQLite by default,
 * PostgreSQL in `npm test`'s PostgreSQL lane (`TEST_DB_ENGINE=postgres`, a throwaway cluster:
 * cms/test/support/postgres.ts). Throws when the shop is not on the engine the run asked for,
 * so a lane meant for PostgreSQL cannot pass on SQLite unseen.
 */
export function shopEngine(payload: Payload): string {
  const engine = payload.db.name
  const asked = process.env.TEST_DB_ENGINE
  if (asked && asked !== engine)
    throw new Error(`TEST_DB_ENGINE=${asked}, but the shop runs on ${engine}.`)
  return engine
}

import type { MigrateDownArgs, MigrateUpArgs } from '@payloadcms/db-postgres'
import { sql } from '@payloadcms/db-postgres'

/**
 * The rate limits' counts skip PostgreSQL's write-ahead log: every checkout and sign-in writes
 * one, and a count lost in a crash harms nobody (SQLite writes them without an fsync for the same
 * reason). An unlogged table is emptied after a crash and not copied to replicas; pg_dump keeps
 * its rows. The schema is unchanged, so the snapshot beside this file is the previous one.
 */
export async function up({ db }: MigrateUpArgs): Promise<void> {
  await db.execute(sql`ALTER TABLE "rate_limits" SET UNLOGGED;`)
}

export async function down({ db }: MigrateDownArgs): Promise<void> {
  await db.execute(sql`ALTER TABLE "rate_limits" SET LOGGED;`)
}

import type { MigrateDownArgs, MigrateUpArgs } from '@payloadcms/db-sqlite'

// Replaced by `npm run migrate:create -w cms`, which lists every SQLite migration here.
export const migrations: {
  name: string
  up: (args: MigrateUpArgs) => Promise<void>
  down: (args: MigrateDownArgs) => Promise<void>
}[] = []

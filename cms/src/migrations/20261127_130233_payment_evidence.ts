import { MigrateUpArgs, MigrateDownArgs, sql } from '@payloadcms/db-sqlite'

export async function up({ db, payload, req }: MigrateUpArgs): Promise<void> {
  await db.run(sql`ALTER TABLE \`payments\` ADD \`spends\` text;`)
  await db.run(sql`ALTER TABLE \`payments\` ADD \`missing_since\` text;`)
  await db.run(sql`ALTER TABLE \`payments\` ADD \`missing_looks\` numeric DEFAULT 0;`)
}

export async function down({ db, payload, req }: MigrateDownArgs): Promise<void> {
  await db.run(sql`ALTER TABLE \`payments\` DROP COLUMN \`spends\`;`)
  await db.run(sql`ALTER TABLE \`payments\` DROP COLUMN \`missing_since\`;`)
  await db.run(sql`ALTER TABLE \`payments\` DROP COLUMN \`missing_looks\`;`)
}

import { MigrateUpArgs, MigrateDownArgs, sql } from '@payloadcms/db-sqlite'

export async function up({ db, payload, req }: MigrateUpArgs): Promise<void> {
  await db.run(sql`ALTER TABLE \`orders\` ADD \`flags_paid_invalid\` integer DEFAULT false;`)
  await db.run(sql`ALTER TABLE \`payments\` ADD \`invalidated_at\` text;`)
  await db.run(sql`ALTER TABLE \`payments\` ADD \`invalid_reason\` text;`)
  await db.run(
    sql`CREATE INDEX \`payments_invalidated_at_idx\` ON \`payments\` (\`invalidated_at\`);`,
  )
}

export async function down({ db, payload, req }: MigrateDownArgs): Promise<void> {
  await db.run(sql`DROP INDEX \`payments_invalidated_at_idx\`;`)
  await db.run(sql`ALTER TABLE \`payments\` DROP COLUMN \`invalidated_at\`;`)
  await db.run(sql`ALTER TABLE \`payments\` DROP COLUMN \`invalid_reason\`;`)
  await db.run(sql`ALTER TABLE \`orders\` DROP COLUMN \`flags_paid_invalid\`;`)
}

import { MigrateUpArgs, MigrateDownArgs, sql } from '@payloadcms/db-sqlite'

export async function up({ db, payload, req }: MigrateUpArgs): Promise<void> {
  await db.run(sql`ALTER TABLE \`orders\` ADD \`attention\` text;`)
  await db.run(sql`ALTER TABLE \`orders\` ADD \`attention_since\` text;`)
  await db.run(
    sql`CREATE INDEX \`orders_attention_since_idx\` ON \`orders\` (\`attention_since\`);`,
  )
}

export async function down({ db, payload, req }: MigrateDownArgs): Promise<void> {
  await db.run(sql`DROP INDEX \`orders_attention_since_idx\`;`)
  await db.run(sql`ALTER TABLE \`orders\` DROP COLUMN \`attention\`;`)
  await db.run(sql`ALTER TABLE \`orders\` DROP COLUMN \`attention_since\`;`)
}

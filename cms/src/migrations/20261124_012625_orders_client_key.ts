import { MigrateUpArgs, MigrateDownArgs, sql } from '@payloadcms/db-sqlite'

export async function up({ db, payload, req }: MigrateUpArgs): Promise<void> {
  await db.run(sql`ALTER TABLE \`orders\` ADD \`client_key\` text;`)
  await db.run(sql`CREATE INDEX \`orders_user_email_idx\` ON \`orders\` (\`user_email\`);`)
  await db.run(sql`CREATE INDEX \`orders_client_key_idx\` ON \`orders\` (\`client_key\`);`)
}

export async function down({ db, payload, req }: MigrateDownArgs): Promise<void> {
  await db.run(sql`DROP INDEX \`orders_user_email_idx\`;`)
  await db.run(sql`DROP INDEX \`orders_client_key_idx\`;`)
  await db.run(sql`ALTER TABLE \`orders\` DROP COLUMN \`client_key\`;`)
}

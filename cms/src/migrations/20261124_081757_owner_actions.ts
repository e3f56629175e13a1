import { MigrateUpArgs, MigrateDownArgs, sql } from '@payloadcms/db-sqlite'

export async function up({ db, payload, req }: MigrateUpArgs): Promise<void> {
  await db.run(sql`CREATE TABLE \`orders_history\` (
  	\`_order\` integer NOT NULL,
  	\`_parent_id\` text NOT NULL,
  	\`id\` text PRIMARY KEY NOT NULL,
  	\`at\` text NOT NULL,
  	\`by\` text NOT NULL,
  	\`action\` text NOT NULL,
  	\`from_status\` text,
  	\`to_status\` text,
  	\`note\` text,
  	\`txid\` text,
  	FOREIGN KEY (\`_parent_id\`) REFERENCES \`orders\`(\`id\`) ON UPDATE no action ON DELETE cascade
  );
  `)
  await db.run(sql`CREATE INDEX \`orders_history_order_idx\` ON \`orders_history\` (\`_order\`);`)
  await db.run(
    sql`CREATE INDEX \`orders_history_parent_id_idx\` ON \`orders_history\` (\`_parent_id\`);`,
  )
  await db.run(sql`ALTER TABLE \`orders\` ADD \`settled_at\` text;`)
  await db.run(sql`ALTER TABLE \`orders\` ADD \`recheck_requested_at\` text;`)
  await db.run(
    sql`CREATE INDEX \`orders_recheck_requested_at_idx\` ON \`orders\` (\`recheck_requested_at\`);`,
  )
}

export async function down({ db, payload, req }: MigrateDownArgs): Promise<void> {
  await db.run(sql`DROP TABLE \`orders_history\`;`)
  await db.run(sql`DROP INDEX \`orders_recheck_requested_at_idx\`;`)
  await db.run(sql`ALTER TABLE \`orders\` DROP COLUMN \`settled_at\`;`)
  await db.run(sql`ALTER TABLE \`orders\` DROP COLUMN \`recheck_requested_at\`;`)
}

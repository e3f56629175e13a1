import { MigrateUpArgs, MigrateDownArgs, sql } from '@payloadcms/db-sqlite'

export async function up({ db, payload, req }: MigrateUpArgs): Promise<void> {
  await db.run(sql`CREATE TABLE \`webhook_deliveries\` (
  	\`id\` integer PRIMARY KEY NOT NULL,
  	\`key\` text NOT NULL,
  	\`delivery_id\` text NOT NULL,
  	\`event\` text NOT NULL,
  	\`order_id\` text NOT NULL,
  	\`body\` text NOT NULL,
  	\`status\` text DEFAULT 'pending' NOT NULL,
  	\`attempts\` numeric DEFAULT 0 NOT NULL,
  	\`next_attempt_at\` text NOT NULL,
  	\`last_status\` numeric,
  	\`last_error\` text,
  	\`sent_at\` text,
  	\`updated_at\` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
  	\`created_at\` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
  	FOREIGN KEY (\`order_id\`) REFERENCES \`orders\`(\`id\`) ON UPDATE no action ON DELETE set null
  );
  `)
  await db.run(
    sql`CREATE UNIQUE INDEX \`webhook_deliveries_key_idx\` ON \`webhook_deliveries\` (\`key\`);`,
  )
  await db.run(
    sql`CREATE INDEX \`webhook_deliveries_order_idx\` ON \`webhook_deliveries\` (\`order_id\`);`,
  )
  await db.run(
    sql`CREATE INDEX \`webhook_deliveries_status_idx\` ON \`webhook_deliveries\` (\`status\`);`,
  )
  await db.run(
    sql`CREATE INDEX \`webhook_deliveries_next_attempt_at_idx\` ON \`webhook_deliveries\` (\`next_attempt_at\`);`,
  )
  await db.run(
    sql`CREATE INDEX \`webhook_deliveries_updated_at_idx\` ON \`webhook_deliveries\` (\`updated_at\`);`,
  )
  await db.run(
    sql`CREATE INDEX \`webhook_deliveries_created_at_idx\` ON \`webhook_deliveries\` (\`created_at\`);`,
  )
}

export async function down({ db, payload, req }: MigrateDownArgs): Promise<void> {
  await db.run(sql`DROP TABLE \`webhook_deliveries\`;`)
}

import { MigrateUpArgs, MigrateDownArgs, sql } from '@payloadcms/db-sqlite'

export async function up({ db, payload, req }: MigrateUpArgs): Promise<void> {
  await db.run(sql`CREATE TABLE \`chain_health\` (
  	\`id\` integer PRIMARY KEY NOT NULL,
  	\`name\` text NOT NULL,
  	\`stats\` text,
  	\`stats_at\` text,
  	\`last_look_ok_at\` text,
  	\`idle_at\` text,
  	\`alerted_at\` text,
  	\`outage_since\` text,
  	\`updated_at\` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
  	\`created_at\` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
  );
  `)
  await db.run(sql`CREATE UNIQUE INDEX \`chain_health_name_idx\` ON \`chain_health\` (\`name\`);`)
  await db.run(
    sql`CREATE INDEX \`chain_health_updated_at_idx\` ON \`chain_health\` (\`updated_at\`);`,
  )
  await db.run(
    sql`CREATE INDEX \`chain_health_created_at_idx\` ON \`chain_health\` (\`created_at\`);`,
  )
  await db.run(sql`PRAGMA foreign_keys=OFF;`)
  await db.run(sql`CREATE TABLE \`__new_email_outbox\` (
  	\`id\` integer PRIMARY KEY NOT NULL,
  	\`key\` text NOT NULL,
  	\`kind\` text NOT NULL,
  	\`order_id\` text,
  	\`to\` text NOT NULL,
  	\`status\` text DEFAULT 'pending' NOT NULL,
  	\`attempts\` numeric DEFAULT 0 NOT NULL,
  	\`last_error\` text,
  	\`sent_at\` text,
  	\`updated_at\` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
  	\`created_at\` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
  	FOREIGN KEY (\`order_id\`) REFERENCES \`orders\`(\`id\`) ON UPDATE no action ON DELETE set null
  );
  `)
  await db.run(
    sql`INSERT INTO \`__new_email_outbox\`("id", "key", "kind", "order_id", "to", "status", "attempts", "last_error", "sent_at", "updated_at", "created_at") SELECT "id", "key", "kind", "order_id", "to", "status", "attempts", "last_error", "sent_at", "updated_at", "created_at" FROM \`email_outbox\`;`,
  )
  await db.run(sql`DROP TABLE \`email_outbox\`;`)
  await db.run(sql`ALTER TABLE \`__new_email_outbox\` RENAME TO \`email_outbox\`;`)
  await db.run(sql`PRAGMA foreign_keys=ON;`)
  await db.run(sql`CREATE UNIQUE INDEX \`email_outbox_key_idx\` ON \`email_outbox\` (\`key\`);`)
  await db.run(sql`CREATE INDEX \`email_outbox_order_idx\` ON \`email_outbox\` (\`order_id\`);`)
  await db.run(sql`CREATE INDEX \`email_outbox_status_idx\` ON \`email_outbox\` (\`status\`);`)
  await db.run(
    sql`CREATE INDEX \`email_outbox_updated_at_idx\` ON \`email_outbox\` (\`updated_at\`);`,
  )
  await db.run(
    sql`CREATE INDEX \`email_outbox_created_at_idx\` ON \`email_outbox\` (\`created_at\`);`,
  )
  await db.run(sql`CREATE TABLE \`__new_webhook_deliveries\` (
  	\`id\` integer PRIMARY KEY NOT NULL,
  	\`key\` text NOT NULL,
  	\`delivery_id\` text NOT NULL,
  	\`event\` text NOT NULL,
  	\`order_id\` text,
  	\`body\` text NOT NULL,
  	\`status\` text DEFAULT 'pending' NOT NULL,
  	\`attempts\` numeric DEFAULT 0 NOT NULL,
  	\`last_status\` numeric,
  	\`last_error\` text,
  	\`sent_at\` text,
  	\`updated_at\` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
  	\`created_at\` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
  	FOREIGN KEY (\`order_id\`) REFERENCES \`orders\`(\`id\`) ON UPDATE no action ON DELETE set null
  );
  `)
  await db.run(
    sql`INSERT INTO \`__new_webhook_deliveries\`("id", "key", "delivery_id", "event", "order_id", "body", "status", "attempts", "last_status", "last_error", "sent_at", "updated_at", "created_at") SELECT "id", "key", "delivery_id", "event", "order_id", "body", "status", "attempts", "last_status", "last_error", "sent_at", "updated_at", "created_at" FROM \`webhook_deliveries\`;`,
  )
  await db.run(sql`DROP TABLE \`webhook_deliveries\`;`)
  await db.run(sql`ALTER TABLE \`__new_webhook_deliveries\` RENAME TO \`webhook_deliveries\`;`)
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
    sql`CREATE INDEX \`webhook_deliveries_updated_at_idx\` ON \`webhook_deliveries\` (\`updated_at\`);`,
  )
  await db.run(
    sql`CREATE INDEX \`webhook_deliveries_created_at_idx\` ON \`webhook_deliveries\` (\`created_at\`);`,
  )
}

export async function down({ db, payload, req }: MigrateDownArgs): Promise<void> {
  await db.run(sql`DROP TABLE \`chain_health\`;`)
  await db.run(sql`PRAGMA foreign_keys=OFF;`)
  await db.run(sql`CREATE TABLE \`__new_email_outbox\` (
  	\`id\` integer PRIMARY KEY NOT NULL,
  	\`key\` text NOT NULL,
  	\`kind\` text NOT NULL,
  	\`order_id\` text NOT NULL,
  	\`to\` text NOT NULL,
  	\`status\` text DEFAULT 'pending' NOT NULL,
  	\`attempts\` numeric DEFAULT 0 NOT NULL,
  	\`last_error\` text,
  	\`sent_at\` text,
  	\`updated_at\` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
  	\`created_at\` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
  	FOREIGN KEY (\`order_id\`) REFERENCES \`orders\`(\`id\`) ON UPDATE no action ON DELETE set null
  );
  `)
  await db.run(
    sql`INSERT INTO \`__new_email_outbox\`("id", "key", "kind", "order_id", "to", "status", "attempts", "last_error", "sent_at", "updated_at", "created_at") SELECT "id", "key", "kind", "order_id", "to", "status", "attempts", "last_error", "sent_at", "updated_at", "created_at" FROM \`email_outbox\`;`,
  )
  await db.run(sql`DROP TABLE \`email_outbox\`;`)
  await db.run(sql`ALTER TABLE \`__new_email_outbox\` RENAME TO \`email_outbox\`;`)
  await db.run(sql`PRAGMA foreign_keys=ON;`)
  await db.run(sql`CREATE UNIQUE INDEX \`email_outbox_key_idx\` ON \`email_outbox\` (\`key\`);`)
  await db.run(sql`CREATE INDEX \`email_outbox_order_idx\` ON \`email_outbox\` (\`order_id\`);`)
  await db.run(sql`CREATE INDEX \`email_outbox_status_idx\` ON \`email_outbox\` (\`status\`);`)
  await db.run(
    sql`CREATE INDEX \`email_outbox_updated_at_idx\` ON \`email_outbox\` (\`updated_at\`);`,
  )
  await db.run(
    sql`CREATE INDEX \`email_outbox_created_at_idx\` ON \`email_outbox\` (\`created_at\`);`,
  )
  await db.run(sql`CREATE TABLE \`__new_webhook_deliveries\` (
  	\`id\` integer PRIMARY KEY NOT NULL,
  	\`key\` text NOT NULL,
  	\`delivery_id\` text NOT NULL,
  	\`event\` text NOT NULL,
  	\`order_id\` text NOT NULL,
  	\`body\` text NOT NULL,
  	\`status\` text DEFAULT 'pending' NOT NULL,
  	\`attempts\` numeric DEFAULT 0 NOT NULL,
  	\`last_status\` numeric,
  	\`last_error\` text,
  	\`sent_at\` text,
  	\`updated_at\` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
  	\`created_at\` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
  	FOREIGN KEY (\`order_id\`) REFERENCES \`orders\`(\`id\`) ON UPDATE no action ON DELETE set null
  );
  `)
  await db.run(
    sql`INSERT INTO \`__new_webhook_deliveries\`("id", "key", "delivery_id", "event", "order_id", "body", "status", "attempts", "last_status", "last_error", "sent_at", "updated_at", "created_at") SELECT "id", "key", "delivery_id", "event", "order_id", "body", "status", "attempts", "last_status", "last_error", "sent_at", "updated_at", "created_at" FROM \`webhook_deliveries\`;`,
  )
  await db.run(sql`DROP TABLE \`webhook_deliveries\`;`)
  await db.run(sql`ALTER TABLE \`__new_webhook_deliveries\` RENAME TO \`webhook_deliveries\`;`)
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
    sql`CREATE INDEX \`webhook_deliveries_updated_at_idx\` ON \`webhook_deliveries\` (\`updated_at\`);`,
  )
  await db.run(
    sql`CREATE INDEX \`webhook_deliveries_created_at_idx\` ON \`webhook_deliveries\` (\`created_at\`);`,
  )
}

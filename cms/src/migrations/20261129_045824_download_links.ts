import { MigrateUpArgs, MigrateDownArgs, sql } from '@payloadcms/db-sqlite'

export async function up({ db, payload, req }: MigrateUpArgs): Promise<void> {
  await db.run(sql`CREATE TABLE \`email_outbox_rels\` (
  	\`id\` integer PRIMARY KEY NOT NULL,
  	\`order\` integer,
  	\`parent_id\` integer NOT NULL,
  	\`path\` text NOT NULL,
  	\`download_tokens_id\` integer,
  	FOREIGN KEY (\`parent_id\`) REFERENCES \`email_outbox\`(\`id\`) ON UPDATE no action ON DELETE cascade,
  	FOREIGN KEY (\`download_tokens_id\`) REFERENCES \`download_tokens\`(\`id\`) ON UPDATE no action ON DELETE cascade
  );
  `)
  await db.run(
    sql`CREATE INDEX \`email_outbox_rels_order_idx\` ON \`email_outbox_rels\` (\`order\`);`,
  )
  await db.run(
    sql`CREATE INDEX \`email_outbox_rels_parent_idx\` ON \`email_outbox_rels\` (\`parent_id\`);`,
  )
  await db.run(
    sql`CREATE INDEX \`email_outbox_rels_path_idx\` ON \`email_outbox_rels\` (\`path\`);`,
  )
  await db.run(
    sql`CREATE INDEX \`email_outbox_rels_download_tokens_id_idx\` ON \`email_outbox_rels\` (\`download_tokens_id\`);`,
  )
}

export async function down({ db, payload, req }: MigrateDownArgs): Promise<void> {
  await db.run(sql`DROP TABLE \`email_outbox_rels\`;`)
}

import { MigrateUpArgs, MigrateDownArgs, sql } from '@payloadcms/db-sqlite'

export async function up({ db, payload, req }: MigrateUpArgs): Promise<void> {
  await db.run(sql`CREATE TABLE \`arc_callbacks\` (
  	\`id\` integer PRIMARY KEY NOT NULL,
  	\`txid\` text NOT NULL,
  	\`tx_status\` text NOT NULL,
  	\`arc_timestamp\` text,
  	\`taken_at\` text,
  	\`updated_at\` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
  	\`created_at\` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
  );
  `)
  await db.run(sql`CREATE INDEX \`arc_callbacks_txid_idx\` ON \`arc_callbacks\` (\`txid\`);`)
  await db.run(
    sql`CREATE INDEX \`arc_callbacks_taken_at_idx\` ON \`arc_callbacks\` (\`taken_at\`);`,
  )
  await db.run(
    sql`CREATE INDEX \`arc_callbacks_updated_at_idx\` ON \`arc_callbacks\` (\`updated_at\`);`,
  )
  await db.run(
    sql`CREATE INDEX \`arc_callbacks_created_at_idx\` ON \`arc_callbacks\` (\`created_at\`);`,
  )
}

export async function down({ db, payload, req }: MigrateDownArgs): Promise<void> {
  await db.run(sql`DROP TABLE \`arc_callbacks\`;`)
}

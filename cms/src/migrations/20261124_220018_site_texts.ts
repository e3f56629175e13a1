import { MigrateUpArgs, MigrateDownArgs, sql } from '@payloadcms/db-sqlite'

export async function up({ db, payload, req }: MigrateUpArgs): Promise<void> {
  await db.run(sql`CREATE TABLE \`landing_hero\` (
  	\`id\` integer PRIMARY KEY NOT NULL,
  	\`eyebrow\` text DEFAULT 'A framework for communities' NOT NULL,
  	\`title\` text DEFAULT 'Identity, the dual vote and trust you can verify' NOT NULL,
  	\`text\` text DEFAULT 'Self-managed identity, decisions voted twice, and trust metrics recorded on a public ledger where anyone can check them. Read the papers, try the tools, and get the book.' NOT NULL,
  	\`store_button_label\` text DEFAULT 'Get the book' NOT NULL,
  	\`resources_button_label\` text DEFAULT 'Explore resources' NOT NULL,
  	\`updated_at\` text,
  	\`created_at\` text
  );
  `)
  await db.run(
    sql`ALTER TABLE \`papers_page\` ADD \`introduction_eyebrow\` text DEFAULT 'Library' NOT NULL;`,
  )
  await db.run(
    sql`ALTER TABLE \`papers_page\` ADD \`introduction_title\` text DEFAULT 'White Papers' NOT NULL;`,
  )
  await db.run(
    sql`ALTER TABLE \`papers_page\` ADD \`introduction_text\` text DEFAULT 'Nine papers describe the framework, in English and Italian. Each file is certified with a timestamp on the public ledger: open its certificate to check that the text you read is the text that was published.' NOT NULL;`,
  )
}

export async function down({ db, payload, req }: MigrateDownArgs): Promise<void> {
  await db.run(sql`DROP TABLE \`landing_hero\`;`)
  await db.run(sql`ALTER TABLE \`papers_page\` DROP COLUMN \`introduction_eyebrow\`;`)
  await db.run(sql`ALTER TABLE \`papers_page\` DROP COLUMN \`introduction_title\`;`)
  await db.run(sql`ALTER TABLE \`papers_page\` DROP COLUMN \`introduction_text\`;`)
}

import { MigrateUpArgs, MigrateDownArgs, sql } from '@payloadcms/db-sqlite'

export async function up({ db, payload, req }: MigrateUpArgs): Promise<void> {
  await db.run(sql`ALTER TABLE \`payments\` ADD \`doubted_at\` text;`)
  await db.run(sql`ALTER TABLE \`payments\` ADD \`doubt_reason\` text;`)
  await db.run(sql`ALTER TABLE \`payments\` ADD \`arc_status\` text;`)
  await db.run(sql`ALTER TABLE \`payments\` ADD \`arc_checked_at\` text;`)
  await db.run(sql`ALTER TABLE \`payments\` ADD \`proof_verified_at\` text;`)
  await db.run(sql`ALTER TABLE \`payments\` ADD \`proof_block_height\` numeric;`)
  await db.run(sql`ALTER TABLE \`payments\` ADD \`proof_block_hash\` text;`)
  await db.run(sql`ALTER TABLE \`payments\` ADD \`proof_merkle_root\` text;`)
  await db.run(sql`ALTER TABLE \`payments\` ADD \`proof_merkle_path\` text;`)
  await db.run(sql`ALTER TABLE \`payments\` ADD \`proof_sources\` text;`)
  await db.run(sql`ALTER TABLE \`payments\` ADD \`proof_problem\` text;`)
}

export async function down({ db, payload, req }: MigrateDownArgs): Promise<void> {
  await db.run(sql`ALTER TABLE \`payments\` DROP COLUMN \`doubted_at\`;`)
  await db.run(sql`ALTER TABLE \`payments\` DROP COLUMN \`doubt_reason\`;`)
  await db.run(sql`ALTER TABLE \`payments\` DROP COLUMN \`arc_status\`;`)
  await db.run(sql`ALTER TABLE \`payments\` DROP COLUMN \`arc_checked_at\`;`)
  await db.run(sql`ALTER TABLE \`payments\` DROP COLUMN \`proof_verified_at\`;`)
  await db.run(sql`ALTER TABLE \`payments\` DROP COLUMN \`proof_block_height\`;`)
  await db.run(sql`ALTER TABLE \`payments\` DROP COLUMN \`proof_block_hash\`;`)
  await db.run(sql`ALTER TABLE \`payments\` DROP COLUMN \`proof_merkle_root\`;`)
  await db.run(sql`ALTER TABLE \`payments\` DROP COLUMN \`proof_merkle_path\`;`)
  await db.run(sql`ALTER TABLE \`payments\` DROP COLUMN \`proof_sources\`;`)
  await db.run(sql`ALTER TABLE \`payments\` DROP COLUMN \`proof_problem\`;`)
}

import type { MigrateDownArgs, MigrateUpArgs } from '@payloadcms/db-postgres'
import { sql } from '@payloadcms/db-postgres'

export async function up({ db }: MigrateUpArgs): Promise<void> {
  await db.execute(sql`
   ALTER TABLE "payments" ADD COLUMN "doubted_at" timestamp(3) with time zone;
  ALTER TABLE "payments" ADD COLUMN "doubt_reason" varchar;
  ALTER TABLE "payments" ADD COLUMN "arc_status" varchar;
  ALTER TABLE "payments" ADD COLUMN "arc_checked_at" timestamp(3) with time zone;
  ALTER TABLE "payments" ADD COLUMN "proof_verified_at" timestamp(3) with time zone;
  ALTER TABLE "payments" ADD COLUMN "proof_block_height" numeric;
  ALTER TABLE "payments" ADD COLUMN "proof_block_hash" varchar;
  ALTER TABLE "payments" ADD COLUMN "proof_merkle_root" varchar;
  ALTER TABLE "payments" ADD COLUMN "proof_merkle_path" varchar;
  ALTER TABLE "payments" ADD COLUMN "proof_sources" varchar;
  ALTER TABLE "payments" ADD COLUMN "proof_problem" varchar;`)
}

export async function down({ db }: MigrateDownArgs): Promise<void> {
  await db.execute(sql`
   ALTER TABLE "payments" DROP COLUMN "doubted_at";
  ALTER TABLE "payments" DROP COLUMN "doubt_reason";
  ALTER TABLE "payments" DROP COLUMN "arc_status";
  ALTER TABLE "payments" DROP COLUMN "arc_checked_at";
  ALTER TABLE "payments" DROP COLUMN "proof_verified_at";
  ALTER TABLE "payments" DROP COLUMN "proof_block_height";
  ALTER TABLE "payments" DROP COLUMN "proof_block_hash";
  ALTER TABLE "payments" DROP COLUMN "proof_merkle_root";
  ALTER TABLE "payments" DROP COLUMN "proof_merkle_path";
  ALTER TABLE "payments" DROP COLUMN "proof_sources";
  ALTER TABLE "payments" DROP COLUMN "proof_problem";`)
}

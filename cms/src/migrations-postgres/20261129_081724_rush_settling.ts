import type { MigrateDownArgs, MigrateUpArgs } from '@payloadcms/db-postgres'
import { sql } from '@payloadcms/db-postgres'

export async function up({ db }: MigrateUpArgs): Promise<void> {
  await db.execute(sql`
   ALTER TYPE "public"."enum_email_outbox_status" ADD VALUE 'skipped';
  ALTER TYPE "public"."enum_webhook_deliveries_status" ADD VALUE 'skipped';
  CREATE INDEX "queue_completedAt_processing_idx" ON "payload_jobs" USING btree ("queue","completed_at","processing");`)
}

export async function down({ db }: MigrateDownArgs): Promise<void> {
  await db.execute(sql`
   ALTER TABLE "email_outbox" ALTER COLUMN "status" SET DATA TYPE text;
  ALTER TABLE "email_outbox" ALTER COLUMN "status" SET DEFAULT 'pending'::text;
  DROP TYPE "public"."enum_email_outbox_status";
  CREATE TYPE "public"."enum_email_outbox_status" AS ENUM('pending', 'sent', 'failed');
  ALTER TABLE "email_outbox" ALTER COLUMN "status" SET DEFAULT 'pending'::"public"."enum_email_outbox_status";
  ALTER TABLE "email_outbox" ALTER COLUMN "status" SET DATA TYPE "public"."enum_email_outbox_status" USING "status"::"public"."enum_email_outbox_status";
  ALTER TABLE "webhook_deliveries" ALTER COLUMN "status" SET DATA TYPE text;
  ALTER TABLE "webhook_deliveries" ALTER COLUMN "status" SET DEFAULT 'pending'::text;
  DROP TYPE "public"."enum_webhook_deliveries_status";
  CREATE TYPE "public"."enum_webhook_deliveries_status" AS ENUM('pending', 'sent', 'failed');
  ALTER TABLE "webhook_deliveries" ALTER COLUMN "status" SET DEFAULT 'pending'::"public"."enum_webhook_deliveries_status";
  ALTER TABLE "webhook_deliveries" ALTER COLUMN "status" SET DATA TYPE "public"."enum_webhook_deliveries_status" USING "status"::"public"."enum_webhook_deliveries_status";
  DROP INDEX "queue_completedAt_processing_idx";`)
}

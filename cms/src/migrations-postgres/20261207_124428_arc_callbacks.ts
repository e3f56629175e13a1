import type { MigrateDownArgs, MigrateUpArgs } from '@payloadcms/db-postgres'
import { sql } from '@payloadcms/db-postgres'

export async function up({ db }: MigrateUpArgs): Promise<void> {
  await db.execute(sql`
   CREATE TABLE "arc_callbacks" (
  	"id" serial PRIMARY KEY NOT NULL,
  	"txid" varchar NOT NULL,
  	"tx_status" varchar NOT NULL,
  	"arc_timestamp" varchar,
  	"taken_at" timestamp(3) with time zone,
  	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL
  );
  
  CREATE INDEX "arc_callbacks_txid_idx" ON "arc_callbacks" USING btree ("txid");
  CREATE INDEX "arc_callbacks_taken_at_idx" ON "arc_callbacks" USING btree ("taken_at");
  CREATE INDEX "arc_callbacks_updated_at_idx" ON "arc_callbacks" USING btree ("updated_at");
  CREATE INDEX "arc_callbacks_created_at_idx" ON "arc_callbacks" USING btree ("created_at");`)
}

export async function down({ db }: MigrateDownArgs): Promise<void> {
  await db.execute(sql`
   DROP TABLE "arc_callbacks" CASCADE;`)
}

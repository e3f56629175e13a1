import type { MigrateDownArgs, MigrateUpArgs } from '@payloadcms/db-postgres'
import { sql } from '@payloadcms/db-postgres'

export async function up({ db }: MigrateUpArgs): Promise<void> {
  await db.execute(sql`
   CREATE INDEX "status_gatewayExpiresAt_idx" ON "orders" USING btree ("status","gateway_expires_at");
  CREATE INDEX "status_fulfilledAt_createdAt_idx" ON "orders" USING btree ("status","fulfilled_at","created_at");
  CREATE INDEX "status_sentAt_idx" ON "email_outbox" USING btree ("status","sent_at");
  CREATE INDEX "status_kind_createdAt_idx" ON "email_outbox" USING btree ("status","kind","created_at");`)
}

export async function down({ db }: MigrateDownArgs): Promise<void> {
  await db.execute(sql`
   DROP INDEX "status_gatewayExpiresAt_idx";
  DROP INDEX "status_fulfilledAt_createdAt_idx";
  DROP INDEX "status_sentAt_idx";
  DROP INDEX "status_kind_createdAt_idx";`)
}

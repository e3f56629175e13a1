import { MigrateUpArgs, MigrateDownArgs, sql } from '@payloadcms/db-sqlite'

export async function up({ db, payload, req }: MigrateUpArgs): Promise<void> {
  await db.run(
    sql`CREATE INDEX \`status_gatewayExpiresAt_idx\` ON \`orders\` (\`status\`,\`gateway_expires_at\`);`,
  )
  await db.run(
    sql`CREATE INDEX \`status_fulfilledAt_createdAt_idx\` ON \`orders\` (\`status\`,\`fulfilled_at\`,\`created_at\`);`,
  )
  await db.run(
    sql`CREATE INDEX \`status_sentAt_idx\` ON \`email_outbox\` (\`status\`,\`sent_at\`);`,
  )
  await db.run(
    sql`CREATE INDEX \`status_kind_createdAt_idx\` ON \`email_outbox\` (\`status\`,\`kind\`,\`created_at\`);`,
  )
}

export async function down({ db, payload, req }: MigrateDownArgs): Promise<void> {
  await db.run(sql`DROP INDEX \`status_gatewayExpiresAt_idx\`;`)
  await db.run(sql`DROP INDEX \`status_fulfilledAt_createdAt_idx\`;`)
  await db.run(sql`DROP INDEX \`status_sentAt_idx\`;`)
  await db.run(sql`DROP INDEX \`status_kind_createdAt_idx\`;`)
}

import { MigrateUpArgs, MigrateDownArgs, sql } from '@payloadcms/db-sqlite'

export async function up({ db, payload, req }: MigrateUpArgs): Promise<void> {
  await db.run(
    sql`CREATE INDEX \`queue_completedAt_processing_idx\` ON \`payload_jobs\` (\`queue\`,\`completed_at\`,\`processing\`);`,
  )
}

export async function down({ db, payload, req }: MigrateDownArgs): Promise<void> {
  await db.run(sql`DROP INDEX \`queue_completedAt_processing_idx\`;`)
}

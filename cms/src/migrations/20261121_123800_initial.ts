import { MigrateUpArgs, MigrateDownArgs, sql } from '@payloadcms/db-sqlite'

export async function up({ db, payload, req }: MigrateUpArgs): Promise<void> {
  await db.run(sql`CREATE TABLE \`products\` (
  	\`id\` integer PRIMARY KEY NOT NULL,
  	\`name\` text NOT NULL,
  	\`type\` text DEFAULT 'DIGITAL' NOT NULL,
  	\`price_e_u_r\` numeric NOT NULL,
  	\`total_stock\` numeric DEFAULT 0 NOT NULL,
  	\`current_stock\` numeric DEFAULT 0 NOT NULL,
  	\`short_description\` text,
  	\`is_available\` integer DEFAULT true,
  	\`cover_image_id\` integer,
  	\`digital_file_id\` integer,
  	\`deleted_at\` text,
  	\`updated_at\` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
  	\`created_at\` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
  	FOREIGN KEY (\`cover_image_id\`) REFERENCES \`media\`(\`id\`) ON UPDATE no action ON DELETE set null,
  	FOREIGN KEY (\`digital_file_id\`) REFERENCES \`digital_files\`(\`id\`) ON UPDATE no action ON DELETE set null
  );
  `)
  await db.run(sql`CREATE INDEX \`products_cover_image_idx\` ON \`products\` (\`cover_image_id\`);`)
  await db.run(
    sql`CREATE INDEX \`products_digital_file_idx\` ON \`products\` (\`digital_file_id\`);`,
  )
  await db.run(sql`CREATE INDEX \`products_deleted_at_idx\` ON \`products\` (\`deleted_at\`);`)
  await db.run(sql`CREATE INDEX \`products_updated_at_idx\` ON \`products\` (\`updated_at\`);`)
  await db.run(sql`CREATE INDEX \`products_created_at_idx\` ON \`products\` (\`created_at\`);`)
  await db.run(sql`CREATE TABLE \`orders\` (
  	\`id\` text PRIMARY KEY NOT NULL,
  	\`status\` text DEFAULT 'AWAITING_PAYMENT' NOT NULL,
  	\`product_id\` integer NOT NULL,
  	\`product_name\` text NOT NULL,
  	\`product_type\` text NOT NULL,
  	\`user_email\` text NOT NULL,
  	\`token_address\` text,
  	\`price_at_purchase_u_s_d\` numeric NOT NULL,
  	\`bsv_usd_rate_at_purchase\` numeric NOT NULL,
  	\`amount_satoshi_expected\` numeric NOT NULL,
  	\`amount_satoshi_received\` numeric DEFAULT 0,
  	\`payment_address\` text NOT NULL,
  	\`address_index\` numeric NOT NULL,
  	\`gateway_expires_at\` text NOT NULL,
  	\`payment_txid\` text,
  	\`flags_paid_late\` integer DEFAULT false,
  	\`flags_paid_partial\` integer DEFAULT false,
  	\`flags_paid_over\` integer DEFAULT false,
  	\`download_token_id\` integer,
  	\`last_checked_at\` text,
  	\`paid_at\` text,
  	\`fulfilled_at\` text,
  	\`stock_released_at\` text,
  	\`fulfillment_error\` text,
  	\`shipping_name\` text,
  	\`shipping_address_line1\` text,
  	\`shipping_address_line2\` text,
  	\`shipping_city\` text,
  	\`shipping_state_province\` text,
  	\`shipping_postal_code\` text,
  	\`shipping_country\` text,
  	\`shipping_phone\` text,
  	\`shipping_tracking_number\` text,
  	\`shipped_at\` text,
  	\`updated_at\` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
  	\`created_at\` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
  	FOREIGN KEY (\`product_id\`) REFERENCES \`products\`(\`id\`) ON UPDATE no action ON DELETE set null,
  	FOREIGN KEY (\`download_token_id\`) REFERENCES \`download_tokens\`(\`id\`) ON UPDATE no action ON DELETE set null
  );
  `)
  await db.run(sql`CREATE INDEX \`orders_status_idx\` ON \`orders\` (\`status\`);`)
  await db.run(sql`CREATE INDEX \`orders_product_idx\` ON \`orders\` (\`product_id\`);`)
  await db.run(
    sql`CREATE UNIQUE INDEX \`orders_payment_address_idx\` ON \`orders\` (\`payment_address\`);`,
  )
  await db.run(
    sql`CREATE UNIQUE INDEX \`orders_address_index_idx\` ON \`orders\` (\`address_index\`);`,
  )
  await db.run(
    sql`CREATE INDEX \`orders_gateway_expires_at_idx\` ON \`orders\` (\`gateway_expires_at\`);`,
  )
  await db.run(
    sql`CREATE INDEX \`orders_download_token_idx\` ON \`orders\` (\`download_token_id\`);`,
  )
  await db.run(sql`CREATE INDEX \`orders_updated_at_idx\` ON \`orders\` (\`updated_at\`);`)
  await db.run(sql`CREATE INDEX \`orders_created_at_idx\` ON \`orders\` (\`created_at\`);`)
  await db.run(sql`CREATE TABLE \`payments\` (
  	\`id\` integer PRIMARY KEY NOT NULL,
  	\`outpoint\` text NOT NULL,
  	\`order_id\` text NOT NULL,
  	\`txid\` text NOT NULL,
  	\`vout\` numeric NOT NULL,
  	\`satoshis\` numeric NOT NULL,
  	\`address\` text NOT NULL,
  	\`seen_at\` text NOT NULL,
  	\`confirmed_at\` text,
  	\`block_height\` numeric,
  	\`late\` integer DEFAULT false,
  	\`updated_at\` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
  	\`created_at\` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
  	FOREIGN KEY (\`order_id\`) REFERENCES \`orders\`(\`id\`) ON UPDATE no action ON DELETE set null
  );
  `)
  await db.run(sql`CREATE UNIQUE INDEX \`payments_outpoint_idx\` ON \`payments\` (\`outpoint\`);`)
  await db.run(sql`CREATE INDEX \`payments_order_idx\` ON \`payments\` (\`order_id\`);`)
  await db.run(sql`CREATE INDEX \`payments_txid_idx\` ON \`payments\` (\`txid\`);`)
  await db.run(sql`CREATE INDEX \`payments_updated_at_idx\` ON \`payments\` (\`updated_at\`);`)
  await db.run(sql`CREATE INDEX \`payments_created_at_idx\` ON \`payments\` (\`created_at\`);`)
  await db.run(sql`CREATE TABLE \`download_tokens\` (
  	\`id\` integer PRIMARY KEY NOT NULL,
  	\`token_hash\` text NOT NULL,
  	\`token_sealed\` text NOT NULL,
  	\`order_id\` text NOT NULL,
  	\`product_id\` integer NOT NULL,
  	\`expires_at\` text NOT NULL,
  	\`max_uses\` numeric NOT NULL,
  	\`uses\` numeric DEFAULT 0 NOT NULL,
  	\`updated_at\` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
  	\`created_at\` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
  	FOREIGN KEY (\`order_id\`) REFERENCES \`orders\`(\`id\`) ON UPDATE no action ON DELETE set null,
  	FOREIGN KEY (\`product_id\`) REFERENCES \`products\`(\`id\`) ON UPDATE no action ON DELETE set null
  );
  `)
  await db.run(
    sql`CREATE UNIQUE INDEX \`download_tokens_token_hash_idx\` ON \`download_tokens\` (\`token_hash\`);`,
  )
  await db.run(
    sql`CREATE INDEX \`download_tokens_order_idx\` ON \`download_tokens\` (\`order_id\`);`,
  )
  await db.run(
    sql`CREATE INDEX \`download_tokens_product_idx\` ON \`download_tokens\` (\`product_id\`);`,
  )
  await db.run(
    sql`CREATE INDEX \`download_tokens_updated_at_idx\` ON \`download_tokens\` (\`updated_at\`);`,
  )
  await db.run(
    sql`CREATE INDEX \`download_tokens_created_at_idx\` ON \`download_tokens\` (\`created_at\`);`,
  )
  await db.run(sql`CREATE TABLE \`counters\` (
  	\`id\` integer PRIMARY KEY NOT NULL,
  	\`name\` text NOT NULL,
  	\`value\` numeric DEFAULT 0 NOT NULL,
  	\`updated_at\` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
  	\`created_at\` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
  );
  `)
  await db.run(sql`CREATE UNIQUE INDEX \`counters_name_idx\` ON \`counters\` (\`name\`);`)
  await db.run(sql`CREATE INDEX \`counters_updated_at_idx\` ON \`counters\` (\`updated_at\`);`)
  await db.run(sql`CREATE INDEX \`counters_created_at_idx\` ON \`counters\` (\`created_at\`);`)
  await db.run(sql`CREATE TABLE \`email_outbox\` (
  	\`id\` integer PRIMARY KEY NOT NULL,
  	\`key\` text NOT NULL,
  	\`kind\` text NOT NULL,
  	\`order_id\` text NOT NULL,
  	\`to\` text NOT NULL,
  	\`status\` text DEFAULT 'pending' NOT NULL,
  	\`attempts\` numeric DEFAULT 0 NOT NULL,
  	\`next_attempt_at\` text NOT NULL,
  	\`last_error\` text,
  	\`sent_at\` text,
  	\`updated_at\` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
  	\`created_at\` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
  	FOREIGN KEY (\`order_id\`) REFERENCES \`orders\`(\`id\`) ON UPDATE no action ON DELETE set null
  );
  `)
  await db.run(sql`CREATE UNIQUE INDEX \`email_outbox_key_idx\` ON \`email_outbox\` (\`key\`);`)
  await db.run(sql`CREATE INDEX \`email_outbox_order_idx\` ON \`email_outbox\` (\`order_id\`);`)
  await db.run(sql`CREATE INDEX \`email_outbox_status_idx\` ON \`email_outbox\` (\`status\`);`)
  await db.run(
    sql`CREATE INDEX \`email_outbox_next_attempt_at_idx\` ON \`email_outbox\` (\`next_attempt_at\`);`,
  )
  await db.run(
    sql`CREATE INDEX \`email_outbox_updated_at_idx\` ON \`email_outbox\` (\`updated_at\`);`,
  )
  await db.run(
    sql`CREATE INDEX \`email_outbox_created_at_idx\` ON \`email_outbox\` (\`created_at\`);`,
  )
  await db.run(sql`CREATE TABLE \`media\` (
  	\`id\` integer PRIMARY KEY NOT NULL,
  	\`alt\` text,
  	\`updated_at\` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
  	\`created_at\` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
  	\`url\` text,
  	\`thumbnail_u_r_l\` text,
  	\`filename\` text,
  	\`mime_type\` text,
  	\`filesize\` numeric,
  	\`width\` numeric,
  	\`height\` numeric,
  	\`focal_x\` numeric,
  	\`focal_y\` numeric
  );
  `)
  await db.run(sql`CREATE INDEX \`media_updated_at_idx\` ON \`media\` (\`updated_at\`);`)
  await db.run(sql`CREATE INDEX \`media_created_at_idx\` ON \`media\` (\`created_at\`);`)
  await db.run(sql`CREATE UNIQUE INDEX \`media_filename_idx\` ON \`media\` (\`filename\`);`)
  await db.run(sql`CREATE TABLE \`digital_files\` (
  	\`id\` integer PRIMARY KEY NOT NULL,
  	\`updated_at\` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
  	\`created_at\` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
  	\`url\` text,
  	\`thumbnail_u_r_l\` text,
  	\`filename\` text,
  	\`mime_type\` text,
  	\`filesize\` numeric,
  	\`width\` numeric,
  	\`height\` numeric,
  	\`focal_x\` numeric,
  	\`focal_y\` numeric
  );
  `)
  await db.run(
    sql`CREATE INDEX \`digital_files_updated_at_idx\` ON \`digital_files\` (\`updated_at\`);`,
  )
  await db.run(
    sql`CREATE INDEX \`digital_files_created_at_idx\` ON \`digital_files\` (\`created_at\`);`,
  )
  await db.run(
    sql`CREATE UNIQUE INDEX \`digital_files_filename_idx\` ON \`digital_files\` (\`filename\`);`,
  )
  await db.run(sql`CREATE TABLE \`documents\` (
  	\`id\` integer PRIMARY KEY NOT NULL,
  	\`title\` text,
  	\`updated_at\` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
  	\`created_at\` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
  	\`url\` text,
  	\`thumbnail_u_r_l\` text,
  	\`filename\` text,
  	\`mime_type\` text,
  	\`filesize\` numeric,
  	\`width\` numeric,
  	\`height\` numeric,
  	\`focal_x\` numeric,
  	\`focal_y\` numeric
  );
  `)
  await db.run(sql`CREATE INDEX \`documents_updated_at_idx\` ON \`documents\` (\`updated_at\`);`)
  await db.run(sql`CREATE INDEX \`documents_created_at_idx\` ON \`documents\` (\`created_at\`);`)
  await db.run(sql`CREATE UNIQUE INDEX \`documents_filename_idx\` ON \`documents\` (\`filename\`);`)
  await db.run(sql`CREATE TABLE \`papers\` (
  	\`id\` integer PRIMARY KEY NOT NULL,
  	\`title\` text NOT NULL,
  	\`description\` text NOT NULL,
  	\`order\` numeric DEFAULT 0 NOT NULL,
  	\`en_file_id\` integer,
  	\`en_link\` text DEFAULT '#',
  	\`en_certificate_link\` text DEFAULT '#',
  	\`it_file_id\` integer,
  	\`it_link\` text DEFAULT '#',
  	\`it_certificate_link\` text DEFAULT '#',
  	\`updated_at\` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
  	\`created_at\` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
  	FOREIGN KEY (\`en_file_id\`) REFERENCES \`documents\`(\`id\`) ON UPDATE no action ON DELETE set null,
  	FOREIGN KEY (\`it_file_id\`) REFERENCES \`documents\`(\`id\`) ON UPDATE no action ON DELETE set null
  );
  `)
  await db.run(sql`CREATE INDEX \`papers_order_idx\` ON \`papers\` (\`order\`);`)
  await db.run(sql`CREATE INDEX \`papers_en_en_file_idx\` ON \`papers\` (\`en_file_id\`);`)
  await db.run(sql`CREATE INDEX \`papers_it_it_file_idx\` ON \`papers\` (\`it_file_id\`);`)
  await db.run(sql`CREATE INDEX \`papers_updated_at_idx\` ON \`papers\` (\`updated_at\`);`)
  await db.run(sql`CREATE INDEX \`papers_created_at_idx\` ON \`papers\` (\`created_at\`);`)
  await db.run(sql`CREATE TABLE \`timeline\` (
  	\`id\` integer PRIMARY KEY NOT NULL,
  	\`date\` text NOT NULL,
  	\`title\` text NOT NULL,
  	\`description\` text NOT NULL,
  	\`status\` text DEFAULT 'upcoming' NOT NULL,
  	\`order\` numeric DEFAULT 0 NOT NULL,
  	\`updated_at\` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
  	\`created_at\` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
  );
  `)
  await db.run(sql`CREATE INDEX \`timeline_order_idx\` ON \`timeline\` (\`order\`);`)
  await db.run(sql`CREATE INDEX \`timeline_updated_at_idx\` ON \`timeline\` (\`updated_at\`);`)
  await db.run(sql`CREATE INDEX \`timeline_created_at_idx\` ON \`timeline\` (\`created_at\`);`)
  await db.run(sql`CREATE TABLE \`staff_sessions\` (
  	\`_order\` integer NOT NULL,
  	\`_parent_id\` integer NOT NULL,
  	\`id\` text PRIMARY KEY NOT NULL,
  	\`created_at\` text,
  	\`expires_at\` text NOT NULL,
  	FOREIGN KEY (\`_parent_id\`) REFERENCES \`staff\`(\`id\`) ON UPDATE no action ON DELETE cascade
  );
  `)
  await db.run(sql`CREATE INDEX \`staff_sessions_order_idx\` ON \`staff_sessions\` (\`_order\`);`)
  await db.run(
    sql`CREATE INDEX \`staff_sessions_parent_id_idx\` ON \`staff_sessions\` (\`_parent_id\`);`,
  )
  await db.run(sql`CREATE TABLE \`staff\` (
  	\`id\` integer PRIMARY KEY NOT NULL,
  	\`name\` text,
  	\`role\` text DEFAULT 'editor' NOT NULL,
  	\`updated_at\` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
  	\`created_at\` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
  	\`email\` text NOT NULL,
  	\`reset_password_token\` text,
  	\`reset_password_expiration\` text,
  	\`salt\` text,
  	\`hash\` text,
  	\`reset_password_requested_at\` text,
  	\`login_attempts\` numeric DEFAULT 0,
  	\`lock_until\` text
  );
  `)
  await db.run(sql`CREATE INDEX \`staff_updated_at_idx\` ON \`staff\` (\`updated_at\`);`)
  await db.run(sql`CREATE INDEX \`staff_created_at_idx\` ON \`staff\` (\`created_at\`);`)
  await db.run(sql`CREATE UNIQUE INDEX \`staff_email_idx\` ON \`staff\` (\`email\`);`)
  await db.run(sql`CREATE TABLE \`payload_kv\` (
  	\`id\` integer PRIMARY KEY NOT NULL,
  	\`key\` text NOT NULL,
  	\`data\` text NOT NULL
  );
  `)
  await db.run(sql`CREATE UNIQUE INDEX \`payload_kv_key_idx\` ON \`payload_kv\` (\`key\`);`)
  await db.run(sql`CREATE TABLE \`payload_locked_documents\` (
  	\`id\` integer PRIMARY KEY NOT NULL,
  	\`global_slug\` text,
  	\`updated_at\` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
  	\`created_at\` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
  );
  `)
  await db.run(
    sql`CREATE INDEX \`payload_locked_documents_global_slug_idx\` ON \`payload_locked_documents\` (\`global_slug\`);`,
  )
  await db.run(
    sql`CREATE INDEX \`payload_locked_documents_updated_at_idx\` ON \`payload_locked_documents\` (\`updated_at\`);`,
  )
  await db.run(
    sql`CREATE INDEX \`payload_locked_documents_created_at_idx\` ON \`payload_locked_documents\` (\`created_at\`);`,
  )
  await db.run(sql`CREATE TABLE \`payload_locked_documents_rels\` (
  	\`id\` integer PRIMARY KEY NOT NULL,
  	\`order\` integer,
  	\`parent_id\` integer NOT NULL,
  	\`path\` text NOT NULL,
  	\`products_id\` integer,
  	\`orders_id\` text,
  	\`payments_id\` integer,
  	\`download_tokens_id\` integer,
  	\`counters_id\` integer,
  	\`email_outbox_id\` integer,
  	\`media_id\` integer,
  	\`digital_files_id\` integer,
  	\`documents_id\` integer,
  	\`papers_id\` integer,
  	\`timeline_id\` integer,
  	\`staff_id\` integer,
  	FOREIGN KEY (\`parent_id\`) REFERENCES \`payload_locked_documents\`(\`id\`) ON UPDATE no action ON DELETE cascade,
  	FOREIGN KEY (\`products_id\`) REFERENCES \`products\`(\`id\`) ON UPDATE no action ON DELETE cascade,
  	FOREIGN KEY (\`orders_id\`) REFERENCES \`orders\`(\`id\`) ON UPDATE no action ON DELETE cascade,
  	FOREIGN KEY (\`payments_id\`) REFERENCES \`payments\`(\`id\`) ON UPDATE no action ON DELETE cascade,
  	FOREIGN KEY (\`download_tokens_id\`) REFERENCES \`download_tokens\`(\`id\`) ON UPDATE no action ON DELETE cascade,
  	FOREIGN KEY (\`counters_id\`) REFERENCES \`counters\`(\`id\`) ON UPDATE no action ON DELETE cascade,
  	FOREIGN KEY (\`email_outbox_id\`) REFERENCES \`email_outbox\`(\`id\`) ON UPDATE no action ON DELETE cascade,
  	FOREIGN KEY (\`media_id\`) REFERENCES \`media\`(\`id\`) ON UPDATE no action ON DELETE cascade,
  	FOREIGN KEY (\`digital_files_id\`) REFERENCES \`digital_files\`(\`id\`) ON UPDATE no action ON DELETE cascade,
  	FOREIGN KEY (\`documents_id\`) REFERENCES \`documents\`(\`id\`) ON UPDATE no action ON DELETE cascade,
  	FOREIGN KEY (\`papers_id\`) REFERENCES \`papers\`(\`id\`) ON UPDATE no action ON DELETE cascade,
  	FOREIGN KEY (\`timeline_id\`) REFERENCES \`timeline\`(\`id\`) ON UPDATE no action ON DELETE cascade,
  	FOREIGN KEY (\`staff_id\`) REFERENCES \`staff\`(\`id\`) ON UPDATE no action ON DELETE cascade
  );
  `)
  await db.run(
    sql`CREATE INDEX \`payload_locked_documents_rels_order_idx\` ON \`payload_locked_documents_rels\` (\`order\`);`,
  )
  await db.run(
    sql`CREATE INDEX \`payload_locked_documents_rels_parent_idx\` ON \`payload_locked_documents_rels\` (\`parent_id\`);`,
  )
  await db.run(
    sql`CREATE INDEX \`payload_locked_documents_rels_path_idx\` ON \`payload_locked_documents_rels\` (\`path\`);`,
  )
  await db.run(
    sql`CREATE INDEX \`payload_locked_documents_rels_products_id_idx\` ON \`payload_locked_documents_rels\` (\`products_id\`);`,
  )
  await db.run(
    sql`CREATE INDEX \`payload_locked_documents_rels_orders_id_idx\` ON \`payload_locked_documents_rels\` (\`orders_id\`);`,
  )
  await db.run(
    sql`CREATE INDEX \`payload_locked_documents_rels_payments_id_idx\` ON \`payload_locked_documents_rels\` (\`payments_id\`);`,
  )
  await db.run(
    sql`CREATE INDEX \`payload_locked_documents_rels_download_tokens_id_idx\` ON \`payload_locked_documents_rels\` (\`download_tokens_id\`);`,
  )
  await db.run(
    sql`CREATE INDEX \`payload_locked_documents_rels_counters_id_idx\` ON \`payload_locked_documents_rels\` (\`counters_id\`);`,
  )
  await db.run(
    sql`CREATE INDEX \`payload_locked_documents_rels_email_outbox_id_idx\` ON \`payload_locked_documents_rels\` (\`email_outbox_id\`);`,
  )
  await db.run(
    sql`CREATE INDEX \`payload_locked_documents_rels_media_id_idx\` ON \`payload_locked_documents_rels\` (\`media_id\`);`,
  )
  await db.run(
    sql`CREATE INDEX \`payload_locked_documents_rels_digital_files_id_idx\` ON \`payload_locked_documents_rels\` (\`digital_files_id\`);`,
  )
  await db.run(
    sql`CREATE INDEX \`payload_locked_documents_rels_documents_id_idx\` ON \`payload_locked_documents_rels\` (\`documents_id\`);`,
  )
  await db.run(
    sql`CREATE INDEX \`payload_locked_documents_rels_papers_id_idx\` ON \`payload_locked_documents_rels\` (\`papers_id\`);`,
  )
  await db.run(
    sql`CREATE INDEX \`payload_locked_documents_rels_timeline_id_idx\` ON \`payload_locked_documents_rels\` (\`timeline_id\`);`,
  )
  await db.run(
    sql`CREATE INDEX \`payload_locked_documents_rels_staff_id_idx\` ON \`payload_locked_documents_rels\` (\`staff_id\`);`,
  )
  await db.run(sql`CREATE TABLE \`payload_preferences\` (
  	\`id\` integer PRIMARY KEY NOT NULL,
  	\`key\` text,
  	\`value\` text,
  	\`updated_at\` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
  	\`created_at\` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
  );
  `)
  await db.run(
    sql`CREATE INDEX \`payload_preferences_key_idx\` ON \`payload_preferences\` (\`key\`);`,
  )
  await db.run(
    sql`CREATE INDEX \`payload_preferences_updated_at_idx\` ON \`payload_preferences\` (\`updated_at\`);`,
  )
  await db.run(
    sql`CREATE INDEX \`payload_preferences_created_at_idx\` ON \`payload_preferences\` (\`created_at\`);`,
  )
  await db.run(sql`CREATE TABLE \`payload_preferences_rels\` (
  	\`id\` integer PRIMARY KEY NOT NULL,
  	\`order\` integer,
  	\`parent_id\` integer NOT NULL,
  	\`path\` text NOT NULL,
  	\`staff_id\` integer,
  	FOREIGN KEY (\`parent_id\`) REFERENCES \`payload_preferences\`(\`id\`) ON UPDATE no action ON DELETE cascade,
  	FOREIGN KEY (\`staff_id\`) REFERENCES \`staff\`(\`id\`) ON UPDATE no action ON DELETE cascade
  );
  `)
  await db.run(
    sql`CREATE INDEX \`payload_preferences_rels_order_idx\` ON \`payload_preferences_rels\` (\`order\`);`,
  )
  await db.run(
    sql`CREATE INDEX \`payload_preferences_rels_parent_idx\` ON \`payload_preferences_rels\` (\`parent_id\`);`,
  )
  await db.run(
    sql`CREATE INDEX \`payload_preferences_rels_path_idx\` ON \`payload_preferences_rels\` (\`path\`);`,
  )
  await db.run(
    sql`CREATE INDEX \`payload_preferences_rels_staff_id_idx\` ON \`payload_preferences_rels\` (\`staff_id\`);`,
  )
  await db.run(sql`CREATE TABLE \`payload_migrations\` (
  	\`id\` integer PRIMARY KEY NOT NULL,
  	\`name\` text,
  	\`batch\` numeric,
  	\`updated_at\` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
  	\`created_at\` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
  );
  `)
  await db.run(
    sql`CREATE INDEX \`payload_migrations_updated_at_idx\` ON \`payload_migrations\` (\`updated_at\`);`,
  )
  await db.run(
    sql`CREATE INDEX \`payload_migrations_created_at_idx\` ON \`payload_migrations\` (\`created_at\`);`,
  )
  await db.run(sql`CREATE TABLE \`legal\` (
  	\`id\` integer PRIMARY KEY NOT NULL,
  	\`terms_of_use\` text NOT NULL,
  	\`privacy_policy\` text NOT NULL,
  	\`updated_at\` text,
  	\`created_at\` text
  );
  `)
  await db.run(sql`CREATE TABLE \`landing_faqs_items\` (
  	\`_order\` integer NOT NULL,
  	\`_parent_id\` integer NOT NULL,
  	\`id\` text PRIMARY KEY NOT NULL,
  	\`question\` text NOT NULL,
  	\`answer\` text NOT NULL,
  	FOREIGN KEY (\`_parent_id\`) REFERENCES \`landing_faqs\`(\`id\`) ON UPDATE no action ON DELETE cascade
  );
  `)
  await db.run(
    sql`CREATE INDEX \`landing_faqs_items_order_idx\` ON \`landing_faqs_items\` (\`_order\`);`,
  )
  await db.run(
    sql`CREATE INDEX \`landing_faqs_items_parent_id_idx\` ON \`landing_faqs_items\` (\`_parent_id\`);`,
  )
  await db.run(sql`CREATE TABLE \`landing_faqs\` (
  	\`id\` integer PRIMARY KEY NOT NULL,
  	\`updated_at\` text,
  	\`created_at\` text
  );
  `)
  await db.run(sql`CREATE TABLE \`proofs_tools_tools_manuals\` (
  	\`_order\` integer NOT NULL,
  	\`_parent_id\` text NOT NULL,
  	\`id\` text PRIMARY KEY NOT NULL,
  	\`language\` text NOT NULL,
  	\`link\` text DEFAULT '#',
  	FOREIGN KEY (\`_parent_id\`) REFERENCES \`proofs_tools_tools\`(\`id\`) ON UPDATE no action ON DELETE cascade
  );
  `)
  await db.run(
    sql`CREATE INDEX \`proofs_tools_tools_manuals_order_idx\` ON \`proofs_tools_tools_manuals\` (\`_order\`);`,
  )
  await db.run(
    sql`CREATE INDEX \`proofs_tools_tools_manuals_parent_id_idx\` ON \`proofs_tools_tools_manuals\` (\`_parent_id\`);`,
  )
  await db.run(sql`CREATE TABLE \`proofs_tools_tools\` (
  	\`_order\` integer NOT NULL,
  	\`_parent_id\` integer NOT NULL,
  	\`id\` text PRIMARY KEY NOT NULL,
  	\`name\` text NOT NULL,
  	\`description\` text NOT NULL,
  	\`link\` text DEFAULT '#',
  	FOREIGN KEY (\`_parent_id\`) REFERENCES \`proofs_tools\`(\`id\`) ON UPDATE no action ON DELETE cascade
  );
  `)
  await db.run(
    sql`CREATE INDEX \`proofs_tools_tools_order_idx\` ON \`proofs_tools_tools\` (\`_order\`);`,
  )
  await db.run(
    sql`CREATE INDEX \`proofs_tools_tools_parent_id_idx\` ON \`proofs_tools_tools\` (\`_parent_id\`);`,
  )
  await db.run(sql`CREATE TABLE \`proofs_tools\` (
  	\`id\` integer PRIMARY KEY NOT NULL,
  	\`updated_at\` text,
  	\`created_at\` text
  );
  `)
  await db.run(sql`CREATE TABLE \`recommended_wallets_wallets\` (
  	\`_order\` integer NOT NULL,
  	\`_parent_id\` integer NOT NULL,
  	\`id\` text PRIMARY KEY NOT NULL,
  	\`name\` text NOT NULL,
  	\`description\` text NOT NULL,
  	\`link\` text NOT NULL,
  	FOREIGN KEY (\`_parent_id\`) REFERENCES \`recommended_wallets\`(\`id\`) ON UPDATE no action ON DELETE cascade
  );
  `)
  await db.run(
    sql`CREATE INDEX \`recommended_wallets_wallets_order_idx\` ON \`recommended_wallets_wallets\` (\`_order\`);`,
  )
  await db.run(
    sql`CREATE INDEX \`recommended_wallets_wallets_parent_id_idx\` ON \`recommended_wallets_wallets\` (\`_parent_id\`);`,
  )
  await db.run(sql`CREATE TABLE \`recommended_wallets\` (
  	\`id\` integer PRIMARY KEY NOT NULL,
  	\`updated_at\` text,
  	\`created_at\` text
  );
  `)
  await db.run(sql`CREATE TABLE \`papers_page\` (
  	\`id\` integer PRIMARY KEY NOT NULL,
  	\`public_key_id\` integer,
  	\`author_links_url\` text DEFAULT '#',
  	\`updated_at\` text,
  	\`created_at\` text,
  	FOREIGN KEY (\`public_key_id\`) REFERENCES \`documents\`(\`id\`) ON UPDATE no action ON DELETE set null
  );
  `)
  await db.run(
    sql`CREATE INDEX \`papers_page_public_key_idx\` ON \`papers_page\` (\`public_key_id\`);`,
  )
}

export async function down({ db, payload, req }: MigrateDownArgs): Promise<void> {
  await db.run(sql`DROP TABLE \`products\`;`)
  await db.run(sql`DROP TABLE \`orders\`;`)
  await db.run(sql`DROP TABLE \`payments\`;`)
  await db.run(sql`DROP TABLE \`download_tokens\`;`)
  await db.run(sql`DROP TABLE \`counters\`;`)
  await db.run(sql`DROP TABLE \`email_outbox\`;`)
  await db.run(sql`DROP TABLE \`media\`;`)
  await db.run(sql`DROP TABLE \`digital_files\`;`)
  await db.run(sql`DROP TABLE \`documents\`;`)
  await db.run(sql`DROP TABLE \`papers\`;`)
  await db.run(sql`DROP TABLE \`timeline\`;`)
  await db.run(sql`DROP TABLE \`staff_sessions\`;`)
  await db.run(sql`DROP TABLE \`staff\`;`)
  await db.run(sql`DROP TABLE \`payload_kv\`;`)
  await db.run(sql`DROP TABLE \`payload_locked_documents\`;`)
  await db.run(sql`DROP TABLE \`payload_locked_documents_rels\`;`)
  await db.run(sql`DROP TABLE \`payload_preferences\`;`)
  await db.run(sql`DROP TABLE \`payload_preferences_rels\`;`)
  await db.run(sql`DROP TABLE \`payload_migrations\`;`)
  await db.run(sql`DROP TABLE \`legal\`;`)
  await db.run(sql`DROP TABLE \`landing_faqs_items\`;`)
  await db.run(sql`DROP TABLE \`landing_faqs\`;`)
  await db.run(sql`DROP TABLE \`proofs_tools_tools_manuals\`;`)
  await db.run(sql`DROP TABLE \`proofs_tools_tools\`;`)
  await db.run(sql`DROP TABLE \`proofs_tools\`;`)
  await db.run(sql`DROP TABLE \`recommended_wallets_wallets\`;`)
  await db.run(sql`DROP TABLE \`recommended_wallets\`;`)
  await db.run(sql`DROP TABLE \`papers_page\`;`)
}

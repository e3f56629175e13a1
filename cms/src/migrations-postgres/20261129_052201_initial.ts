import type { MigrateDownArgs, MigrateUpArgs } from '@payloadcms/db-postgres'
import { sql } from '@payloadcms/db-postgres'

export async function up({ db }: MigrateUpArgs): Promise<void> {
  await db.execute(sql`
   CREATE TYPE "public"."enum_products_type" AS ENUM('DIGITAL', 'PHYSICAL');
  CREATE TYPE "public"."enum_orders_history_action" AS ENUM('status', 'mark-paid', 'cancel', 'refund', 'settle', 'recheck', 'tracking', 'download-link');
  CREATE TYPE "public"."enum_orders_history_from_status" AS ENUM('AWAITING_PAYMENT', 'PAYMENT_DETECTED', 'UNDERPAID', 'PAID', 'PROCESSING_DELIVERY', 'SHIPPED', 'EXPIRED', 'ERROR_FULFILLMENT', 'CANCELLED');
  CREATE TYPE "public"."enum_orders_history_to_status" AS ENUM('AWAITING_PAYMENT', 'PAYMENT_DETECTED', 'UNDERPAID', 'PAID', 'PROCESSING_DELIVERY', 'SHIPPED', 'EXPIRED', 'ERROR_FULFILLMENT', 'CANCELLED');
  CREATE TYPE "public"."enum_orders_status" AS ENUM('AWAITING_PAYMENT', 'PAYMENT_DETECTED', 'UNDERPAID', 'PAID', 'PROCESSING_DELIVERY', 'SHIPPED', 'EXPIRED', 'ERROR_FULFILLMENT', 'CANCELLED');
  CREATE TYPE "public"."enum_orders_product_type" AS ENUM('DIGITAL', 'PHYSICAL');
  CREATE TYPE "public"."enum_email_outbox_kind" AS ENUM('order-created', 'order-paid', 'order-shipped', 'owner-paid', 'owner-settle', 'owner-chain-down', 'download-links');
  CREATE TYPE "public"."enum_email_outbox_status" AS ENUM('pending', 'sent', 'failed');
  CREATE TYPE "public"."enum_webhook_deliveries_event" AS ENUM('OrderPaid', 'OrderNeedsSettling', 'ChainSourceDown');
  CREATE TYPE "public"."enum_webhook_deliveries_status" AS ENUM('pending', 'sent', 'failed');
  CREATE TYPE "public"."enum_timeline_status" AS ENUM('completed', 'upcoming');
  CREATE TYPE "public"."enum_staff_role" AS ENUM('admin', 'editor');
  CREATE TYPE "public"."enum_payload_jobs_log_task_slug" AS ENUM('inline', 'fulfil-order', 'send-email', 'deliver-webhook', 'resend-download-links');
  CREATE TYPE "public"."enum_payload_jobs_log_state" AS ENUM('failed', 'succeeded');
  CREATE TYPE "public"."enum_payload_jobs_task_slug" AS ENUM('inline', 'fulfil-order', 'send-email', 'deliver-webhook', 'resend-download-links');
  CREATE TYPE "public"."enum_proofs_tools_tools_manuals_language" AS ENUM('en', 'it', 'fr', 'es');
  CREATE TABLE "products" (
  	"id" serial PRIMARY KEY NOT NULL,
  	"name" varchar NOT NULL,
  	"type" "enum_products_type" DEFAULT 'DIGITAL' NOT NULL,
  	"price_e_u_r" numeric NOT NULL,
  	"shipping_cost_e_u_r" numeric DEFAULT 0,
  	"total_stock" numeric DEFAULT 0 NOT NULL,
  	"current_stock" numeric DEFAULT 0 NOT NULL,
  	"short_description" varchar,
  	"is_available" boolean DEFAULT true,
  	"cover_image_id" integer,
  	"digital_file_id" integer,
  	"deleted_at" timestamp(3) with time zone,
  	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL
  );
  
  CREATE TABLE "orders_history" (
  	"_order" integer NOT NULL,
  	"_parent_id" varchar NOT NULL,
  	"id" varchar PRIMARY KEY NOT NULL,
  	"at" timestamp(3) with time zone NOT NULL,
  	"by" varchar NOT NULL,
  	"action" "enum_orders_history_action" NOT NULL,
  	"from_status" "enum_orders_history_from_status",
  	"to_status" "enum_orders_history_to_status",
  	"note" varchar,
  	"txid" varchar
  );
  
  CREATE TABLE "orders" (
  	"id" varchar PRIMARY KEY NOT NULL,
  	"status" "enum_orders_status" DEFAULT 'AWAITING_PAYMENT' NOT NULL,
  	"product_id" integer NOT NULL,
  	"product_name" varchar NOT NULL,
  	"product_type" "enum_orders_product_type" NOT NULL,
  	"user_email" varchar NOT NULL,
  	"client_key" varchar,
  	"token_address" varchar,
  	"price_at_purchase_u_s_d" numeric NOT NULL,
  	"shipping_cost_e_u_r" numeric,
  	"bsv_usd_rate_at_purchase" numeric NOT NULL,
  	"amount_satoshi_expected" numeric NOT NULL,
  	"amount_satoshi_received" numeric DEFAULT 0,
  	"payment_address" varchar NOT NULL,
  	"address_index" numeric NOT NULL,
  	"gateway_expires_at" timestamp(3) with time zone NOT NULL,
  	"payment_txid" varchar,
  	"flags_paid_late" boolean DEFAULT false,
  	"flags_paid_partial" boolean DEFAULT false,
  	"flags_paid_over" boolean DEFAULT false,
  	"flags_paid_invalid" boolean DEFAULT false,
  	"settled_at" timestamp(3) with time zone,
  	"recheck_requested_at" timestamp(3) with time zone,
  	"download_token_id" integer,
  	"last_checked_at" timestamp(3) with time zone,
  	"paid_at" timestamp(3) with time zone,
  	"fulfilled_at" timestamp(3) with time zone,
  	"stock_released_at" timestamp(3) with time zone,
  	"fulfillment_error" varchar,
  	"attention" varchar,
  	"attention_since" timestamp(3) with time zone,
  	"shipping_name" varchar,
  	"shipping_address_line1" varchar,
  	"shipping_address_line2" varchar,
  	"shipping_city" varchar,
  	"shipping_state_province" varchar,
  	"shipping_postal_code" varchar,
  	"shipping_country" varchar,
  	"shipping_phone" varchar,
  	"shipping_tracking_number" varchar,
  	"shipped_at" timestamp(3) with time zone,
  	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL
  );
  
  CREATE TABLE "payments" (
  	"id" serial PRIMARY KEY NOT NULL,
  	"outpoint" varchar NOT NULL,
  	"order_id" varchar NOT NULL,
  	"txid" varchar NOT NULL,
  	"vout" numeric NOT NULL,
  	"satoshis" numeric NOT NULL,
  	"address" varchar NOT NULL,
  	"seen_at" timestamp(3) with time zone NOT NULL,
  	"confirmed_at" timestamp(3) with time zone,
  	"block_height" numeric,
  	"invalidated_at" timestamp(3) with time zone,
  	"invalid_reason" varchar,
  	"spends" jsonb,
  	"missing_since" timestamp(3) with time zone,
  	"missing_looks" numeric DEFAULT 0,
  	"late" boolean DEFAULT false,
  	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL
  );
  
  CREATE TABLE "download_tokens" (
  	"id" serial PRIMARY KEY NOT NULL,
  	"token_hash" varchar NOT NULL,
  	"token_sealed" varchar NOT NULL,
  	"order_id" varchar NOT NULL,
  	"product_id" integer NOT NULL,
  	"expires_at" timestamp(3) with time zone NOT NULL,
  	"max_uses" numeric NOT NULL,
  	"uses" numeric DEFAULT 0 NOT NULL,
  	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL
  );
  
  CREATE TABLE "counters" (
  	"id" serial PRIMARY KEY NOT NULL,
  	"name" varchar NOT NULL,
  	"value" numeric DEFAULT 0 NOT NULL,
  	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL
  );
  
  CREATE TABLE "leases" (
  	"id" serial PRIMARY KEY NOT NULL,
  	"name" varchar NOT NULL,
  	"holder" varchar NOT NULL,
  	"epoch" numeric DEFAULT 1 NOT NULL,
  	"expires_at" timestamp(3) with time zone NOT NULL,
  	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL
  );
  
  CREATE TABLE "rate_limits" (
  	"id" serial PRIMARY KEY NOT NULL,
  	"key" varchar NOT NULL,
  	"hits" numeric DEFAULT 0 NOT NULL,
  	"reset_at" timestamp(3) with time zone NOT NULL,
  	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL
  );
  
  CREATE TABLE "chain_health" (
  	"id" serial PRIMARY KEY NOT NULL,
  	"name" varchar NOT NULL,
  	"stats" jsonb,
  	"stats_at" timestamp(3) with time zone,
  	"last_look_ok_at" timestamp(3) with time zone,
  	"idle_at" timestamp(3) with time zone,
  	"alerted_at" timestamp(3) with time zone,
  	"outage_since" timestamp(3) with time zone,
  	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL
  );
  
  CREATE TABLE "email_outbox" (
  	"id" serial PRIMARY KEY NOT NULL,
  	"key" varchar NOT NULL,
  	"kind" "enum_email_outbox_kind" NOT NULL,
  	"order_id" varchar,
  	"to" varchar NOT NULL,
  	"status" "enum_email_outbox_status" DEFAULT 'pending' NOT NULL,
  	"attempts" numeric DEFAULT 0 NOT NULL,
  	"last_error" varchar,
  	"sent_at" timestamp(3) with time zone,
  	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL
  );
  
  CREATE TABLE "email_outbox_rels" (
  	"id" serial PRIMARY KEY NOT NULL,
  	"order" integer,
  	"parent_id" integer NOT NULL,
  	"path" varchar NOT NULL,
  	"download_tokens_id" integer
  );
  
  CREATE TABLE "webhook_deliveries" (
  	"id" serial PRIMARY KEY NOT NULL,
  	"key" varchar NOT NULL,
  	"delivery_id" varchar NOT NULL,
  	"event" "enum_webhook_deliveries_event" NOT NULL,
  	"order_id" varchar,
  	"body" varchar NOT NULL,
  	"status" "enum_webhook_deliveries_status" DEFAULT 'pending' NOT NULL,
  	"attempts" numeric DEFAULT 0 NOT NULL,
  	"last_status" numeric,
  	"last_error" varchar,
  	"sent_at" timestamp(3) with time zone,
  	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL
  );
  
  CREATE TABLE "media" (
  	"id" serial PRIMARY KEY NOT NULL,
  	"alt" varchar,
  	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  	"url" varchar,
  	"thumbnail_u_r_l" varchar,
  	"filename" varchar,
  	"mime_type" varchar,
  	"filesize" numeric,
  	"width" numeric,
  	"height" numeric,
  	"focal_x" numeric,
  	"focal_y" numeric
  );
  
  CREATE TABLE "digital_files" (
  	"id" serial PRIMARY KEY NOT NULL,
  	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  	"url" varchar,
  	"thumbnail_u_r_l" varchar,
  	"filename" varchar,
  	"mime_type" varchar,
  	"filesize" numeric,
  	"width" numeric,
  	"height" numeric,
  	"focal_x" numeric,
  	"focal_y" numeric
  );
  
  CREATE TABLE "documents" (
  	"id" serial PRIMARY KEY NOT NULL,
  	"title" varchar,
  	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  	"url" varchar,
  	"thumbnail_u_r_l" varchar,
  	"filename" varchar,
  	"mime_type" varchar,
  	"filesize" numeric,
  	"width" numeric,
  	"height" numeric,
  	"focal_x" numeric,
  	"focal_y" numeric
  );
  
  CREATE TABLE "papers" (
  	"id" serial PRIMARY KEY NOT NULL,
  	"title" varchar NOT NULL,
  	"description" varchar NOT NULL,
  	"order" numeric DEFAULT 0 NOT NULL,
  	"en_file_id" integer,
  	"en_link" varchar DEFAULT '#',
  	"en_certificate_link" varchar DEFAULT '#',
  	"it_file_id" integer,
  	"it_link" varchar DEFAULT '#',
  	"it_certificate_link" varchar DEFAULT '#',
  	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL
  );
  
  CREATE TABLE "timeline" (
  	"id" serial PRIMARY KEY NOT NULL,
  	"date" varchar NOT NULL,
  	"title" varchar NOT NULL,
  	"description" varchar NOT NULL,
  	"status" "enum_timeline_status" DEFAULT 'upcoming' NOT NULL,
  	"order" numeric DEFAULT 0 NOT NULL,
  	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL
  );
  
  CREATE TABLE "staff_sessions" (
  	"_order" integer NOT NULL,
  	"_parent_id" integer NOT NULL,
  	"id" varchar PRIMARY KEY NOT NULL,
  	"created_at" timestamp(3) with time zone,
  	"expires_at" timestamp(3) with time zone NOT NULL
  );
  
  CREATE TABLE "staff" (
  	"id" serial PRIMARY KEY NOT NULL,
  	"name" varchar,
  	"role" "enum_staff_role" DEFAULT 'editor' NOT NULL,
  	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  	"email" varchar NOT NULL,
  	"reset_password_token" varchar,
  	"reset_password_expiration" timestamp(3) with time zone,
  	"salt" varchar,
  	"hash" varchar,
  	"reset_password_requested_at" timestamp(3) with time zone
  );
  
  CREATE TABLE "payload_kv" (
  	"id" serial PRIMARY KEY NOT NULL,
  	"key" varchar NOT NULL,
  	"data" jsonb NOT NULL
  );
  
  CREATE TABLE "payload_jobs_log" (
  	"_order" integer NOT NULL,
  	"_parent_id" integer NOT NULL,
  	"id" varchar PRIMARY KEY NOT NULL,
  	"executed_at" timestamp(3) with time zone NOT NULL,
  	"completed_at" timestamp(3) with time zone NOT NULL,
  	"task_slug" "enum_payload_jobs_log_task_slug" NOT NULL,
  	"task_i_d" varchar NOT NULL,
  	"input" jsonb,
  	"output" jsonb,
  	"state" "enum_payload_jobs_log_state" NOT NULL,
  	"error" jsonb
  );
  
  CREATE TABLE "payload_jobs" (
  	"id" serial PRIMARY KEY NOT NULL,
  	"input" jsonb,
  	"completed_at" timestamp(3) with time zone,
  	"total_tried" numeric DEFAULT 0,
  	"has_error" boolean DEFAULT false,
  	"error" jsonb,
  	"task_slug" "enum_payload_jobs_task_slug",
  	"queue" varchar DEFAULT 'default',
  	"wait_until" timestamp(3) with time zone,
  	"processing" boolean DEFAULT false,
  	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL
  );
  
  CREATE TABLE "payload_locked_documents" (
  	"id" serial PRIMARY KEY NOT NULL,
  	"global_slug" varchar,
  	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL
  );
  
  CREATE TABLE "payload_locked_documents_rels" (
  	"id" serial PRIMARY KEY NOT NULL,
  	"order" integer,
  	"parent_id" integer NOT NULL,
  	"path" varchar NOT NULL,
  	"documents_id" integer,
  	"papers_id" integer,
  	"timeline_id" integer,
  	"staff_id" integer
  );
  
  CREATE TABLE "payload_preferences" (
  	"id" serial PRIMARY KEY NOT NULL,
  	"key" varchar,
  	"value" jsonb,
  	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL
  );
  
  CREATE TABLE "payload_preferences_rels" (
  	"id" serial PRIMARY KEY NOT NULL,
  	"order" integer,
  	"parent_id" integer NOT NULL,
  	"path" varchar NOT NULL,
  	"staff_id" integer
  );
  
  CREATE TABLE "payload_migrations" (
  	"id" serial PRIMARY KEY NOT NULL,
  	"name" varchar,
  	"batch" numeric,
  	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL
  );
  
  CREATE TABLE "legal" (
  	"id" serial PRIMARY KEY NOT NULL,
  	"terms_of_use" jsonb NOT NULL,
  	"privacy_policy" jsonb NOT NULL,
  	"updated_at" timestamp(3) with time zone,
  	"created_at" timestamp(3) with time zone
  );
  
  CREATE TABLE "landing_hero" (
  	"id" serial PRIMARY KEY NOT NULL,
  	"eyebrow" varchar DEFAULT 'A framework for communities' NOT NULL,
  	"title" varchar DEFAULT 'Identity, the dual vote and trust you can verify' NOT NULL,
  	"text" varchar DEFAULT 'Self-managed identity, decisions voted twice, and trust metrics recorded on a public ledger where anyone can check them. Read the papers, try the tools, and get the book.' NOT NULL,
  	"store_button_label" varchar DEFAULT 'Get the book' NOT NULL,
  	"resources_button_label" varchar DEFAULT 'Explore resources' NOT NULL,
  	"updated_at" timestamp(3) with time zone,
  	"created_at" timestamp(3) with time zone
  );
  
  CREATE TABLE "landing_faqs_items" (
  	"_order" integer NOT NULL,
  	"_parent_id" integer NOT NULL,
  	"id" varchar PRIMARY KEY NOT NULL,
  	"question" varchar NOT NULL,
  	"answer" varchar NOT NULL
  );
  
  CREATE TABLE "landing_faqs" (
  	"id" serial PRIMARY KEY NOT NULL,
  	"updated_at" timestamp(3) with time zone,
  	"created_at" timestamp(3) with time zone
  );
  
  CREATE TABLE "proofs_tools_tools_manuals" (
  	"_order" integer NOT NULL,
  	"_parent_id" varchar NOT NULL,
  	"id" varchar PRIMARY KEY NOT NULL,
  	"language" "enum_proofs_tools_tools_manuals_language" NOT NULL,
  	"link" varchar DEFAULT '#'
  );
  
  CREATE TABLE "proofs_tools_tools" (
  	"_order" integer NOT NULL,
  	"_parent_id" integer NOT NULL,
  	"id" varchar PRIMARY KEY NOT NULL,
  	"name" varchar NOT NULL,
  	"description" varchar NOT NULL,
  	"link" varchar DEFAULT '#'
  );
  
  CREATE TABLE "proofs_tools" (
  	"id" serial PRIMARY KEY NOT NULL,
  	"updated_at" timestamp(3) with time zone,
  	"created_at" timestamp(3) with time zone
  );
  
  CREATE TABLE "recommended_wallets_wallets" (
  	"_order" integer NOT NULL,
  	"_parent_id" integer NOT NULL,
  	"id" varchar PRIMARY KEY NOT NULL,
  	"name" varchar NOT NULL,
  	"description" varchar NOT NULL,
  	"link" varchar NOT NULL
  );
  
  CREATE TABLE "recommended_wallets" (
  	"id" serial PRIMARY KEY NOT NULL,
  	"updated_at" timestamp(3) with time zone,
  	"created_at" timestamp(3) with time zone
  );
  
  CREATE TABLE "papers_page" (
  	"id" serial PRIMARY KEY NOT NULL,
  	"introduction_eyebrow" varchar DEFAULT 'Library' NOT NULL,
  	"introduction_title" varchar DEFAULT 'White Papers' NOT NULL,
  	"introduction_text" varchar DEFAULT 'Nine papers describe the framework, in English and Italian. Each file is certified with a timestamp on the public ledger: open its certificate to check that the text you read is the text that was published.' NOT NULL,
  	"public_key_id" integer,
  	"author_links_url" varchar DEFAULT '#',
  	"updated_at" timestamp(3) with time zone,
  	"created_at" timestamp(3) with time zone
  );
  
  ALTER TABLE "products" ADD CONSTRAINT "products_cover_image_id_media_id_fk" FOREIGN KEY ("cover_image_id") REFERENCES "public"."media"("id") ON DELETE set null ON UPDATE no action;
  ALTER TABLE "products" ADD CONSTRAINT "products_digital_file_id_digital_files_id_fk" FOREIGN KEY ("digital_file_id") REFERENCES "public"."digital_files"("id") ON DELETE set null ON UPDATE no action;
  ALTER TABLE "orders_history" ADD CONSTRAINT "orders_history_parent_id_fk" FOREIGN KEY ("_parent_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "orders" ADD CONSTRAINT "orders_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE set null ON UPDATE no action;
  ALTER TABLE "orders" ADD CONSTRAINT "orders_download_token_id_download_tokens_id_fk" FOREIGN KEY ("download_token_id") REFERENCES "public"."download_tokens"("id") ON DELETE set null ON UPDATE no action;
  ALTER TABLE "payments" ADD CONSTRAINT "payments_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE set null ON UPDATE no action;
  ALTER TABLE "download_tokens" ADD CONSTRAINT "download_tokens_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE set null ON UPDATE no action;
  ALTER TABLE "download_tokens" ADD CONSTRAINT "download_tokens_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE set null ON UPDATE no action;
  ALTER TABLE "email_outbox" ADD CONSTRAINT "email_outbox_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE set null ON UPDATE no action;
  ALTER TABLE "email_outbox_rels" ADD CONSTRAINT "email_outbox_rels_parent_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."email_outbox"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "email_outbox_rels" ADD CONSTRAINT "email_outbox_rels_download_tokens_fk" FOREIGN KEY ("download_tokens_id") REFERENCES "public"."download_tokens"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE set null ON UPDATE no action;
  ALTER TABLE "papers" ADD CONSTRAINT "papers_en_file_id_documents_id_fk" FOREIGN KEY ("en_file_id") REFERENCES "public"."documents"("id") ON DELETE set null ON UPDATE no action;
  ALTER TABLE "papers" ADD CONSTRAINT "papers_it_file_id_documents_id_fk" FOREIGN KEY ("it_file_id") REFERENCES "public"."documents"("id") ON DELETE set null ON UPDATE no action;
  ALTER TABLE "staff_sessions" ADD CONSTRAINT "staff_sessions_parent_id_fk" FOREIGN KEY ("_parent_id") REFERENCES "public"."staff"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "payload_jobs_log" ADD CONSTRAINT "payload_jobs_log_parent_id_fk" FOREIGN KEY ("_parent_id") REFERENCES "public"."payload_jobs"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "payload_locked_documents_rels" ADD CONSTRAINT "payload_locked_documents_rels_parent_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."payload_locked_documents"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "payload_locked_documents_rels" ADD CONSTRAINT "payload_locked_documents_rels_documents_fk" FOREIGN KEY ("documents_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "payload_locked_documents_rels" ADD CONSTRAINT "payload_locked_documents_rels_papers_fk" FOREIGN KEY ("papers_id") REFERENCES "public"."papers"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "payload_locked_documents_rels" ADD CONSTRAINT "payload_locked_documents_rels_timeline_fk" FOREIGN KEY ("timeline_id") REFERENCES "public"."timeline"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "payload_locked_documents_rels" ADD CONSTRAINT "payload_locked_documents_rels_staff_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "payload_preferences_rels" ADD CONSTRAINT "payload_preferences_rels_parent_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."payload_preferences"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "payload_preferences_rels" ADD CONSTRAINT "payload_preferences_rels_staff_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "landing_faqs_items" ADD CONSTRAINT "landing_faqs_items_parent_id_fk" FOREIGN KEY ("_parent_id") REFERENCES "public"."landing_faqs"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "proofs_tools_tools_manuals" ADD CONSTRAINT "proofs_tools_tools_manuals_parent_id_fk" FOREIGN KEY ("_parent_id") REFERENCES "public"."proofs_tools_tools"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "proofs_tools_tools" ADD CONSTRAINT "proofs_tools_tools_parent_id_fk" FOREIGN KEY ("_parent_id") REFERENCES "public"."proofs_tools"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "recommended_wallets_wallets" ADD CONSTRAINT "recommended_wallets_wallets_parent_id_fk" FOREIGN KEY ("_parent_id") REFERENCES "public"."recommended_wallets"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "papers_page" ADD CONSTRAINT "papers_page_public_key_id_documents_id_fk" FOREIGN KEY ("public_key_id") REFERENCES "public"."documents"("id") ON DELETE set null ON UPDATE no action;
  CREATE INDEX "products_cover_image_idx" ON "products" USING btree ("cover_image_id");
  CREATE INDEX "products_digital_file_idx" ON "products" USING btree ("digital_file_id");
  CREATE INDEX "products_deleted_at_idx" ON "products" USING btree ("deleted_at");
  CREATE INDEX "products_updated_at_idx" ON "products" USING btree ("updated_at");
  CREATE INDEX "products_created_at_idx" ON "products" USING btree ("created_at");
  CREATE INDEX "orders_history_order_idx" ON "orders_history" USING btree ("_order");
  CREATE INDEX "orders_history_parent_id_idx" ON "orders_history" USING btree ("_parent_id");
  CREATE INDEX "orders_status_idx" ON "orders" USING btree ("status");
  CREATE INDEX "orders_product_idx" ON "orders" USING btree ("product_id");
  CREATE INDEX "orders_user_email_idx" ON "orders" USING btree ("user_email");
  CREATE INDEX "orders_client_key_idx" ON "orders" USING btree ("client_key");
  CREATE UNIQUE INDEX "orders_payment_address_idx" ON "orders" USING btree ("payment_address");
  CREATE UNIQUE INDEX "orders_address_index_idx" ON "orders" USING btree ("address_index");
  CREATE INDEX "orders_gateway_expires_at_idx" ON "orders" USING btree ("gateway_expires_at");
  CREATE INDEX "orders_recheck_requested_at_idx" ON "orders" USING btree ("recheck_requested_at");
  CREATE INDEX "orders_download_token_idx" ON "orders" USING btree ("download_token_id");
  CREATE INDEX "orders_attention_since_idx" ON "orders" USING btree ("attention_since");
  CREATE INDEX "orders_updated_at_idx" ON "orders" USING btree ("updated_at");
  CREATE INDEX "orders_created_at_idx" ON "orders" USING btree ("created_at");
  CREATE UNIQUE INDEX "payments_outpoint_idx" ON "payments" USING btree ("outpoint");
  CREATE INDEX "payments_order_idx" ON "payments" USING btree ("order_id");
  CREATE INDEX "payments_txid_idx" ON "payments" USING btree ("txid");
  CREATE INDEX "payments_invalidated_at_idx" ON "payments" USING btree ("invalidated_at");
  CREATE INDEX "payments_updated_at_idx" ON "payments" USING btree ("updated_at");
  CREATE INDEX "payments_created_at_idx" ON "payments" USING btree ("created_at");
  CREATE UNIQUE INDEX "download_tokens_token_hash_idx" ON "download_tokens" USING btree ("token_hash");
  CREATE INDEX "download_tokens_order_idx" ON "download_tokens" USING btree ("order_id");
  CREATE INDEX "download_tokens_product_idx" ON "download_tokens" USING btree ("product_id");
  CREATE INDEX "download_tokens_updated_at_idx" ON "download_tokens" USING btree ("updated_at");
  CREATE INDEX "download_tokens_created_at_idx" ON "download_tokens" USING btree ("created_at");
  CREATE UNIQUE INDEX "counters_name_idx" ON "counters" USING btree ("name");
  CREATE INDEX "counters_updated_at_idx" ON "counters" USING btree ("updated_at");
  CREATE INDEX "counters_created_at_idx" ON "counters" USING btree ("created_at");
  CREATE UNIQUE INDEX "leases_name_idx" ON "leases" USING btree ("name");
  CREATE INDEX "leases_updated_at_idx" ON "leases" USING btree ("updated_at");
  CREATE INDEX "leases_created_at_idx" ON "leases" USING btree ("created_at");
  CREATE UNIQUE INDEX "rate_limits_key_idx" ON "rate_limits" USING btree ("key");
  CREATE INDEX "rate_limits_reset_at_idx" ON "rate_limits" USING btree ("reset_at");
  CREATE INDEX "rate_limits_updated_at_idx" ON "rate_limits" USING btree ("updated_at");
  CREATE INDEX "rate_limits_created_at_idx" ON "rate_limits" USING btree ("created_at");
  CREATE UNIQUE INDEX "chain_health_name_idx" ON "chain_health" USING btree ("name");
  CREATE INDEX "chain_health_updated_at_idx" ON "chain_health" USING btree ("updated_at");
  CREATE INDEX "chain_health_created_at_idx" ON "chain_health" USING btree ("created_at");
  CREATE UNIQUE INDEX "email_outbox_key_idx" ON "email_outbox" USING btree ("key");
  CREATE INDEX "email_outbox_order_idx" ON "email_outbox" USING btree ("order_id");
  CREATE INDEX "email_outbox_status_idx" ON "email_outbox" USING btree ("status");
  CREATE INDEX "email_outbox_updated_at_idx" ON "email_outbox" USING btree ("updated_at");
  CREATE INDEX "email_outbox_created_at_idx" ON "email_outbox" USING btree ("created_at");
  CREATE INDEX "email_outbox_rels_order_idx" ON "email_outbox_rels" USING btree ("order");
  CREATE INDEX "email_outbox_rels_parent_idx" ON "email_outbox_rels" USING btree ("parent_id");
  CREATE INDEX "email_outbox_rels_path_idx" ON "email_outbox_rels" USING btree ("path");
  CREATE INDEX "email_outbox_rels_download_tokens_id_idx" ON "email_outbox_rels" USING btree ("download_tokens_id");
  CREATE UNIQUE INDEX "webhook_deliveries_key_idx" ON "webhook_deliveries" USING btree ("key");
  CREATE INDEX "webhook_deliveries_order_idx" ON "webhook_deliveries" USING btree ("order_id");
  CREATE INDEX "webhook_deliveries_status_idx" ON "webhook_deliveries" USING btree ("status");
  CREATE INDEX "webhook_deliveries_updated_at_idx" ON "webhook_deliveries" USING btree ("updated_at");
  CREATE INDEX "webhook_deliveries_created_at_idx" ON "webhook_deliveries" USING btree ("created_at");
  CREATE INDEX "media_updated_at_idx" ON "media" USING btree ("updated_at");
  CREATE INDEX "media_created_at_idx" ON "media" USING btree ("created_at");
  CREATE UNIQUE INDEX "media_filename_idx" ON "media" USING btree ("filename");
  CREATE INDEX "digital_files_updated_at_idx" ON "digital_files" USING btree ("updated_at");
  CREATE INDEX "digital_files_created_at_idx" ON "digital_files" USING btree ("created_at");
  CREATE UNIQUE INDEX "digital_files_filename_idx" ON "digital_files" USING btree ("filename");
  CREATE INDEX "documents_updated_at_idx" ON "documents" USING btree ("updated_at");
  CREATE INDEX "documents_created_at_idx" ON "documents" USING btree ("created_at");
  CREATE UNIQUE INDEX "documents_filename_idx" ON "documents" USING btree ("filename");
  CREATE INDEX "papers_order_idx" ON "papers" USING btree ("order");
  CREATE INDEX "papers_en_en_file_idx" ON "papers" USING btree ("en_file_id");
  CREATE INDEX "papers_it_it_file_idx" ON "papers" USING btree ("it_file_id");
  CREATE INDEX "papers_updated_at_idx" ON "papers" USING btree ("updated_at");
  CREATE INDEX "papers_created_at_idx" ON "papers" USING btree ("created_at");
  CREATE INDEX "timeline_order_idx" ON "timeline" USING btree ("order");
  CREATE INDEX "timeline_updated_at_idx" ON "timeline" USING btree ("updated_at");
  CREATE INDEX "timeline_created_at_idx" ON "timeline" USING btree ("created_at");
  CREATE INDEX "staff_sessions_order_idx" ON "staff_sessions" USING btree ("_order");
  CREATE INDEX "staff_sessions_parent_id_idx" ON "staff_sessions" USING btree ("_parent_id");
  CREATE INDEX "staff_updated_at_idx" ON "staff" USING btree ("updated_at");
  CREATE INDEX "staff_created_at_idx" ON "staff" USING btree ("created_at");
  CREATE UNIQUE INDEX "staff_email_idx" ON "staff" USING btree ("email");
  CREATE UNIQUE INDEX "payload_kv_key_idx" ON "payload_kv" USING btree ("key");
  CREATE INDEX "payload_jobs_log_order_idx" ON "payload_jobs_log" USING btree ("_order");
  CREATE INDEX "payload_jobs_log_parent_id_idx" ON "payload_jobs_log" USING btree ("_parent_id");
  CREATE INDEX "payload_jobs_completed_at_idx" ON "payload_jobs" USING btree ("completed_at");
  CREATE INDEX "payload_jobs_total_tried_idx" ON "payload_jobs" USING btree ("total_tried");
  CREATE INDEX "payload_jobs_has_error_idx" ON "payload_jobs" USING btree ("has_error");
  CREATE INDEX "payload_jobs_task_slug_idx" ON "payload_jobs" USING btree ("task_slug");
  CREATE INDEX "payload_jobs_queue_idx" ON "payload_jobs" USING btree ("queue");
  CREATE INDEX "payload_jobs_wait_until_idx" ON "payload_jobs" USING btree ("wait_until");
  CREATE INDEX "payload_jobs_processing_idx" ON "payload_jobs" USING btree ("processing");
  CREATE INDEX "payload_jobs_updated_at_idx" ON "payload_jobs" USING btree ("updated_at");
  CREATE INDEX "payload_jobs_created_at_idx" ON "payload_jobs" USING btree ("created_at");
  CREATE INDEX "payload_locked_documents_global_slug_idx" ON "payload_locked_documents" USING btree ("global_slug");
  CREATE INDEX "payload_locked_documents_updated_at_idx" ON "payload_locked_documents" USING btree ("updated_at");
  CREATE INDEX "payload_locked_documents_created_at_idx" ON "payload_locked_documents" USING btree ("created_at");
  CREATE INDEX "payload_locked_documents_rels_order_idx" ON "payload_locked_documents_rels" USING btree ("order");
  CREATE INDEX "payload_locked_documents_rels_parent_idx" ON "payload_locked_documents_rels" USING btree ("parent_id");
  CREATE INDEX "payload_locked_documents_rels_path_idx" ON "payload_locked_documents_rels" USING btree ("path");
  CREATE INDEX "payload_locked_documents_rels_documents_id_idx" ON "payload_locked_documents_rels" USING btree ("documents_id");
  CREATE INDEX "payload_locked_documents_rels_papers_id_idx" ON "payload_locked_documents_rels" USING btree ("papers_id");
  CREATE INDEX "payload_locked_documents_rels_timeline_id_idx" ON "payload_locked_documents_rels" USING btree ("timeline_id");
  CREATE INDEX "payload_locked_documents_rels_staff_id_idx" ON "payload_locked_documents_rels" USING btree ("staff_id");
  CREATE INDEX "payload_preferences_key_idx" ON "payload_preferences" USING btree ("key");
  CREATE INDEX "payload_preferences_updated_at_idx" ON "payload_preferences" USING btree ("updated_at");
  CREATE INDEX "payload_preferences_created_at_idx" ON "payload_preferences" USING btree ("created_at");
  CREATE INDEX "payload_preferences_rels_order_idx" ON "payload_preferences_rels" USING btree ("order");
  CREATE INDEX "payload_preferences_rels_parent_idx" ON "payload_preferences_rels" USING btree ("parent_id");
  CREATE INDEX "payload_preferences_rels_path_idx" ON "payload_preferences_rels" USING btree ("path");
  CREATE INDEX "payload_preferences_rels_staff_id_idx" ON "payload_preferences_rels" USING btree ("staff_id");
  CREATE INDEX "payload_migrations_updated_at_idx" ON "payload_migrations" USING btree ("updated_at");
  CREATE INDEX "payload_migrations_created_at_idx" ON "payload_migrations" USING btree ("created_at");
  CREATE INDEX "landing_faqs_items_order_idx" ON "landing_faqs_items" USING btree ("_order");
  CREATE INDEX "landing_faqs_items_parent_id_idx" ON "landing_faqs_items" USING btree ("_parent_id");
  CREATE INDEX "proofs_tools_tools_manuals_order_idx" ON "proofs_tools_tools_manuals" USING btree ("_order");
  CREATE INDEX "proofs_tools_tools_manuals_parent_id_idx" ON "proofs_tools_tools_manuals" USING btree ("_parent_id");
  CREATE INDEX "proofs_tools_tools_order_idx" ON "proofs_tools_tools" USING btree ("_order");
  CREATE INDEX "proofs_tools_tools_parent_id_idx" ON "proofs_tools_tools" USING btree ("_parent_id");
  CREATE INDEX "recommended_wallets_wallets_order_idx" ON "recommended_wallets_wallets" USING btree ("_order");
  CREATE INDEX "recommended_wallets_wallets_parent_id_idx" ON "recommended_wallets_wallets" USING btree ("_parent_id");
  CREATE INDEX "papers_page_public_key_idx" ON "papers_page" USING btree ("public_key_id");`)
}

export async function down({ db }: MigrateDownArgs): Promise<void> {
  await db.execute(sql`
   DROP TABLE "products" CASCADE;
  DROP TABLE "orders_history" CASCADE;
  DROP TABLE "orders" CASCADE;
  DROP TABLE "payments" CASCADE;
  DROP TABLE "download_tokens" CASCADE;
  DROP TABLE "counters" CASCADE;
  DROP TABLE "leases" CASCADE;
  DROP TABLE "rate_limits" CASCADE;
  DROP TABLE "chain_health" CASCADE;
  DROP TABLE "email_outbox" CASCADE;
  DROP TABLE "email_outbox_rels" CASCADE;
  DROP TABLE "webhook_deliveries" CASCADE;
  DROP TABLE "media" CASCADE;
  DROP TABLE "digital_files" CASCADE;
  DROP TABLE "documents" CASCADE;
  DROP TABLE "papers" CASCADE;
  DROP TABLE "timeline" CASCADE;
  DROP TABLE "staff_sessions" CASCADE;
  DROP TABLE "staff" CASCADE;
  DROP TABLE "payload_kv" CASCADE;
  DROP TABLE "payload_jobs_log" CASCADE;
  DROP TABLE "payload_jobs" CASCADE;
  DROP TABLE "payload_locked_documents" CASCADE;
  DROP TABLE "payload_locked_documents_rels" CASCADE;
  DROP TABLE "payload_preferences" CASCADE;
  DROP TABLE "payload_preferences_rels" CASCADE;
  DROP TABLE "payload_migrations" CASCADE;
  DROP TABLE "legal" CASCADE;
  DROP TABLE "landing_hero" CASCADE;
  DROP TABLE "landing_faqs_items" CASCADE;
  DROP TABLE "landing_faqs" CASCADE;
  DROP TABLE "proofs_tools_tools_manuals" CASCADE;
  DROP TABLE "proofs_tools_tools" CASCADE;
  DROP TABLE "proofs_tools" CASCADE;
  DROP TABLE "recommended_wallets_wallets" CASCADE;
  DROP TABLE "recommended_wallets" CASCADE;
  DROP TABLE "papers_page" CASCADE;
  DROP TYPE "public"."enum_products_type";
  DROP TYPE "public"."enum_orders_history_action";
  DROP TYPE "public"."enum_orders_history_from_status";
  DROP TYPE "public"."enum_orders_history_to_status";
  DROP TYPE "public"."enum_orders_status";
  DROP TYPE "public"."enum_orders_product_type";
  DROP TYPE "public"."enum_email_outbox_kind";
  DROP TYPE "public"."enum_email_outbox_status";
  DROP TYPE "public"."enum_webhook_deliveries_event";
  DROP TYPE "public"."enum_webhook_deliveries_status";
  DROP TYPE "public"."enum_timeline_status";
  DROP TYPE "public"."enum_staff_role";
  DROP TYPE "public"."enum_payload_jobs_log_task_slug";
  DROP TYPE "public"."enum_payload_jobs_log_state";
  DROP TYPE "public"."enum_payload_jobs_task_slug";
  DROP TYPE "public"."enum_proofs_tools_tools_manuals_language";`)
}

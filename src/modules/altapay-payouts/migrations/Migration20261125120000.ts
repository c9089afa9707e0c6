import { Migration } from "@medusajs/framework/mikro-orm/migrations"

/** The payouts module's tables: funding files, their lines and Medusa's captures and refunds to match. */
export class Migration20261125120000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table if not exists "altapay_funding_file" (
      "id" text not null, "account" text not null, "provider_id" text not null, "filename" text not null,
      "contract_identifier" text null, "funding_type" text null, "shops" jsonb not null, "acquirer" text null,
      "funding_date" text not null, "created_date" text null, "reference_text" text null, "currency" text not null,
      "amount_minor" numeric not null, "raw_amount_minor" jsonb not null,
      "gross_minor" numeric not null, "raw_gross_minor" jsonb not null,
      "fees_minor" numeric not null, "raw_fees_minor" jsonb not null,
      "net_minor" numeric not null, "raw_net_minor" jsonb not null,
      "line_count" integer not null, "unreadable_line_count" integer not null, "download_count" integer not null default 1, "imported_at" timestamptz not null,
      "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null,
      constraint "altapay_funding_file_pkey" primary key ("id"));`)
    this.addSql(`CREATE UNIQUE INDEX IF NOT EXISTS "IDX_altapay_funding_file_account_filename_unique" ON "altapay_funding_file" ("account", "filename") WHERE deleted_at IS NULL;`)
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_altapay_funding_file_funding_date" ON "altapay_funding_file" ("funding_date") WHERE deleted_at IS NULL;`)
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_altapay_funding_file_deleted_at" ON "altapay_funding_file" ("deleted_at") WHERE deleted_at IS NULL;`)

    this.addSql(`create table if not exists "altapay_funding_line" (
      "id" text not null, "file_id" text not null, "line_number" integer not null, "date" text null, "type" text null,
      "known_type" boolean not null, "acquirer_id" text null, "reconciliation_identifier" text null,
      "altapay_payment_id" text null, "altapay_order_id" text null, "terminal" text null, "shop" text null,
      "transaction_currency" text null, "transaction_amount_minor" numeric null, "raw_transaction_amount_minor" jsonb null,
      "exchange_rate" text null, "settlement_currency" text null,
      "settlement_amount_minor" numeric null, "raw_settlement_amount_minor" jsonb null,
      "fixed_fee_minor" numeric null, "raw_fixed_fee_minor" jsonb null,
      "fixed_fee_vat_minor" numeric null, "raw_fixed_fee_vat_minor" jsonb null,
      "rate_based_fee_minor" numeric null, "raw_rate_based_fee_minor" jsonb null,
      "rate_based_fee_vat_minor" numeric null, "raw_rate_based_fee_vat_minor" jsonb null,
      "extra" jsonb not null, "issue" text null, "cells" jsonb null, "movement_id" text null, "match_method" text null,
      "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null,
      constraint "altapay_funding_line_pkey" primary key ("id"));`)
    this.addSql(
      `CREATE UNIQUE INDEX IF NOT EXISTS "IDX_altapay_funding_line_file_id_line_number_unique" ON "altapay_funding_line" ("file_id", "line_number") WHERE deleted_at IS NULL;`
    )
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_altapay_funding_line_reconciliation_identifier" ON "altapay_funding_line" ("reconciliation_identifier") WHERE deleted_at IS NULL;`)
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_altapay_funding_line_altapay_payment_id" ON "altapay_funding_line" ("altapay_payment_id") WHERE deleted_at IS NULL;`)
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_altapay_funding_line_movement_id" ON "altapay_funding_line" ("movement_id") WHERE deleted_at IS NULL;`)
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_altapay_funding_line_deleted_at" ON "altapay_funding_line" ("deleted_at") WHERE deleted_at IS NULL;`)
    // The exceptions' few rows among a file's many: matched lines, rejected lines, unreadable lines.
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_altapay_funding_line_matched" ON "altapay_funding_line" ("movement_id", "type") WHERE movement_id IS NOT NULL AND deleted_at IS NULL;`
    )
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_altapay_funding_line_rejected" ON "altapay_funding_line" ("date") WHERE type IN ('payment_rejected', 'refund_rejected') AND deleted_at IS NULL;`
    )
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_altapay_funding_line_unreadable" ON "altapay_funding_line" ("file_id") WHERE issue IS NOT NULL AND deleted_at IS NULL;`)

    this.addSql(`create table if not exists "altapay_money_movement" (
      "id" text not null, "kind" text check ("kind" in ('capture', 'refund')) not null, "medusa_id" text not null,
      "payment_id" text not null, "order_id" text null, "provider_id" text not null, "reconciliation_identifier" text null,
      "altapay_payment_id" text null, "altapay_order_id" text null, "currency" text not null,
      "amount_minor" numeric not null, "raw_amount_minor" jsonb not null, "recorded_at" timestamptz not null,
      "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null,
      constraint "altapay_money_movement_pkey" primary key ("id"));`)
    this.addSql(`CREATE UNIQUE INDEX IF NOT EXISTS "IDX_altapay_money_movement_medusa_id_unique" ON "altapay_money_movement" ("medusa_id") WHERE deleted_at IS NULL;`)
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_altapay_money_movement_reconciliation_identifier" ON "altapay_money_movement" ("reconciliation_identifier") WHERE deleted_at IS NULL;`
    )
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_altapay_money_movement_altapay_payment_id" ON "altapay_money_movement" ("altapay_payment_id") WHERE deleted_at IS NULL;`)
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_altapay_money_movement_payment_id" ON "altapay_money_movement" ("payment_id") WHERE deleted_at IS NULL;`)
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_altapay_money_movement_recorded_at" ON "altapay_money_movement" ("recorded_at") WHERE deleted_at IS NULL;`)
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_altapay_money_movement_deleted_at" ON "altapay_money_movement" ("deleted_at") WHERE deleted_at IS NULL;`)
    this.addSql(`create table if not exists "altapay_payout_cursor" (
      "id" text not null, "provider_id" text not null, "synced_through" timestamptz not null,
      "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null,
      constraint "altapay_payout_cursor_pkey" primary key ("id"));`)
    this.addSql(`CREATE UNIQUE INDEX IF NOT EXISTS "IDX_altapay_payout_cursor_provider_id_unique" ON "altapay_payout_cursor" ("provider_id") WHERE deleted_at IS NULL;`)
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_altapay_payout_cursor_deleted_at" ON "altapay_payout_cursor" ("deleted_at") WHERE deleted_at IS NULL;`)
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "altapay_payout_cursor" cascade;`)
    this.addSql(`drop table if exists "altapay_funding_line" cascade;`)
    this.addSql(`drop table if exists "altapay_funding_file" cascade;`)
    this.addSql(`drop table if exists "altapay_money_movement" cascade;`)
  }
}

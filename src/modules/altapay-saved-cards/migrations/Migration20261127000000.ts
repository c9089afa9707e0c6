import { Migration } from "@medusajs/framework/mikro-orm/migrations"

/** The saved-cards module's table: customers' cards on AltaPay agreements (no token, no card number). */
export class Migration20261127000000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table if not exists "altapay_saved_card" (
      "id" text not null, "customer_id" text not null, "provider_id" text not null, "agreement_id" text not null,
      "masked_pan" text not null, "expiry_month" integer not null, "expiry_year" integer not null, "scheme" text null,
      "terminal" text not null, "currency" text not null,
      "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null,
      constraint "altapay_saved_card_pkey" primary key ("id"));`)
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_altapay_saved_card_customer_id_provider_id" ON "altapay_saved_card" ("customer_id", "provider_id") WHERE deleted_at IS NULL;`)
    this.addSql(
      `CREATE UNIQUE INDEX IF NOT EXISTS "IDX_altapay_saved_card_provider_id_agreement_id_unique" ON "altapay_saved_card" ("provider_id", "agreement_id") WHERE deleted_at IS NULL;`
    )
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_altapay_saved_card_deleted_at" ON "altapay_saved_card" ("deleted_at") WHERE deleted_at IS NULL;`)
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "altapay_saved_card" cascade;`)
  }
}

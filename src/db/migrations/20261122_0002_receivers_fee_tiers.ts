import { type Kysely, sql } from 'kysely';

/**
 * Receivers (identity, KYC, limits, wallet) with their KYC submissions, and fee tiers: the
 * platform's schedule per order type and each merchant's own bands.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('receivers')
    .addColumn('id', 'uuid', (col) => col.primaryKey())
    .addColumn('merchant_id', 'uuid', (col) => col.notNull().references('merchants.id'))
    .addColumn('person_type', 'text', (col) => col.notNull().check(sql`person_type in ('PF', 'PJ')`))
    .addColumn('document_type', 'text', (col) => col.notNull().check(sql`document_type in ('CPF', 'CNPJ')`))
    .addColumn('document', 'text', (col) => col.notNull())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('email', 'text', (col) => col.notNull())
    .addColumn('phone', 'text')
    .addColumn('address_street', 'text')
    .addColumn('address_number', 'text')
    .addColumn('address_complement', 'text')
    .addColumn('address_neighborhood', 'text')
    .addColumn('address_city', 'text')
    .addColumn('address_state', 'text')
    .addColumn('address_zip_code', 'text')
    .addColumn('status', 'text', (col) =>
      col.notNull().defaultTo('PENDING').check(sql`status in ('PENDING', 'ACTIVE', 'SUSPENDED', 'BLOCKED')`),
    )
    .addColumn('kyc_status', 'text', (col) =>
      col
        .notNull()
        .defaultTo('PENDING')
        .check(sql`kyc_status in ('PENDING', 'SUBMITTED', 'UNDER_REVIEW', 'APPROVED', 'REJECTED')`),
    )
    .addColumn('kyc_rejection_reason', 'text')
    .addColumn('kyc_submitted_at', 'timestamptz')
    .addColumn('kyc_reviewed_at', 'timestamptz')
    // The receiver's chain address: given by the merchant, or the platform-managed wallet's.
    .addColumn('wallet_address', 'text')
    .addColumn('managed_wallet_requested', 'boolean', (col) => col.notNull().defaultTo(false))
    .addColumn('daily_limit_brl', 'numeric(18, 2)', (col) => col.check(sql`daily_limit_brl >= 0`))
    .addColumn('daily_transaction_limit', 'integer', (col) => col.check(sql`daily_transaction_limit >= 0`))
    .addColumn('night_transactions_enabled', 'boolean', (col) => col.notNull())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('receivers_merchant_document_key', ['merchant_id', 'document'])
    .execute();
  await db.schema
    .createIndex('receivers_merchant_created_idx')
    .on('receivers')
    .expression(sql`merchant_id, created_at desc, id desc`)
    .execute();

  await db.schema
    .createTable('receiver_kyc_submissions')
    .addColumn('id', 'uuid', (col) => col.primaryKey())
    .addColumn('receiver_id', 'uuid', (col) => col.notNull().references('receivers.id'))
    .addColumn('birth_date', 'date')
    .addColumn('incorporation_date', 'date')
    .addColumn('mother_name', 'text')
    .addColumn('documents', 'jsonb', (col) => col.notNull())
    // The rejection the receiver was shown when submitting this (spec: visible at the next submission).
    .addColumn('previous_rejection_reason', 'text')
    .addColumn('submitted_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('receiver_kyc_submissions_receiver_idx').on('receiver_kyc_submissions').columns(['receiver_id', 'submitted_at']).execute();

  await db.schema
    .createTable('platform_fee_tiers')
    .addColumn('id', 'uuid', (col) => col.primaryKey())
    .addColumn('order_type', 'text', (col) => col.notNull().check(sql`order_type in ('PAYIN', 'PAYOUT')`))
    .addColumn('min_volume_brl', 'numeric(18, 2)', (col) => col.notNull().check(sql`min_volume_brl >= 0`))
    .addColumn('max_volume_brl', 'numeric(18, 2)')
    .addColumn('platform_fee_percentage', 'numeric(10, 8)', (col) => col.notNull().check(sql`platform_fee_percentage >= 0 and platform_fee_percentage < 1`))
    .addUniqueConstraint('platform_fee_tiers_band_key', ['order_type', 'min_volume_brl'])
    .addCheckConstraint('platform_fee_tiers_band_check', sql`max_volume_brl is null or max_volume_brl > min_volume_brl`)
    .execute();

  await db.schema
    .createTable('merchant_fee_tiers')
    .addColumn('id', 'uuid', (col) => col.primaryKey())
    .addColumn('merchant_id', 'uuid', (col) => col.notNull().references('merchants.id'))
    .addColumn('order_type', 'text', (col) => col.notNull().check(sql`order_type in ('PAYIN', 'PAYOUT')`))
    .addColumn('min_volume_brl', 'numeric(18, 2)', (col) => col.notNull().check(sql`min_volume_brl >= 0`))
    .addColumn('max_volume_brl', 'numeric(18, 2)')
    .addColumn('platform_fee_percentage', 'numeric(10, 8)', (col) => col.notNull().check(sql`platform_fee_percentage >= 0 and platform_fee_percentage < 1`))
    .addColumn('merchant_fee_percentage', 'numeric(10, 8)', (col) => col.notNull().check(sql`merchant_fee_percentage >= 0 and merchant_fee_percentage < 1`))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('merchant_fee_tiers_band_key', ['merchant_id', 'order_type', 'min_volume_brl'])
    .addCheckConstraint('merchant_fee_tiers_band_check', sql`max_volume_brl is null or max_volume_brl > min_volume_brl`)
    .execute();

  // The platform's default schedule (fractions): 0.5 % up to R$ 100k, 0.35 % up to R$ 1M, 0.25 % above.
  for (const orderType of ['PAYIN', 'PAYOUT']) {
    await sql`
      insert into platform_fee_tiers (id, order_type, min_volume_brl, max_volume_brl, platform_fee_percentage)
      values (gen_random_uuid(), ${orderType}, 0, 100000, 0.005),
             (gen_random_uuid(), ${orderType}, 100000, 1000000, 0.0035),
             (gen_random_uuid(), ${orderType}, 1000000, null, 0.0025)`.execute(db);
  }
  // Merchants created before this migration start with the platform's bands and no merchant fee.
  await sql`
    insert into merchant_fee_tiers (id, merchant_id, order_type, min_volume_brl, max_volume_brl, platform_fee_percentage, merchant_fee_percentage)
    select gen_random_uuid(), m.id, p.order_type, p.min_volume_brl, p.max_volume_brl, p.platform_fee_percentage, 0
    from merchants m cross join platform_fee_tiers p`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('merchant_fee_tiers').execute();
  await db.schema.dropTable('platform_fee_tiers').execute();
  await db.schema.dropTable('receiver_kyc_submissions').execute();
  await db.schema.dropTable('receivers').execute();
}

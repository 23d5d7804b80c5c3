import { type Kysely, sql } from 'kysely';

/**
 * State of the sandbox PSP (charges with the PIX that paid them, refunds, outgoing PIX) and of
 * the sandbox chain (deposit addresses, deposits, transfers, armed transfer failures). Kept in
 * the database so the simulated providers survive restarts and are shared by every process.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sandbox_pix_charges')
    .addColumn('txid', 'text', (col) => col.primaryKey().check(sql`txid ~ '^[a-zA-Z0-9]{26,35}$'`))
    // The static code's 62/05 (at most 25 characters): the txid's first 25, unique so a payment
    // read back from a code can only mean one charge.
    .addColumn('reference', 'text', (col) => col.notNull().check(sql`reference ~ '^[a-zA-Z0-9]{1,25}$'`))
    .addColumn('amount_brl', 'numeric(18, 2)', (col) => col.notNull().check(sql`amount_brl > 0`))
    .addColumn('description', 'text')
    .addColumn('pix_copia_e_cola', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) =>
      col
        .notNull()
        .defaultTo('ATIVA')
        .check(sql`status in ('ATIVA', 'CONCLUIDA', 'REMOVIDA_PELO_USUARIO_RECEBEDOR', 'REMOVIDA_PELO_PSP')`),
    )
    .addColumn('expires_at', 'timestamptz', (col) => col.notNull())
    // The PIX that paid the charge (API Pix `pix`); all three set together.
    .addColumn('end_to_end_id', 'text')
    .addColumn('paid_amount_brl', 'numeric(18, 2)', (col) => col.check(sql`paid_amount_brl > 0`))
    .addColumn('paid_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('sandbox_pix_charges_reference_key', ['reference'])
    .addUniqueConstraint('sandbox_pix_charges_end_to_end_id_key', ['end_to_end_id'])
    .addCheckConstraint(
      'sandbox_pix_charges_payment_check',
      sql`(end_to_end_id is null) = (paid_at is null) and (end_to_end_id is null) = (paid_amount_brl is null)
          and (end_to_end_id is null) = (status <> 'CONCLUIDA')`,
    )
    .execute();

  await db.schema
    .createTable('sandbox_pix_refunds')
    .addColumn('refund_id', 'text', (col) => col.primaryKey().check(sql`refund_id ~ '^[a-zA-Z0-9]{1,35}$'`))
    .addColumn('end_to_end_id', 'text', (col) => col.notNull().references('sandbox_pix_charges.end_to_end_id'))
    .addColumn('amount_brl', 'numeric(18, 2)', (col) => col.notNull().check(sql`amount_brl > 0`))
    .addColumn('description', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) =>
      col.notNull().defaultTo('EM_PROCESSAMENTO').check(sql`status in ('EM_PROCESSAMENTO', 'DEVOLVIDO', 'NAO_REALIZADO')`),
    )
    .addColumn('failure_reason', 'text')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('settled_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('sandbox_pix_refunds_end_to_end_id_idx').on('sandbox_pix_refunds').column('end_to_end_id').execute();

  await db.schema
    .createTable('sandbox_pix_payouts')
    .addColumn('provider_transaction_id', 'text', (col) => col.primaryKey())
    .addColumn('idempotency_key', 'text', (col) => col.notNull())
    .addColumn('pix_key', 'text', (col) => col.notNull())
    .addColumn('pix_key_type', 'text', (col) => col.notNull().check(sql`pix_key_type in ('CPF', 'CNPJ', 'EMAIL', 'PHONE', 'EVP')`))
    .addColumn('amount_brl', 'numeric(18, 2)', (col) => col.notNull().check(sql`amount_brl > 0`))
    .addColumn('recipient_name', 'text')
    .addColumn('description', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) =>
      col.notNull().defaultTo('PROCESSING').check(sql`status in ('PROCESSING', 'CONFIRMED', 'FAILED')`),
    )
    .addColumn('end_to_end_id', 'text')
    .addColumn('failure_reason', 'text')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('settled_at', 'timestamptz')
    .addUniqueConstraint('sandbox_pix_payouts_idempotency_key_key', ['idempotency_key'])
    .addUniqueConstraint('sandbox_pix_payouts_end_to_end_id_key', ['end_to_end_id'])
    .execute();
  await db.schema
    .createIndex('sandbox_pix_payouts_processing_idx')
    .on('sandbox_pix_payouts')
    .column('created_at')
    .where(sql.ref('status'), '=', 'PROCESSING')
    .execute();

  await db.schema
    .createTable('sandbox_chain_deposit_addresses')
    .addColumn('address', 'text', (col) => col.primaryKey())
    .addColumn('order_id', 'text', (col) => col.notNull())
    .addColumn('token', 'text', (col) => col.notNull())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('sandbox_chain_deposit_addresses_order_id_key', ['order_id'])
    .execute();

  await db.schema
    .createTable('sandbox_chain_deposits')
    .addColumn('tx_hash', 'text', (col) => col.primaryKey())
    .addColumn('deposit_address', 'text', (col) => col.notNull().references('sandbox_chain_deposit_addresses.address'))
    .addColumn('token', 'text', (col) => col.notNull())
    // Token units; unconstrained NUMERIC keeps the scale it was written with.
    .addColumn('amount', 'numeric', (col) => col.notNull().check(sql`amount > 0`))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('sandbox_chain_deposits_address_idx').on('sandbox_chain_deposits').column('deposit_address').execute();

  await db.schema
    .createTable('sandbox_chain_transfers')
    .addColumn('tx_hash', 'text', (col) => col.primaryKey())
    .addColumn('idempotency_key', 'text', (col) => col.notNull())
    .addColumn('token', 'text', (col) => col.notNull())
    .addColumn('amount', 'numeric', (col) => col.notNull().check(sql`amount > 0`))
    .addColumn('destination', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull().check(sql`status in ('PENDING', 'CONFIRMED', 'FAILED')`))
    .addColumn('error', 'text')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('sandbox_chain_transfers_idempotency_key_key', ['idempotency_key'])
    .execute();

  // Armed by failNextTransferTo: the next transfer to the destination fails and disarms it.
  await db.schema
    .createTable('sandbox_chain_transfer_failures')
    .addColumn('destination', 'text', (col) => col.primaryKey())
    .addColumn('error', 'text', (col) => col.notNull())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sandbox_chain_transfer_failures').execute();
  await db.schema.dropTable('sandbox_chain_transfers').execute();
  await db.schema.dropTable('sandbox_chain_deposits').execute();
  await db.schema.dropTable('sandbox_chain_deposit_addresses').execute();
  await db.schema.dropTable('sandbox_pix_payouts').execute();
  await db.schema.dropTable('sandbox_pix_refunds').execute();
  await db.schema.dropTable('sandbox_pix_charges').execute();
}

import { type Kysely, sql } from 'kysely';

/**
 * Brazil's rules (issue 30, docs/architecture/compliance-policies.md):
 * - `merchants.payer_policy`: ANY (every merchant's default, as before) or FIRST_PARTY (a PAYIN's
 *   PIX must come from the receiver's own CPF/CNPJ, else it is returned);
 * - `merchants.wallet_ownership_policy`: ALLOW (default, as before), LIMITED (a PAYIN to a wallet
 *   not proven the receiver's only up to `unproven_wallet_limit_brl` per order) or REQUIRED;
 *   LIMITED always has its cap;
 * - `orders.payer_*`: who paid a PAYIN's PIX, when the PSP says (null otherwise);
 * - `sandbox_pix_charges`: the charge's `devedor` and who paid it (the sandbox PSP's record);
 * - `wallet_ownership_challenges`: single-use, expiring messages for a receiver's wallet to sign;
 * - `wallet_ownership_proofs`: each accepted signature, one per challenge.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('merchants')
    .addColumn('payer_policy', 'text', (col) => col.notNull().defaultTo('ANY').check(sql`payer_policy in ('ANY', 'FIRST_PARTY')`))
    .addColumn('wallet_ownership_policy', 'text', (col) =>
      col.notNull().defaultTo('ALLOW').check(sql`wallet_ownership_policy in ('ALLOW', 'LIMITED', 'REQUIRED')`),
    )
    .addColumn('unproven_wallet_limit_brl', 'numeric(18, 2)', (col) => col.check(sql`unproven_wallet_limit_brl >= 0`))
    .execute();
  await db.schema
    .alterTable('merchants')
    .addCheckConstraint('merchants_limited_has_cap', sql`wallet_ownership_policy <> 'LIMITED' or unproven_wallet_limit_brl is not null`)
    .execute();

  const payerColumns = (table: string, prefix: string) =>
    db.schema
      .alterTable(table)
      .addColumn(`${prefix}_document_type`, 'text', (col) => col.check(sql.raw(`${prefix}_document_type in ('CPF', 'CNPJ')`)))
      .addColumn(`${prefix}_document`, 'text')
      .addColumn(`${prefix}_name`, 'text')
      .execute();
  await payerColumns('orders', 'payer');
  await payerColumns('sandbox_pix_charges', 'devedor');
  await payerColumns('sandbox_pix_charges', 'payer');

  await db.schema
    .createTable('wallet_ownership_challenges')
    .addColumn('id', 'uuid', (col) => col.primaryKey())
    .addColumn('merchant_id', 'uuid', (col) => col.notNull().references('merchants.id'))
    .addColumn('receiver_id', 'uuid', (col) => col.notNull().references('receivers.id'))
    .addColumn('wallet_address', 'text', (col) => col.notNull())
    .addColumn('message', 'text', (col) => col.notNull())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .addColumn('expires_at', 'timestamptz', (col) => col.notNull())
    .addColumn('used_at', 'timestamptz')
    .execute();

  await db.schema
    .createTable('wallet_ownership_proofs')
    .addColumn('id', 'uuid', (col) => col.primaryKey())
    .addColumn('merchant_id', 'uuid', (col) => col.notNull().references('merchants.id'))
    .addColumn('receiver_id', 'uuid', (col) => col.notNull().references('receivers.id'))
    .addColumn('wallet_address', 'text', (col) => col.notNull())
    .addColumn('method', 'text', (col) => col.notNull().check(sql`method in ('SIWS_ED25519')`))
    .addColumn('challenge_id', 'uuid', (col) => col.notNull().unique().references('wallet_ownership_challenges.id'))
    .addColumn('message', 'text', (col) => col.notNull())
    .addColumn('signature', 'text', (col) => col.notNull())
    .addColumn('proven_at', 'timestamptz', (col) => col.notNull())
    .execute();
  // Order creation asks "is this wallet proven for this receiver" on every PAYIN under a policy.
  await db.schema.createIndex('wallet_ownership_proofs_receiver_wallet_idx').on('wallet_ownership_proofs').columns(['receiver_id', 'wallet_address']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('wallet_ownership_proofs').execute();
  await db.schema.dropTable('wallet_ownership_challenges').execute();
  for (const [table, prefix] of [['sandbox_pix_charges', 'payer'], ['sandbox_pix_charges', 'devedor'], ['orders', 'payer']] as const) {
    await db.schema.alterTable(table).dropColumn(`${prefix}_document_type`).dropColumn(`${prefix}_document`).dropColumn(`${prefix}_name`).execute();
  }
  await db.schema.alterTable('merchants').dropConstraint('merchants_limited_has_cap').execute();
  await db.schema
    .alterTable('merchants')
    .dropColumn('unproven_wallet_limit_brl')
    .dropColumn('wallet_ownership_policy')
    .dropColumn('payer_policy')
    .execute();
}

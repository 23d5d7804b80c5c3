import { type Kysely, sql } from 'kysely';

/**
 * What a merchant owes for charge-backs gets its own account, `merchant_chargebacks_owed`
 * (docs/decisions/0040): an accepted MED claim on a completed PAYIN used to debit
 * `merchant_fees_payable`, so the fee balance (the spec's "merchant fees collected and not yet
 * settled") went negative. Accounts are created on first use; this moves what is already there.
 *
 * The ledger is append-only, so the move is a correction entry, never an update: every debit of
 * `merchant_fees_payable` no settlement has closed yet, other than a settlement's own (only
 * charge-backs debit it otherwise), gets a `CHARGEBACK_RECLASSIFIED` entry referencing it,
 * `merchant_chargebacks_owed` +A / `merchant_fees_payable` −A, dated like it so that one
 * settlement closes both. Charge-backs a settlement already closed were netted by it: nothing to do.
 *
 * Frozen here as this migration writes them: the account codes and the entry kinds.
 */
const FEES_PAYABLE = sql.lit('merchant_fees_payable');
const OWED = sql.lit('merchant_chargebacks_owed');
const MOVED = sql.lit('CHARGEBACK_RECLASSIFIED');
const RESTORED = sql.lit('CHARGEBACKS_OWED_RESTORED');

export async function up(db: Kysely<unknown>): Promise<void> {
  const charges = sql`
    select e.id, e.merchant_id, e.created_at
    from ledger_entries e
    join ledger_postings p on p.entry_id = e.id
    join ledger_accounts a on a.id = p.account_id
    left join settled_entries s on s.entry_id = e.id
    where a.code = ${FEES_PAYABLE} and p.amount > 0 and e.kind <> 'SETTLEMENT' and s.entry_id is null`;
  await sql`insert into ledger_accounts (id, code, merchant_id, currency)
    select gen_random_uuid(), ${OWED}, merchant_id, 'BRL' from (select distinct c.merchant_id from (${charges}) c) m
    on conflict do nothing`.execute(db);
  // One statement: the entries and their two postings (the zero-sum trigger checks them at commit).
  await sql`with moved as (
      insert into ledger_entries (id, merchant_id, kind, reference_type, reference_id, created_at)
      select gen_random_uuid(), c.merchant_id, ${MOVED}, 'entry', c.id, c.created_at from (${charges}) c
      on conflict do nothing
      returning id, merchant_id, reference_id
    ),
    legs as (
      select m.id as entry_id, m.merchant_id, p.account_id as payable_id, p.amount
      from moved m
      join ledger_postings p on p.entry_id = m.reference_id
      join ledger_accounts a on a.id = p.account_id and a.code = ${FEES_PAYABLE}
    )
    insert into ledger_postings (id, entry_id, account_id, currency, amount)
    select gen_random_uuid(), l.entry_id, l.payable_id, 'BRL', -l.amount from legs l
    union all
    select gen_random_uuid(), l.entry_id, o.id, 'BRL', l.amount from legs l
    join ledger_accounts o on o.code = ${OWED} and o.merchant_id = l.merchant_id and o.currency = 'BRL'`.execute(db);
}

/**
 * Back to charge-backs against the fees: what each merchant owes is moved back to
 * `merchant_fees_payable` by a `CHARGEBACKS_OWED_RESTORED` entry (referencing the latest entry
 * of its owed account), which the code of before nets in its next settlement.
 */
export async function down(db: Kysely<unknown>): Promise<void> {
  const owed = sql`
    select a.id as owed_id, a.merchant_id, sum(p.amount) as amount,
      (select p2.entry_id from ledger_postings p2 join ledger_entries e2 on e2.id = p2.entry_id
        where p2.account_id = a.id order by e2.created_at desc, e2.id desc limit 1) as last_entry
    from ledger_accounts a join ledger_postings p on p.account_id = a.id
    where a.code = ${OWED}
    group by a.id, a.merchant_id
    having sum(p.amount) <> 0`;
  await sql`insert into ledger_accounts (id, code, merchant_id, currency)
    select gen_random_uuid(), ${FEES_PAYABLE}, o.merchant_id, 'BRL' from (${owed}) o
    on conflict do nothing`.execute(db);
  await sql`with owed as (${owed}),
    restored as (
      insert into ledger_entries (id, merchant_id, kind, reference_type, reference_id, created_at)
      select gen_random_uuid(), o.merchant_id, ${RESTORED}, 'entry', o.last_entry, now() from owed o
      on conflict do nothing
      returning id, merchant_id
    )
    insert into ledger_postings (id, entry_id, account_id, currency, amount)
    select gen_random_uuid(), r.id, o.owed_id, 'BRL', -o.amount from restored r join owed o on o.merchant_id = r.merchant_id
    union all
    select gen_random_uuid(), r.id, f.id, 'BRL', o.amount from restored r join owed o on o.merchant_id = r.merchant_id
    join ledger_accounts f on f.code = ${FEES_PAYABLE} and f.merchant_id = r.merchant_id and f.currency = 'BRL'`.execute(db);
}

/**
 * Writes the register's row of a movement, in the transaction of the transition that confirms it
 * (orders/lifecycle/transitions.ts): one INSERT ... SELECT, the receiver's name and document read by the
 * same statement. A movement already registered (a notification delivered twice, a step run
 * again) inserts nothing: the (order_id, movement) key and ON CONFLICT DO NOTHING. Every personal
 * value it writes is sealed: the receiver's and the order's come sealed, and a party's wallet
 * address (clear on the order) is sealed here, so the sealing pass finds nothing left clear
 * (src/platform/personal-data-rotation.ts; a clear write would void its marker, migration 0052).
 */
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { newId } from '../../lib/ids.ts';
import { decimal } from '../../lib/money.ts';
import type { PersonalData } from '../../lib/personal-data.ts';
import { type Party, type RegisteredOrder, shapeOf } from './parties.ts';
import { REGISTERED_MOVEMENTS, type RegisteredMovement } from './tables.ts';

export type { RegisteredOrder } from './parties.ts';

/** Whether a movement of this type belongs in the register (CHAIN_DEPOSIT_EXCESS is part of its CHAIN_DEPOSIT). */
export const isRegistered = (type: string): type is RegisteredMovement => (REGISTERED_MOVEMENTS as readonly string[]).includes(type);

export interface ConfirmedMovement {
  type: RegisteredMovement;
  /** Decimal text: BRL for PIX, the token's units on chain. */
  amount: string;
  /** The PIX endToEndId, or the chain signature. */
  txHash: string | null;
}

/**
 * The BRL value of a movement: a PIX is its own amount; tokens are valued at the order's locked
 * exchange rate (BRL per token), to the centavo, half to even. So a PAYOUT deposit of more or less
 * than ordered is valued at what actually arrived.
 */
export function valueBrl(movement: ConfirmedMovement, order: Pick<RegisteredOrder, 'exchange_rate'>): string {
  const amount = decimal(movement.amount);
  return movement.type.startsWith('PIX_') ? amount.toFixed(2) : amount.times(order.exchange_rate).toFixed(2);
}

const text = (value: string | null) => sql`${value}::text`;

export type RegisterSealing = Pick<PersonalData, 'sealNullable' | 'versionOf'>;

/** A party's account sealed: a PIX key comes sealed from the order (kept as it is), a wallet address clear. */
const sealedAccount = (pd: RegisterSealing, account: string | null) => (account === null || pd.versionOf(account) !== null ? account : pd.sealNullable('account', account));

/** A party's values: whether it is the client (its null facts are the receiver's), its name, document type, document and account. */
const partyValues = (pd: RegisterSealing, party: Party) => [sql`${party.client}::boolean`, text(party.name), text(party.documentType), text(party.document), text(sealedAccount(pd, party.account))];

/** A party's three facts in the SELECT, the receiver's where the party is the client and the fact is not given. */
const partyColumns = (prefix: 'o' | 'b') =>
  (['name', 'document_type', 'document'] as const).map((fact) => {
    const given = sql.ref(`v.${prefix}_${fact}`);
    return sql`case when ${sql.ref(`v.${prefix}_client`)} then coalesce(${given}, ${sql.ref(`r.${fact}`)}) else ${given} end`;
  });

export function registerMovement(db: Db, pd: RegisterSealing, order: RegisteredOrder, movement: ConfirmedMovement, at: Date): Promise<void> {
  return registerMovements(db, pd, [{ order, movement }], at);
}

/**
 * Several movements' rows in one statement (a batch of transfers' transitions): a VALUES list
 * joined to the receivers. One SELECT per movement joined by UNION ALL cost PostgreSQL 5.6 ms of
 * planning per batch of 13 (bench chain-payin-backlog).
 */
export async function registerMovements(db: Db, pd: RegisterSealing, movements: ReadonlyArray<{ order: RegisteredOrder; movement: ConfirmedMovement }>, at: Date): Promise<void> {
  if (movements.length === 0) return;
  const rows = movements.map(({ order, movement }) => valuesOf(pd, order, movement, at));
  // A CHAIN_TRANSFER's wallet is self-hosted unless it is one the platform manages (managed_wallets).
  await sql`
    insert into operations_register (
      id, occurred_at, order_id, order_type, merchant_id, movement, direction, asset, chain, quantity, value_brl,
      client_document_type, client_document, client_name, wallet_address, wallet_self_hosted, counterparty_type,
      originator_name, originator_document_type, originator_document, originator_account,
      beneficiary_name, beneficiary_document_type, beneficiary_document, beneficiary_account,
      pix_end_to_end_id, psp_reference, tx_signature)
    select v.id, v.occurred_at, v.order_id, v.order_type, v.merchant_id, v.movement, v.direction, v.asset, v.chain, v.quantity, v.value_brl,
      r.document_type, r.document, r.name, v.wallet, w.self_hosted,
      case when v.by_wallet then case when w.self_hosted then 'SELF_HOSTED_WALLET' else 'CUSTODIAL_WALLET' end else v.counterparty end,
      ${sql.join(partyColumns('o'))}, v.o_account, ${sql.join(partyColumns('b'))}, v.b_account,
      v.pix_end_to_end_id, v.psp_reference, v.tx_signature
    from (values ${sql.join(rows)}) as v(
      id, occurred_at, order_id, order_type, merchant_id, movement, direction, asset, chain, quantity, value_brl, receiver_id,
      wallet, by_wallet, counterparty, o_client, o_name, o_document_type, o_document, o_account, b_client, b_name, b_document_type, b_document, b_account,
      pix_end_to_end_id, psp_reference, tx_signature)
    join receivers r on r.id = v.receiver_id
    cross join lateral (
      select case when v.by_wallet then not exists (select 1 from managed_wallets m where m.address = v.wallet) when v.wallet is null then null else false end as self_hosted
    ) w
    on conflict (order_id, movement) do nothing`.execute(db);
}

/** One movement's values; the receiver's name and document fill the client's columns in the SELECT. */
function valuesOf(pd: RegisterSealing, order: RegisteredOrder, movement: ConfirmedMovement, at: Date) {
  const shape = shapeOf(movement.type, order);
  const onChain = !movement.type.startsWith('PIX_');
  const byWallet = shape.counterparty === 'BY_WALLET';
  return sql`(
    ${newId()}::uuid, ${at}::timestamptz, ${order.id}::uuid, ${order.type}::text, ${order.merchant_id}::uuid, ${movement.type}::text,
    ${shape.direction}::text, ${onChain ? order.token : 'BRL'}::text, ${text(onChain ? order.chain : null)},
    ${movement.amount}::numeric, ${valueBrl(movement, order)}::numeric, ${order.receiver_id}::uuid,
    ${text(shape.wallet)}, ${byWallet}::boolean, ${text(byWallet ? null : shape.counterparty)},
    ${sql.join(partyValues(pd, shape.originator))}, ${sql.join(partyValues(pd, shape.beneficiary))},
    ${text(onChain ? null : movement.txHash)}, ${text(shape.pspReference)}, ${text(onChain ? movement.txHash : null)})`;
}

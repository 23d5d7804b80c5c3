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

/** A party's three facts, the receiver's where the party is the client and the fact is not given. */
function partyColumns(pd: RegisterSealing, party: Party) {
  const fromClient = (given: string | null, column: 'name' | 'document_type' | 'document') =>
    party.client ? sql`coalesce(${text(given)}, r.${sql.ref(column)})` : text(given);
  return [fromClient(party.name, 'name'), fromClient(party.documentType, 'document_type'), fromClient(party.document, 'document'), text(sealedAccount(pd, party.account))];
}

export function registerMovement(db: Db, pd: RegisterSealing, order: RegisteredOrder, movement: ConfirmedMovement, at: Date): Promise<void> {
  return registerMovements(db, pd, [{ order, movement }], at);
}

/** Several movements' rows in one statement (a batch of transfers' transitions): one SELECT per movement, joined by UNION ALL. */
export async function registerMovements(db: Db, pd: RegisterSealing, movements: ReadonlyArray<{ order: RegisteredOrder; movement: ConfirmedMovement }>, at: Date): Promise<void> {
  if (movements.length === 0) return;
  const rows = movements.map(({ order, movement }) => rowOf(pd, order, movement, at));
  await sql`
    insert into operations_register (
      id, occurred_at, order_id, order_type, merchant_id, movement, direction, asset, chain, quantity, value_brl,
      client_document_type, client_document, client_name, wallet_address, wallet_self_hosted, counterparty_type,
      originator_name, originator_document_type, originator_document, originator_account,
      beneficiary_name, beneficiary_document_type, beneficiary_document, beneficiary_account,
      pix_end_to_end_id, psp_reference, tx_signature)
    ${sql.join(rows, sql` union all `)}
    on conflict (order_id, movement) do nothing`.execute(db);
}

/** One movement's row: a SELECT from its receiver, whose name and document fill the client's columns. */
function rowOf(pd: RegisterSealing, order: RegisteredOrder, movement: ConfirmedMovement, at: Date) {
  const shape = shapeOf(movement.type, order);
  const onChain = !movement.type.startsWith('PIX_');
  const wallet = text(shape.wallet);
  // A CHAIN_TRANSFER's wallet is self-hosted unless it is one the platform manages (managed_wallets).
  const selfHosted =
    shape.counterparty === 'BY_WALLET' ? sql`not exists (select 1 from managed_wallets w where w.address = ${wallet})` : shape.wallet === null ? sql`null::boolean` : sql`false`;
  const counterparty = shape.counterparty === 'BY_WALLET' ? sql`case when ${selfHosted} then 'SELF_HOSTED_WALLET' else 'CUSTODIAL_WALLET' end` : text(shape.counterparty);
  return sql`
    select ${newId()}::uuid, ${at}::timestamptz, ${order.id}::uuid, ${order.type}::text, ${order.merchant_id}::uuid, ${movement.type}::text,
      ${shape.direction}::text, ${onChain ? order.token : 'BRL'}::text, ${text(onChain ? order.chain : null)},
      ${movement.amount}::numeric, ${valueBrl(movement, order)}::numeric,
      r.document_type, r.document, r.name, ${wallet}, ${selfHosted}, ${counterparty},
      ${sql.join(partyColumns(pd, shape.originator))}, ${sql.join(partyColumns(pd, shape.beneficiary))},
      ${text(onChain ? null : movement.txHash)}, ${text(shape.pspReference)}, ${text(onChain ? movement.txHash : null)}
    from receivers r
    where r.id = ${order.receiver_id}::uuid`;
}

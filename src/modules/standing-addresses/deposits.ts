/**
 * What a deposit to a standing address does (decision 0046): the deposit watcher's hook (or the
 * sandbox's deposit) records it once by signature, PENDING, in the watcher's transaction; a pass
 * then makes its PAYOUT by the creation pipeline (source STANDING_DEPOSIT_ADDRESS, `order.created`,
 * priced at the rate of the moment, the receiver's day limits reserved as creation does, an order
 * id fixed by the signature so a pass that died finds it again), and moves it AWAITING_DEPOSIT →
 * DEPOSIT_RECEIVED by the usual transition, from which the worker's PIX steps pay it. A deposit
 * the pipeline refuses (below the minimum order: HELD_BELOW_MINIMUM; over a bound or a limit, or
 * the receiver no longer eligible: HELD_OVER_LIMIT) is held for review with its reason: visible on
 * the address, never posted, never split. The order carries no `deposit_address` (as a payout
 * batch line's), so `orders.deposit_address` stays unique and `handleChainDeposit` never finds it.
 */
import { createHash } from 'node:crypto';
import type { Static } from 'typebox';
import type { ChainDeposit } from '../../adapters/chain/port.ts';
import type { Db, Trx } from '../../db/database.ts';
import { AppError } from '../../errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { decimal } from '../../lib/money.ts';
import type { PersonalData } from '../../lib/personal-data.ts';
import { inTransaction, withinOrNew } from '../../platform/commit-signals.ts';
import type { CreatedOrder, OrderVariant, ParsedOrder } from '../orders/creation/create-order.ts';
import { type TransitionContext, applyTransition } from '../orders/lifecycle/transitions.ts';
import type { OrderSource } from '../orders/order-source.ts';
import { ordersRepo } from '../orders/repo.ts';
import type { PayoutBody } from '../orders/schemas.ts';
import type { DepositOutcome } from '../deposits/tables.ts';
import { STANDING_ADDRESS_COLUMNS, STANDING_DEPOSIT_COLUMNS, type StandingAddressDepositRow, type StandingAddressRow } from './tables.ts';

type PayoutVariant = OrderVariant<Static<typeof PayoutBody>, ParsedOrder>;
type CreateOrder = (variant: PayoutVariant, merchantId: string, body: Static<typeof PayoutBody>, source: OrderSource & { orderId: string }) => Promise<CreatedOrder>;

export interface StandingDepositsDeps {
  db: Db;
  clock: Clock;
  /** The PAYOUT variant whose provider call makes nothing: the deposit is already at the standing address. */
  variant: PayoutVariant;
  createOrder: CreateOrder;
  transitions: TransitionContext;
  minAmountBrl: string;
  personalData: Pick<PersonalData, 'open'>;
}

/** Refusals of the moment (a dependency down): the deposit waits for the next pass. */
const TRANSIENT = new Set(['PROVIDER_UNAVAILABLE', 'PRICE_UNAVAILABLE', 'SERVICE_UNAVAILABLE']);

/** The PAYOUT a deposit makes, the same id at every attempt. */
export function standingOrderId(signature: string): string {
  const hex = createHash('sha256').update(`standing-deposit:${signature}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${((parseInt(hex[16]!, 16) & 3) | 8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export function createStandingDeposits(deps: StandingDepositsDeps) {
  const { db, clock } = deps;

  /**
   * A deposit to an address: undefined when no standing address holds it. Recorded once by
   * signature (REPEATED after); a disabled address's deposit makes nothing (NO_ORDER, held for an
   * operator to return, as any deposit no order takes).
   */
  function handleDeposit(deposit: ChainDeposit, outer?: Trx): Promise<DepositOutcome | undefined> {
    return withinOrNew(db, outer, async (trx) => {
      const address = await trx.selectFrom('standing_deposit_addresses').select(STANDING_ADDRESS_COLUMNS).where('deposit_address', '=', deposit.depositAddress).forUpdate().executeTakeFirst();
      if (!address) return undefined;
      if (address.status !== 'ACTIVE' || deposit.token !== address.token || decimal(deposit.amount).lte(0)) return 'NO_ORDER';
      const now = clock.now();
      const inserted = await trx
        .insertInto('standing_address_deposits')
        .values({ signature: deposit.txHash, standing_address_id: address.id, merchant_id: address.merchant_id, token: address.token, amount_token: deposit.amount, status: 'PENDING', detected_at: now, updated_at: now })
        .onConflict((oc) => oc.column('signature').doNothing())
        .returning('signature')
        .executeTakeFirst();
      return inserted ? 'CREDITED' : 'REPEATED';
    });
  }

  const bodyOf = (address: StandingAddressRow, deposit: StandingAddressDepositRow): Static<typeof PayoutBody> => ({
    receiverId: address.receiver_id,
    amountCrypto: decimal(deposit.amount_token).toFixed(),
    sourceToken: address.token,
    chain: address.chain,
    // Sealed at rest (sealed-columns.ts); the pipeline seals the order's copies again.
    pixKey: deps.personalData.open('account', address.pix_key),
    pixKeyType: address.pix_key_type as never,
    recipientName: deps.personalData.open('name', address.recipient_name),
  });

  const hold = (signature: string, status: 'HELD_BELOW_MINIMUM' | 'HELD_OVER_LIMIT', err: AppError) =>
    db.updateTable('standing_address_deposits').set({ status, hold_reason: `${err.code}: ${err.message}`, updated_at: clock.now() }).where('signature', '=', signature).where('status', '=', 'PENDING').execute();

  /** One deposit: its order made (or found again), then DEPOSIT_RECEIVED in one transaction with the deposit's row. */
  async function release(deposit: StandingAddressDepositRow): Promise<'done' | 'wait'> {
    const address = await db.selectFrom('standing_deposit_addresses').select(STANDING_ADDRESS_COLUMNS).where('id', '=', deposit.standing_address_id).executeTakeFirstOrThrow();
    const orderId = standingOrderId(deposit.signature);
    if (!(await ordersRepo.find(db, orderId, address.merchant_id))) {
      let pricedBrl: string | undefined;
      const variant: PayoutVariant = { ...deps.variant, checkPriced: (priced) => { pricedBrl = priced.amountBrl; deps.variant.checkPriced?.(priced); } };
      try {
        await deps.createOrder(variant, address.merchant_id, bodyOf(address, deposit), { kind: 'STANDING_DEPOSIT_ADDRESS', id: address.id, orderId });
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        if (TRANSIENT.has(err.code)) return 'wait';
        const below = pricedBrl !== undefined && decimal(pricedBrl).lt(deps.minAmountBrl);
        await hold(deposit.signature, below ? 'HELD_BELOW_MINIMUM' : 'HELD_OVER_LIMIT', err);
        return 'done';
      }
    }
    await inTransaction(db, async (trx) => {
      const row = await trx.selectFrom('standing_address_deposits').select(STANDING_DEPOSIT_COLUMNS).where('signature', '=', deposit.signature).forUpdate().executeTakeFirst();
      const order = await ordersRepo.lockBy(trx, 'id', orderId);
      if (row?.status !== 'PENDING' || !order) return;
      await trx.updateTable('standing_address_deposits').set({ status: 'ORDERED', order_id: order.id, updated_at: clock.now() }).where('signature', '=', deposit.signature).execute();
      if (order.status !== 'AWAITING_DEPOSIT') return;
      await applyTransition(trx, deps.transitions, order, 'DEPOSIT_RECEIVED', {
        changes: { tx_hash: deposit.signature },
        moved: { amount: order.amount_token, currency: order.token, chain: order.chain, txHash: deposit.signature },
      });
    });
    return 'done';
  }

  /** Up to `limit` PENDING deposits (of one address when named), oldest first; answers how many were handled. */
  async function runPass(options: { addressId?: string; limit?: number } = {}): Promise<number> {
    let query = db.selectFrom('standing_address_deposits').select(STANDING_DEPOSIT_COLUMNS).where('status', '=', 'PENDING').orderBy('detected_at').limit(options.limit ?? 50);
    if (options.addressId) query = query.where('standing_address_id', '=', options.addressId);
    let handled = 0;
    for (const deposit of await query.execute()) {
      if ((await release(deposit)) === 'wait') return handled;
      handled += 1;
    }
    return handled;
  }

  /**
   * Standing addresses the watcher reads: enabled ones, and ones disabled in the last day (their
   * deposits recorded NO_ORDER); up to `limit` the least recently scanned first (its safety
   * rotation), or all of them with the balance their handled signatures left (its balance batches).
   */
  const watchedQuery = (pool: Db, now: Date) =>
    pool
      .selectFrom('deposit_addresses as d')
      .innerJoin('standing_deposit_addresses as s', 's.deposit_address', 'd.owner_address')
      .where((eb) => eb.or([eb('s.status', '=', 'ACTIVE'), eb('s.disabled_at', '>', new Date(now.getTime() - 86_400_000))]));
  const WATCH_COLUMNS = ['d.reference', 'd.owner_address', 'd.token_account', 'd.mint', 'd.token', 'd.last_signature'] as const;

  function watched(pool: Db, now: Date, limit: number) {
    return watchedQuery(pool, now)
      .select(WATCH_COLUMNS)
      .orderBy('d.scanned_at', (ob) => ob.asc().nullsFirst())
      .orderBy('d.reference')
      .limit(limit)
      .execute();
  }

  function allWatched(pool: Db, now: Date) {
    return watchedQuery(pool, now).select([...WATCH_COLUMNS, 'd.observed_amount']).orderBy('d.reference').execute();
  }

  return { handleDeposit, runPass, watched, allWatched };
}

export type StandingDeposits = ReturnType<typeof createStandingDeposits>;

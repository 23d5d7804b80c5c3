/**
 * The sandbox PSP: the PixProvider port implemented inside the service, with its state in the
 * database (sandbox_pix_* tables), so it survives restarts and every process sees the same
 * charges, refunds and payouts. Outcomes are produced by the sandbox drivers below (used by the
 * sandbox routes and the sandbox worker job), as PixNotifications for orders.handlePixNotification.
 */
import type { PixSettings } from '../../config.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Db } from '../../db/database.ts';
import type { SandboxPixChargesTable, SandboxPixPayoutsTable, SandboxPixRefundsTable } from './sandbox-tables.ts';
import type { Selectable } from 'kysely';
import { AppError } from '../../errors.ts';
import { decimal, toFixedText } from '../../lib/money.ts';
import { buildDynamicPixCode } from '../../lib/pix-brcode.ts';
import { validatePixKey } from '../../lib/pix-keys.ts';
import { REFUND_ID_PATTERN, TXID_PATTERN, newEndToEndId, newSandboxTransactionId } from './identifiers.ts';
import { type BrlAmount, type PixCharge, PixChargeConflictError, type PixNotification, type PixPayer, type PixProvider, type ReceivedPix } from './port.ts';
import { type ChargePayload, newLocation, signPayload } from './sandbox-location.ts';
import { payerOf, pixSandboxRepo as repo } from './sandbox-repo.ts';
import { type SandboxDict, createSandboxDict } from './sandbox-dict.ts';
import { type SandboxInfractions, createSandboxInfractions } from './sandbox-infractions.ts';
import { createSandboxStaticCodes } from './sandbox-static.ts';

/** The platform's receiving account (its key is the `chave` of every charge's payload). */
export type PixSandboxSettings = PixSettings & {
  /** Host and path of the dynamic codes' locations, without https:// (default: DEFAULT_LOCATION_BASE). */
  locationBase?: string;
};

export type ChargePaidNotification = Extract<PixNotification, { kind: 'charge_paid' }>;
export type RefundSettledNotification = Extract<PixNotification, { kind: 'refund_settled' }>;
export type PayoutSettledNotification = Extract<PixNotification, { kind: 'payout_settled' }>;

/** Options of the settling drivers. */
export interface SettleOptions {
  /** Settlement time (endToEndIds are stamped with it); default the clock's now. */
  now?: Date;
  /** A transaction to mark the rows in: pass the one that also hands the notifications to the orders module, so a crash cannot lose a notification that was marked as reported. */
  db?: Db;
  /** Payouts (by idempotency key) the bank leaves unsettled this time (test-only holds, orders/lifecycle/test-hold.ts). */
  skip?: ReadonlySet<string>;
}

export interface SandboxPixProvider extends PixProvider, Pick<SandboxDict, 'registerPixKey'>, Pick<SandboxInfractions, 'openInfraction' | 'decideInfraction'> {
  readonly name: 'sandbox';
  lookupPixKey: SandboxDict['lookupPixKey'];
  /**
   * The payer pays the charge (by default exactly its amount, from the charge's `devedor`: for an
   * order, the receiver). Idempotent: a paid charge answers its first payment. `payer` is who pays
   * (a third party, for the payer policy); `payer: null` pays without reporting who (a PSP that does not say).
   */
  simulateChargePayment(txid: string, options?: { amountBrl?: BrlAmount; payer?: PixPayer | null }): Promise<ChargePaidNotification>;
  /** A payer pays a static code carrying `txid` (sandbox-static.ts): a new PIX each call; `payer: null`: not reported. */
  simulateStaticPayment(txid: string, input: { amountBrl: BrlAmount; payer: PixPayer | null }): Promise<ChargePaidNotification>;
  /** Every PROCESSING payout is CONFIRMED; each is reported by exactly one call. */
  settlePayouts(options?: SettleOptions): Promise<PayoutSettledNotification[]>;
  /** A PROCESSING payout is refused by the "receiving bank". */
  failPayout(providerTransactionId: string, reason: string, options?: SettleOptions): Promise<PayoutSettledNotification>;
  /** Every EM_PROCESSAMENTO refund is DEVOLVIDO; each is reported by exactly one call. */
  settleRefunds(options?: SettleOptions): Promise<RefundSettledNotification[]>;
  /** An EM_PROCESSAMENTO refund is NAO_REALIZADO. */
  failRefund(refundId: string, reason: string, options?: SettleOptions): Promise<RefundSettledNotification>;
  /**
   * Arms a failure ahead (issue 15): the payout sent under idempotency key `key` is refused
   * (PAYOUT), or the refund of the PIX that paid charge `key` is NAO_REALIZADO (REFUND), when the
   * sandbox bank settles it. Re-arming replaces the reason; settling disarms.
   */
  armFailure(operation: 'PAYOUT' | 'REFUND', key: string, reason: string): Promise<void>;
  /** What a charge's location serves (API Pix `GET /{pixUrlAccessToken}`): the JWS and its payload; null if unknown. */
  payloadAt(location: string): Promise<{ jws: string; payload: ChargePayload } | null>;
}

/** An unknown txid, endToEndId, refund or payout (404 through the sandbox routes). */
export class PixSandboxNotFoundError extends AppError {
  constructor(what: string, id: string) {
    super('NOT_FOUND', `sandbox PSP: ${what} ${id} not found`);
    this.name = 'PixSandboxNotFoundError';
  }
}

/** What a PSP would refuse: bad input, a reused id with another body, a refund over the amount. */
export class PixSandboxRefusedError extends AppError {
  constructor(message: string) {
    super('CONFLICT', `sandbox PSP: ${message}`);
    this.name = 'PixSandboxRefusedError';
  }
}

/** API Pix: a devolução may be requested up to 90 days after the PIX settled. */
const REFUND_WINDOW_MS = 90 * 86_400_000;

export function createSandboxPixProvider(deps: { db: Db; clock: Clock; settings: PixSandboxSettings }): SandboxPixProvider {
  const { db, clock, settings } = deps;
  const staticCodes = createSandboxStaticCodes({ db, clock });

  /** Runs fn in the caller's transaction, or in a new one. */
  const inTransaction = <T>(outer: Db | undefined, fn: (trx: Db) => Promise<T>): Promise<T> => {
    const base = outer ?? db;
    return base.isTransaction ? fn(base) : base.transaction().execute(fn);
  };

  /**
   * A dynamic code, as real PSPs answer API Pix `cob` (docs/decisions/0013-dynamic-br-codes-in-the-sandbox.md; the PIX
   * provider): the location (26/25) names the payload that carries the full txid (= the order's
   * paymentReference) and the amount; name and city (59, 60) through pixText. No key, no amount
   * and 62/05 `***` in the code itself: a static code's 62/05 holds at most 25 characters, and a
   * `cob` txid has 26 to 35, so a static code cannot name the charge.
   */
  const chargeCode = (location: string) => {
    try {
      return buildDynamicPixCode({ location, merchantName: settings.merchantName, merchantCity: settings.merchantCity });
    } catch (error) {
      // e.g. a configured location base too long for API Pix's 77 characters
      if (error instanceof RangeError) throw new PixSandboxRefusedError(`cannot write a BR Code: ${error.message}`);
      throw error;
    }
  };

  const sameChargeOrRefuse = (row: Selectable<SandboxPixChargesTable>, amountBrl: string): PixCharge => {
    if (!decimal(row.amount_brl).eq(amountBrl)) {
      throw new PixChargeConflictError(`sandbox PSP: charge ${row.txid} exists with amount ${toFixedText(row.amount_brl, 2)}, not ${amountBrl}`);
    }
    return toCharge(row);
  };

  return {
    name: 'sandbox',
    ...createSandboxDict({ db, clock }),
    ...createSandboxInfractions({ db, clock }),

    async createCharge({ txid, amountBrl, expiresInSeconds, description, payer }) {
      if (!TXID_PATTERN.test(txid)) throw new PixSandboxRefusedError('txid must be 26 to 35 letters or digits');
      if (!Number.isSafeInteger(expiresInSeconds) || expiresInSeconds <= 0) {
        throw new PixSandboxRefusedError('expiresInSeconds must be a positive integer');
      }
      const amount = brlAmount(amountBrl);
      // API Pix `valor.original`: \d{1,10}\.\d{2}.
      if (amount.length > 13) throw new PixSandboxRefusedError('a charge amount has at most 10 integer digits');
      // Insert first: a new txid (every order's) costs one statement; a repeated one finds its charge after.
      const now = clock.now();
      const location = newLocation(settings.locationBase);
      const inserted = await repo.insertCharge(db, {
        txid,
        location,
        amount_brl: amount,
        description: description ?? null,
        pix_copia_e_cola: chargeCode(location),
        devedor_document_type: payer?.documentType ?? null,
        devedor_document: payer?.document ?? null,
        devedor_name: payer?.name ?? null,
        expires_at: new Date(now.getTime() + expiresInSeconds * 1000),
        created_at: now,
      });
      if (inserted) return toCharge(inserted);
      // A retry of this txid, or a lost race for it.
      const existing = await repo.findCharge(db, txid);
      if (existing) return sameChargeOrRefuse(existing, amount);
      throw new Error(`charge ${txid} neither inserted nor found`);
    },

    async getReceivedPix(endToEndId) {
      const row = await repo.findChargeByEndToEndId(db, endToEndId);
      return row ? toReceivedPix(row) : staticCodes.received(endToEndId);
    },

    // --- lookups for reconciliation ----------------------------------------------------------

    async listReceivedPix({ from, to }) {
      return [...(await repo.chargesPaidBetween(db, from, to)).map(toReceivedPix), ...(await staticCodes.between(from, to))].sort((a, b) => a.paidAt.getTime() - b.paidAt.getTime());
    },

    async getChargePayment(txid) {
      const row = await repo.findCharge(db, txid);
      return row?.status === 'CONCLUIDA' ? toReceivedPix(row) : null;
    },

    async getRefund(endToEndId, refundId) {
      const row = await repo.findRefund(db, refundId);
      if (!row || row.end_to_end_id !== endToEndId) return null;
      return row.status === 'NAO_REALIZADO' ? { status: row.status, reason: row.failure_reason ?? 'refused' } : { status: row.status };
    },

    async getPayout(providerTransactionId) {
      const row = await repo.findPayout(db, providerTransactionId);
      if (!row) return null;
      if (row.status === 'CONFIRMED') return { status: 'CONFIRMED', endToEndId: row.end_to_end_id! };
      if (row.status === 'FAILED') return { status: 'FAILED', reason: row.failure_reason ?? 'refused' };
      return { status: 'PROCESSING' };
    },

    async refund({ endToEndId, refundId, amountBrl, description, nature = 'ORIGINAL' }) {
      if (!REFUND_ID_PATTERN.test(refundId)) throw new PixSandboxRefusedError('refund id must be 1 to 35 letters or digits');
      const amount = brlAmount(amountBrl);
      const sameRefundOrRefuse = (row: Selectable<SandboxPixRefundsTable>) => {
        if (row.end_to_end_id !== endToEndId || !decimal(row.amount_brl).eq(amount) || row.nature !== nature) {
          throw new PixSandboxRefusedError(`refund ${refundId} exists for another PIX or amount`);
        }
        return { refundId, status: row.status };
      };

      const existing = await repo.findRefund(db, refundId);
      if (existing) return sameRefundOrRefuse(existing);

      const inserted = await db.transaction().execute(async (trx) => {
        // The lock on the received PIX serialises refunds of it: the total check below holds.
        const charge = (await repo.findChargeByEndToEndId(trx, endToEndId, { forUpdate: true })) ?? (await staticCodes.lockPaid(trx, endToEndId));
        if (!charge?.paid_amount_brl || !charge.paid_at) throw new PixSandboxNotFoundError('received PIX', endToEndId);
        const now = clock.now();
        if (now.getTime() - charge.paid_at.getTime() > REFUND_WINDOW_MS) {
          throw new PixSandboxRefusedError(`PIX ${endToEndId} settled more than 90 days ago`);
        }
        const refunded = await repo.refundedTotal(trx, endToEndId);
        if (decimal(refunded).plus(amount).gt(charge.paid_amount_brl)) {
          throw new PixSandboxRefusedError(
            `refunds of ${endToEndId} would total more than the ${toFixedText(charge.paid_amount_brl, 2)} received (${toFixedText(refunded, 2)} already)`,
          );
        }
        return repo.insertRefund(trx, { refund_id: refundId, end_to_end_id: endToEndId, amount_brl: amount, description, nature, created_at: now });
      });
      if (inserted) return { refundId, status: inserted.status };
      const raced = await repo.findRefund(db, refundId);
      if (!raced) throw new Error(`refund ${refundId} neither inserted nor found`);
      return sameRefundOrRefuse(raced);
    },

    async sendPix({ idempotencyKey, pixKey, pixKeyType, amountBrl, recipientName, description }) {
      if (!idempotencyKey) throw new PixSandboxRefusedError('idempotencyKey must not be empty');
      const amount = brlAmount(amountBrl);
      const key = validatePixKey(pixKeyType, pixKey);
      if (!key.ok) throw new PixSandboxRefusedError(`invalid ${pixKeyType} key: ${key.reason}`);
      const samePayoutOrRefuse = (row: Selectable<SandboxPixPayoutsTable>) => {
        if (row.pix_key !== key.normalized || row.pix_key_type !== pixKeyType || !decimal(row.amount_brl).eq(amount)) {
          throw new PixSandboxRefusedError(`idempotency key ${idempotencyKey} was used for another PIX`);
        }
        return { providerTransactionId: row.provider_transaction_id };
      };

      const existing = await repo.findPayoutByIdempotencyKey(db, idempotencyKey);
      if (existing) return samePayoutOrRefuse(existing);
      const inserted = await repo.insertPayout(db, {
        provider_transaction_id: newSandboxTransactionId(),
        idempotency_key: idempotencyKey,
        pix_key: key.normalized,
        pix_key_type: pixKeyType,
        amount_brl: amount,
        recipient_name: recipientName,
        description,
        created_at: clock.now(),
      });
      if (inserted) return { providerTransactionId: inserted.provider_transaction_id };
      const raced = await repo.findPayoutByIdempotencyKey(db, idempotencyKey);
      if (!raced) throw new Error(`payout ${idempotencyKey} neither inserted nor found`);
      return samePayoutOrRefuse(raced);
    },

    // --- sandbox drivers ------------------------------------------------------------------

    // A real PSP's location stops serving an expired charge; the sandbox still takes the payment,
    // so the orders module's own rule (a PIX that arrives too late is refunded) can be driven.
    async simulateChargePayment(txid, options = {}) {
      const paidAmount = options.amountBrl === undefined ? undefined : brlAmount(options.amountBrl);
      return db.transaction().execute(async (trx) => {
        // The row lock makes concurrent payments of one charge queue: one pays, the rest see CONCLUIDA.
        const charge = await repo.findCharge(trx, txid, { forUpdate: true });
        if (!charge) throw new PixSandboxNotFoundError('charge', txid);
        if (charge.status === 'CONCLUIDA') return chargePaid(charge);
        if (charge.status !== 'ATIVA') throw new PixSandboxRefusedError(`charge ${txid} is ${charge.status}`);
        const paidAt = clock.now();
        const paid = await repo.markChargePaid(trx, txid, {
          endToEndId: newEndToEndId(paidAt),
          amountBrl: paidAmount ?? charge.amount_brl,
          paidAt,
          payer: options.payer === undefined ? payerOf(charge, 'devedor') : (options.payer ?? undefined),
        });
        if (!paid) throw new Error(`charge ${txid} changed while locked`);
        return chargePaid(paid);
      });
    },

    simulateStaticPayment: (txid, { amountBrl, payer }) => staticCodes.simulateStaticPayment(txid, { amountBrl: brlAmount(amountBrl), payer: payer ?? undefined }),

    async settlePayouts(options = {}) {
      const now = options.now ?? clock.now();
      return inTransaction(options.db, async (trx) => {
        const notifications: PayoutSettledNotification[] = [];
        for (const { provider_transaction_id: id, idempotency_key: key } of await repo.lockProcessingPayouts(trx)) {
          if (options.skip?.has(key)) continue;
          const armed = await repo.takeArmedFailure(trx, 'PAYOUT', key);
          if (armed) {
            await repo.settlePayout(trx, id, { status: 'FAILED', reason: armed.reason }, now);
            notifications.push({ kind: 'payout_settled', providerTransactionId: id, status: 'FAILED', reason: armed.reason });
            continue;
          }
          const settled = await repo.settlePayout(trx, id, { status: 'CONFIRMED', endToEndId: newEndToEndId(now) }, now);
          if (settled?.end_to_end_id) {
            notifications.push({ kind: 'payout_settled', providerTransactionId: id, status: 'CONFIRMED', endToEndId: settled.end_to_end_id });
          }
        }
        return notifications;
      });
    },

    async failPayout(providerTransactionId, reason, options = {}) {
      const now = options.now ?? clock.now();
      return inTransaction(options.db, async (trx) => {
        const failed = await repo.settlePayout(trx, providerTransactionId, { status: 'FAILED', reason }, now);
        if (failed) return { kind: 'payout_settled', providerTransactionId, status: 'FAILED', reason } as const;
        const payout = await repo.findPayout(trx, providerTransactionId);
        if (!payout) throw new PixSandboxNotFoundError('payout', providerTransactionId);
        throw new PixSandboxRefusedError(`payout ${providerTransactionId} is already ${payout.status}`);
      });
    },

    async settleRefunds(options = {}) {
      const now = options.now ?? clock.now();
      return inTransaction(options.db, async (trx) => {
        // Refunds of a charge armed to fail are refused first; every other one is returned.
        const refused: RefundSettledNotification[] = [];
        for (const armed of await repo.lockArmedRefunds(trx)) {
          const failed = await repo.failRefund(trx, armed.refund_id, armed.reason, now);
          await repo.takeArmedFailure(trx, 'REFUND', armed.txid);
          if (failed) refused.push({ kind: 'refund_settled', endToEndId: failed.end_to_end_id, refundId: failed.refund_id, status: 'NAO_REALIZADO', reason: armed.reason });
        }
        const settled = await repo.settleRefunds(trx, now);
        return [
          ...refused,
          ...settled.map(
            (row): RefundSettledNotification => ({
              kind: 'refund_settled',
              endToEndId: row.end_to_end_id,
              refundId: row.refund_id,
              status: 'DEVOLVIDO',
            }),
          ),
        ];
      });
    },

    async failRefund(refundId, reason, options = {}) {
      const now = options.now ?? clock.now();
      return inTransaction(options.db, async (trx) => {
        const failed = await repo.failRefund(trx, refundId, reason, now);
        if (failed) {
          return { kind: 'refund_settled', endToEndId: failed.end_to_end_id, refundId, status: 'NAO_REALIZADO', reason } as const;
        }
        const refund = await repo.findRefund(trx, refundId);
        if (!refund) throw new PixSandboxNotFoundError('refund', refundId);
        throw new PixSandboxRefusedError(`refund ${refundId} is already ${refund.status}`);
      });
    },

    async armFailure(operation, key, reason) {
      if (!key) throw new PixSandboxRefusedError('a failure is armed for a key');
      await repo.armFailure(db, { operation, key, reason, created_at: clock.now() });
    },

    async payloadAt(location) {
      const row = await repo.findChargeByLocation(db, location.replace(/^https:\/\//i, ''));
      if (!row) return null;
      const payload: ChargePayload = {
        txid: row.txid,
        revisao: 0,
        calendario: {
          criacao: row.created_at.toISOString(),
          apresentacao: clock.now().toISOString(),
          expiracao: Math.round((row.expires_at.getTime() - row.created_at.getTime()) / 1000),
        },
        status: row.status,
        valor: { original: toFixedText(row.amount_brl, 2) },
        chave: settings.receivingKey,
      };
      return { jws: await signPayload(payload), payload };
    },
  };
}

/** API Pix `valor`: a positive plain decimal with at most 2 places, written with exactly 2. */
function brlAmount(value: BrlAmount): string {
  if (typeof value !== 'string' || !/^\d{1,16}(\.\d{1,2})?$/.test(value)) {
    throw new PixSandboxRefusedError(`amount must be decimal text with at most 2 places, e.g. "10.50" (got ${JSON.stringify(value)})`);
  }
  const amount = decimal(value);
  if (amount.lte(0)) throw new PixSandboxRefusedError('amount must be positive');
  return amount.toFixed(2);
}

function toCharge(row: Selectable<SandboxPixChargesTable>): PixCharge {
  return { txid: row.txid, amountBrl: toFixedText(row.amount_brl, 2), pixCopiaECola: row.pix_copia_e_cola, expiresAt: row.expires_at };
}

function toReceivedPix(row: Selectable<SandboxPixChargesTable>): ReceivedPix {
  if (!row.end_to_end_id || !row.paid_amount_brl || !row.paid_at) throw new Error(`charge ${row.txid} is not paid`);
  const payer = payerOf(row, 'payer');
  return { endToEndId: row.end_to_end_id, txid: row.txid, amountBrl: toFixedText(row.paid_amount_brl, 2), paidAt: row.paid_at, ...(payer ? { payer } : {}) };
}

function chargePaid(row: Selectable<SandboxPixChargesTable>): ChargePaidNotification {
  const { endToEndId, amountBrl, paidAt, payer } = toReceivedPix(row);
  return { kind: 'charge_paid', txid: row.txid, endToEndId, amountBrl, paidAt, ...(payer ? { payer } : {}) };
}

/**
 * Receivers: identity, contact, limits and KYC. Every merchant-facing function is scoped by the
 * authenticated merchant (another merchant's receiver is "not found"); KYC decisions and status
 * changes are guarded transitions that commit with their outbox event and audit record.
 */
import type { Static } from 'typebox';
import { inTransaction } from '../../platform/commit-signals.ts';
import type { Config } from '../../config.ts';
import type { IdempotentRequest } from '../../platform/idempotency/claim.ts';
import type { Db, Trx } from '../../db/database.ts';
import type { KycStatus, ReceiverRow, ReceiverStatus } from './tables.ts';
import { AppError, notFound } from '../../errors.ts';
import { parseDocument } from '../../lib/br-documents.ts';
import type { Clock } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import { hasAtMostDecimals, toFixedText, toJsonNumber } from '../../lib/money.ts';
import { isSolanaAddress } from '../../lib/solana.ts';
import { type AuditActor, recordAudit } from '../../platform/audit/record.ts';
import { recordEvent } from '../../platform/outbox.ts';
import { kycDecisionEvent } from './events.ts';
import { type OrderReceiver, toOrderReceiver } from './order-receiver.ts';
import { createReceiversRepo } from './repo.ts';
import type { PersonalData } from '../../lib/personal-data.ts';
import { updateReceiver } from './update.ts';
import {
  type CreateReceiverBody,
  type KycSubmissionBody,
  type LimitsBody,
  type ReceiverListQuery,
  type ReceiverSchema,
  type UpdateReceiverBody,
} from './schemas.ts';

export type Receiver = Static<typeof ReceiverSchema>;
export type { OrderReceiver } from './order-receiver.ts';
export { toOrderReceiver } from './order-receiver.ts';
export type ReceiverLimits = Receiver['limits'];
type Row = ReceiverRow;

/** Where a KYC decision may come from: an operator, or the merchant itself in sandbox mode. */
export type KycDecision = { approved: true } | { approved: false; reason: string };

const iso = (value: Date | null) => value?.toISOString() ?? null;

export function toReceiver(row: Row): Receiver {
  return {
    id: row.id,
    merchantId: row.merchant_id,
    type: row.person_type,
    documentType: row.document_type,
    document: row.document,
    name: row.name,
    email: row.email,
    phone: row.phone,
    addressStreet: row.address_street,
    addressNumber: row.address_number,
    addressComplement: row.address_complement,
    addressNeighborhood: row.address_neighborhood,
    addressCity: row.address_city,
    addressState: row.address_state,
    addressZipCode: row.address_zip_code,
    status: row.status,
    kycStatus: row.kyc_status,
    kycRejectionReason: row.kyc_rejection_reason,
    kycSubmittedAt: iso(row.kyc_submitted_at),
    kycReviewedAt: iso(row.kyc_reviewed_at),
    walletAddress: row.wallet_address,
    // Set by the managed-wallets module when it creates the key for a requested wallet.
    hasManagedWallet: row.managed_wallet_requested && row.wallet_address !== null,
    limits: limitsOf(row),
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

function limitsOf(row: Pick<Row, 'daily_limit_brl' | 'daily_transaction_limit' | 'night_transactions_enabled'>): ReceiverLimits {
  return {
    dailyLimitBrl: row.daily_limit_brl === null ? null : toJsonNumber(row.daily_limit_brl),
    dailyTransactionLimit: row.daily_transaction_limit,
    nightTransactionsEnabled: row.night_transactions_enabled,
  };
}

/** A BRL limit as NUMERIC text; the schema reads it exactly and bounds it, this checks centavos again. */
function limitText(value: number | string | null, field: string): string | null {
  if (value === null) return null;
  if (!hasAtMostDecimals(value, 2)) throw invalid(field, 'must have at most 2 decimals');
  return toFixedText(value, 2);
}

const invalid = (field: string, problem: string, message = `${field.replace(/^body\./, '')} ${problem}`) =>
  new AppError('VALIDATION_ERROR', message, { [field]: problem });

/** What another module may add to a new receiver, in its insert transaction (e.g. the managed wallet's key). */
export type OnReceiverCreated = (
  trx: Trx,
  receiver: { id: string; merchantId: string; managedWalletRequested: boolean },
) => Promise<{ walletAddress: string } | undefined>;

/** A receiver's usage of its daily limits at an instant: the orders module's definition (orders/creation/daily-usage.ts), wired by the composition root. */
export type DailyUsageOf = (receiverId: string, at: Date) => Promise<{ day: string; orderCount: number; amountBrl: string }>;

export function createReceiversService(deps: {
  db: Db;
  clock: Clock;
  defaults: Config['receivers'];
  /** Seals the receiver's document, name, email and phone at rest (repo.ts). */
  personalData: PersonalData;
  onReceiverCreated?: OnReceiverCreated;
  dailyUsage: DailyUsageOf;
}) {
  const { db, clock, defaults } = deps;
  const repo = createReceiversRepo(deps.personalData);

  async function withUsage(receiverId: string, limits: ReceiverLimits) {
    const usage = await deps.dailyUsage(receiverId, clock.now());
    return { receiverId, ...limits, usageDay: usage.day, ordersToday: usage.orderCount, usedTodayBrl: toJsonNumber(usage.amountBrl) };
  }

  async function findOwned(merchantId: string, id: string): Promise<Row> {
    const row = await repo.find(db, id, merchantId);
    if (!row) throw notFound('Receiver');
    return row;
  }

  /**
   * One guarded KYC transition with its event and audit record. `merchantId` scopes the lookup
   * (sandbox decisions by the merchant itself); operators pass undefined.
   */
  async function transitionKyc(
    id: string,
    options: { allowedFrom: KycStatus[]; merchantId?: string; by: AuditActor; action: string },
    apply: (row: Row, now: Date) => { to: KycStatus; changes: Partial<Row>; decision?: KycDecision },
  ): Promise<Receiver> {
    return inTransaction(db, async (trx) => {
      const row = await repo.find(trx, id, options.merchantId, { forUpdate: true });
      if (!row) throw notFound('Receiver');
      if (!options.allowedFrom.includes(row.kyc_status)) {
        throw new AppError('CONFLICT', `KYC is ${row.kyc_status}; this action needs ${options.allowedFrom.join(' or ')}`, {
          kycStatus: row.kyc_status,
        });
      }
      const now = clock.now();
      const { to, changes, decision } = apply(row, now);
      const updated = await repo.updateIfKycStatus(trx, id, row.kyc_status, { ...changes, kyc_status: to }, now);
      if (!updated) throw new AppError('CONFLICT', 'Receiver changed concurrently; retry');
      if (decision) await recordEvent(trx, kycDecisionEvent(updated, decision, now), deps.personalData);
      await recordAudit(trx, options.by, {
        action: options.action,
        targetType: 'receiver',
        targetId: id,
        details: { merchantId: row.merchant_id, from: row.kyc_status, to, ...(decision && !decision.approved ? { reason: decision.reason } : {}) },
      });
      return toReceiver(updated);
    });
  }

  return {
    /** With `claim`, the Idempotency-Key's answer commits with the receiver. */
    async create(merchantId: string, input: Static<typeof CreateReceiverBody>, claim?: IdempotentRequest): Promise<Receiver> {
      const document = parseDocument(input.type, input.document);
      if (!document.ok) throw invalid('body.document', document.reason, document.reason);
      if (input.walletAddress !== undefined && !isSolanaAddress(input.walletAddress)) {
        throw invalid('body.walletAddress', 'must be a Solana address (base58, 32 bytes)');
      }
      if (input.walletAddress !== undefined && input.createManagedWallet) {
        throw invalid('body.createManagedWallet', 'cannot be combined with walletAddress', 'Send either walletAddress or createManagedWallet, not both');
      }
      const limits = input.limits ?? {};
      const insert = async (trx: Db) => repo.insert(trx, {
        id: newId(),
        merchant_id: merchantId,
        person_type: input.type,
        document_type: document.documentType,
        document: document.normalized,
        name: input.name,
        email: input.email,
        phone: input.phone ?? null,
        address_street: input.addressStreet ?? null,
        address_number: input.addressNumber ?? null,
        address_complement: input.addressComplement ?? null,
        address_neighborhood: input.addressNeighborhood ?? null,
        address_city: input.addressCity ?? null,
        address_state: input.addressState ?? null,
        address_zip_code: input.addressZipCode ?? null,
        wallet_address: input.walletAddress ?? null,
        managed_wallet_requested: input.createManagedWallet ?? false,
        daily_limit_brl:
          limits.dailyLimitBrl !== undefined ? limitText(limits.dailyLimitBrl, 'body.limits.dailyLimitBrl') : defaults.defaultDailyLimitBrl,
        daily_transaction_limit: limits.dailyTransactionLimit !== undefined ? limits.dailyTransactionLimit : defaults.defaultDailyTransactionLimit,
        night_transactions_enabled: limits.nightTransactionsEnabled ?? defaults.defaultNightTransactionsEnabled[input.type],
      });
      const onCreated = deps.onReceiverCreated;
      const row =
        !onCreated && !claim
          ? await insert(db)
          : await inTransaction(db, async (trx) => {
              const inserted = await insert(trx);
              if (!inserted) return undefined;
              const added = await onCreated?.(trx, { id: inserted.id, merchantId, managedWalletRequested: inserted.managed_wallet_requested });
              const created = added ? await repo.setManagedWalletAddress(trx, inserted.id, added.walletAddress) : inserted;
              await claim?.complete(trx, { status: 201, body: toReceiver(created) });
              return created;
            });
      if (!row) {
        const existing = await repo.findByDocument(db, merchantId, document.normalized);
        throw new AppError('CONFLICT', 'A receiver with this document already exists', { existingReceiverId: existing?.id });
      }
      return toReceiver(row);
    },

    async list(merchantId: string, query: Static<typeof ReceiverListQuery>) {
      const { page, limit, ...filters } = query;
      const { rows, total } = await repo.list(db, merchantId, filters, { offset: (page - 1) * limit, limit });
      return { data: rows.map(toReceiver), total, page, limit };
    },

    get: async (merchantId: string, id: string): Promise<Receiver> => toReceiver(await findOwned(merchantId, id)),

    /** For quotes and order creation (in or out of its transaction); undefined for an unknown or foreign receiver. */
    async findForOrder(executor: Db, merchantId: string, id: string): Promise<OrderReceiver | undefined> {
      const row = await repo.find(executor, id, merchantId);
      return row && toOrderReceiver(row);
    },

    /** PATCH: contact and address only; renaming an APPROVED receiver sends it back to KYC review (update.ts). */
    update: async (merchantId: string, id: string, input: Static<typeof UpdateReceiverBody>, by: AuditActor = { actor: `merchant:${merchantId}` }): Promise<Receiver> =>
      toReceiver(await updateReceiver({ db, clock, repo, personalData: deps.personalData }, merchantId, id, input, by)),

    /** The limits with today's usage of them (GET and PUT answer both). */
    async getLimits(merchantId: string, id: string) {
      return withUsage(id, limitsOf(await findOwned(merchantId, id)));
    },

    async replaceLimits(merchantId: string, id: string, limits: Static<typeof LimitsBody>) {
      const row = await repo.update(
        db,
        id,
        merchantId,
        {
          daily_limit_brl: limitText(limits.dailyLimitBrl, 'body.dailyLimitBrl'),
          daily_transaction_limit: limits.dailyTransactionLimit,
          night_transactions_enabled: limits.nightTransactionsEnabled,
        },
        clock.now(),
      );
      if (!row) throw notFound('Receiver');
      return withUsage(id, limitsOf(row));
    },

    /** PENDING or REJECTED → SUBMITTED; the answer shows the last rejection reason, if any. */
    async submitKyc(merchantId: string, id: string, input: Static<typeof KycSubmissionBody>) {
      const receiver = await findOwned(merchantId, id);
      checkKycSubmission(receiver.person_type, input, clock.now());
      return inTransaction(db, async (trx) => {
        const row = await repo.find(trx, id, merchantId, { forUpdate: true });
        if (!row) throw notFound('Receiver');
        if (row.kyc_status !== 'PENDING' && row.kyc_status !== 'REJECTED') {
          throw new AppError('CONFLICT', `KYC is ${row.kyc_status}; it can be submitted only when PENDING or REJECTED`, {
            kycStatus: row.kyc_status,
          });
        }
        const now = clock.now();
        await repo.insertKycSubmission(trx, {
          id: newId(),
          receiver_id: id,
          birth_date: input.birthDate ?? null,
          incorporation_date: input.incorporationDate ?? null,
          mother_name: input.motherName ?? null,
          documents: input.documents,
          previous_rejection_reason: row.kyc_rejection_reason,
          submitted_at: now,
        });
        const updated = await repo.updateIfKycStatus(
          trx,
          id,
          row.kyc_status,
          {
            kyc_status: 'SUBMITTED',
            kyc_submitted_at: now,
            kyc_rejection_reason: null,
          },
          now,
        );
        if (!updated) throw new AppError('CONFLICT', 'Receiver changed concurrently; retry');
        return {
          receiverId: id,
          kycStatus: 'SUBMITTED' as const,
          kycSubmittedAt: now.toISOString(),
          previousRejectionReason: row.kyc_rejection_reason,
        };
      });
    },

    async getForOperator(id: string): Promise<Receiver> {
      const row = await repo.find(db, id, undefined);
      if (!row) throw notFound('Receiver');
      return toReceiver(row);
    },

    startKycReview: (id: string, by: AuditActor) =>
      transitionKyc(id, { allowedFrom: ['SUBMITTED'], by, action: 'receiver.kyc_start_review' }, () => ({
        to: 'UNDER_REVIEW',
        changes: {},
      })),

    /**
     * Approves or rejects KYC and emits receiver.kyc_approved / receiver.kyc_rejected in the same
     * transaction. Operators decide from SUBMITTED or UNDER_REVIEW; in sandbox the merchant may
     * also decide from PENDING so tests need no documents. Approval makes a PENDING receiver ACTIVE
     * (a SUSPENDED or BLOCKED one stays so: that is a separate operator decision).
     */
    decideKyc(id: string, decision: KycDecision, by: AuditActor, options: { merchantId?: string; allowFromPending?: boolean } = {}) {
      const allowedFrom: KycStatus[] = ['SUBMITTED', 'UNDER_REVIEW', ...(options.allowFromPending ? (['PENDING'] as const) : [])];
      return transitionKyc(
        id,
        { allowedFrom, by, action: decision.approved ? 'receiver.kyc_approve' : 'receiver.kyc_reject', ...(options.merchantId ? { merchantId: options.merchantId } : {}) },
        (row, now) => ({
          to: decision.approved ? 'APPROVED' : 'REJECTED',
          changes: {
            kyc_reviewed_at: now,
            kyc_rejection_reason: decision.approved ? null : decision.reason,
            ...(decision.approved && row.status === 'PENDING' ? { status: 'ACTIVE' as const } : {}),
          },
          decision,
        }),
      );
    },

    /** Operator status changes: suspend (ACTIVE), block (any but BLOCKED), reactivate (SUSPENDED or BLOCKED). */
    async changeStatus(id: string, action: 'suspend' | 'block' | 'reactivate', by: AuditActor): Promise<Receiver> {
      return inTransaction(db, async (trx) => {
        const row = await repo.find(trx, id, undefined, { forUpdate: true });
        if (!row) throw notFound('Receiver');
        const to = statusAfter(action, row);
        const updated = await repo.updateIfStatus(trx, id, row.status, { status: to }, clock.now());
        if (!updated) throw new AppError('CONFLICT', 'Receiver changed concurrently; retry');
        await recordAudit(trx, by, {
          action: `receiver.${action}`,
          targetType: 'receiver',
          targetId: id,
          details: { merchantId: row.merchant_id, from: row.status, to },
        });
        return toReceiver(updated);
      });
    },
  };
}

function statusAfter(action: 'suspend' | 'block' | 'reactivate', row: Row): ReceiverStatus {
  const refuse = () =>
    new AppError('CONFLICT', `Cannot ${action} a receiver whose status is ${row.status}`, { status: row.status });
  switch (action) {
    case 'suspend':
      if (row.status !== 'ACTIVE') throw refuse();
      return 'SUSPENDED';
    case 'block':
      if (row.status === 'BLOCKED') throw refuse();
      return 'BLOCKED';
    case 'reactivate':
      if (row.status !== 'SUSPENDED' && row.status !== 'BLOCKED') throw refuse();
      // Back to ACTIVE only with approved KYC; otherwise it waits for KYC like a new receiver.
      return row.kyc_status === 'APPROVED' ? 'ACTIVE' : 'PENDING';
  }
}

/** DESIGN.md §10: birthDate (and motherName) for PF, incorporationDate for PJ, dates not in the future. */
function checkKycSubmission(personType: 'PF' | 'PJ', input: Static<typeof KycSubmissionBody>, now: Date): void {
  const today = now.toISOString().slice(0, 10);
  const dateField = personType === 'PF' ? 'birthDate' : 'incorporationDate';
  const forbidden = personType === 'PF' ? ['incorporationDate'] : ['birthDate', 'motherName'];
  for (const field of forbidden) {
    if (field in input) throw invalid(`body.${field}`, `is not accepted for a ${personType} receiver`);
  }
  const date = input[dateField];
  if (date === undefined) throw invalid(`body.${dateField}`, `is required for a ${personType} receiver`);
  if (date > today) throw invalid(`body.${dateField}`, 'cannot be in the future');
  if (personType === 'PF' && input.documents.some((doc) => doc.type === 'ARTICLES_OF_INCORPORATION')) {
    throw invalid('body.documents', 'ARTICLES_OF_INCORPORATION applies to PJ receivers only');
  }
}

export type ReceiversService = ReturnType<typeof createReceiversService>;

/**
 * Payout batches (issue 43 item 3; docs/architecture/payout-batches.md, decision 0047): up to
 * 1,000 PAYOUT lines checked as POST /payout would check each (creation pipeline's `check`: the
 * receiver, KYC, limits, destination policy, bounds, externalId) before anything moves, stored
 * VALIDATED with a report per line and each valid line's price; submitted, then approved by a
 * second person of the merchant when its total is above the merchant's threshold; funded by one
 * deposit to one address (funding.ts), each valid line then paid as its own order.
 */
import type { Static } from 'typebox';
import type { FastifySchemaCompiler } from 'fastify';
import type { Db } from '../../db/database.ts';
import { AppError, invalidField, notFound } from '../../errors.ts';
import type { MerchantAuth } from '../../http/auth.ts';
import type { Clock } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import { decimal } from '../../lib/money.ts';
import type { PersonalData } from '../../lib/personal-data.ts';
import { recordAudit } from '../../platform/audit/record.ts';
import { inTransaction } from '../../platform/commit-signals.ts';
import type { ChainAdapter } from '../../adapters/chain/port.ts';
import { type OrderVariant, type ParsedOrder } from '../orders/creation/create-order.ts';
import type { PayoutBody } from '../orders/schemas.ts';
import { payoutBatchesRepo as repo } from './repo.ts';
import { parseCsv, recordToLine } from './csv.ts';
import { MAX_BATCH_ITEMS, type PayoutBatchBody, PayoutBatchLine } from './schemas.ts';
import type { PayoutBatchItemsTable, PayoutBatchRow } from './tables.ts';
import type { Insertable } from 'kysely';
import { batchView, itemView, type BatchView } from './view.ts';
import type { OrderPrice } from '../quotes/service.ts';
import { validatorCompiler } from '../../http/validator.ts';

type Line = Static<typeof PayoutBatchLine>;
type PayoutVariant = OrderVariant<Static<typeof PayoutBody>, ParsedOrder>;

/** What the service needs of the orders' creation pipeline (create-order.ts). */
export interface LineChecker {
  check(variant: PayoutVariant, merchantId: string, body: Static<typeof PayoutBody>): Promise<{ price: OrderPrice }>;
}

export interface PayoutBatchesDeps {
  db: Db;
  clock: Clock;
  pipeline: LineChecker;
  /** The PAYOUT variant whose provider call makes nothing: a line's order takes the batch's deposit. */
  variant: PayoutVariant;
  chain: Pick<ChainAdapter, 'createDepositAddress'>;
  personalData: Pick<PersonalData, 'sealNullable' | 'openNullable'>;
  /** How long the lines' prices hold (the PAYOUT's deposit window). */
  rateTtlSeconds: number;
  /** Lines checked at once. */
  concurrency?: number;
}

/** Errors of the provider or the price source stop the whole batch (503): not a line's fault. */
const TRANSIENT = new Set(['PROVIDER_UNAVAILABLE', 'PRICE_UNAVAILABLE', 'SERVICE_UNAVAILABLE', 'TREASURY_INSUFFICIENT_LIQUIDITY']);

const lineValidator = (validatorCompiler as unknown as (input: Parameters<FastifySchemaCompiler<typeof PayoutBatchLine>>[0]) => (value: unknown) => { value?: Line; error?: Array<{ instancePath: string; message?: string }> })({
  schema: PayoutBatchLine,
  httpPart: 'body',
  method: 'POST',
  url: '/payout-batches',
});

/** The deposit address's reference of a batch (deposits/addresses.ts: one address per reference). */
export const batchAddressReference = (batchId: string) => `payout-batch:${batchId}`;

/** A line's refusal as the report shows it: field → reason. */
function lineErrors(err: unknown): Record<string, string> {
  if (!(err instanceof AppError)) throw err;
  const details = err.details ?? {};
  const fields = Object.entries(details).filter(([, value]) => typeof value === 'string') as Array<[string, string]>;
  return { code: err.code, message: err.message, ...Object.fromEntries(fields.map(([key, value]) => [key.replace(/^body\./, ''), value])) };
}

export function createPayoutBatches(deps: PayoutBatchesDeps) {
  const { db, clock } = deps;

  /** The upload's lines, or 400 naming every broken line (the format, before any check). */
  function linesOf(body: Static<typeof PayoutBatchBody>): { token: string | undefined; chain: string; lines: Line[] } {
    if (typeof body !== 'string') return { token: body.token, chain: body.chain ?? 'solana', lines: body.items };
    const parsed = parseCsv(body);
    if (!parsed.ok) throw new AppError('VALIDATION_ERROR', `The CSV is broken at line ${parsed.line}: ${parsed.problem}`, { [`line ${parsed.line}`]: parsed.problem });
    if (parsed.rows.length === 0) throw invalidField('body', 'the CSV has no payout line');
    if (parsed.rows.length > MAX_BATCH_ITEMS) throw invalidField('body', `at most ${MAX_BATCH_ITEMS} lines; the file has ${parsed.rows.length}`);
    const errors: Record<string, string> = {};
    const lines: Line[] = [];
    for (const row of parsed.rows) {
      const checked = lineValidator(recordToLine(parsed.header, row.cells));
      if (checked.error) for (const e of checked.error) errors[`line ${row.line}${e.instancePath.replaceAll('/', '.')}`] = e.message ?? 'invalid';
      else lines.push(checked.value!);
    }
    if (Object.keys(errors).length > 0) throw new AppError('VALIDATION_ERROR', 'The CSV has lines in a broken format: nothing was stored', errors);
    return { token: undefined, chain: 'solana', lines };
  }

  /** Each line checked as POST /payout would, `concurrency` at a time, in line order. */
  async function checkLines(merchantId: string, token: string, chain: string, lines: Line[]) {
    const results: Array<{ price: OrderPrice } | { errors: Record<string, string> }> = new Array(lines.length);
    const seen = new Map<string, number>();
    let next = 0;
    const work = async () => {
      while (next < lines.length) {
        const i = next++;
        const line = lines[i]!;
        if (line.token !== undefined && line.token !== token) {
          results[i] = { errors: { code: 'VALIDATION_ERROR', token: `every line pays in the batch's token ${token}` } };
          continue;
        }
        const first = line.externalId === undefined ? undefined : seen.get(line.externalId);
        if (first !== undefined && first !== i) {
          results[i] = { errors: { code: 'CONFLICT', externalId: `already used by line ${first + 1} of this batch` } };
          continue;
        }
        const { token: _token, ...rest } = line;
        try {
          results[i] = { price: (await deps.pipeline.check(deps.variant, merchantId, { ...rest, amountCrypto: rest.amountCrypto, sourceToken: token, chain })).price };
        } catch (err) {
          if (err instanceof AppError && TRANSIENT.has(err.code)) throw err;
          results[i] = { errors: lineErrors(err) };
        }
      }
    };
    lines.forEach((line, i) => {
      if (line.externalId !== undefined && !seen.has(line.externalId)) seen.set(line.externalId, i);
    });
    await Promise.all(Array.from({ length: Math.min(deps.concurrency ?? 8, lines.length) }, work));
    return results;
  }

  async function find(merchantId: string, id: string): Promise<PayoutBatchRow> {
    const row = await repo.find(db, merchantId, id);
    if (!row) throw notFound('Payout batch');
    return row;
  }

  async function view(row: PayoutBatchRow): Promise<BatchView> {
    return batchView(row, await repo.progress(db, row.id));
  }

  /** The batch's address, asked for by its reference: a retry gets the same one. */
  async function withAddress(row: PayoutBatchRow): Promise<string> {
    return (await deps.chain.createDepositAddress({ orderId: batchAddressReference(row.id), token: row.token })).address;
  }

  const conflict = (row: PayoutBatchRow, action: string) => new AppError('CONFLICT', `Cannot ${action} a payout batch in ${row.status}`, { status: row.status });

  return {
    async create(auth: MerchantAuth, body: Static<typeof PayoutBatchBody>): Promise<BatchView> {
      const { merchantId } = auth;
      const { token: bodyToken, chain, lines } = linesOf(body);
      const token = bodyToken ?? lines[0]!.token ?? 'USDC';
      const results = await checkLines(merchantId, token, chain, lines);
      const now = clock.now();
      const id = newId();
      let total = decimal(0);
      let totalBrl = decimal(0);
      let totalNet = decimal(0);
      const items: Insertable<PayoutBatchItemsTable>[] = lines.map((line, i) => {
        const result = results[i]!;
        const valid = 'price' in result;
        if (valid) {
          total = total.plus(result.price.priced.amountToken);
          totalBrl = totalBrl.plus(result.price.priced.amountBrl);
          totalNet = totalNet.plus(result.price.priced.netAmountBrl);
        }
        return {
          batch_id: id,
          line: i + 1,
          status: valid ? 'VALID' : 'INVALID',
          receiver_id: line.receiverId,
          external_id: line.externalId ?? null,
          amount_token: valid ? result.price.priced.amountToken : String(line.amountCrypto),
          pix_key: deps.personalData.sealNullable('account', line.pixKey ?? null),
          pix_key_type: line.pixKeyType ?? null,
          recipient_name: deps.personalData.sealNullable('name', line.recipientName ?? null),
          price: valid ? JSON.stringify(result.price) : null,
          errors: valid ? null : JSON.stringify(result.errors),
          updated_at: now,
        };
      });
      const validCount = items.filter((item) => item.status === 'VALID').length;
      const row = await inTransaction(db, async (trx) => {
        const batch = await repo.insertBatch(trx, {
          id,
          merchant_id: merchantId,
          status: 'VALIDATED',
          chain,
          token,
          item_count: lines.length,
          valid_count: validCount,
          total_token: total.toString(),
          total_brl: totalBrl.toFixed(2),
          total_net_brl: totalNet.toFixed(2),
          rate_expires_at: new Date(now.getTime() + deps.rateTtlSeconds * 1000),
          created_by_user_id: auth.user?.id ?? null,
          created_by_credential_id: auth.credentialId,
          created_at: now,
          updated_at: now,
        });
        await repo.insertItems(trx, items);
        return batch;
      });
      return view(row);
    },

    get: async (merchantId: string, id: string) => view(await find(merchantId, id)),

    async list(merchantId: string, page: number, limit: number) {
      const [rows, total] = await Promise.all([repo.list(db, merchantId, limit, (page - 1) * limit), repo.count(db, merchantId)]);
      return { data: await Promise.all(rows.map(view)), total, page, limit };
    },

    async items(merchantId: string, id: string, page: number, limit: number) {
      const batch = await find(merchantId, id);
      const rows = await repo.items(db, batch.id, limit, (page - 1) * limit);
      return { data: rows.map(itemView), total: batch.item_count, page, limit };
    },

    /** Every line, for the report export. */
    async allItems(merchantId: string, id: string) {
      const batch = await find(merchantId, id);
      return { batch, items: (await repo.items(db, batch.id, MAX_BATCH_ITEMS, 0)).map(itemView) };
    },

    /**
     * The merchant confirms the report: above its threshold the batch waits for a second
     * person (AWAITING_APPROVAL), else it gets its deposit address (AWAITING_FUNDING).
     */
    async submit(merchantId: string, id: string): Promise<BatchView> {
      const batch = await find(merchantId, id);
      if (batch.status !== 'VALIDATED') throw conflict(batch, 'submit');
      if (batch.valid_count === 0) throw new AppError('CONFLICT', 'The batch has no valid line to pay', { validCount: 0 });
      const threshold = (await repo.settings(db, merchantId))?.approval_threshold_brl ?? null;
      const approvalRequired = threshold !== null && decimal(batch.total_brl).gt(threshold);
      const now = clock.now();
      const moved = approvalRequired
        ? await repo.move(db, batch.id, ['VALIDATED'], { status: 'AWAITING_APPROVAL', approval_required: true, updated_at: now })
        : await repo.move(db, batch.id, ['VALIDATED'], { status: 'AWAITING_FUNDING', approval_required: false, deposit_address: await withAddress(batch), updated_at: now });
      if (!moved) throw conflict((await find(merchantId, id)), 'submit');
      return view(moved);
    },

    /**
     * The second person's approval (merchant four-eyes, decision 0047): a person's session only
     * (an API key is the merchant's, not a person), OWNER or ADMIN, not the batch's creator.
     */
    async approve(auth: MerchantAuth, id: string, requestId?: string): Promise<BatchView> {
      if (auth.method !== 'session' || !auth.user) throw new AppError('FORBIDDEN', 'A payout batch is approved by a person signed in (a session), never by an API key', { reason: 'PERSON_REQUIRED' });
      if (auth.user.role !== 'OWNER' && auth.user.role !== 'ADMIN') throw new AppError('FORBIDDEN', 'Only an OWNER or an ADMIN approves a payout batch', { reason: 'ROLE_NOT_ALLOWED' });
      const batch = await find(auth.merchantId, id);
      if (batch.created_by_user_id === auth.user.id) throw new AppError('FORBIDDEN', 'The person who created a payout batch cannot approve it: a second person does', { reason: 'SECOND_PERSON_REQUIRED' });
      if (batch.status !== 'AWAITING_APPROVAL') throw conflict(batch, 'approve');
      const user = auth.user;
      const depositAddress = await withAddress(batch);
      const now = clock.now();
      // The approval and its audit entry (the merchant's GET /audit-log) in one transaction.
      const moved = await inTransaction(db, async (trx) => {
        const row = await repo.move(trx, batch.id, ['AWAITING_APPROVAL'], { status: 'AWAITING_FUNDING', approved_by_user_id: user.id, approved_at: now, deposit_address: depositAddress, updated_at: now });
        if (row) {
          const details = { createdByUserId: batch.created_by_user_id, totalBrl: decimal(batch.total_brl).toFixed(2), token: batch.token, totalCrypto: batch.total_token, validLines: batch.valid_count, before: { status: 'AWAITING_APPROVAL' }, after: { status: 'AWAITING_FUNDING' } };
          await recordAudit(trx, { actor: `user:${user.id}`, ...(requestId ? { requestId } : {}) }, { action: 'payout_batch.approve', merchantId: auth.merchantId, targetType: 'payout_batch', targetId: batch.id, details });
        }
        return row;
      });
      if (!moved) throw conflict(await find(auth.merchantId, id), 'approve');
      return view(moved);
    },

    /** No more orders are made; those made go on. Funding still arrives while paused. */
    async pause(merchantId: string, id: string): Promise<BatchView> {
      const batch = await find(merchantId, id);
      const moved = await repo.move(db, batch.id, ['AWAITING_FUNDING', 'PAYING'], { status: 'PAUSED', updated_at: clock.now() });
      if (!moved) throw conflict(batch, 'pause');
      return view(moved);
    },

    async resume(merchantId: string, id: string): Promise<BatchView> {
      const batch = await find(merchantId, id);
      if (batch.status !== 'PAUSED') throw conflict(batch, 'resume');
      const moved = await repo.move(db, batch.id, ['PAUSED'], { status: batch.funded_at ? 'PAYING' : 'AWAITING_FUNDING', updated_at: clock.now() });
      if (!moved) throw conflict(await find(merchantId, id), 'resume');
      return view(moved);
    },

    /** The lines not yet made orders are cancelled; their share of a deposit is held for return (deposits_to_return). */
    async cancel(merchantId: string, id: string): Promise<BatchView> {
      const batch = await find(merchantId, id);
      const moved = await inTransaction(db, async (trx) => {
        const locked = await repo.lock(trx, batch.id);
        if (!locked || !['VALIDATED', 'AWAITING_APPROVAL', 'AWAITING_FUNDING', 'PAUSED', 'PAYING'].includes(locked.status)) return undefined;
        const now = clock.now();
        await repo.closeValid(trx, batch.id, 'CANCELLED', now);
        const moved = await repo.move(trx, batch.id, [locked.status], { status: 'CANCELLED', updated_at: now });
        // Cancelled before its deposits covered the total: what arrived is held for return (decision 0051).
        await repo.holdUnfunded(trx, locked);
        return moved;
      });
      if (!moved) throw conflict(await find(merchantId, id), 'cancel');
      return view(moved);
    },

    async settings(merchantId: string) {
      const row = await repo.settings(db, merchantId);
      return { approvalThresholdBrl: row?.approval_threshold_brl == null ? null : decimal(row.approval_threshold_brl).toFixed(2), updatedAt: row ? new Date(row.updated_at).toISOString() : null };
    },

    /** By an OWNER (a person's session). */
    async putSettings(auth: MerchantAuth, approvalThresholdBrl: string | null, requestId?: string) {
      if (auth.method !== 'session' || !auth.user) throw new AppError('FORBIDDEN', "The batch approval threshold is set by a person signed in (a session), never by an API key", { reason: 'PERSON_REQUIRED' });
      if (auth.user.role !== 'OWNER') throw new AppError('FORBIDDEN', 'Only an OWNER sets the batch approval threshold', { reason: 'ROLE_NOT_ALLOWED' });
      const user = auth.user;
      const shown = (value: string | null | undefined) => (value == null ? null : decimal(value).toFixed(2));
      // The change and its audit entry (the merchant's GET /audit-log), before and after, in one transaction.
      const row = await inTransaction(db, async (trx) => {
        const before = await repo.settings(trx, auth.merchantId);
        const after = await repo.putSettings(trx, { merchant_id: auth.merchantId, approval_threshold_brl: approvalThresholdBrl, updated_by_user_id: user.id, updated_at: clock.now() });
        await recordAudit(trx, { actor: `user:${user.id}`, ...(requestId ? { requestId } : {}) }, {
          action: 'payout_batch.set_threshold',
          merchantId: auth.merchantId,
          targetType: 'payout_batch_settings',
          targetId: auth.merchantId,
          details: { before: { approvalThresholdBrl: shown(before?.approval_threshold_brl) }, after: { approvalThresholdBrl: shown(after.approval_threshold_brl) } },
        });
        return after;
      });
      return { approvalThresholdBrl: row.approval_threshold_brl == null ? null : decimal(row.approval_threshold_brl).toFixed(2), updatedAt: new Date(row.updated_at).toISOString() };
    },
  };
}

export type PayoutBatches = ReturnType<typeof createPayoutBatches>;

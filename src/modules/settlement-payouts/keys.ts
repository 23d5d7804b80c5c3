/**
 * Where a merchant's settlements are paid (docs/decisions/0044): a PIX key and its holder's
 * document, set so that no one insider can redirect the money. An operator asks for a key
 * (`request`: a PENDING row, audited); it is used only once a second operator approves the
 * SETTLEMENT_PIX_KEY proposal (`activate`, in the approval's transaction), never the one who asked
 * for it. Approving supersedes the merchant's previous key and sends again what was waiting for a
 * key or refused (payouts-repo.ts `requeue`). The merchant reads its key, never writes it.
 */
import type { Selectable } from 'kysely';
import type { Db, Trx } from '../../db/database.ts';
import { AppError, notFound } from '../../errors.ts';
import { isValidCnpj, isValidCpf, maskDocument, normalizeDocument } from '../../lib/br-documents.ts';
import type { Clock } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import type { PersonalData } from '../../lib/personal-data.ts';
import { type PixKeyType, validatePixKey } from '../../lib/pix-keys.ts';
import { type AuditActor, recordAudit } from '../../platform/audit/record.ts';
import { inTransaction } from '../../platform/commit-signals.ts';
import { payoutsRepo } from './payouts-repo.ts';
import type { SettlementPixKeysTable } from './tables.ts';

export interface SettlementPixKeyInput {
  pixKeyType: PixKeyType;
  pixKey: string;
  holderDocument: string;
}

type KeyRow = Selectable<SettlementPixKeysTable>;

const KEY_COLUMNS = ['id', 'merchant_id', 'pix_key_type', 'pix_key', 'holder_document', 'status', 'requested_by', 'requested_at', 'approval_id', 'activated_at'] as const;

/** A key as logs, audit entries and operators' lists show it: a document by DICT's mask, anything else by its ends. */
export function maskPixKey(type: PixKeyType, key: string): string {
  if (type === 'CPF' || type === 'CNPJ') return maskDocument(key);
  return key.length <= 6 ? '***' : `${key.slice(0, 3)}***${key.slice(-3)}`;
}

export function createSettlementPixKeys(deps: { db: Db; clock: Clock; personalData: Pick<PersonalData, 'seal' | 'open'> }) {
  const { db, clock, personalData: pd } = deps;

  const view = (row: KeyRow, clear: boolean) => {
    const key = pd.open('account', row.pix_key);
    const document = pd.open('document', row.holder_document);
    return {
      id: row.id,
      merchantId: row.merchant_id,
      pixKeyType: row.pix_key_type,
      pixKey: clear ? key : maskPixKey(row.pix_key_type, key),
      holderDocument: maskDocument(document),
      status: row.status,
      requestedAt: row.requested_at.toISOString(),
      activatedAt: row.activated_at ? row.activated_at.toISOString() : null,
      approvalId: row.approval_id,
    };
  };

  /** The key in DICT form and the bare document, or 400; a CPF or CNPJ key is its holder's own document. */
  function validated(input: SettlementPixKeyInput) {
    const key = validatePixKey(input.pixKeyType, input.pixKey);
    if (!key.ok) throw new AppError('VALIDATION_ERROR', `Invalid ${input.pixKeyType} key: ${key.reason}`, { 'body.pixKey': key.reason });
    const document = normalizeDocument(input.holderDocument);
    if (!isValidCpf(document) && !isValidCnpj(document)) throw new AppError('VALIDATION_ERROR', 'holderDocument must be a valid CPF or CNPJ', { 'body.holderDocument': 'must be a valid CPF or CNPJ' });
    if ((input.pixKeyType === 'CPF' || input.pixKeyType === 'CNPJ') && key.normalized !== document) {
      throw new AppError('VALIDATION_ERROR', 'A CPF or CNPJ key is its holder’s document: holderDocument must be the key', { 'body.holderDocument': 'must equal a CPF or CNPJ key' });
    }
    return { pixKey: key.normalized, holderDocument: document };
  }

  async function lockKey(trx: Trx, id: string): Promise<KeyRow | undefined> {
    return trx.selectFrom('settlement_pix_keys').select(KEY_COLUMNS).where('id', '=', id).forUpdate().executeTakeFirst();
  }

  return {
    /** An operator asks for a merchant's settlement key: PENDING until another operator approves it. Answers the new key's id. */
    async request(merchantId: string, input: SettlementPixKeyInput, by: AuditActor & { operatorId: string }): Promise<string> {
      const { pixKey, holderDocument } = validated(input);
      const merchant = await db.selectFrom('merchants').select('id').where('id', '=', merchantId).executeTakeFirst();
      if (!merchant) throw notFound('Merchant');
      const id = newId();
      await inTransaction(db, async (trx) => {
        await trx
          .insertInto('settlement_pix_keys')
          .values({ id, merchant_id: merchantId, pix_key_type: input.pixKeyType, pix_key: pd.seal('account', pixKey), holder_document: pd.seal('document', holderDocument), requested_by: by.operatorId, requested_at: clock.now() })
          .execute();
        await recordAudit(trx, by, {
          action: 'settlement_pix_key.request',
          // Where the merchant's money goes: its people read who asked for which key (masked).
          merchantId,
          targetType: 'merchant',
          targetId: merchantId,
          details: { keyId: id, pixKeyType: input.pixKeyType, pixKey: maskPixKey(input.pixKeyType, pixKey), holderDocument: maskDocument(holderDocument) },
        });
      });
      return id;
    },

    /** The four-eyes check: a PENDING key; what the approver agrees to, masked. */
    async check(id: string) {
      const row = await db.selectFrom('settlement_pix_keys').select(KEY_COLUMNS).where('id', '=', id).executeTakeFirst();
      if (!row) throw notFound('Settlement PIX key');
      if (row.status !== 'PENDING') throw new AppError('CONFLICT', `The settlement PIX key is ${row.status}, not PENDING`, { reason: 'ACTION_NOT_ALLOWED' });
      const current = await db.selectFrom('settlement_pix_keys').select(KEY_COLUMNS).where('merchant_id', '=', row.merchant_id).where('status', '=', 'ACTIVE').executeTakeFirst();
      return { merchantId: row.merchant_id, before: { requested: view(row, false), current: current ? view(current, false) : null, requestedBy: row.requested_by } };
    },

    /**
     * Runs in the approval's transaction: the key becomes the merchant's ACTIVE one (the previous
     * SUPERSEDED), and every settlement of the merchant waiting for a key or refused is due again.
     * Never by the operator who asked for the key (403 OWN_REQUEST).
     */
    async activate(trx: Trx, id: string, by: AuditActor & { approvalId: string }) {
      const row = await lockKey(trx, id);
      if (!row) throw notFound('Settlement PIX key');
      if (row.status !== 'PENDING') throw new AppError('CONFLICT', `The settlement PIX key is ${row.status}, not PENDING`, { reason: 'ACTION_NOT_ALLOWED' });
      if (by.actor === `operator:${row.requested_by}`) throw new AppError('FORBIDDEN', 'The operator who asked for a settlement key cannot approve it: another operator must', { reason: 'OWN_REQUEST' });
      const now = clock.now();
      await trx.updateTable('settlement_pix_keys').set({ status: 'SUPERSEDED' }).where('merchant_id', '=', row.merchant_id).where('status', '=', 'ACTIVE').execute();
      const activated = await trx.updateTable('settlement_pix_keys').set({ status: 'ACTIVE', approval_id: by.approvalId, activated_at: now }).where('id', '=', id).returning(KEY_COLUMNS).executeTakeFirstOrThrow();
      const requeued = await payoutsRepo.requeue(trx, row.merchant_id, now);
      await recordAudit(trx, by, { action: 'settlement_pix_key.activate', merchantId: row.merchant_id, targetType: 'merchant', targetId: row.merchant_id, details: { keyId: id, approvalId: by.approvalId, requeuedSettlements: requeued } });
      return { key: view(activated, false), requeuedSettlements: requeued };
    },

    /** The merchant's ACTIVE key: in clear for the merchant itself (its own), masked for operators. */
    async active(merchantId: string, options: { clear: boolean }) {
      const row = await db.selectFrom('settlement_pix_keys').select(KEY_COLUMNS).where('merchant_id', '=', merchantId).where('status', '=', 'ACTIVE').executeTakeFirst();
      return row ? view(row, options.clear) : null;
    },

    /** Every key asked for the merchant, newest first, masked (the back office). */
    async list(merchantId: string) {
      const rows = await db.selectFrom('settlement_pix_keys').select(KEY_COLUMNS).where('merchant_id', '=', merchantId).orderBy('requested_at', 'desc').orderBy('id', 'desc').limit(50).execute();
      return rows.map((row) => view(row, false));
    },
  };
}

export type SettlementPixKeys = ReturnType<typeof createSettlementPixKeys>;

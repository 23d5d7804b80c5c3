import type { Db } from '../../db/database.ts';
import type { KycStatus, PersonType, ReceiverStatus, ReceiversTable } from './tables.ts';
import type { Insertable, Updateable } from 'kysely';

/** Every function takes the transaction (or root db) it runs in; every read is scoped by merchant. */
export const receiversRepo = {
  /** Inserts unless the merchant already has a receiver with this document; then returns undefined. */
  insert(db: Db, receiver: Insertable<ReceiversTable>) {
    return db
      .insertInto('receivers')
      .values(receiver)
      .onConflict((oc) => oc.constraint('receivers_merchant_document_key').doNothing())
      .returningAll()
      .executeTakeFirst();
  },

  findByDocument(db: Db, merchantId: string, document: string) {
    return db.selectFrom('receivers').select('id').where('merchant_id', '=', merchantId).where('document', '=', document).executeTakeFirst();
  },

  /** `merchantId` undefined only for operators, who see every merchant's receivers. */
  find(db: Db, id: string, merchantId: string | undefined, options: { forUpdate?: boolean } = {}) {
    let query = db.selectFrom('receivers').selectAll().where('id', '=', id);
    if (merchantId !== undefined) query = query.where('merchant_id', '=', merchantId);
    if (options.forUpdate) query = query.forUpdate();
    return query.executeTakeFirst();
  },

  async list(
    db: Db,
    merchantId: string,
    filters: { status?: ReceiverStatus; kycStatus?: KycStatus; type?: PersonType },
    page: { offset: number; limit: number },
  ) {
    let query = db.selectFrom('receivers').where('merchant_id', '=', merchantId);
    if (filters.status) query = query.where('status', '=', filters.status);
    if (filters.kycStatus) query = query.where('kyc_status', '=', filters.kycStatus);
    if (filters.type) query = query.where('person_type', '=', filters.type);
    const [rows, count] = await Promise.all([
      query.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').offset(page.offset).limit(page.limit).execute(),
      query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.total) };
  },

  /** Fills the address of a managed wallet created with the receiver (same transaction; not an update by the merchant). */
  setManagedWalletAddress(db: Db, id: string, walletAddress: string) {
    return db.updateTable('receivers').set({ wallet_address: walletAddress }).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
  },

  update(db: Db, id: string, merchantId: string, changes: Updateable<ReceiversTable>, now: Date) {
    return db
      .updateTable('receivers')
      .set({ ...changes, updated_at: now })
      .where('id', '=', id)
      .where('merchant_id', '=', merchantId)
      .returningAll()
      .executeTakeFirst();
  },

  /** Guarded transition: changes the row only while its KYC status is still `from`. */
  updateIfKycStatus(db: Db, id: string, from: KycStatus, changes: Updateable<ReceiversTable>, now: Date) {
    return db
      .updateTable('receivers')
      .set({ ...changes, updated_at: now })
      .where('id', '=', id)
      .where('kyc_status', '=', from)
      .returningAll()
      .executeTakeFirst();
  },

  /** Guarded transition: changes the row only while its status is still `from`. */
  updateIfStatus(db: Db, id: string, from: ReceiverStatus, changes: Updateable<ReceiversTable>, now: Date) {
    return db
      .updateTable('receivers')
      .set({ ...changes, updated_at: now })
      .where('id', '=', id)
      .where('status', '=', from)
      .returningAll()
      .executeTakeFirst();
  },

  insertKycSubmission(
    db: Db,
    submission: {
      id: string;
      receiver_id: string;
      birth_date: string | null;
      incorporation_date: string | null;
      mother_name: string | null;
      documents: Array<{ type: string; reference: string }>;
      previous_rejection_reason: string | null;
      submitted_at: Date;
    },
  ) {
    return db
      .insertInto('receiver_kyc_submissions')
      .values({ ...submission, documents: JSON.stringify(submission.documents) })
      .execute();
  },
};

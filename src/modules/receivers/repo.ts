import type { Db } from '../../db/database.ts';
import type { PersonalData } from '../../lib/personal-data.ts';
import type { KycStatus, PersonType, ReceiverRow, ReceiverStatus, ReceiversTable } from './tables.ts';
import type { Insertable, Updateable } from 'kysely';
import { RECEIVER_ADDRESS_COLUMNS } from './sealed-columns.ts';
import { RECEIVER_COLUMNS } from './tables.ts';

type Writable = Insertable<ReceiversTable> | Updateable<ReceiversTable>;

/**
 * Personal data in and out of the row (src/lib/personal-data.ts): what is written is sealed (the
 * document with its blind index, each part of the address), what is read is opened, so the service and the API see clear
 * text and the table never holds it.
 */
export function receiverSealing(pd: PersonalData) {
  return {
    seal<T extends Writable>(values: T): T {
      const sealed: Writable = { ...values };
      if (typeof values.document === 'string') {
        sealed.document = pd.seal('document', values.document);
        sealed.document_hash = pd.index('document', values.document);
      }
      if (typeof values.name === 'string') sealed.name = pd.seal('name', values.name);
      if (typeof values.email === 'string') sealed.email = pd.seal('email', values.email);
      if (values.phone !== undefined) sealed.phone = pd.sealNullable('phone', values.phone ?? null);
      for (const column of RECEIVER_ADDRESS_COLUMNS) {
        const value = values[column];
        if (value !== undefined) sealed[column] = pd.sealNullable('address', value);
      }
      return sealed as T;
    },
    open<T extends ReceiverRow>(row: T): T {
      const opened: T = { ...row, document: pd.open('document', row.document), name: pd.open('name', row.name), email: pd.open('email', row.email), phone: pd.openNullable('phone', row.phone) };
      for (const column of RECEIVER_ADDRESS_COLUMNS) opened[column] = pd.openNullable('address', row[column]);
      return opened;
    },
  };
}

/** Every function takes the transaction (or root db) it runs in; every read is scoped by merchant. */
export function createReceiversRepo(pd: PersonalData) {
  const { seal, open } = receiverSealing(pd);
  const opened = <T extends ReceiverRow>(row: T | undefined) => row && open(row);
  /**
   * The one shape of a guarded update: seal the changes, stamp updated_at, and change the row only
   * while `guard` still holds (its merchant, or the status a transition starts from);
   * undefined when it does not (another merchant's receiver, or a transition that lost a race).
   */
  const updateWhile = (db: Db, id: string, guard: { merchant_id: string } | { kyc_status: KycStatus } | { status: ReceiverStatus }, changes: Updateable<ReceiversTable>, now: Date) =>
    db
      .updateTable('receivers')
      .set({ ...seal(changes), updated_at: now })
      .where('id', '=', id)
      .where((eb) => eb.and(guard))
      .returning(RECEIVER_COLUMNS)
      .executeTakeFirst()
      .then(opened);
  return {
    /** Inserts unless the merchant already has a receiver with this document; then returns undefined. */
    insert(db: Db, receiver: Insertable<ReceiversTable>) {
      return db
        .insertInto('receivers')
        .values(seal(receiver))
        .onConflict((oc) => oc.constraint('receivers_merchant_document_hash_key').doNothing())
        .returning(RECEIVER_COLUMNS)
        .executeTakeFirst()
        .then(opened);
    },

    /** By the document's blind index under every KEK version known (a row not yet re-sealed keeps its old one). */
    findByDocument(db: Db, merchantId: string, document: string) {
      return db.selectFrom('receivers').select('id').where('merchant_id', '=', merchantId).where('document_hash', 'in', pd.indexes('document', document)).executeTakeFirst();
    },

    /** `merchantId` undefined only for operators, who see every merchant's receivers. */
    find(db: Db, id: string, merchantId: string | undefined, options: { forUpdate?: boolean } = {}) {
      let query = db.selectFrom('receivers').select(RECEIVER_COLUMNS).where('id', '=', id);
      if (merchantId !== undefined) query = query.where('merchant_id', '=', merchantId);
      if (options.forUpdate) query = query.forUpdate();
      return query.executeTakeFirst().then(opened);
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
        query.select(RECEIVER_COLUMNS).orderBy('created_at', 'desc').orderBy('id', 'desc').offset(page.offset).limit(page.limit).execute(),
        query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
      ]);
      return { rows: rows.map(open), total: Number(count.total) };
    },

    /** Fills the address of a managed wallet created with the receiver (same transaction; not an update by the merchant). */
    setManagedWalletAddress(db: Db, id: string, walletAddress: string) {
      return db.updateTable('receivers').set({ wallet_address: walletAddress }).where('id', '=', id).returning(RECEIVER_COLUMNS).executeTakeFirstOrThrow().then(open);
    },

    update: (db: Db, id: string, merchantId: string, changes: Updateable<ReceiversTable>, now: Date) => updateWhile(db, id, { merchant_id: merchantId }, changes, now),

    /** Guarded transition: changes the row only while its KYC status is still `from`. */
    updateIfKycStatus: (db: Db, id: string, from: KycStatus, changes: Updateable<ReceiversTable>, now: Date) => updateWhile(db, id, { kyc_status: from }, changes, now),

    /** Guarded transition: changes the row only while its status is still `from`. */
    updateIfStatus: (db: Db, id: string, from: ReceiverStatus, changes: Updateable<ReceiversTable>, now: Date) => updateWhile(db, id, { status: from }, changes, now),

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
        .values({ ...submission, mother_name: pd.sealNullable('name', submission.mother_name), documents: JSON.stringify(submission.documents) })
        .execute();
    },
  };
}

export type ReceiversRepo = ReturnType<typeof createReceiversRepo>;

/**
 * SQL of the operators' KYC review (kyc-review.ts): the queue across merchants and a receiver's
 * submissions. Every function takes the db (or transaction) it runs in.
 */
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { PersonalData } from '../../lib/personal-data.ts';
import { receiverSealing } from './repo.ts';
import type { KycStatus } from './tables.ts';
import { RECEIVER_COLUMNS } from './tables.ts';
import { qualified } from '../../db/columns.ts';

/**
 * The queue's sort key: when the receiver submitted, or was created if it never did (PENDING).
 * The same expression as receivers_kyc_queue_idx and receivers_kyc_awaiting_idx (migration
 * 0035), so a page is an index range.
 */
const waitingSince = sql<Date>`coalesce(receivers.kyc_submitted_at, receivers.created_at)`;

/** The receiver's personal data is opened here, as receivers' own repo does (repo.ts). */
export function createKycReviewRepo(pd: PersonalData) {
  const { open } = receiverSealing(pd);
  return {
    exists(db: Db, id: string) {
      return db.selectFrom('receivers').select('id').where('id', '=', id).executeTakeFirst().then((row) => row !== undefined);
    },

    /**
     * Receivers of these KYC statuses, the longest waiting first, after the receiver `after` (the
     * cursor: its key is read in the statement, at the database's microseconds, never a rounded copy).
     */
    queue(db: Db, filters: { statuses: KycStatus[]; merchantId?: string; documentHashes?: string[] }, after: string | undefined, limit: number) {
      let query = db
        .selectFrom('receivers')
        .innerJoin('merchants', 'merchants.id', 'receivers.merchant_id')
        .select(qualified('receivers', RECEIVER_COLUMNS))
        .select(['merchants.name as merchant_name', waitingSince.as('waiting_since')])
        // Literals (a closed enumeration), so that even a generic plan proves the partial index
        // receivers_kyc_awaiting_idx's predicate for the default queue (migration 0035).
        .where('receivers.kyc_status', 'in', filters.statuses.map((status) => sql.lit(status)));
      if (filters.merchantId !== undefined) query = query.where('receivers.merchant_id', '=', filters.merchantId);
    // The document is sealed: it is searched by its blind index (receivers_document_hash_idx).
    if (filters.documentHashes !== undefined) query = query.where('receivers.document_hash', 'in', filters.documentHashes);
      if (after !== undefined) {
        query = query.where(sql<boolean>`(${waitingSince}, receivers.id) > (select coalesce(c.kyc_submitted_at, c.created_at), c.id from receivers c where c.id = ${after})`);
      }
      return query.orderBy(waitingSince).orderBy('receivers.id').limit(limit).execute().then((rows) => rows.map(open));
    },

    /** One receiver with its merchant's name (operators: any merchant). */
    withMerchant(db: Db, id: string) {
      return db
        .selectFrom('receivers')
        .innerJoin('merchants', 'merchants.id', 'receivers.merchant_id')
        .select(qualified('receivers', RECEIVER_COLUMNS))
        .select('merchants.name as merchant_name')
        .where('receivers.id', '=', id)
        .executeTakeFirst()
        .then((row) => row && open(row));
    },

    /** Every submission of a receiver, newest first (receiver_kyc_submissions_receiver_idx). */
    submissions(db: Db, receiverId: string) {
      return db
        .selectFrom('receiver_kyc_submissions')
        .select(['id', 'birth_date', 'incorporation_date', 'mother_name', 'documents', 'previous_rejection_reason', 'submitted_at'])
        .where('receiver_id', '=', receiverId)
        .orderBy('submitted_at', 'desc')
        .orderBy('id', 'desc')
        .execute()
        .then((rows) => rows.map((row) => ({ ...row, mother_name: pd.openNullable('name', row.mother_name) })));
    },
  };
}

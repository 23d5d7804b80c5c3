/**
 * The operators' KYC review (issue 29): the queue of receivers across merchants by KYC status,
 * the longest waiting first, and one receiver's file for a decision (its submissions and the
 * audit history of what was decided about it). Read only: decisions are service.ts's.
 */
import type { Static } from 'typebox';
import type { Db } from '../../db/database.ts';
import { invalidField, notFound } from '../../errors.ts';
import { normalizeDocument } from '../../lib/br-documents.ts';
import type { Clock } from '../../lib/clock.ts';
import { listAudit } from '../audit/log.ts';
import { type AuditActor, recordDataRelease } from '../../platform/audit/record.ts';
import { AWAITING_DECISION, type KycSubmissionSchema } from './kyc-review-schemas.ts';
import { KYC_STATUSES } from './schemas.ts';
import { createKycReviewRepo } from './kyc-review-repo.ts';
import type { PersonalData } from '../../lib/personal-data.ts';
import { toReceiver } from './service.ts';
import type { KycStatus, ReceiverRow } from './tables.ts';

/** The newest entries a receiver's history shows (an operator's trail of one receiver is short). */
const HISTORY_LIMIT = 100;

export interface KycQueueQuery {
  kycStatus?: KycStatus;
  merchantId?: string;
  /** An exact document: looked up by its blind index (repo), any KYC status unless kycStatus says one. */
  document?: string;
  limit: number;
  cursor?: string;
}

export function createKycReview(deps: { db: Db; clock: Clock; personalData: PersonalData }) {
  const { db, clock } = deps;
  const repo = createKycReviewRepo(deps.personalData);
  const secondsSince = (at: Date) => Math.max(0, Math.floor((clock.now().getTime() - at.getTime()) / 1000));
  const waitingSeconds = (row: ReceiverRow) => secondsSince(row.kyc_submitted_at ?? row.created_at);

  return {
    async queue(query: KycQueueQuery) {
      const statuses = query.kycStatus ? [query.kycStatus] : query.document !== undefined ? [...KYC_STATUSES] : [...AWAITING_DECISION];
      const filters = {
        statuses,
        ...(query.merchantId ? { merchantId: query.merchantId } : {}),
        ...(query.document !== undefined ? { documentHashes: deps.personalData.indexes('document', normalizeDocument(query.document)) } : {}),
      };
      // One row more than the page tells whether another page follows.
      const rows = await repo.queue(db, filters, query.cursor, query.limit + 1);
      if (rows.length === 0 && query.cursor !== undefined && !(await repo.exists(db, query.cursor))) {
        throw invalidField('querystring.cursor', 'is not a receiver');
      }
      const page = rows.slice(0, query.limit);
      return {
        data: page.map((row) => ({
          receiver: toReceiver(row),
          merchantId: row.merchant_id,
          merchantName: row.merchant_name,
          kycSubmittedAt: row.kyc_submitted_at?.toISOString() ?? null,
          waitingSeconds: waitingSeconds(row),
        })),
        nextCursor: rows.length > query.limit ? page[page.length - 1]!.id : null,
      };
    },

    /**
     * The KYC file, recorded as `receiver.kyc_file_open` by `by` (who, when, which receiver) before
     * it is answered: a file is a person's documents, so every look at one is on record (issue 38
     * item 5). Its target type is `kyc_file`, not `receiver`, so the file's own history shows
     * decisions, not the looks at it.
     */
    async review(id: string, by: AuditActor) {
      const row = await repo.withMerchant(db, id);
      if (!row) throw notFound('Receiver');
      await recordDataRelease(db, by, { action: 'receiver.kyc_file_open', targetType: 'kyc_file', targetId: id, details: { merchantId: row.merchant_id } });
      const [submissions, history] = await Promise.all([repo.submissions(db, id), listAudit({ db, personalData: deps.personalData }, { targetType: 'receiver', targetId: id, limit: HISTORY_LIMIT })]);
      return {
        receiver: toReceiver(row),
        merchantName: row.merchant_name,
        waitingSeconds: waitingSeconds(row),
        submissions: submissions.map((s) => ({
          id: s.id,
          submittedAt: s.submitted_at.toISOString(),
          birthDate: s.birth_date,
          incorporationDate: s.incorporation_date,
          motherName: s.mother_name,
          // Written from KycSubmissionBody, whose document types are the schema's.
          documents: s.documents as Static<typeof KycSubmissionSchema>['documents'],
          previousRejectionReason: s.previous_rejection_reason,
        })),
        history: history.data.reverse(),
      };
    },
  };
}

export type KycReview = ReturnType<typeof createKycReview>;

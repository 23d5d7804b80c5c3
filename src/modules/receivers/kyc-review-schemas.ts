/**
 * The operators' KYC review shapes (GET /admin/receivers, GET /admin/receivers/{id}/kyc): a
 * queue row, and what a reviewer reads before deciding.
 */
import { Type } from 'typebox';
import { MAX_PAGE_SIZE } from '../../http/pagination.ts';
import { StrictObject, Timestamp, Uuid } from '../../http/schemas.ts';
import { OperatorAuditEntrySchema } from '../audit/schemas.ts';
import { KycDocumentTypeSchema, KycStatusSchema, ReceiverSchema } from './schemas.ts';

/** The statuses awaiting an operator's decision: the queue when no kycStatus is asked. */
export const AWAITING_DECISION = ['SUBMITTED', 'UNDER_REVIEW'] as const;
export const KYC_QUEUE_DEFAULT_LIMIT = 50;

export const KycQueueQuery = StrictObject({
  kycStatus: Type.Optional(KycStatusSchema),
  merchantId: Type.Optional(Uuid('Only this merchant’s receivers')),
  document: Type.Optional(
    Type.String({
      minLength: 11,
      maxLength: 18,
      description: 'Only the receivers with this CPF or CNPJ (formatted or bare), of every KYC status unless `kycStatus` is given; matched by its keyed hash, the document being sealed at rest',
    }),
  ),
  limit: Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE, default: KYC_QUEUE_DEFAULT_LIMIT, description: `Page size, at most ${MAX_PAGE_SIZE}` }),
  cursor: Type.Optional(Uuid('The `nextCursor` of the previous page')),
});

const WaitingSeconds = Type.Integer({
  minimum: 0,
  description: 'Seconds since kycSubmittedAt (since the receiver was created, when it never submitted): how long it has waited',
});

export const KycQueueItemSchema = Type.Object(
  {
    receiver: ReceiverSchema,
    merchantId: Uuid(),
    merchantName: Type.String(),
    kycSubmittedAt: Type.Union([Timestamp(), Type.Null()], { description: 'The last submission; null when the receiver never submitted (PENDING)' }),
    waitingSeconds: WaitingSeconds,
  },
  { title: 'KycQueueItem' },
);

export const KycQueuePageSchema = Type.Object(
  { data: Type.Array(KycQueueItemSchema), nextCursor: Type.Union([Uuid(), Type.Null()], { description: 'Pass as `cursor` for the next page; null on the last' }) },
  { title: 'KycQueuePage' },
);

export const KycSubmissionSchema = Type.Object(
  {
    id: Uuid(),
    submittedAt: Timestamp(),
    birthDate: Type.Union([Type.String({ format: 'date' }), Type.Null()], { description: 'PF: YYYY-MM-DD' }),
    incorporationDate: Type.Union([Type.String({ format: 'date' }), Type.Null()], { description: 'PJ: YYYY-MM-DD' }),
    motherName: Type.Union([Type.String(), Type.Null()], { description: 'PF' }),
    documents: Type.Array(
      Type.Object({ type: KycDocumentTypeSchema, reference: Type.String({ description: "The merchant's storage reference of the file" }) }),
    ),
    previousRejectionReason: Type.Union([Type.String(), Type.Null()], { description: 'The rejection the receiver was shown when submitting this' }),
  },
  { title: 'KycSubmission' },
);

export const ReceiverKycReviewSchema = Type.Object(
  {
    receiver: ReceiverSchema,
    merchantName: Type.String(),
    waitingSeconds: WaitingSeconds,
    submissions: Type.Array(KycSubmissionSchema, { description: 'Every submission, newest first: the first is the one under review' }),
    history: Type.Array(OperatorAuditEntrySchema, {
      description: 'The audit entries whose target is this receiver (KYC decisions, status changes), oldest first; the newest 100 when there are more',
    }),
  },
  { title: 'ReceiverKycReview' },
);

/** Operator routes for receivers: the KYC review queue and file, KYC and status decisions (each audited). */
import { AppError } from '../../errors.ts';
import { adminActor } from '../../http/audit-actor.ts';
import { BODY_ERRORS, IdParams, errorResponses } from '../../http/schemas.ts';
import type { App } from '../../http/types.ts';
import type { KycReview } from './kyc-review.ts';
import { KycQueuePageSchema, KycQueueQuery, ReceiverKycReviewSchema } from './kyc-review-schemas.ts';
import { KycRejectBody, ReceiverSchema } from './schemas.ts';
import type { ReceiversService } from './service.ts';
import { readsMasked } from '../operators/personal-data-reads.ts';
import { maskReceiver } from './reader-mask.ts';

const tags = ['Admin'];
const ERRORS = [400, 401, 403, 404, 409] as const;

export function registerAdminReceiverRoutes(app: App, receivers: ReceiversService, kycReview: KycReview): void {
  app.get(
    '/admin/receivers',
    {
      schema: {
        tags,
        summary: 'The KYC review queue: receivers of every merchant by KYC status, the longest waiting first',
        description:
          'Without `kycStatus`, the receivers awaiting a decision (SUBMITTED and UNDER_REVIEW). Ordered by kycSubmittedAt (creation time for a receiver that never submitted), then id. ' +
          'Cursor-paged: pass `nextCursor` as `cursor` for the next page (null on the last); a cursor that names no receiver is 400. A receiver resubmitted between two pages moves to the end of the queue. ' +
          '`document` finds a receiver by its exact CPF or CNPJ across merchants (any KYC status unless `kycStatus` is given): documents are sealed at rest, so the search goes by their keyed hash, never by a prefix. ' +
          'An operator whose role lacks `kyc.review` (VIEWER, OPERATIONS, FINANCE) may not search by `document` (403 `FORBIDDEN`: even a masked answer would confirm whose CPF it is) and sees each document masked (`***.456.789-**`) and the email, phone and street address as `***`; the KYC file (GET /admin/receivers/{id}/kyc) shows them, and every opening of it is recorded.',
        querystring: KycQueueQuery,
        response: { 200: KycQueuePageSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const masked = readsMasked(request);
      // A masked answer would still confirm that a CPF is a customer's: asking is a compliance act.
      if (masked && request.query.document !== undefined) throw new AppError('FORBIDDEN', 'Finding a receiver by its document needs kyc.review (COMPLIANCE or ADMIN)');
      const page = await kycReview.queue(request.query);
      return masked ? { ...page, data: page.data.map((item) => ({ ...item, receiver: maskReceiver(item.receiver) })) } : page;
    },
  );

  app.get(
    '/admin/receivers/:id/kyc',
    {
      schema: {
        tags,
        summary: "A receiver's KYC file: the receiver, its submissions and what was decided",
        description: 'The submissions (documents as the merchant referenced them; newest first) and the audit history of the receiver (KYC decisions and status changes, oldest first, with actor, time and details). Every opening is recorded in the audit log (`receiver.kyc_file_open`, target type `kyc_file`, target id the receiver): who, when, which file.',
        params: IdParams,
        response: { 200: ReceiverKycReviewSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => kycReview.review(request.params.id, adminActor(request)),
  );

  app.get(
    '/admin/receivers/:id',
    { schema: { tags, summary: 'Any merchant’s receiver', description: 'An operator whose role lacks `kyc.review` sees the document masked and the email, phone and street address as `***`, as in the KYC queue.', params: IdParams, response: { 200: ReceiverSchema, ...errorResponses(...ERRORS) } } },
    async (request) => {
      const receiver = await receivers.getForOperator(request.params.id);
      return readsMasked(request) ? maskReceiver(receiver) : receiver;
    },
  );

  app.post(
    '/admin/receivers/:id/kyc/start-review',
    {
      config: { idempotent: true },
      schema: { tags, summary: 'KYC SUBMITTED → UNDER_REVIEW', params: IdParams, response: { 200: ReceiverSchema, ...errorResponses(...ERRORS) } },
    },
    async (request) => receivers.startKycReview(request.params.id, adminActor(request)),
  );

  app.post(
    '/admin/receivers/:id/kyc/approve',
    {
      config: { idempotent: true },
      schema: {
        tags,
        summary: 'Approve KYC (from SUBMITTED or UNDER_REVIEW)',
        description: 'kycStatus becomes APPROVED and a PENDING receiver becomes ACTIVE; emits receiver.kyc_approved.',
        params: IdParams,
        response: { 200: ReceiverSchema, ...errorResponses(...ERRORS) },
      },
    },
    async (request) => receivers.decideKyc(request.params.id, { approved: true }, adminActor(request)),
  );

  app.post(
    '/admin/receivers/:id/kyc/reject',
    {
      config: { idempotent: true },
      schema: {
        tags,
        summary: 'Reject KYC (from SUBMITTED or UNDER_REVIEW)',
        description: 'kycStatus becomes REJECTED; the reason is shown at the next submission; emits receiver.kyc_rejected.',
        params: IdParams,
        body: KycRejectBody,
        response: { 200: ReceiverSchema, ...errorResponses(...ERRORS, ...BODY_ERRORS) },
      },
    },
    async (request) => receivers.decideKyc(request.params.id, { approved: false, reason: request.body.reason }, adminActor(request)),
  );

  for (const [action, summary] of [
    ['suspend', 'Suspend an ACTIVE receiver'],
    ['block', 'Block a receiver (from any status but BLOCKED)'],
    ['reactivate', 'Reactivate a SUSPENDED or BLOCKED receiver (ACTIVE with approved KYC, else PENDING)'],
  ] as const) {
    app.post(
      `/admin/receivers/:id/${action}`,
      { config: { idempotent: true }, schema: { tags, summary, params: IdParams, response: { 200: ReceiverSchema, ...errorResponses(...ERRORS) } } },
      async (request) => receivers.changeStatus(request.params.id, action, adminActor(request)),
    );
  }
}

import { merchantIdOf } from '../../http/auth.ts';
import { PageOf } from '../../http/pagination.ts';
import { logWith } from '../../http/request-log.ts';
import { AUTHENTICATED_ERRORS, BODY_ERRORS, IdParams, errorResponses } from '../../http/schemas.ts';
import type { App } from '../../http/types.ts';
import {
  CreateReceiverBody,
  KycSubmissionBody,
  KycSubmissionResult,
  LimitsBody,
  LimitsSchema,
  ReceiverListQuery,
  ReceiverSchema,
  UpdateReceiverBody,
} from './schemas.ts';
import type { ReceiversService } from './service.ts';

const tags = ['Receivers'];

export function registerReceiverRoutes(app: App, receivers: ReceiversService): void {
  app.post(
    '/receivers',
    {
      config: { idempotent: { mode: 'in-transaction' } },
      schema: {
        tags,
        summary: 'Create a receiver',
        description:
          'Starts with status PENDING and kycStatus PENDING. The document must be a valid CPF (PF) or CNPJ (PJ, numeric or alphanumeric); it is stored normalised and is unique per merchant (409 CONFLICT with `details.existingReceiverId`). Limits default from configuration: no daily limits; night transactions disabled for PF, enabled for PJ.',
        body: CreateReceiverBody,
        response: { 201: ReceiverSchema, ...errorResponses(...AUTHENTICATED_ERRORS, ...BODY_ERRORS, 409) },
      },
    },
    async (request, reply) => {
      const receiver = await receivers.create(merchantIdOf(request), request.body, request.idempotency);
      logWith(request, { receiverId: receiver.id });
      return reply.code(201).send(receiver);
    },
  );

  app.get(
    '/receivers',
    {
      schema: {
        tags,
        summary: "List the merchant's receivers, newest first",
        querystring: ReceiverListQuery,
        response: { 200: PageOf(ReceiverSchema, 'ReceiverPage'), ...errorResponses(...AUTHENTICATED_ERRORS, 400) },
      },
    },
    async (request) => receivers.list(merchantIdOf(request), request.query),
  );

  app.get(
    '/receivers/:id',
    {
      schema: { tags, summary: 'One receiver', params: IdParams, response: { 200: ReceiverSchema, ...errorResponses(...AUTHENTICATED_ERRORS, 400, 404) } },
    },
    async (request) => receivers.get(merchantIdOf(request), request.params.id),
  );

  app.patch(
    '/receivers/:id',
    {
      config: { idempotent: true },
      schema: {
        tags,
        summary: 'Update non-critical receiver fields',
        description:
          'At least one field. `document`, `type` and `documentType` are immutable: sending any of them is 400 VALIDATION_ERROR. `name` 2 to 255 characters; `email` in e-mail format; `phone` at most 20, `addressZipCode` at most 10 characters; `addressState` a two-letter Brazilian UF. Answers the full updated receiver. ' +
          'A new `name` for a receiver whose KYC is APPROVED sends its KYC back to UNDER_REVIEW (audited; no webhook event): the approval was of the old name, so its orders are refused with 422 KYC_NOT_APPROVED until an operator approves again. The same name again changes nothing.',
        params: IdParams,
        body: UpdateReceiverBody,
        response: { 200: ReceiverSchema, ...errorResponses(...AUTHENTICATED_ERRORS, ...BODY_ERRORS, 404) },
      },
    },
    async (request) => {
      const merchantId = merchantIdOf(request);
      return receivers.update(merchantId, request.params.id, request.body, { actor: `merchant:${merchantId}`, requestId: request.id });
    },
  );

  app.get(
    '/receivers/:id/limits',
    {
      schema: {
        tags,
        summary: 'The transaction limits of a receiver',
        params: IdParams,
        response: { 200: LimitsSchema, ...errorResponses(...AUTHENTICATED_ERRORS, 400, 404) },
      },
    },
    async (request) => receivers.getLimits(merchantIdOf(request), request.params.id),
  );

  app.put(
    '/receivers/:id/limits',
    {
      config: { idempotent: true },
      schema: {
        tags,
        summary: 'Replace the transaction limits of a receiver',
        description: 'All three fields are required; null means no limit. Counts are non-negative integers; BRL amounts have at most 2 decimals.',
        params: IdParams,
        body: LimitsBody,
        response: { 200: LimitsSchema, ...errorResponses(...AUTHENTICATED_ERRORS, ...BODY_ERRORS, 404) },
      },
    },
    async (request) => receivers.replaceLimits(merchantIdOf(request), request.params.id, request.body),
  );

  app.post(
    '/receivers/:id/kyc',
    {
      config: { idempotent: true },
      schema: {
        tags,
        summary: 'Submit KYC data for review',
        description:
          'Allowed when kycStatus is PENDING or REJECTED (else 409 CONFLICT); kycStatus becomes SUBMITTED. PF: `birthDate` required, `motherName` optional; PJ: `incorporationDate` required. The answer carries the reason of the previous rejection, if any.',
        params: IdParams,
        body: KycSubmissionBody,
        response: { 200: KycSubmissionResult, ...errorResponses(...AUTHENTICATED_ERRORS, ...BODY_ERRORS, 404, 409) },
      },
    },
    async (request) => receivers.submitKyc(merchantIdOf(request), request.params.id, request.body),
  );
}


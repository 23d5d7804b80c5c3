/** Payout batches over HTTP (docs/architecture/payout-batches.md); the rules are in service.ts and funding.ts. */
import { Type } from 'typebox';
import type { FastifyRequest } from 'fastify';
import type { SandboxChain } from '../../adapters/chain/sandbox.ts';
import { AppError } from '../../errors.ts';
import { merchantIdOf } from '../../http/auth.ts';
import { AUTHENTICATED_ERRORS, BODY_ERRORS, IdParams, StrictObject, TokenAmountInput, errorResponses } from '../../http/schemas.ts';
import type { App } from '../../http/types.ts';
import { decimal } from '../../lib/money.ts';
import { reportCsv } from './csv.ts';
import type { BatchFunding } from './funding.ts';
import { BatchListQuery, PayoutBatchBody, PayoutBatchItemPage, PayoutBatchPage, PayoutBatchSchema, PayoutBatchSettingsBody, PayoutBatchSettingsSchema } from './schemas.ts';
import type { PayoutBatches } from './service.ts';

const tags = ['Payout Batches'];

const authOf = (request: FastifyRequest) => {
  if (!request.merchantAuth) throw new Error('payout batch route outside the authenticated scope');
  return request.merchantAuth;
};

const CREATE =
  'Up to 1,000 PAYOUT lines, as JSON (`items`) or as a CSV file (Content-Type text/csv: a header line with receiverId, amountCrypto, token and optionally externalId, pixKey, pixKeyType, recipientName). ' +
  'A broken format (the JSON schema, a CSV line that cannot be read or whose field has the wrong form, more than 1,000 lines) is 400 naming every broken line, and nothing is stored. ' +
  'Otherwise every line is checked as POST /payout would check it (receiver of this merchant, KYC APPROVED and ACTIVE, the night rule, its day limits, the destination policy, the order bounds, externalId unique within the batch and among the merchant\'s orders) and the batch is stored VALIDATED with the result of each line: a valid line priced at the current rate with its fees (held until ratesExpireAt), an invalid one with its refusals. Nothing moves until it is submitted (POST /payout-batches/{id}/submit). ' +
  'A dependency down or no current price is 503 for the whole batch.';

export function registerPayoutBatchRoutes(app: App, batches: PayoutBatches): void {
  app.addContentTypeParser('text/csv', { parseAs: 'string' }, (_request, body, done) => done(null, body));

  app.post(
    '/payout-batches',
    {
      config: { idempotent: true },
      schema: {
        tags,
        summary: 'Upload a payout batch: every line validated before anything moves',
        description: CREATE,
        consumes: ['application/json', 'text/csv'],
        body: PayoutBatchBody,
        response: { 201: PayoutBatchSchema, ...errorResponses(...AUTHENTICATED_ERRORS, ...BODY_ERRORS, 503) },
      },
    },
    async (request, reply) => reply.code(201).send(await batches.create(authOf(request), request.body)),
  );

  app.get(
    '/payout-batches',
    { schema: { tags, summary: "The merchant's payout batches, newest first", querystring: BatchListQuery, response: { 200: PayoutBatchPage, ...errorResponses(...AUTHENTICATED_ERRORS, 400) } } },
    async (request) => batches.list(merchantIdOf(request), request.query.page, request.query.limit),
  );

  app.get(
    '/payout-batches/:id',
    { schema: { tags, summary: 'One payout batch: status, totals and how many lines stand where', params: IdParams, response: { 200: PayoutBatchSchema, ...errorResponses(...AUTHENTICATED_ERRORS, 400, 404) } } },
    async (request) => batches.get(merchantIdOf(request), request.params.id),
  );

  app.get(
    '/payout-batches/:id/items',
    {
      schema: {
        tags,
        summary: "The batch's lines in order: each one's validation result, and its order's status once made",
        params: IdParams,
        querystring: BatchListQuery,
        response: { 200: PayoutBatchItemPage, ...errorResponses(...AUTHENTICATED_ERRORS, 400, 404) },
      },
    },
    async (request) => batches.items(merchantIdOf(request), request.params.id, request.query.page, request.query.limit),
  );

  app.get(
    '/payout-batches/:id/report',
    {
      schema: {
        tags,
        summary: "The batch's report as CSV: one line per uploaded line",
        description: 'Columns: line, status, receiverId, externalId, amountCrypto, amountBrl, netAmountBrl, orderId, orderStatus, errors (the line\'s refusals, or its order\'s failureReason). Text cells are guarded against spreadsheet formulas.',
        params: IdParams,
        response: {
          200: { description: 'The CSV file (Content-Disposition: attachment)', content: { 'text/csv': { schema: Type.String() } } },
          ...errorResponses(...AUTHENTICATED_ERRORS, 400, 404),
        },
      },
    },
    async (request, reply) => {
      const { batch, items } = await batches.allItems(merchantIdOf(request), request.params.id);
      const lines = items.map((item) => ({
        ...item,
        errors: item.errors ? Object.entries(item.errors).map(([k, v]) => `${k}: ${v}`).join('; ') : item.failureReason,
      }));
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="payout-batch-${batch.id}.csv"`)
        .send(reportCsv(lines) as never);
    },
  );

  const action = (path: string, summary: string, description: string, run: (request: FastifyRequest & { params: { id: string } }) => Promise<unknown>) =>
    app.post(
      `/payout-batches/:id/${path}`,
      {
        config: { idempotent: true },
        schema: { tags, summary, description, params: IdParams, response: { 200: PayoutBatchSchema, ...errorResponses(...AUTHENTICATED_ERRORS, 400, 404, 409, 503) } },
      },
      async (request) => run(request as FastifyRequest & { params: { id: string } }) as never,
    );

  action(
    'submit',
    'Confirm a validated batch: to approval, or to funding',
    "From VALIDATED. When totalBrl is above the merchant's approval threshold (PUT /payout-batch-settings) the batch waits in AWAITING_APPROVAL for a second person; otherwise it gets its depositAddress (AWAITING_FUNDING): send totalCrypto of token there before ratesExpireAt. A batch without a valid line is 409.",
    (request) => batches.submit(merchantIdOf(request), request.params.id),
  );
  action(
    'approve',
    'Approve a batch above the threshold (a second person of the merchant)',
    'From AWAITING_APPROVAL to AWAITING_FUNDING, with its depositAddress. Only a person signed in (a session: an API key is 403 PERSON_REQUIRED), an OWNER or ADMIN (else 403 ROLE_NOT_ALLOWED), who did not create the batch (403 SECOND_PERSON_REQUIRED): merchant four-eyes, decision 0047.',
    (request) => batches.approve(authOf(request), request.params.id, request.id),
  );
  action(
    'pause',
    'Stop making orders of the unpaid rest',
    'From AWAITING_FUNDING or PAYING. Lines already made orders go on (their PIX is sent); the others wait. A deposit still funds a paused batch.',
    (request) => batches.pause(merchantIdOf(request), request.params.id),
  );
  action('resume', 'Resume a paused batch', 'To PAYING when funded, else AWAITING_FUNDING.', (request) => batches.resume(merchantIdOf(request), request.params.id));
  action(
    'cancel',
    'Cancel the unpaid rest',
    'Every line not yet made an order is CANCELLED; orders already made go on. The share of a deposit that cancelled (and refused) lines held stays held for return to the merchant (heldCrypto; the ledger account deposits_to_return).',
    (request) => batches.cancel(merchantIdOf(request), request.params.id),
  );

  app.get(
    '/payout-batch-settings',
    { schema: { tags, summary: "The merchant's batch approval threshold", response: { 200: PayoutBatchSettingsSchema, ...errorResponses(...AUTHENTICATED_ERRORS) } } },
    async (request) => batches.settings(merchantIdOf(request)),
  );

  app.put(
    '/payout-batch-settings',
    {
      config: { idempotent: true },
      schema: {
        tags,
        summary: 'Set the batch approval threshold (an OWNER)',
        description: 'A batch whose totalBrl is above approvalThresholdBrl needs a second person to approve it; null: none does. Only an OWNER signed in (a session) sets it: an API key is 403 PERSON_REQUIRED, another role 403 ROLE_NOT_ALLOWED.',
        body: PayoutBatchSettingsBody,
        response: { 200: PayoutBatchSettingsSchema, ...errorResponses(...AUTHENTICATED_ERRORS, ...BODY_ERRORS) },
      },
    },
    async (request) => batches.putSettings(authOf(request), request.body.approvalThresholdBrl, request.id),
  );
}

/** The sandbox's deposit to a batch's address (CHAIN_PROVIDER=sandbox): applied at once, its lines then made orders. */
export function registerSandboxPayoutBatchRoutes(app: App, batches: PayoutBatches, funding: BatchFunding, chain: SandboxChain): void {
  app.post(
    '/sandbox/payout-batches/:id/deposit',
    {
      config: { idempotent: true },
      schema: {
        tags: ['Sandbox'],
        summary: "Make a payout batch's deposit arrive",
        description:
          "`amountCrypto` defaults to the batch's totalCrypto. Applied at once, as the deposit watcher would: a deposit covering the total funds the batch (PAYING) and its valid lines are made orders (each DEPOSIT_RECEIVED, then paid by the worker's PIX steps); less waits for more. Answers the batch.",
        body: StrictObject({ amountCrypto: Type.Optional(TokenAmountInput("What arrives; default the batch's totalCrypto")) }, { title: 'SandboxBatchDepositRequest' }),
        params: IdParams,
        response: { 200: PayoutBatchSchema, ...errorResponses(...AUTHENTICATED_ERRORS, ...BODY_ERRORS, 404, 409) },
      },
    },
    async (request) => {
      const merchantId = merchantIdOf(request);
      const batch = await batches.get(merchantId, request.params.id);
      if (!batch.depositAddress) throw new AppError('CONFLICT', `A payout batch in ${batch.status} has no deposit address yet`, { status: batch.status });
      const amount = decimal(request.body.amountCrypto ?? batch.totalCrypto).toString();
      const deposit = await chain.simulateDeposit({ depositAddress: batch.depositAddress, amount });
      await funding.handleDeposit(deposit);
      await funding.releaseAll(batch.id);
      return batches.get(merchantId, batch.id);
    },
  );
}

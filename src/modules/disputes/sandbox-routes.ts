/**
 * Sandbox drivers of MED claims (mounted only when SANDBOX_ENABLED): the merchant plays the payer's
 * PSP, which opens a claim on one of its PAYINs' PIX, and the receiving PSP, which decides it. Both
 * go through the sandbox PSP's MED extension and `handleInfraction`, the path the PSP sync takes.
 */
import { Type } from 'typebox';
import type { SandboxPixProvider } from '../../adapters/pix/sandbox.ts';
import { SandboxInfractionError } from '../../adapters/pix/sandbox-infractions.ts';
import { AppError, notFound } from '../../errors.ts';
import { merchantIdOf } from '../../http/auth.ts';
import { AUTHENTICATED_ERRORS, BODY_ERRORS, BrlAmountInput, IdParams, StrictObject, errorResponses } from '../../http/schemas.ts';
import type { App } from '../../http/types.ts';
import { decimal } from '../../lib/money.ts';
import type { OrdersService } from '../orders/service.ts';
import { DisputeSchema, toDispute } from './schemas.ts';
import type { DisputesService } from './service.ts';

const tags = ['Sandbox'];

const refusal = (err: unknown): never => {
  if (err instanceof SandboxInfractionError) throw new AppError(err.kind, err.message);
  throw err;
};

export function registerSandboxDisputeRoutes(app: App, services: { disputes: DisputesService; pix: SandboxPixProvider; orders: Pick<OrdersService, 'findOwnedRow'> }): void {
  const { disputes, pix, orders } = services;

  app.post(
    '/sandbox/orders/:id/med-claim',
    {
      config: { idempotent: true },
      schema: {
        tags,
        summary: "Open a MED fraud claim on a PAYIN's PIX (sandbox)",
        description:
          "The payer's PSP opens an infraction on the order's PIX: the claim is recorded (order.disputed) and an order whose tokens have not left is held. `defenseHours` (default 72) sets its deadline; 0 makes one already passed.",
        params: IdParams,
        body: StrictObject({
          reason: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
          amountBrl: Type.Optional(BrlAmountInput('The amount claimed (default: the whole PIX)')),
          defenseHours: Type.Optional(Type.Integer({ minimum: 0, maximum: 720 })),
        }, { title: 'SandboxMedClaimRequest' }),
        response: { 201: DisputeSchema, ...errorResponses(...AUTHENTICATED_ERRORS, ...BODY_ERRORS, 404, 409) },
      },
    },
    async (request, reply) => {
      const merchantId = merchantIdOf(request);
      const order = await orders.findOwnedRow(merchantId, request.params.id);
      if (order.type !== 'PAYIN' || !order.pix_end_to_end_id) throw new AppError('CONFLICT', 'Only a PAYIN whose PIX arrived can be claimed', { status: order.status });
      const { reason, amountBrl, defenseHours } = request.body;
      const infraction = await pix
        .openInfraction({
          endToEndId: order.pix_end_to_end_id,
          receivedBrl: order.amount_brl,
          ...(reason ? { reason } : {}),
          ...(amountBrl !== undefined ? { amountBrl: decimal(amountBrl).toFixed(2) } : {}),
          ...(defenseHours !== undefined ? { defenseHours } : {}),
        })
        .catch(refusal);
      const dispute = await disputes.handleInfraction(infraction);
      if (!dispute) throw notFound('Order');
      return reply.code(201).send(toDispute(await disputes.get(dispute.id, merchantId)));
    },
  );

  app.post(
    '/sandbox/disputes/:id/decision',
    {
      config: { idempotent: true },
      schema: {
        tags,
        summary: 'Decide a MED claim as the receiving PSP would (sandbox)',
        description: 'ACCEPTED returns the PIX (natureza MED_FRAUDE); REJECTED lets a held order go on; CANCELLED is the payer’s PSP withdrawing the claim.',
        params: IdParams,
        body: StrictObject({ outcome: Type.Enum(['ACCEPTED', 'REJECTED', 'CANCELLED']) }, { title: 'SandboxMedClaimDecisionRequest' }),
        response: { 200: DisputeSchema, ...errorResponses(...AUTHENTICATED_ERRORS, ...BODY_ERRORS, 404, 409) },
      },
    },
    async (request) => {
      const merchantId = merchantIdOf(request);
      const dispute = await disputes.get(request.params.id, merchantId);
      const infraction = await pix.decideInfraction(dispute.psp_infraction_id, request.body.outcome).catch(refusal);
      await disputes.handleInfraction(infraction);
      return toDispute(await disputes.get(dispute.id, merchantId));
    },
  );
}

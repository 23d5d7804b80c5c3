/**
 * Sandbox drivers (DESIGN.md §10), mounted only when SANDBOX_ENABLED: a merchant drives its own
 * receivers and orders through the same code paths a real operator or provider would.
 */
import { AppError } from '../../http/errors.ts';
import { merchantIdOf } from '../../http/auth.ts';
import { AUTHENTICATED_ERRORS, BODY_ERRORS, IdParams, errorResponses } from '../../http/schemas.ts';
import type { App } from '../../http/types.ts';
import { ReceiverSchema, SandboxKycBody } from '../receivers/schemas.ts';
import type { ReceiversService } from '../receivers/service.ts';

const tags = ['Sandbox'];

export function registerSandboxRoutes(app: App, services: { receivers: ReceiversService }): void {
  app.post(
    '/sandbox/receivers/:id/kyc',
    {
      schema: {
        tags,
        summary: "Decide a receiver's KYC in sandbox mode",
        description:
          'The operator decision of KYC (same code path, same events), for the merchant’s own receivers, allowed from PENDING too so tests need no KYC documents. `reason` is required for REJECT.',
        params: IdParams,
        body: SandboxKycBody,
        response: { 200: ReceiverSchema, ...errorResponses(...AUTHENTICATED_ERRORS, ...BODY_ERRORS, 404, 409) },
      },
    },
    async (request) => {
      const merchantId = merchantIdOf(request);
      const { decision, reason } = request.body;
      if (decision === 'REJECT' && !reason) {
        throw new AppError('VALIDATION_ERROR', 'reason is required to reject', { 'body.reason': 'is required when decision is REJECT' });
      }
      return services.receivers.decideKyc(
        request.params.id,
        decision === 'APPROVE' ? { approved: true } : { approved: false, reason: reason! },
        { actor: `sandbox:merchant:${merchantId}`, requestId: request.id },
        { merchantId, allowFromPending: true },
      );
    },
  );
}

/**
 * The sandbox's "pay a standing charge" (SANDBOX_ENABLED only): the sandbox PSP receives a PIX on
 * the charge's static code and its notification takes the path every PIX notification takes.
 */
import type { SandboxPixProvider } from '../../adapters/pix/sandbox.ts';
import { AppError } from '../../errors.ts';
import { merchantIdOf } from '../../http/auth.ts';
import { AUTHENTICATED_ERRORS, BODY_ERRORS, errorResponses } from '../../http/schemas.ts';
import type { App } from '../../http/types.ts';
import { decimal } from '../../lib/money.ts';
import type { OrderNotifications } from '../orders/lifecycle/notifications.ts';
import { OrderSchema } from '../orders/schemas.ts';
import type { OrdersService } from '../orders/service.ts';
import type { ReceiversService } from '../receivers/service.ts';
import { sandboxPayer } from '../sandbox/service.ts';
import { SandboxStandingPaymentBody, StandingChargeParams } from './schemas.ts';
import type { StandingChargesService } from './service.ts';

export interface StandingChargeSandboxDeps {
  charges: StandingChargesService;
  pix: Pick<SandboxPixProvider, 'simulateStaticPayment'>;
  notifications: Pick<OrderNotifications, 'handlePixNotification'>;
  orders: Pick<OrdersService, 'get'>;
  receivers: Pick<ReceiversService, 'get'>;
}

export function registerStandingChargeSandboxRoutes(app: App, deps: StandingChargeSandboxDeps): void {
  app.post(
    '/sandbox/receivers/:id/standing-charges/:chargeId/pix-payment',
    {
      config: { idempotent: true },
      schema: {
        tags: ['Sandbox'],
        summary: 'Pay a standing PIX charge as a payer',
        description:
          'The sandbox PSP receives a PIX on the charge\'s static code (a new endToEndId at every call) and notifies it like any PIX: it makes a PAYIN (order.created), which completes, or is returned when refused. Answers the order it made. ' +
          '`amountBrl` defaults to the fixed amount and is required for an open one. `payer` defaults to the receiver (first party); name another CPF or CNPJ to pay as a third party, or null for a PSP that does not report who paid.',
        params: StandingChargeParams,
        body: SandboxStandingPaymentBody,
        response: { 200: OrderSchema, ...errorResponses(...AUTHENTICATED_ERRORS, ...BODY_ERRORS, 404) },
      },
    },
    async (request) => {
      const merchantId = merchantIdOf(request);
      const { id: receiverId, chargeId } = request.params;
      const charge = await deps.charges.findOwnedRow(merchantId, receiverId, chargeId);
      const { amountBrl, payer } = request.body;
      const amount = amountBrl ?? charge.amount_brl;
      if (amount === null) throw new AppError('VALIDATION_ERROR', 'amountBrl is required to pay an open standing charge', { 'body.amountBrl': 'is required for an open amount' });
      let paidBy = payer === null ? null : payer === undefined ? undefined : sandboxPayer(payer);
      if (paidBy === undefined) {
        const receiver = await deps.receivers.get(merchantId, receiverId);
        paidBy = { documentType: receiver.documentType, document: receiver.document, name: receiver.name };
      }
      const notification = await deps.pix.simulateStaticPayment(charge.txid, { amountBrl: decimal(amount).toFixed(2), payer: paidBy });
      const order = await deps.notifications.handlePixNotification(notification);
      if (!order) throw new Error(`the PIX to standing charge ${chargeId} made no order`);
      return deps.orders.get(merchantId, order.id);
    },
  );
}

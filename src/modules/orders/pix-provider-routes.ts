/**
 * The PSP's callback (PIX_PROVIDER=api-pix): `POST <callback>/pix` with `{"pix": [...]}`, where
 * the callback registered is `<PIX_WEBHOOK_PUBLIC_URL>/api/v1/pix-provider/webhook/<token>`.
 * Authentication: the secret token in the path (compared in constant time), the PSP's addresses
 * when PIX_WEBHOOK_ALLOWED_IPS is set, and mTLS terminated at the edge (README: "Pointing the
 * service at a real PSP"). Each notification goes to handlePixNotification in its own transaction:
 * a repeated or reordered one changes nothing twice. If one cannot be applied yet, the call
 * answers 503 so the PSP sends it again; nothing of our internals goes back to the PSP.
 */
import { timingSafeEqual } from 'node:crypto';
import { Type } from 'typebox';
import { parsePixWebhook, WebhookBodyError } from '../../adapters/pix/api-pix/webhook.ts';
import { AppError } from '../../errors.ts';
import type { App } from '../../http/types.ts';
import type { OrderNotifications } from './notifications.ts';

const sameText = (a: string, b: string) => {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
};

export function registerPixProviderRoutes(
  app: App,
  deps: { notifications: Pick<OrderNotifications, 'handlePixNotification'>; webhookToken: string; allowedIps: string[] | undefined },
): void {
  app.post(
    '/pix-provider/webhook/:token/pix',
    { schema: { hide: true, params: Type.Object({ token: Type.String({ maxLength: 200 }) }) } },
    async (request, reply) => {
      if (!sameText(request.params.token, deps.webhookToken) || (deps.allowedIps && !deps.allowedIps.includes(request.ip))) {
        throw new AppError('NOT_FOUND', 'Not found');
      }
      let notifications;
      try {
        notifications = parsePixWebhook(request.body);
      } catch (error) {
        if (error instanceof WebhookBodyError) throw new AppError('VALIDATION_ERROR', 'The body is not an API Pix notification', { body: error.message });
        throw error;
      }
      let pending = 0;
      for (const notification of notifications) {
        try {
          await deps.notifications.handlePixNotification(notification);
        } catch (err) {
          pending++;
          request.log.warn({ err, kind: notification.kind }, 'PIX notification not applied yet; the PSP will send it again');
        }
      }
      if (pending > 0) return reply.code(503).send();
      return reply.code(200).send();
    },
  );
}

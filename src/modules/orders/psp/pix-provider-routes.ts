/**
 * The PSP's callback (PIX_PROVIDER=api-pix): `POST <callback>/pix` with `{"pix": [...]}`, where
 * the callback registered is `<PIX_WEBHOOK_PUBLIC_URL>/api/v1/pix-provider/webhook/<token>`.
 *
 * Who may call: mTLS terminated at the edge (the PSP's client certificate, README "Pointing the
 * service at a real PSP"), then here the secret path token, the header secret when
 * PIX_WEBHOOK_HEADER_SECRET is set (both compared as SHA-256 digests in constant time, so neither
 * their content nor their length leaks), and the PSP's addresses when PIX_WEBHOOK_ALLOWED_IPS is set.
 * A failed check answers 404, as if the route did not exist.
 *
 * What a call may do: nothing by itself. Each notification is confirmed with the PSP first
 * (pix-confirmation.ts) and only the PSP's own record goes to handlePixNotification, each in its
 * own transaction (a repeated or reordered one changes nothing twice). One the PSP does not confirm
 * is recorded, logged and answered 200 like the others, so the PSP (or a forger) does not send it
 * forever. If the PSP cannot be asked, or a confirmed one cannot be applied yet, the call answers
 * 503 so the PSP sends it again. Nothing of our internals goes back to the caller.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { Type } from 'typebox';
import { parsePixWebhook, WebhookBodyError } from '../../../adapters/pix/api-pix/webhook.ts';
import type { ApiPixSettings } from '../../../config.ts';
import { AppError } from '../../../errors.ts';
import type { App } from '../../../http/types.ts';
import type { OrderNotifications } from '../lifecycle/notifications.ts';
import type { PixConfirmationService } from './pix-confirmation.ts';

const digest = (text: string) => createHash('sha256').update(text).digest();

/** A check of a presented secret whose time depends on neither the secret's content nor its length. */
function secretCheck(expected: string): (presented: string | undefined) => boolean {
  const wanted = digest(expected);
  return (presented) => timingSafeEqual(digest(presented ?? ''), wanted) && presented !== undefined;
}

export interface PixProviderRouteDeps {
  notifications: Pick<OrderNotifications, 'handlePixNotification'>;
  confirmation: PixConfirmationService;
  settings: Pick<ApiPixSettings, 'webhookToken' | 'webhookHeaderSecret' | 'webhookAllowedIps'>;
}

export function registerPixProviderRoutes(app: App, deps: PixProviderRouteDeps): void {
  const { webhookToken, webhookHeaderSecret: headerSecret, webhookAllowedIps: allowedIps } = deps.settings;
  const tokenMatches = secretCheck(webhookToken);
  const headerMatches = headerSecret ? secretCheck(headerSecret.value) : undefined;
  app.post(
    '/pix-provider/webhook/:token/pix',
    { schema: { hide: true, params: Type.Object({ token: Type.String({ maxLength: 200 }) }) } },
    async (request, reply) => {
      const header = headerSecret ? request.headers[headerSecret.name] : undefined;
      const headerOk = !headerMatches || headerMatches(typeof header === 'string' ? header : undefined);
      if (!tokenMatches(request.params.token) || !headerOk || (allowedIps && !allowedIps.includes(request.ip))) {
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
      for (const claimed of notifications) {
        try {
          const confirmation = await deps.confirmation.confirm(claimed, request.id);
          if (!confirmation.confirmed) {
            request.log.warn({ kind: claimed.kind, reason: confirmation.reason }, 'PIX notification not confirmed by the PSP: recorded, not applied');
            continue;
          }
          await deps.notifications.handlePixNotification(confirmation.notification);
        } catch (err) {
          pending++;
          request.log.warn({ err, kind: claimed.kind }, 'PIX notification not confirmed or applied yet; the PSP will send it again');
        }
      }
      if (pending > 0) return reply.code(503).send();
      return reply.code(200).send();
    },
  );
}

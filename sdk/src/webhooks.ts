/**
 * Verifying a webhook delivery. The service signs per Standard Webhooks (docs/architecture/webhooks.md,
 * "Webhooks"): headers `webhook-id` (the deliveryId), `webhook-timestamp` (Unix seconds) and
 * `webhook-signature` (`v1,<base64 HMAC-SHA256>`, two space-separated during the 24 h after a
 * secret rotation), keyed by the `whsec_...` secret the endpoint got at creation or rotation.
 * Verification is the `standardwebhooks` package's, which also refuses timestamps more than
 * five minutes off (replays). Verify the raw body, before any JSON parsing.
 */
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { ExchangeError } from './errors.ts';
import type { WebhookEvent } from './webhook-events.ts';

export class ExchangeWebhookError extends ExchangeError {
  override name = 'ExchangeWebhookError';
}

export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

function plainHeaders(headers: WebhookHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  const entries = headers instanceof Headers ? [...headers.entries()] : Object.entries(headers);
  for (const [name, value] of entries) {
    if (value === undefined) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(' ') : value;
  }
  return out;
}

/**
 * The delivered event, once its signature and timestamp check out; else `ExchangeWebhookError`.
 * `payload` is the raw request body (string or Buffer, exactly as received).
 */
export function verifyWebhook(payload: string | Buffer, headers: WebhookHeaders, secret: string): WebhookEvent {
  const plain = plainHeaders(headers);
  for (const name of ['webhook-id', 'webhook-timestamp', 'webhook-signature']) {
    if (!plain[name]) throw new ExchangeWebhookError(`missing ${name} header`);
  }
  let event: unknown;
  try {
    event = new Webhook(secret).verify(payload, plain);
  } catch (err) {
    if (err instanceof WebhookVerificationError) throw new ExchangeWebhookError(err.message, { cause: err });
    throw new ExchangeWebhookError(`cannot verify: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
  if (typeof event !== 'object' || event === null || typeof (event as { event?: unknown }).event !== 'string') {
    throw new ExchangeWebhookError('signed body is not an event object');
  }
  return event as WebhookEvent;
}

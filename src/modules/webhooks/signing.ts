/**
 * Standard Webhooks signatures: `v1,` + base64 HMAC-SHA256 of `${id}.${timestamp}.${body}` under
 * the secret's key; several space-separated when more than one secret is live (rotation).
 */
import { createHmac } from 'node:crypto';
import { secretKeyBytes } from './secrets.ts';

export function signature(secret: string, id: string, timestamp: number, body: string): string {
  return `v1,${createHmac('sha256', secretKeyBytes(secret)).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

export const USER_AGENT = 'crypto-brl-exchange-webhooks/1.0';

/** The headers of one attempt; `secrets` newest first. */
export function webhookHeaders(secrets: string[], id: string, timestamp: number, body: string): Record<string, string> {
  return {
    'content-type': 'application/json',
    'user-agent': USER_AGENT,
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': secrets.map((secret) => signature(secret, id, timestamp, body)).join(' '),
  };
}

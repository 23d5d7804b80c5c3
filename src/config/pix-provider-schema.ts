/**
 * The variables of the PIX provider (PIX_PROVIDER=api-pix) and of reconciliation, spread into
 * ENV_SCHEMA. Certificates and keys are PEM text (`\n` escapes allowed) or a path to a PEM file;
 * either way they are read and parsed at start-up, so a wrong file stops the service at once.
 * Which of them are required with api-pix is checked by load.ts.
 */
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Type } from 'typebox';
import { checkedText, integer, list, oneOf, refine, secret, text } from './env.ts';
import { isUrlWith, unescapeNewlines } from './formats.ts';

export const PIX_PROVIDERS = ['sandbox', 'api-pix'] as const;

/** PEM text as given, or the content of the file it names; undefined when unreadable. */
export function pemFrom(value: string): string | undefined {
  const text = unescapeNewlines(value);
  if (text.includes('-----BEGIN ')) return text;
  try {
    return readFileSync(text, 'utf8');
  } catch {
    return undefined;
  }
}

function parses(value: string, parse: (pem: string) => unknown): boolean {
  const pem = pemFrom(value);
  if (!pem) return false;
  try {
    parse(pem);
    return true;
  } catch {
    return false;
  }
}

const certificates = (value: string) => parses(value, (pem) => pem.split(/(?=-----BEGIN CERTIFICATE-----)/).filter((part) => part.includes('BEGIN')).forEach((part) => new X509Certificate(part)));
const privateKey = (value: string) => parses(value, (pem) => createPrivateKey(pem));
const pem = (check: (value: string) => boolean, what: string, description: string) =>
  Type.Optional(Type.Decode(checkedText(check, { errorMessage: `must be ${what} in PEM, or the path of a readable PEM file (check the path and its permissions)`, description }), (value) => pemFrom(value)!));
const httpsUrl = (description: string) =>
  Type.Optional(checkedText((url) => isUrlWith(['https:'], url), { errorMessage: 'must be an https:// URL', description }));

export const PIX_PROVIDER_SCHEMA = {
  PIX_PROVIDER: oneOf(PIX_PROVIDERS, {
    default: 'sandbox',
    description: "the PIX provider: the service's own sandbox PSP, or a PSP speaking Banco Central's API Pix (api-pix, with Efí's PIX-out API for payouts)",
  }),
  PIX_API_BASE_URL: httpsUrl("api-pix: base URL of the PSP's API Pix, up to and without /cob (e.g. https://pix.example.com/v2)"),
  PIX_OAUTH_TOKEN_URL: httpsUrl("api-pix: the PSP's OAuth2 token endpoint (client credentials)"),
  PIX_CLIENT_ID: Type.Optional(text({ description: 'api-pix: OAuth2 client id' })),
  PIX_CLIENT_SECRET: Type.Optional(secret(24, { description: 'api-pix: OAuth2 client secret' })),
  PIX_CLIENT_CERT: pem(certificates, 'an X.509 certificate', 'api-pix: mTLS client certificate (the one the PSP issued or registered), PEM or path'),
  PIX_CLIENT_KEY: pem(privateKey, 'a private key', "api-pix: the client certificate's private key, PEM or path"),
  PIX_CA_CERT: pem(certificates, 'X.509 certificates', "api-pix: CA certificates that sign the PSP's server certificate, PEM or path; unset: the system's CAs"),
  PIX_OUT_BASE_URL: httpsUrl("api-pix: base URL of the PSP's PIX-out API (Efí: PUT /v3/gn/pix/{idEnvio}); unset: the origin of PIX_API_BASE_URL"),
  PIX_API_TIMEOUT_MS: integer({ minimum: 100, maximum: 120_000, default: 10_000, description: 'api-pix: deadline of one request to the PSP' }),
  PIX_API_MAX_ATTEMPTS: integer({ minimum: 1, maximum: 10, default: 4, description: 'api-pix: attempts of one call on timeouts, 5xx and 429 (with backoff)' }),
  PIX_WEBHOOK_PUBLIC_URL: Type.Optional(
    checkedText((url) => isUrlWith(['https:', 'http:'], url), {
      errorMessage: 'must be an https:// URL (http:// outside production)',
      description: 'api-pix: public origin of this service as the PSP reaches it; the callback registered is <origin>/api/v1/pix-provider/webhook/<PIX_WEBHOOK_TOKEN>',
    }),
  ),
  PIX_WEBHOOK_TOKEN: Type.Optional(
    refine(secret(32, { description: 'api-pix: secret path segment of the callback URL (at least 32 URL-safe characters); a call with another one is refused' }), (token) => /^[A-Za-z0-9_-]+$/.test(token), 'must be URL-safe: letters, digits, - and _'),
  ),
  PIX_WEBHOOK_HEADER_SECRET: Type.Optional(
    secret(32, { description: "api-pix: a secret the PSP sends in PIX_WEBHOOK_HEADER_NAME with every notification (where the PSP offers custom callback headers); unset: no header is required" }),
  ),
  PIX_WEBHOOK_HEADER_NAME: text({
    default: 'x-webhook-secret',
    pattern: "^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,64}$",
    errorMessage: 'must be an HTTP header name',
    description: 'api-pix: the header that carries PIX_WEBHOOK_HEADER_SECRET',
  }),
  PIX_WEBHOOK_ALLOWED_IPS: Type.Optional(
    list(text({ description: 'an IP address' }), { dropEmptyItems: true, quote: 'items', errorMessage: 'must be a comma-separated list of IP addresses', description: "api-pix: the PSP's addresses allowed to call the callback; unset: any (mTLS at the edge)" }),
  ),
  RECONCILIATION_INTERVAL_MS: integer({ minimum: 100, maximum: 3_600_000, default: 60_000, description: "pause between the worker's reconciliation passes with the PIX provider" }),
  RECONCILIATION_GRACE_SECONDS: integer({ minimum: 0, maximum: 86_400, default: 120, description: 'how long a refund or payout waits for its notification before the provider is asked' }),
  RECONCILIATION_LOOKBACK_SECONDS: integer({ minimum: 60, maximum: 30 * 86_400, default: 86_400, description: "how far back a worker's first reconciliation pass lists received PIX" }),
};

/**
 * Locations of the sandbox PSP's dynamic codes. A PSP answers `PUT /cob/{txid}` with a dynamic
 * BR Code whose 26/25 names a location (API Pix `loc.location`: a capability URL, at most 77
 * characters without `https://`); the payer's bank fetches it (`GET /{pixUrlAccessToken}`) and
 * reads a JWS whose payload is the charge (`CobPayload`: txid, valor.original, chave, calendario,
 * status, revisao). That payload is where the full txid travels, so the order's
 * `paymentReference` reaches the payer's bank and comes back with the PIX, exactly.
 *
 * The sandbox keeps the location offline: `payloadAt` answers what the URL would serve, signed
 * with a key made per process (the payer's side is simulated too, so no certificate chain).
 */
import { randomBytes } from 'node:crypto';
import { CompactSign, type CryptoKey, generateKeyPair } from 'jose';

/** Where the sandbox's locations live: `.invalid` (RFC 2606) resolves nowhere, so no real bank fetches it. */
export const DEFAULT_LOCATION_BASE = 'pix-sandbox.invalid/qr/v2';

/** A fresh location: the base, then 32 random hex digits (the token, as API Pix's examples have it). */
export function newLocation(base: string = DEFAULT_LOCATION_BASE): string {
  return `${base.replace(/^https?:\/\//i, '').replace(/\/+$/, '')}/${randomBytes(16).toString('hex')}`;
}

/** API Pix `CobPayload`, the fields the sandbox fills. */
export interface ChargePayload {
  txid: string;
  revisao: number;
  calendario: { criacao: string; apresentacao: string; expiracao: number };
  status: string;
  valor: { original: string };
  chave: string;
}

let signingKey: Promise<{ key: CryptoKey; kid: string }> | undefined;

/** The JWS a location serves (`application/jose`), ES256 with this process's key. */
export async function signPayload(payload: ChargePayload): Promise<string> {
  signingKey ??= generateKeyPair('ES256').then(({ privateKey }) => ({ key: privateKey, kid: `sandbox-${randomBytes(4).toString('hex')}` }));
  const { key, kid } = await signingKey;
  return new CompactSign(new TextEncoder().encode(JSON.stringify(payload))).setProtectedHeader({ alg: 'ES256', typ: 'JWS', kid }).sign(key);
}

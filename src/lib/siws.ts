/**
 * Sign In With Solana (SIWS, Phantom's adaptation of EIP-4361) messages, and the Ed25519 check of
 * a wallet's signature of one. A receiver proves a self-hosted wallet is theirs by having the
 * wallet sign such a message (docs/architecture/compliance-policies.md, "Wallet ownership"):
 *
 *   <domain> wants you to sign in with your Solana account:
 *   <address>
 *
 *   <statement>
 *
 *   URI: <uri>
 *   Version: 1
 *   Nonce: <nonce>
 *   Issued At: <ISO 8601>
 *   Expiration Time: <ISO 8601>
 *   Request ID: <challenge id>
 *
 * Wallets sign the message's UTF-8 bytes as given (`signMessage`, off chain: no transaction, no fee).
 */
import { createPublicKey, verify } from 'node:crypto';
import { decodeBase58 } from './base58.ts';

export interface SiwsFields {
  domain: string;
  address: string;
  statement: string;
  uri: string;
  nonce: string;
  issuedAt: Date;
  expirationTime: Date;
  requestId: string;
}

export function siwsMessage(fields: SiwsFields): string {
  return [
    `${fields.domain} wants you to sign in with your Solana account:`,
    fields.address,
    '',
    fields.statement,
    '',
    `URI: ${fields.uri}`,
    'Version: 1',
    `Nonce: ${fields.nonce}`,
    `Issued At: ${fields.issuedAt.toISOString()}`,
    `Expiration Time: ${fields.expirationTime.toISOString()}`,
    `Request ID: ${fields.requestId}`,
  ].join('\n');
}

/** DER prefix of an Ed25519 SubjectPublicKeyInfo: the 32 raw key bytes follow it. */
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/** Decoded base58, or undefined when the text is not base58. */
function base58OrUndefined(text: string): Uint8Array | undefined {
  try {
    return decodeBase58(text);
  } catch {
    return undefined;
  }
}

/**
 * Whether `signature` (base58, 64 bytes, as Solana writes signatures) is the Ed25519 signature of
 * `message`'s UTF-8 bytes by the key whose address (base58, 32 bytes) is `address`. Malformed
 * input is simply not a valid signature.
 */
export function verifySolanaMessageSignature(address: string, message: string, signature: string): boolean {
  const key = base58OrUndefined(address);
  const sig = base58OrUndefined(signature);
  if (key?.length !== 32 || sig?.length !== 64) return false;
  try {
    const publicKey = createPublicKey({ key: Buffer.concat([ED25519_SPKI_PREFIX, key]), format: 'der', type: 'spki' });
    return verify(null, Buffer.from(message, 'utf8'), publicKey, sig);
  } catch {
    return false;
  }
}

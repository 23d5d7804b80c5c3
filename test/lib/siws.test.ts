/**
 * Issue 38 item 8: the Sign In With Solana message (src/lib/siws.ts) line by line, which no test
 * held (its URI, version and times could change unnoticed, and wallets would then show the payer
 * something other than what was verified), and the Ed25519 check of a wallet's signature, with
 * every malformed input simply not a valid signature. The message has no Not Before field: a
 * challenge is valid from its issue, and its Expiration Time is enforced by the server.
 */
import { generateKeyPairSync, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { encodeBase58 } from '../../src/lib/base58.ts';
import { siwsMessage, verifySolanaMessageSignature } from '../../src/lib/siws.ts';

function newWallet() {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const raw = Buffer.from(publicKey.export({ format: 'jwk' }).x!, 'base64url');
  return { raw, address: encodeBase58(raw), sign: (message: string) => encodeBase58(sign(null, Buffer.from(message, 'utf8'), privateKey)) };
}

const wallet = newWallet();
const fields = {
  domain: 'pay.example.com',
  address: wallet.address,
  statement: 'I own this Solana wallet.',
  uri: 'https://pay.example.com',
  nonce: '0123456789abcdef0123456789abcdef',
  issuedAt: new Date('2026-12-05T01:00:00.000Z'),
  expirationTime: new Date('2026-12-05T01:10:00.000Z'),
  requestId: '01a243be-7dcf-7605-8d86-49950e77d046',
};

describe('the SIWS message', () => {
  it('is exactly the EIP-4361 layout Phantom shows: domain, address, statement, URI, Version 1, nonce, ISO times, request id', () => {
    expect(siwsMessage(fields).split('\n')).toEqual([
      'pay.example.com wants you to sign in with your Solana account:',
      wallet.address,
      '',
      'I own this Solana wallet.',
      '',
      'URI: https://pay.example.com',
      'Version: 1',
      'Nonce: 0123456789abcdef0123456789abcdef',
      'Issued At: 2026-12-05T01:00:00.000Z',
      'Expiration Time: 2026-12-05T01:10:00.000Z',
      'Request ID: 01a243be-7dcf-7605-8d86-49950e77d046',
    ]);
    expect(siwsMessage(fields)).not.toMatch(/\n$/);
  });
});

describe("a wallet's signature of it", () => {
  const message = siwsMessage(fields);

  it("verifies the wallet's own signature of the exact text", () => {
    expect(verifySolanaMessageSignature(wallet.address, message, wallet.sign(message))).toBe(true);
  });

  it('does not verify a signature of any other text: another URI, version, or expiration time', () => {
    for (const altered of [
      siwsMessage({ ...fields, uri: 'https://evil.example.com' }),
      message.replace('Version: 1', 'Version: 2'),
      siwsMessage({ ...fields, expirationTime: new Date('2027-12-05T01:10:00.000Z') }),
      siwsMessage({ ...fields, issuedAt: new Date('2026-12-05T00:59:59.999Z') }),
      `${message}\n`,
    ]) {
      expect(verifySolanaMessageSignature(wallet.address, message, wallet.sign(altered))).toBe(false);
    }
  });

  it("does not verify another wallet's signature", () => {
    expect(verifySolanaMessageSignature(wallet.address, message, newWallet().sign(message))).toBe(false);
  });

  it('treats malformed input as no valid signature, never an error', () => {
    const good = wallet.sign(message);
    // Not base58 (0, O, I and l are not in its alphabet).
    expect(verifySolanaMessageSignature('0OIl', message, good)).toBe(false);
    expect(verifySolanaMessageSignature(wallet.address, message, '0OIl')).toBe(false);
    // Base58, but a key of 31 or 33 bytes, a signature of 63 or 65.
    expect(verifySolanaMessageSignature(encodeBase58(wallet.raw.subarray(1)), message, good)).toBe(false);
    expect(verifySolanaMessageSignature(encodeBase58(Buffer.concat([wallet.raw, Buffer.from([1])])), message, good)).toBe(false);
    expect(verifySolanaMessageSignature(wallet.address, message, encodeBase58(new Uint8Array(63).fill(7)))).toBe(false);
    expect(verifySolanaMessageSignature(wallet.address, message, encodeBase58(new Uint8Array(65).fill(7)))).toBe(false);
    expect(verifySolanaMessageSignature(wallet.address, message, '')).toBe(false);
  });
});

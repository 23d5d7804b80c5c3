/**
 * The key vault every kind of sealed key uses (src/lib/key-vault.ts): a sealed key opens only as
 * its own kind, owner and version; re-sealing moves it to the current version without changing
 * the key; a keypair brought in is checked; no error carries key material.
 */
import { createPublicKey, generateKeyPairSync, verify } from 'node:crypto';
import { getBase58Decoder, getBase58Encoder } from '@solana/kit';
import { describe, expect, it } from 'vitest';
import { createKeyVault, seedFromKeypair, signerFromKeypair } from '../../src/lib/key-vault.ts';

const kek1 = Buffer.alloc(32, 1).toString('base64');
const kek2 = Buffer.alloc(32, 2).toString('base64');
const SPKI_ED25519_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/** A fresh keypair as base58 of its 64 bytes, and its seed. */
function keypair(): { text: string; seed: Buffer; address: string } {
  const jwk = generateKeyPairSync('ed25519').privateKey.export({ format: 'jwk' });
  const seed = Buffer.from(jwk.d!, 'base64url');
  const pub = Buffer.from(jwk.x!, 'base64url');
  return { text: getBase58Decoder().decode(Buffer.concat([seed, pub])), seed, address: getBase58Decoder().decode(pub) };
}

function verifies(address: string, message: Uint8Array, signature: Uint8Array): boolean {
  const key = createPublicKey({ key: Buffer.concat([SPKI_ED25519_PREFIX, getBase58Encoder().encode(address) as Uint8Array]), format: 'der', type: 'spki' });
  return verify(null, message, key, signature);
}

describe('the key vault', () => {
  it('opens a sealed key only as its own kind, owner and version', () => {
    const platform = createKeyVault({ kek: kek1, version: 1 }, 'platform-key');
    const sealed = platform.generate('TREASURY');
    expect(sealed).toMatchObject({ keyVersion: 1, encryptedPrivateKey: expect.stringMatching(/^v1:/) });
    const signer = platform.open('TREASURY', sealed);
    expect(signer.address).toBe(sealed.address);
    const message = new TextEncoder().encode('a message');
    expect(verifies(signer.address, message, signer.sign(message))).toBe(true);

    expect(() => platform.open('SPONSOR', sealed)).toThrow();
    expect(() => platform.open('TREASURY', { ...sealed, keyVersion: 2 })).toThrow(/no WALLET_KEK for key version 2/);
    // The same KEK under another kind: another derived key and another associated data.
    expect(() => createKeyVault({ kek: kek1, version: 1 }, 'managed-wallet').open('TREASURY', sealed)).toThrow();
    expect(() => createKeyVault({ kek: kek2, version: 1 }, 'platform-key').open('TREASURY', sealed)).toThrow();
    // Relabelled as another version that does have a KEK: still refused (the version is associated data).
    const both = createKeyVault({ kek: kek1, version: 2, previous: { 1: kek1 } }, 'platform-key');
    expect(() => both.open('TREASURY', { ...sealed, keyVersion: 2 })).toThrow();
  });

  it('re-seals under the current version without changing the key', () => {
    const old = createKeyVault({ kek: kek1, version: 1 }, 'platform-key').generate('SPONSOR');
    const rotated = createKeyVault({ kek: kek2, version: 2, previous: { 1: kek1 } }, 'platform-key');
    expect(rotated.canOpen(1) && rotated.canOpen(2) && !rotated.canOpen(3)).toBe(true);
    const resealed = rotated.reseal('SPONSOR', old);
    expect(resealed).toMatchObject({ address: old.address, keyVersion: 2 });
    expect(resealed.encryptedPrivateKey).not.toBe(old.encryptedPrivateKey);
    // The new KEK alone opens it now.
    expect(createKeyVault({ kek: kek2, version: 2 }, 'platform-key').open('SPONSOR', resealed).address).toBe(old.address);
  });

  it('seals a keypair brought in, and refuses a malformed one without echoing it', () => {
    const { text, seed, address } = keypair();
    const vault = createKeyVault({ kek: kek1, version: 1 }, 'platform-key');
    const sealed = vault.seal('SPONSOR', seedFromKeypair(text));
    expect(sealed.address).toBe(address);
    expect(vault.open('SPONSOR', sealed).address).toBe(address);
    expect(signerFromKeypair(text).address).toBe(address);

    const other = keypair();
    const mismatched = getBase58Decoder().decode(Buffer.concat([seed, getBase58Encoder().encode(other.address) as Uint8Array]));
    const problems: string[] = [];
    for (const bad of [mismatched, text.slice(0, 40), '[1,2,3]']) {
      try {
        seedFromKeypair(bad, 'the keypair on stdin');
      } catch (err) {
        problems.push((err as Error).message);
      }
    }
    expect(problems).toEqual([
      'the keypair on stdin: the public half does not match the private half',
      'the keypair on stdin is not a 64-byte Solana keypair',
      'the keypair on stdin is not a 64-byte Solana keypair',
    ]);
    for (const secret of [text, mismatched, seed.toString('hex'), seed.toString('base64')]) expect(problems.join('\n')).not.toContain(secret);
  });

  it('keeps managed wallets under the label they were sealed with before other kinds existed', () => {
    const sealed = createKeyVault({ kek: kek1, version: 1 }).generate('owner-1');
    expect(createKeyVault({ kek: kek1, version: 1 }, 'managed-wallet').open('owner-1', sealed).address).toBe(sealed.address);
    expect(() => createKeyVault({ kek: kek1, version: 1 }, 'platform-key').open('owner-1', sealed)).toThrow();
  });
});

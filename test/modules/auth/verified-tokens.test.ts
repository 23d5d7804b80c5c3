/**
 * Verified bearer tokens are remembered until they expire: the cache must never extend a
 * token's life, and a token it has not seen is still fully verified.
 */
import { generateKeyPairSync } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTokenIssuer } from '../../../src/modules/auth/tokens.ts';

const settings = () => ({
  privateKeyPem: generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  issuer: 'test',
  audience: 'merchant-api',
  ttlSeconds: 60,
});

describe('token verification cache', () => {
  afterEach(() => vi.useRealTimers());

  it('answers a remembered token only until its expiry', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-23T10:00:00Z'));
    const issuer = await createTokenIssuer(settings());
    const { accessToken } = await issuer.issue({ merchantId: 'm', credentialId: 'c' });
    expect(await issuer.verify(accessToken)).toEqual({ merchantId: 'm', credentialId: 'c' });
    vi.setSystemTime(new Date('2026-11-23T10:00:59Z'));
    expect(await issuer.verify(accessToken)).toEqual({ merchantId: 'm', credentialId: 'c' });
    vi.setSystemTime(new Date('2026-11-23T10:01:00Z'));
    expect(await issuer.verify(accessToken)).toBeNull();
    expect(await issuer.verify(accessToken)).toBeNull();
  });

  it('still refuses a token one character away from a remembered one', async () => {
    const issuer = await createTokenIssuer(settings());
    const { accessToken } = await issuer.issue({ merchantId: 'm', credentialId: 'c' });
    expect(await issuer.verify(accessToken)).not.toBeNull();
    const last = accessToken.at(-2) === 'A' ? 'B' : 'A';
    expect(await issuer.verify(`${accessToken.slice(0, -2)}${last}${accessToken.slice(-1)}`)).toBeNull();
  });

  it('does not accept another issuer’s token because it is well formed', async () => {
    const mine = await createTokenIssuer(settings());
    const theirs = await createTokenIssuer(settings());
    const { accessToken } = await theirs.issue({ merchantId: 'm', credentialId: 'c' });
    expect(await theirs.verify(accessToken)).not.toBeNull();
    expect(await mine.verify(accessToken)).toBeNull();
  });
});

/**
 * Access tokens: EdDSA (Ed25519) JWTs exchanged for an API key and secret. The algorithm is
 * pinned on verification, so `alg: none` or an HMAC token keyed with the public key is refused;
 * issuer, audience and expiry are required. `cid` names the credential the token came from,
 * so revoking that credential also ends its tokens.
 */
import { createPrivateKey, createPublicKey, randomUUID } from 'node:crypto';
import { calculateJwkThumbprint, exportJWK, type JWK, jwtVerify, SignJWT } from 'jose';
import type { JwtSettings } from '../../config.ts';

/** The JWT settings with the signing key resolved (runtime-config.ts fills it in outside production). */
export type TokenSettings = JwtSettings & { privateKeyPem: string };

export interface AccessToken {
  accessToken: string;
  tokenType: 'Bearer';
  expiresIn: number;
}

export interface TokenSubject {
  merchantId: string;
  credentialId: string;
}

const ALGORITHM = 'EdDSA';
/** Verified tokens remembered (an Ed25519 verification per bearer request was most of its cost). */
const VERIFIED_CACHE_MAX = 10_000;

export interface PublicJwk {
  kty: 'OKP';
  crv: 'Ed25519';
  x: string;
  kid: string;
  alg: string;
  use: 'sig';
}

export async function createTokenIssuer(settings: TokenSettings) {
  const privateKey = createPrivateKey(settings.privateKeyPem);
  if (privateKey.asymmetricKeyType !== 'ed25519') throw new Error('JWT_PRIVATE_KEY must be an Ed25519 key');
  // Verification uses the KeyObject itself: no JWK import or key-set lookup per request.
  const publicKey = createPublicKey(privateKey);
  const publicJwk: JWK = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(publicJwk);
  const jwks: { keys: PublicJwk[] } = {
    keys: [{ kty: 'OKP', crv: 'Ed25519', x: String(publicJwk.x), kid, alg: ALGORITHM, use: 'sig' }],
  };

  const verified = new Map<string, { subject: TokenSubject; expiresAtMs: number }>();

  return {
    jwks: () => jwks,

    async issue(subject: TokenSubject): Promise<AccessToken> {
      const accessToken = await new SignJWT({ cid: subject.credentialId })
        .setProtectedHeader({ alg: ALGORITHM, kid, typ: 'JWT' })
        .setSubject(subject.merchantId)
        .setIssuer(settings.issuer)
        .setAudience(settings.audience)
        .setJti(randomUUID())
        .setIssuedAt()
        .setExpirationTime(`${settings.ttlSeconds}s`)
        .sign(privateKey);
      return { accessToken, tokenType: 'Bearer', expiresIn: settings.ttlSeconds };
    },

    /**
     * The token's subject, or null for any token that is not ours, intact and current. A token
     * verified once is remembered, byte for byte, until it expires: the same text carries the
     * same valid signature, so only its expiry needs checking again.
     */
    async verify(token: string): Promise<TokenSubject | null> {
      const known = verified.get(token);
      if (known) {
        if (known.expiresAtMs > Date.now()) return known.subject;
        verified.delete(token);
        return null;
      }
      try {
        const { payload } = await jwtVerify(token, publicKey, {
          algorithms: [ALGORITHM],
          issuer: settings.issuer,
          audience: settings.audience,
          requiredClaims: ['sub', 'exp', 'iat', 'jti', 'cid'],
        });
        if (typeof payload.sub !== 'string' || typeof payload.cid !== 'string') return null;
        const subject = { merchantId: payload.sub, credentialId: payload.cid };
        if (verified.size >= VERIFIED_CACHE_MAX) verified.clear();
        verified.set(token, { subject, expiresAtMs: payload.exp! * 1000 });
        return subject;
      } catch {
        return null;
      }
    },
  };
}

export type TokenIssuer = Awaited<ReturnType<typeof createTokenIssuer>>;

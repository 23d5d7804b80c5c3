/**
 * Merchant API routes of wallet ownership (service.ts), under the receiver they concern (the
 * receivers.write scope for writes, like every receiver route).
 */
import { Type } from 'typebox';
import { merchantIdOf } from '../../http/auth.ts';
import { AUTHENTICATED_ERRORS, BODY_ERRORS, IdParams, StrictObject, Timestamp, Uuid, errorResponses } from '../../http/schemas.ts';
import type { App } from '../../http/types.ts';
import type { WalletOwnershipService } from './service.ts';

const tags = ['Receivers'];

const HOW =
  'A receiver proves a self-hosted wallet is theirs by signing a challenge with it: POST .../wallet-ownership/challenges with the walletAddress answers a Sign In With Solana message (domain, address, statement, URI, version, nonce, issued-at, expiration-time, request id); ' +
  "the wallet signs that exact text off chain (Wallet Standard / Phantom `signMessage`: its UTF-8 bytes, no transaction, no fee); POST .../wallet-ownership/proofs with the challengeId and the 64-byte Ed25519 signature in base58 records the proof. " +
  'A challenge expires 10 minutes after it is made and proves once. The receiver’s managed wallet counts as proven without a proof. ' +
  "What an unproven wallet may receive is the merchant's wallet ownership policy: ALLOW (default) any PAYIN, LIMITED up to a BRL total per wallet and São Paulo day, REQUIRED none (422 WALLET_OWNERSHIP_REQUIRED).";

const ChallengeSchema = Type.Object(
  {
    challengeId: Uuid(),
    receiverId: Uuid(),
    walletAddress: Type.String({ description: 'The wallet to prove (base58)' }),
    message: Type.String({ description: 'The Sign In With Solana message: sign exactly this text with the wallet' }),
    expiresAt: Timestamp('After it the challenge cannot be used (422 CHALLENGE_EXPIRED)'),
  },
  { $id: 'WalletOwnershipChallenge', title: 'WalletOwnershipChallenge' },
);

const ProofSchema = Type.Object(
  {
    id: Uuid(),
    receiverId: Uuid(),
    walletAddress: Type.String(),
    method: Type.Literal('SIWS_ED25519', { description: 'An Ed25519 signature of a Sign In With Solana message' }),
    challengeId: Uuid(),
    message: Type.String({ description: 'The message signed' }),
    signature: Type.String({ description: 'base58, 64 bytes' }),
    provenAt: Timestamp(),
  },
  { $id: 'WalletOwnershipProof', title: 'WalletOwnershipProof' },
);

const ProvenWalletsSchema = Type.Object(
  {
    data: Type.Array(
      Type.Object({
        walletAddress: Type.String(),
        method: Type.Enum(['SIWS_ED25519', 'MANAGED'], { description: "SIWS_ED25519: a signed challenge; MANAGED: the receiver's managed wallet" }),
        provenAt: Timestamp(),
        proofId: Type.Union([Uuid(), Type.Null()], { description: 'The latest proof; null for the managed wallet' }),
      }),
      { description: 'Each wallet once, the managed wallet first, then by latest proof, newest first' },
    ),
  },
  { $id: 'ProvenWallets', title: 'ProvenWallets' },
);

export function registerWalletOwnershipRoutes(app: App, ownership: WalletOwnershipService): void {
  app.post(
    '/receivers/:id/wallet-ownership/challenges',
    {
      config: { idempotent: true },
      schema: {
        tags,
        summary: 'Ask for a challenge that proves a wallet is the receiver’s',
        description: HOW,
        params: IdParams,
        body: StrictObject({ walletAddress: Type.String({ minLength: 32, maxLength: 44, description: 'The self-hosted Solana wallet to prove (base58)' }) }, { title: 'WalletOwnershipChallengeRequest' }),
        response: { 201: ChallengeSchema, ...errorResponses(...AUTHENTICATED_ERRORS, ...BODY_ERRORS, 404) },
      },
    },
    async (request, reply) => reply.code(201).send(await ownership.createChallenge(merchantIdOf(request), request.params.id, request.body.walletAddress)),
  );

  app.post(
    '/receivers/:id/wallet-ownership/proofs',
    {
      config: { idempotent: true },
      schema: {
        tags,
        summary: "Prove a wallet is the receiver's with its signature of a challenge",
        description:
          `${HOW} Refusals: a challenge of another receiver (or unknown) 404 NOT_FOUND; already used 409 CHALLENGE_USED; the wallet already proven by a receiver with another document (any merchant: a wallet belongs to one person) 409 WALLET_PROVEN_BY_ANOTHER_PERSON; expired 422 CHALLENGE_EXPIRED; ` +
          "a signature that is not the wallet's Ed25519 signature of the message 422 WALLET_SIGNATURE_INVALID (the challenge stays usable until it expires).",
        params: IdParams,
        body: StrictObject({
          challengeId: Uuid('From POST .../wallet-ownership/challenges'),
          signature: Type.String({ minLength: 64, maxLength: 100, description: "The wallet's Ed25519 signature of the challenge's message, 64 bytes in base58" }),
        }, { title: 'WalletOwnershipProofRequest' }),
        response: { 201: ProofSchema, ...errorResponses(...AUTHENTICATED_ERRORS, ...BODY_ERRORS, 404, 409, 422) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await ownership.prove(merchantIdOf(request), request.params.id, request.body, { actor: `merchant:${merchantIdOf(request)}`, requestId: request.id })),
  );

  app.get(
    '/receivers/:id/wallet-ownership',
    {
      schema: {
        tags,
        summary: "The receiver's proven wallets",
        description: HOW,
        params: IdParams,
        response: { 200: ProvenWalletsSchema, ...errorResponses(...AUTHENTICATED_ERRORS, 400, 404) },
      },
    },
    async (request) => ownership.provenWallets(merchantIdOf(request), request.params.id),
  );
}

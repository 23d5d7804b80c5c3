/**
 * Wallet ownership (issue 30, docs/architecture/compliance-policies.md): a receiver proves a
 * self-hosted wallet is theirs by signing a challenge with it, an off-chain Sign In With Solana
 * message (src/lib/siws.ts), checked with Ed25519. A challenge is single-use and expires after
 * CHALLENGE_TTL_MS; using it is a guarded update, so two concurrent proofs cannot both use it. A
 * proof is kept (wallet_ownership_proofs) and audited in its transaction. The receiver's managed
 * wallet counts as proven without one: the platform holds its key.
 *
 * A self-hosted wallet belongs to one person (issue 38, item 6): a proof is refused, 409
 * WALLET_PROVEN_BY_ANOTHER_PERSON, when a receiver with another document (by its blind index,
 * src/lib/personal-data.ts), of this merchant or another, proved the same wallet first. The same
 * document under two merchants is one person and may prove it under both. Proofs of one wallet
 * are serialised by an advisory lock on it, so two people racing cannot both win.
 */
import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/database.ts';
import { AppError, invalidField, notFound } from '../../errors.ts';
import type { Clock } from '../../lib/clock.ts';
import type { PersonalData } from '../../lib/personal-data.ts';
import { newId } from '../../lib/ids.ts';
import { siwsMessage, verifySolanaMessageSignature } from '../../lib/siws.ts';
import { isSolanaAddress } from '../../lib/solana.ts';
import { inTransaction } from '../../platform/commit-signals.ts';
import { type AuditActor, recordAudit } from '../../platform/audit/record.ts';
import { walletOwnershipRepo as repo } from './repo.ts';
import type { WalletOwnershipChallengesTable, WalletOwnershipProofsTable } from './tables.ts';

/** How long a challenge can be signed: long enough to open a wallet and approve, short enough not to linger. */
export const CHALLENGE_TTL_MS = 10 * 60_000;

export interface WalletChallenge {
  challengeId: string;
  receiverId: string;
  walletAddress: string;
  /** Sign exactly this text (its UTF-8 bytes) with the wallet. */
  message: string;
  expiresAt: string;
}

export interface WalletProof {
  id: string;
  receiverId: string;
  walletAddress: string;
  method: 'SIWS_ED25519';
  challengeId: string;
  message: string;
  signature: string;
  provenAt: string;
}

export interface ProvenWallet {
  walletAddress: string;
  /** SIWS_ED25519: a signed challenge; MANAGED: the receiver's managed wallet (the platform holds its key). */
  method: 'SIWS_ED25519' | 'MANAGED';
  provenAt: string;
  /** The latest proof's id; null for a managed wallet. */
  proofId: string | null;
}

type ChallengeRow = { id: string; receiver_id: string; wallet_address: string; message: string; expires_at: Date };
const toChallenge = (row: ChallengeRow): WalletChallenge => ({
  challengeId: row.id,
  receiverId: row.receiver_id,
  walletAddress: row.wallet_address,
  message: row.message,
  expiresAt: row.expires_at.toISOString(),
});
const toProof = (row: WalletOwnershipProofsTable): WalletProof => ({
  id: row.id,
  receiverId: row.receiver_id,
  walletAddress: row.wallet_address,
  method: row.method,
  challengeId: row.challenge_id,
  message: row.message,
  signature: row.signature,
  provenAt: row.proven_at.toISOString(),
});

const used = () => new AppError('CHALLENGE_USED', 'This challenge was already used by a proof; each challenge proves once. Ask for a new challenge.');
const expired = (challenge: Pick<WalletOwnershipChallengesTable, 'expires_at'>) =>
  new AppError('CHALLENGE_EXPIRED', 'This challenge has expired; ask for a new challenge and sign it before its expiresAt.', { expiresAt: challenge.expires_at.toISOString() });

const provenByAnother = (walletAddress: string) =>
  new AppError(
    'WALLET_PROVEN_BY_ANOTHER_PERSON',
    'This wallet is already proven as the wallet of another person (a receiver with another document); a self-hosted wallet belongs to one person. Use a wallet of this receiver’s own.',
    { walletAddress },
  );

export function createWalletOwnership(deps: { db: Db; clock: Clock; personalData: Pick<PersonalData, 'open' | 'indexes'>; settings: { publicAppUrl: string } }) {
  const { db, clock } = deps;
  const uri = deps.settings.publicAppUrl.replace(/\/+$/, '');
  const domain = new URL(uri).host;

  const receiverOrNotFound = async (merchantId: string, receiverId: string) => {
    const receiver = await repo.receiverOf(db, merchantId, receiverId);
    if (!receiver) throw notFound('Receiver');
    return receiver;
  };

  return {
    /** A new challenge for `walletAddress` to sign. */
    async createChallenge(merchantId: string, receiverId: string, walletAddress: string): Promise<WalletChallenge> {
      if (!isSolanaAddress(walletAddress)) throw invalidField('body.walletAddress', 'must be a Solana address (base58, 32 bytes)');
      await receiverOrNotFound(merchantId, receiverId);
      const id = newId();
      const now = clock.now();
      const expiresAt = new Date(now.getTime() + CHALLENGE_TTL_MS);
      const message = siwsMessage({
        domain,
        address: walletAddress,
        statement: `I own this Solana wallet and accept it as the wallet of receiver ${receiverId}.`,
        uri,
        nonce: randomBytes(16).toString('hex'),
        issuedAt: now,
        expirationTime: expiresAt,
        requestId: id,
      });
      const row = await repo.insertChallenge(db, { id, merchant_id: merchantId, receiver_id: receiverId, wallet_address: walletAddress, message, created_at: now, expires_at: expiresAt });
      return toChallenge(row);
    },

    /**
     * Checks `signature` (base58) against the challenge's message and wallet, then uses the
     * challenge and records the proof, audited, in one transaction. A challenge of another
     * receiver or merchant is 404; used 409 CHALLENGE_USED; expired 422 CHALLENGE_EXPIRED; a
     * signature that does not verify 422 WALLET_SIGNATURE_INVALID (the challenge stays usable).
     */
    async prove(merchantId: string, receiverId: string, input: { challengeId: string; signature: string }, by: AuditActor): Promise<WalletProof> {
      const challenge = await repo.findChallenge(db, input.challengeId, merchantId, receiverId);
      if (!challenge) throw notFound('Challenge');
      if (challenge.used_at) throw used();
      if (challenge.expires_at <= clock.now()) throw expired(challenge);
      if (!verifySolanaMessageSignature(challenge.wallet_address, challenge.message, input.signature)) {
        throw new AppError('WALLET_SIGNATURE_INVALID', "The signature is not the wallet's Ed25519 signature of the challenge's message (sign its exact text; send the 64-byte signature in base58)", {
          'body.signature': 'does not verify',
          walletAddress: challenge.wallet_address,
        });
      }
      return inTransaction(db, async (trx) => {
        const now = clock.now();
        await repo.lockWallet(trx, challenge.wallet_address);
        const own = await repo.documentOf(trx, receiverId);
        const samePerson = new Set(deps.personalData.indexes('document', deps.personalData.open('document', own.document)));
        const provers = await repo.proversOf(trx, challenge.wallet_address);
        // Refused before the challenge is used: the merchant may still prove another wallet with a new one.
        if (provers.some((prover) => prover.receiver_id !== receiverId && (prover.document_hash === null || !samePerson.has(prover.document_hash)))) {
          throw provenByAnother(challenge.wallet_address);
        }
        // Single use under any concurrency: of two proofs of one challenge only one updates it.
        if (!(await repo.useChallenge(trx, challenge.id, now))) {
          const current = await repo.findChallenge(trx, challenge.id, merchantId, receiverId);
          throw current?.used_at ? used() : expired(challenge);
        }
        const proof = await repo.insertProof(trx, {
          id: newId(),
          merchant_id: merchantId,
          receiver_id: receiverId,
          wallet_address: challenge.wallet_address,
          method: 'SIWS_ED25519',
          challenge_id: challenge.id,
          message: challenge.message,
          signature: input.signature,
          proven_at: now,
        });
        await recordAudit(trx, by, {
          action: 'receiver.wallet_ownership_proven',
          targetType: 'receiver',
          targetId: receiverId,
          merchantId,
          details: { walletAddress: proof.wallet_address, method: proof.method, challengeId: challenge.id, proofId: proof.id },
        });
        return toProof(proof);
      });
    },

    /** The receiver's proven wallets, newest proof first, its managed wallet first of all. */
    async provenWallets(merchantId: string, receiverId: string): Promise<{ data: ProvenWallet[] }> {
      await receiverOrNotFound(merchantId, receiverId);
      const [managed, proofs] = await Promise.all([repo.managedWalletOf(db, receiverId), repo.proofsOf(db, receiverId)]);
      const wallets = new Map<string, ProvenWallet>();
      if (managed) wallets.set(managed.address, { walletAddress: managed.address, method: 'MANAGED', provenAt: managed.created_at.toISOString(), proofId: null });
      for (const proof of proofs) {
        if (!wallets.has(proof.wallet_address)) wallets.set(proof.wallet_address, { walletAddress: proof.wallet_address, method: 'SIWS_ED25519', provenAt: proof.proven_at.toISOString(), proofId: proof.id });
      }
      return { data: [...wallets.values()] };
    },
  };
}

export type WalletOwnershipService = ReturnType<typeof createWalletOwnership>;

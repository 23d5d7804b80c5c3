/**
 * Managed wallets: a key per receiver that asked for one (created in the receiver's own insert
 * transaction through the receivers' onReceiverCreated hook) and per merchant (created on first
 * use), and the two signing operations. sign-transaction adds the managed key's signature;
 * sign-and-send-transaction makes the platform's sponsor the fee payer, which is why every
 * request passes inspect.ts's rules before anything is signed by the sponsor or sent. Every
 * request that reaches a wallet, accepted or refused, is recorded in wallet_sign_requests before
 * it is answered (group-committed: see createBatchWriter). A sponsored send's fee is reserved
 * against the merchant's daily budget and charged to it in the ledger before it is sent
 * (sponsor-budget.ts); the per-wallet rate limit (`admit`) applies only once the wallet's owner
 * is verified, so requests for unknown receivers are 404 without touching the limiter.
 */
import type { Insertable } from 'kysely';
import type { Db, Trx } from '../../db/database.ts';
import type { ManagedWalletRow, SignOperation, SignOutcome, WalletSignRequestsTable } from './tables.ts';
import { ChainUnavailableError, type TransactionChain } from '../../adapters/chain/transactions-port.ts';
import { AppError, providerUnavailable } from '../../errors.ts';
import { encodeBase58 } from '../../lib/base58.ts';
import type { Clock } from '../../lib/clock.ts';
import { createBatchWriter } from '../../platform/batch-writer.ts';
import { newId } from '../../lib/ids.ts';
import { createBroadcastOnce } from './broadcast-once.ts';
import { checkFee, feeOf } from './fee.ts';
import { checkManagedSigner, checkSigners, checkSize, checkSponsorUse, inspectForSponsoring, isRejection, simulationRejection } from './inspect.ts';
import type { KeyVault, Signer } from '../../lib/key-vault.ts';
import { type Rejection, TransactionRejectedError } from './rejection.ts';
import { walletsRepo as repo } from './repo.ts';
import type { WalletSettings } from '../../config.ts';
import { createSponsorBudget, type SponsoredFeeLedger } from './sponsor-budget.ts';
import { rewriteForSponsor, signAll } from './sponsor.ts';
import { decodeBase64, decodeTransaction, encodeBase64, encodeTransaction, withSignature } from './transaction.ts';
import type { IdempotentRequest } from '../../platform/idempotency/claim.ts';

/** Whose wallet: the merchant's own (no receiverId) or one of its receivers'. */
export interface WalletOwner {
  merchantId: string;
  receiverId?: string;
}

/** Any valid blockhash: the sponsor's checks and the fee are computed on a rewrite with it, never sent. */
const STAND_IN_LIFETIME = { blockhash: '11111111111111111111111111111111', lastValidBlockHeight: 0n };

export interface WalletsDeps {
  db: Db;
  clock: Clock;
  vault: KeyVault;
  sponsor: Signer;
  chain: TransactionChain;
  settings: WalletSettings;
  /** The receiver of this merchant, or a 404 (another merchant's receiver is not found). */
  findReceiver(merchantId: string, receiverId: string): Promise<{ id: string }>;
  /** Posts each sponsored fee against the merchant (the ledger's, passed in by the composition root). */
  sponsoredFees: SponsoredFeeLedger;
}

/** Per request: its id, and the per-wallet rate limit, run once the owner is verified (throws 429). */
export interface SignOptions {
  requestId?: string;
  admit?: () => Promise<void>;
  /** The request's Idempotency-Key (held mode): a broadcast records its bytes with it first. */
  idempotency?: IdempotentRequest | undefined;
}

/** A receiver's status and KYC status, as the receivers table holds them. */
type ReceiverStanding = NonNullable<Awaited<ReturnType<typeof repo.findReceiverStanding>>>;

/**
 * A receiver's wallet signs only while the receiver could transact: KYC APPROVED (else 422
 * KYC_NOT_APPROVED) and status ACTIVE (else 422 RECEIVER_NOT_ACTIVE), the codes and order of
 * order creation's rules. The merchant's own wallet has no receiver and no such rule.
 */
function standingRefusal(standing: ReceiverStanding): AppError | null {
  if (standing.receiver_kyc_status !== 'APPROVED') {
    return new AppError('KYC_NOT_APPROVED', `Receiver KYC is ${standing.receiver_kyc_status}; wallet signing needs APPROVED`, { kycStatus: standing.receiver_kyc_status });
  }
  if (standing.receiver_status !== 'ACTIVE') {
    return new AppError('RECEIVER_NOT_ACTIVE', `Receiver is ${standing.receiver_status}; wallet signing needs ACTIVE`, { status: standing.receiver_status });
  }
  return null;
}

/** Audit rows written per statement, at most (13 parameters each, well under PostgreSQL's 65,535). */
const AUDIT_BATCH_MAX = 500;

export function createWalletsService(deps: WalletsDeps) {
  const { db, clock, vault, sponsor, chain, settings } = deps;
  const cache = new Map<string, { signer: Signer; expiresAt: number }>();
  /**
   * Wallet rows by owner ("merchant/receiver"): a row's key never changes once inserted, so a hit needs no query for it (a
   * receiver's standing is still read). `admin rotate-kek` re-seals the same key: a cached copy still opens with
   * WALLET_KEK_PREVIOUS, kept until the restart that retires it.
   */
  const wallets = new Map<string, { wallet: ManagedWalletRow; expiresAt: number }>();
  const auditLog = createBatchWriter<Insertable<WalletSignRequestsTable>>((rows) => repo.recordSignRequests(db, rows), { maxBatch: AUDIT_BATCH_MAX });
  const broadcast = createBroadcastOnce({ db, chain });
  const sponsorBudget = createSponsorBudget({ db, clock, dailyBudgetLamports: settings.sponsorDailyBudgetLamports, ledger: deps.sponsoredFees });

  /** The wallet's signer, decrypted at most once per WALLET_KEY_CACHE_SECONDS. */
  function signerOf(wallet: ManagedWalletRow): Signer {
    const now = Date.now();
    const cached = cache.get(wallet.id);
    if (cached && cached.expiresAt > now) return cached.signer;
    const signer = vault.open(wallet.receiver_id ?? wallet.merchant_id, { encryptedPrivateKey: wallet.encrypted_private_key, keyVersion: wallet.key_version });
    if (signer.address !== wallet.address) throw new Error(`managed wallet ${wallet.id}: decrypted key does not match its address`);
    if (settings.keyCacheSeconds > 0) {
      if (cache.size >= 10_000) cache.clear();
      cache.set(wallet.id, { signer, expiresAt: now + settings.keyCacheSeconds * 1000 });
    }
    return signer;
  }

  async function ownWallet(merchantId: string): Promise<ManagedWalletRow> {
    const existing = await repo.findOwnWallet(db, merchantId);
    if (existing) return existing;
    const sealed = vault.generate(merchantId);
    const inserted = await repo.insertOwnWalletIfAbsent(db, {
      id: newId(),
      merchant_id: merchantId,
      address: sealed.address,
      encrypted_private_key: sealed.encryptedPrivateKey,
      key_version: sealed.keyVersion,
      created_at: clock.now(),
    });
    // Lost a race with a concurrent first call: the winner's wallet is the merchant's.
    const wallet = inserted ?? (await repo.findOwnWallet(db, merchantId));
    if (!wallet) throw new Error(`merchant ${merchantId}: own wallet neither inserted nor found`);
    return wallet;
  }

  /**
   * The owner's wallet: from the cache (kept as long as decrypted keys are), else one query. A
   * receiver's wallet row carries its merchant, so finding it proves the receiver is this
   * merchant's; only when there is none is the receiver looked up (404 for an unknown or
   * another merchant's receiver, else NO_MANAGED_WALLET). A receiver's standing (status and KYC)
   * is read on every request, never cached: with the wallet row on a miss, in a query of its own
   * on a hit, so a receiver suspended, blocked or rejected is refused at its next request.
   */
  async function walletOf(owner: WalletOwner): Promise<{ wallet: ManagedWalletRow; standing?: ReceiverStanding } | undefined> {
    const key = `${owner.merchantId}/${owner.receiverId ?? ''}`;
    const now = Date.now();
    const cached = wallets.get(key);
    if (cached && cached.expiresAt > now) {
      if (owner.receiverId === undefined) return { wallet: cached.wallet };
      const standing = await repo.findReceiverStanding(db, owner.merchantId, owner.receiverId);
      if (standing) return { wallet: cached.wallet, standing };
      await deps.findReceiver(owner.merchantId, owner.receiverId); // the 404
      throw new Error(`receiver ${owner.receiverId}: a cached wallet but no receiver row`);
    }
    let wallet: ManagedWalletRow;
    let standing: ReceiverStanding | undefined;
    if (owner.receiverId === undefined) {
      wallet = await ownWallet(owner.merchantId);
    } else {
      const found = await repo.findReceiverWallet(db, owner.merchantId, owner.receiverId);
      if (!found) {
        await deps.findReceiver(owner.merchantId, owner.receiverId);
        return undefined;
      }
      const { receiver_status, receiver_kyc_status, ...row } = found;
      wallet = row;
      standing = { receiver_status, receiver_kyc_status };
    }
    if (settings.keyCacheSeconds > 0) {
      if (wallets.size >= 10_000) wallets.clear();
      wallets.set(key, { wallet, expiresAt: now + settings.keyCacheSeconds * 1000 });
    }
    return { wallet, ...(standing ? { standing } : {}) };
  }

  async function audit(
    owner: WalletOwner,
    entry: { id?: string; operation: SignOperation; outcome: SignOutcome; wallet?: ManagedWalletRow; reason?: string; message?: string; signature?: string; fee?: bigint; requestId?: string },
  ) {
    await auditLog.add({
      id: entry.id ?? newId(),
      merchant_id: owner.merchantId,
      receiver_id: owner.receiverId ?? null,
      wallet_address: entry.wallet?.address ?? null,
      operation: entry.operation,
      outcome: entry.outcome,
      reason: entry.reason ?? null,
      message: entry.message?.slice(0, 1000) ?? null,
      signature: entry.signature ?? null,
      fee_lamports: entry.fee === undefined ? null : Number(entry.fee),
      request_id: entry.requestId ?? null,
      created_at: clock.now(),
    });
  }

  /**
   * Runs one sign request and records its outcome; refusals are recorded and rethrown as they
   * are, an unreachable chain becomes 503 PROVIDER_UNAVAILABLE. `run` gets the id its audit row
   * will have (a sponsored fee's ledger entry references it).
   */
  async function audited<T extends { signature: string; fee?: bigint }>(
    owner: WalletOwner,
    operation: SignOperation,
    { requestId, admit }: SignOptions,
    run: (wallet: ManagedWalletRow, auditId: string) => Promise<T>,
  ): Promise<T> {
    const found = await walletOf(owner);
    // walletOf answered: the receiver is this merchant's (an unknown one was a 404), so the
    // limiter's key is a real wallet's and random ids can neither use nor evict keys.
    await admit?.();
    if (!found) {
      const message = 'This receiver has no managed wallet (create it with createManagedWallet: true)';
      await audit(owner, { operation, outcome: 'REJECTED', reason: 'NO_MANAGED_WALLET', message, ...(requestId ? { requestId } : {}) });
      throw new AppError('NO_MANAGED_WALLET', message);
    }
    const { wallet, standing } = found;
    const base = { id: newId(), operation, wallet, ...(requestId ? { requestId } : {}) };
    // Fail closed: a receiver's wallet never signs without its standing read.
    if (owner.receiverId !== undefined && !standing) throw new Error(`receiver ${owner.receiverId}: wallet found without its standing`);
    const refusal = standing && standingRefusal(standing);
    if (refusal) {
      await audit(owner, { ...base, outcome: 'REJECTED', reason: refusal.code, message: refusal.message });
      throw refusal;
    }
    let result: T;
    try {
      result = await run(wallet, base.id);
    } catch (err) {
      if (err instanceof TransactionRejectedError) {
        await audit(owner, { ...base, outcome: 'REJECTED', reason: err.rejection.reason, message: err.message });
      } else if (err instanceof AppError && err.code === 'VALIDATION_ERROR') {
        await audit(owner, { ...base, outcome: 'REJECTED', reason: 'INVALID_TRANSACTION', message: err.message });
      } else if (err instanceof AppError && err.code === 'SPONSOR_BUDGET_EXCEEDED') {
        await audit(owner, { ...base, outcome: 'REJECTED', reason: err.code, message: err.message });
      } else if (err instanceof ChainUnavailableError) {
        await audit(owner, { ...base, outcome: 'FAILED', reason: 'CHAIN_UNAVAILABLE', message: err.message });
        throw providerUnavailable('The Solana network could not be reached or refused the transaction; retry later', err);
      } else {
        await audit(owner, { ...base, outcome: 'FAILED', reason: 'INTERNAL_ERROR' }).catch(() => undefined);
      }
      throw err;
    }
    // Outside the try: once a transaction was sent, a failing audit write must not answer a
    // failure that would make the client send it again at the sponsor's expense.
    await audit(owner, { ...base, outcome: operation === 'SIGN' ? 'SIGNED' : 'SENT', signature: result.signature, ...(result.fee !== undefined ? { fee: result.fee } : {}) }).catch(
      (auditError: unknown) => console.error('wallet sign request succeeded but its audit record failed', { signature: result.signature, auditError }),
    );
    return result;
  }

  const refuse = (rejection: Rejection | null) => {
    if (rejection) throw new TransactionRejectedError(rejection);
  };

  return {
    sponsorAddress: sponsor.address,
    chain,

    /** The receivers' onReceiverCreated hook: the key exists and is sealed in the receiver's insert transaction. */
    async createForReceiver(trx: Trx, receiver: { id: string; merchantId: string }): Promise<{ walletAddress: string }> {
      const sealed = vault.generate(receiver.id);
      await repo.insertReceiverWallet(trx, {
        id: newId(),
        merchant_id: receiver.merchantId,
        receiver_id: receiver.id,
        address: sealed.address,
        encrypted_private_key: sealed.encryptedPrivateKey,
        key_version: sealed.keyVersion,
        created_at: clock.now(),
      });
      return { walletAddress: sealed.address };
    },

    async merchantWallet(merchantId: string) {
      // Showing the wallet needs no key: only its first use creates it (and reads the key back).
      const wallet = (await repo.findOwnWalletPublic(db, merchantId)) ?? (await ownWallet(merchantId));
      return { address: wallet.address, createdAt: wallet.created_at.toISOString() };
    },

    feePayer: () => ({ address: sponsor.address }),

    /** Adds the managed key's signature; the other signatures are kept as they are. */
    async signTransaction(owner: WalletOwner, transactionBase64: string, options: SignOptions = {}): Promise<{ signedTransaction: string }> {
      const result = await audited(owner, 'SIGN', options, async (wallet) => {
        const decoded = decodeTransaction(decodeBase64(transactionBase64));
        refuse(checkManagedSigner(decoded.view, wallet.address));
        const signature = signerOf(wallet).sign(new Uint8Array(decoded.transaction.messageBytes));
        const signed = withSignature(decoded.transaction, wallet.address, signature);
        return { signature: encodeBase58(signature), signedTransaction: encodeBase64(encodeTransaction(signed)) };
      });
      return { signedTransaction: result.signedTransaction };
    },

    /** Sponsor as fee payer, fresh blockhash, both signatures, simulated, sent; `hash` = the sponsor's signature. */
    async signAndSendTransaction(owner: WalletOwner, transactionBase64: string, options: SignOptions = {}): Promise<{ hash: string }> {
      const result = await audited(owner, 'SIGN_AND_SEND', options, async (wallet, auditId) => {
        const decoded = decodeTransaction(decodeBase64(transactionBase64));
        const ctx = { managed: wallet.address, sponsor: sponsor.address, settings };
        const inspected = inspectForSponsoring(decoded.view, ctx);
        if (isRejection(inspected)) refuse(inspected);
        const budget = inspected as Exclude<typeof inspected, Rejection>;

        const rewrite = (lifetime: Parameters<typeof rewriteForSponsor>[2]) => {
          try {
            return rewriteForSponsor(decoded, sponsor.address, lifetime);
          } catch (err) {
            // A message kit can decode but not recompile (e.g. inconsistent account roles).
            refuse({ reason: 'UNSUPPORTED_MESSAGE', message: `the message cannot be recompiled with the platform's fee payer: ${err instanceof Error ? err.message : String(err)}` });
            throw err;
          }
        };
        // Every check and the fee are the same whatever the blockhash, so they run on a rewrite with
        // a stand-in one, and the fee is reserved before the real blockhash is fetched: the time from
        // blockhash to send stays as short as before (a chain's blockhash lives a minute; the
        // sandbox chain's, one transaction).
        const checked = rewrite(STAND_IN_LIFETIME);
        // The rewritten message again: exactly the sponsor and the managed key sign, the sponsor only pays.
        refuse(checkSponsorUse(checked.view, sponsor.address) ?? checkSigners(checked.view, ctx));
        const fee = feeOf(checked.view, budget);
        refuse(checkFee(fee, settings));

        // The fee within the merchant's day and charged to it, before anything can be paid.
        const charged = await sponsorBudget.reserve({ merchantId: owner.merchantId, signRequestId: auditId, lamports: fee });
        // Refused unsent, nothing paid: the fee goes back (a 422 is the key's stored answer, so no retry resends these bytes).
        const giveBack = () => sponsorBudget.release(charged).catch((releaseError: unknown) => console.error('sponsored fee of a refused transaction not released', { auditId, releaseError }));

        let signed: ReturnType<typeof signAll>;
        try {
          const rewritten = rewrite(await chain.getLatestBlockhash());
          signed = signAll(rewritten.transaction, rewritten.view, [sponsor, signerOf(wallet)]);
          refuse(checkSize(signed.wire.length));
        } catch (err) {
          await giveBack();
          throw err;
        }

        // One execution: the chain sends only what succeeds, else answers the failure and its logs.
        // At most once per Idempotency-Key: the bytes are recorded first (broadcast-once.ts).
        const submitted = await broadcast.submit(options.idempotency, signed.wire, encodeBase58(signed.transaction.signatures[sponsor.address as keyof typeof signed.transaction.signatures]!));
        if (!submitted.ok) {
          await giveBack();
          throw new TransactionRejectedError(simulationRejection(submitted.error, submitted.logs));
        }
        return { signature: submitted.signature, fee };
      });
      return { hash: result.signature };
    },

    /** An Idempotency-Key retry of sign-and-send whose first request died or failed after signing: the same transaction. */
    resumeSend: broadcast.resume,
  };
}

export type WalletsService = ReturnType<typeof createWalletsService>;

/**
 * Proving a receiver's self-hosted wallet is theirs (the service's wallet ownership, "Sign In
 * With Solana"): ask for a challenge, have the wallet sign its message off chain, send the
 * signature. The signer is anything shaped like `@solana/kit`'s `MessagePartialSigner` (a
 * `generateKeyPairSigner()`, a wallet adapter's), described here structurally so that the SDK
 * needs no Solana library at run time.
 */
import { type GeneratedClient, unwrap, type WriteOptions, writeInit } from './call.ts';
import { ExchangeError } from './errors.ts';
import type { components } from './generated/openapi.ts';

export type WalletOwnershipChallenge = components['schemas']['WalletOwnershipChallenge'];
export type WalletOwnershipProof = components['schemas']['WalletOwnershipProof'];

/** What a message signer gets: the bytes to sign (and signatures already made, which it may ignore). */
export interface MessageToSign {
  readonly content: Uint8Array;
  readonly signatures: Readonly<Record<string, Uint8Array>>;
}

/**
 * A wallet that signs messages: `@solana/kit`'s `MessagePartialSigner` fits as it is. `address`
 * is the wallet's (base58); `signMessages` answers, per message, the signatures by address.
 */
export interface WalletMessageSigner {
  readonly address: string;
  signMessages(messages: readonly MessageToSign[]): Promise<readonly Readonly<Record<string, Uint8Array>>[]>;
}

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** Base58 (Bitcoin alphabet), the encoding the service reads signatures in. */
export function base58(bytes: Uint8Array): string {
  const digits: number[] = [];
  for (const byte of bytes) {
    let carry = byte;
    for (let i = 0; i < digits.length; i += 1) {
      carry += digits[i]! * 256;
      digits[i] = carry % 58;
      carry = Math.floor(carry / 58);
    }
    for (; carry > 0; carry = Math.floor(carry / 58)) digits.push(carry % 58);
  }
  let zeros = 0;
  while (zeros < bytes.length && bytes[zeros] === 0) zeros += 1;
  return '1'.repeat(zeros) + digits.reverse().map((digit) => BASE58[digit]).join('');
}

/** A key per step from the caller's: a retried proof replays both the challenge and the proof. */
const stepOptions = (options: WriteOptions | undefined, step: string): WriteOptions | undefined =>
  options?.idempotencyKey === undefined ? options : { ...options, idempotencyKey: `${options.idempotencyKey}:${step}` };

export function walletOwnership(api: GeneratedClient) {
  const challenge = (receiverId: string, walletAddress: string, options?: WriteOptions) =>
    unwrap(api.POST('/receivers/{id}/wallet-ownership/challenges', { body: { walletAddress }, params: { path: { id: receiverId } }, ...writeInit(options) }));
  const submitProof = (receiverId: string, body: { challengeId: string; signature: string }, options?: WriteOptions) =>
    unwrap(api.POST('/receivers/{id}/wallet-ownership/proofs', { body, params: { path: { id: receiverId } }, ...writeInit(options) }));

  return {
    /** Step 1 by hand: the challenge whose `message` the wallet signs. */
    createWalletChallenge: challenge,
    /** Step 2 by hand: the challenge's id and the wallet's Ed25519 signature of its message, base58. */
    submitWalletProof: submitProof,
    /** The receiver's proven wallets (its managed wallet first). */
    provenWallets: (receiverId: string, options?: { signal?: AbortSignal }) =>
      unwrap(api.GET('/receivers/{id}/wallet-ownership', { params: { path: { id: receiverId } }, ...(options?.signal ? { signal: options.signal } : {}) })),
    /**
     * Proves `signer.address` is the receiver's: a challenge, the signer's signature of its
     * message (UTF-8 bytes, off chain: no transaction, no fee), the proof. With your
     * `idempotencyKey`, running it again after a crash replays the same challenge and proof.
     */
    async proveWalletOwnership(receiverId: string, signer: WalletMessageSigner, options?: WriteOptions): Promise<WalletOwnershipProof> {
      const issued = await challenge(receiverId, signer.address, stepOptions(options, 'challenge'));
      const [signatures] = await signer.signMessages([{ content: new TextEncoder().encode(issued.message), signatures: {} }]);
      const signature = signatures?.[signer.address];
      if (!signature) throw new ExchangeError(`the signer answered no signature by ${signer.address}`);
      return submitProof(receiverId, { challengeId: issued.challengeId, signature: base58(signature) }, stepOptions(options, 'proof'));
    },
  };
}

/**
 * A fresh deposit address per PAYOUT (CHAIN_PROVIDER=solana-rpc): a new Ed25519 keypair, sealed
 * under the KEK (kind 'deposit-address', bound to the reference), stored with the token's mint and
 * the owner's associated token account. The address the order shows is the owner: a sender's
 * wallet derives the owner's associated token account for the mint itself (creating it if needed),
 * while a token account given as the destination would be read by most wallets as an owner, and
 * the tokens sent to that account's own associated account. Idempotent per reference; an address is
 * never given to another reference (the keypair is new, and the owner column unique).
 */
import type { DepositChain } from '../../adapters/chain/deposits-port.ts';
import type { Db } from '../../db/database.ts';
import type { Clock } from '../../lib/clock.ts';
import type { KeyVault } from '../../lib/key-vault.ts';
import { depositsRepo as repo } from './repo.ts';

export function createDepositAddresses(deps: { db: Db; clock: Clock; vault: KeyVault; chain: Pick<DepositChain, 'tokenAccountOf'> }) {
  const { db, clock, vault, chain } = deps;

  /** The reference's address: the stored one, or a new one (a concurrent call for it gets the one stored first). */
  async function create(input: { orderId: string; token: string }): Promise<{ address: string }> {
    const stored = await repo.addressOf(db, input.orderId);
    if (stored) return { address: stored.owner_address };
    const sealed = vault.generate(input.orderId);
    const { mint, tokenAccount } = await chain.tokenAccountOf(sealed.address, input.token);
    const now = clock.now();
    const inserted = await repo.insertAddress(db, {
      reference: input.orderId,
      token: input.token,
      mint,
      owner_address: sealed.address,
      token_account: tokenAccount,
      encrypted_private_key: sealed.encryptedPrivateKey,
      key_version: sealed.keyVersion,
      created_at: now,
      updated_at: now,
    });
    if (inserted) return { address: inserted.owner_address };
    const winner = await repo.addressOf(db, input.orderId);
    if (!winner) throw new Error(`deposit address of ${input.orderId}: neither inserted nor found`);
    return { address: winner.owner_address };
  }

  return { create };
}

export type DepositAddresses = ReturnType<typeof createDepositAddresses>;

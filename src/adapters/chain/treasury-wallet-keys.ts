/**
 * The treasury's hot wallets' keys (decision 0057) as the transfer builders use them: wallet n is
 * the n-th signer given (TREASURY, then TREASURY_2 …), the fee payer and token authority of the
 * transactions it signs.
 */
import { type Address, address, createNoopSigner } from '@solana/kit';

/** A treasury key, held by whoever unseals it: the adapters only ask it to sign. */
export interface TreasurySigner {
  readonly address: string;
  sign(message: Uint8Array): Uint8Array;
}

export interface TreasuryWalletKey {
  signer: TreasurySigner;
  address: Address;
  /** Stands for the wallet in instructions; the real signature is added to the compiled message. */
  noop: ReturnType<typeof createNoopSigner>;
}

/** Wallet n's key among `treasuries` (wallet 1 first); a wallet this process holds no key of is a programming error. */
export function treasuryWalletKeys(treasuries: readonly TreasurySigner[]): (wallet: number) => TreasuryWalletKey {
  const keys = treasuries.map((signer) => ({ signer, address: address(signer.address), noop: createNoopSigner(address(signer.address)) }));
  return (wallet) => {
    const key = keys[wallet - 1];
    if (!key) throw new Error(`treasury wallet ${wallet}: this process holds ${keys.length} treasury key(s)`);
    return key;
  };
}

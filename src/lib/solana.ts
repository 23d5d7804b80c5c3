import { isAddress } from '@solana/kit';

/** A Solana address: base58 text that decodes to exactly 32 bytes (DOMAIN.md, Solana). */
export const isSolanaAddress = (value: string): boolean => isAddress(value);

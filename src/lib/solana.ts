import { getBase58Encoder, isAddress } from '@solana/kit';

/** A Solana address: base58 text that decodes to exactly 32 bytes (DOMAIN.md, Solana). */
export const isSolanaAddress = (value: string): boolean => isAddress(value);

/**
 * The 64 bytes of a keypair (seed then public key) written as base58 or as a JSON array of
 * numbers (solana-keygen's file); undefined if neither. Shared by config validation and by the
 * wallets module, which reads the sponsor's key without importing config.
 */
export function keypairBytes(value: string): Uint8Array | undefined {
  let bytes: Uint8Array | undefined;
  if (value.startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(value);
      if (Array.isArray(parsed) && parsed.every((n) => Number.isInteger(n) && n >= 0 && n <= 255)) bytes = Uint8Array.from(parsed as number[]);
    } catch {
      return undefined;
    }
  } else if (/^[1-9A-HJ-NP-Za-km-z]+$/.test(value)) {
    bytes = getBase58Encoder().encode(value) as Uint8Array;
  }
  return bytes?.length === 64 ? bytes : undefined;
}

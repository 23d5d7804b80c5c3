/**
 * Solana's address lookup table program, the two instructions the treasury uses and the account's
 * layout (decision 0056). Written here rather than taken from `@solana-program/address-lookup-table`,
 * whose releases want @solana/kit 6 (we run 8): two instructions and a header of 56 bytes.
 *
 *   CreateLookupTable  data: u32 0, u64 recent slot, u8 bump; accounts: table (w), authority (s),
 *                      payer (ws), system program. The table's address is the program address of
 *                      [authority, recent slot], and the slot must be one of the chain's recent ones.
 *   ExtendLookupTable  data: u32 2, u64 count, the addresses; accounts: table (w), authority (s),
 *                      payer (ws), system program. Addresses appended in a slot are usable by
 *                      transactions of later slots only.
 *   account            u32 type (1), u64 deactivation slot (u64::MAX while active), u64 last
 *                      extended slot, u8 its start index, Option<authority> (1 + 32), u16 padding,
 *                      then the addresses, 32 bytes each, at most 256.
 */
import {
  AccountRole,
  type Address,
  address,
  getAddressDecoder,
  getAddressEncoder,
  getProgramDerivedAddress,
  getU64Encoder,
  type Instruction,
} from '@solana/kit';

export const LOOKUP_TABLE_PROGRAM = address('AddressLookupTab1e1111111111111111111111111');
const SYSTEM_PROGRAM = address('11111111111111111111111111111111');
/** Addresses a table may hold. */
export const LOOKUP_TABLE_CAPACITY = 256;
const META_BYTES = 56;
const ACTIVE = 2n ** 64n - 1n;

const addressEncoder = getAddressEncoder();
const addressDecoder = getAddressDecoder();
const u64 = getU64Encoder();

function accounts(table: Address, authority: Address) {
  return [
    { address: table, role: AccountRole.WRITABLE },
    { address: authority, role: AccountRole.READONLY_SIGNER },
    // The authority pays: the treasury is both.
    { address: authority, role: AccountRole.WRITABLE_SIGNER },
    { address: SYSTEM_PROGRAM, role: AccountRole.READONLY },
  ];
}

/** The table a create instruction for this authority and slot makes, and the instruction. */
export async function createLookupTable(authority: Address, recentSlot: bigint): Promise<{ table: Address; instruction: Instruction }> {
  const [table, bump] = await getProgramDerivedAddress({ programAddress: LOOKUP_TABLE_PROGRAM, seeds: [addressEncoder.encode(authority), u64.encode(recentSlot)] });
  const data = new Uint8Array(13);
  const view = new DataView(data.buffer);
  view.setUint32(0, 0, true);
  view.setBigUint64(4, recentSlot, true);
  data[12] = bump;
  return { table, instruction: { programAddress: LOOKUP_TABLE_PROGRAM, accounts: accounts(table, authority), data } };
}

export function extendLookupTable(table: Address, authority: Address, added: readonly Address[]): Instruction {
  const data = new Uint8Array(12 + 32 * added.length);
  const view = new DataView(data.buffer);
  view.setUint32(0, 2, true);
  view.setBigUint64(4, BigInt(added.length), true);
  added.forEach((entry, i) => data.set(addressEncoder.encode(entry), 12 + 32 * i));
  return { programAddress: LOOKUP_TABLE_PROGRAM, accounts: accounts(table, authority), data };
}

export interface LookupTableAccount {
  active: boolean;
  authority: Address | null;
  addresses: Address[];
}

/** A lookup table account's data; undefined when it is not one. */
export function parseLookupTable(data: Uint8Array): LookupTableAccount | undefined {
  if (data.length < META_BYTES || (data.length - META_BYTES) % 32 !== 0) return undefined;
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  if (view.getUint32(0, true) !== 1) return undefined;
  const addresses: Address[] = [];
  for (let at = META_BYTES; at < data.length; at += 32) addresses.push(addressDecoder.decode(data.subarray(at, at + 32)));
  return {
    active: view.getBigUint64(4, true) === ACTIVE,
    authority: data[21] === 1 ? addressDecoder.decode(data.subarray(22, 54)) : null,
    addresses,
  };
}

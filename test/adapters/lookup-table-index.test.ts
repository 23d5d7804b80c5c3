/**
 * What the batch preparer knows of the treasury's lookup tables (src/adapters/chain/lookup-table-index.ts):
 * a table is loaded only when it holds two or more of a transaction's accounts; the accounts
 * batches carried that no table holds are the candidates, taken once, given back, never one a
 * table already holds.
 */
import { randomBytes } from 'node:crypto';
import { getAddressDecoder } from '@solana/kit';
import { describe, expect, it } from 'vitest';
import { createLookupTableIndex } from '../../src/adapters/chain/lookup-table-index.ts';

const randomAddress = () => getAddressDecoder().decode(randomBytes(32));

describe('the lookup table index', () => {
  const [a, b, c, d] = [randomAddress(), randomAddress(), randomAddress(), randomAddress()];
  const [first, second] = [randomAddress(), randomAddress()];

  it('loads a table for a transaction only when it holds two or more of its accounts', () => {
    const index = createLookupTableIndex();
    index.replaceTables([
      { address: first, addresses: [a, b, c] },
      { address: second, addresses: [d] },
    ]);
    expect(index.tablesFor([a, b, d])).toEqual({ [first]: [a, b, c] });
    // An account repeated counts once.
    expect(index.tablesFor([a, a, d])).toEqual({});
    expect(index.tablesFor([])).toEqual({});
  });

  it('keeps the accounts no table holds as candidates, taken once, in the order carried', () => {
    const index = createLookupTableIndex();
    index.replaceTables([{ address: first, addresses: [a] }]);
    index.noteCarried([a, b, c, b]);
    expect(index.takeUnlisted(1)).toEqual([b]);
    expect(index.takeUnlisted(5)).toEqual([c]);
    expect(index.takeUnlisted(5)).toEqual([]);
    // Given back (an extension that did not land), then appended elsewhere: no longer a candidate.
    index.noteCarried([b, c, d]);
    index.replaceTables([{ address: first, addresses: [a, b] }]);
    expect(index.takeUnlisted(5)).toEqual([c, d]);
  });
});

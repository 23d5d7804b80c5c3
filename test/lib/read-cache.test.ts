/**
 * createReadCache (lib/read-cache.ts), as the Solana transfers use it for the blockhash and the
 * recent fees: one load per key within the age, shared by concurrent callers; a failed load is
 * not kept; forget() makes the next caller load.
 */
import { describe, expect, it } from 'vitest';
import { createReadCache } from '../../src/lib/read-cache.ts';

describe('createReadCache', () => {
  it('loads once per key within the age, shares the load in flight, and loads again once it is older', async () => {
    let now = 0;
    const asked: string[] = [];
    const reads = createReadCache<string>({ ttlMs: 500, maxEntries: 10, now: () => now });
    const load = (key: string) => async () => (asked.push(key), `${key}@${now}`);
    expect(await Promise.all([reads.read('a', load('a')), reads.read('a', load('a')), reads.read('b', load('b'))])).toEqual(['a@0', 'a@0', 'b@0']);
    now = 499;
    expect(await reads.read('a', load('a'))).toBe('a@0');
    now = 500;
    expect(await reads.read('a', load('a'))).toBe('a@500');
    expect(asked).toEqual(['a', 'b', 'a']);
  });

  it('keeps no failure, and forget() makes the next caller load', async () => {
    let calls = 0;
    const reads = createReadCache<number>({ ttlMs: 60_000, maxEntries: 10 });
    const load = async () => {
      calls += 1;
      if (calls === 1) throw new Error('node down');
      return calls;
    };
    await expect(reads.read('k', load)).rejects.toThrow('node down');
    expect(await reads.read('k', load)).toBe(2);
    expect(await reads.read('k', load)).toBe(2);
    reads.forget('k');
    expect(await reads.read('k', load)).toBe(3);
  });
});

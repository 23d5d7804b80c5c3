/**
 * readAtMostEvery (adapters/chain/recent-reads.ts): one call per key within the age, shared by
 * concurrent callers; a failed call is not kept; forget() makes the next caller ask.
 */
import { describe, expect, it } from 'vitest';
import { readAtMostEvery } from '../../src/adapters/chain/recent-reads.ts';

describe('readAtMostEvery', () => {
  it('asks once per key within the age, shares the call in flight, and asks again once it is older', async () => {
    let now = 0;
    const asked: string[] = [];
    const reads = readAtMostEvery(500, async (key: string) => (asked.push(key), `${key}@${now}`), () => now);
    expect(await Promise.all([reads.get('a'), reads.get('a'), reads.get('b')])).toEqual(['a@0', 'a@0', 'b@0']);
    now = 499;
    expect(await reads.get('a')).toBe('a@0');
    now = 500;
    expect(await reads.get('a')).toBe('a@500');
    expect(asked).toEqual(['a', 'b', 'a']);
  });

  it('keeps no failure, and forget() makes the next caller ask', async () => {
    let calls = 0;
    const reads = readAtMostEvery(60_000, async () => {
      calls += 1;
      if (calls === 1) throw new Error('node down');
      return calls;
    });
    await expect(reads.get('k')).rejects.toThrow('node down');
    expect(await reads.get('k')).toBe(2);
    expect(await reads.get('k')).toBe(2);
    reads.forget('k');
    expect(await reads.get('k')).toBe(3);
  });
});

import { describe, expect, it } from 'vitest';
import { UUID_PATTERN, newId } from '../../src/lib/ids.ts';

describe('newId', () => {
  it('gives unique, time-ordered version 7 UUIDs, also many within one millisecond', () => {
    const ids = Array.from({ length: 20_000 }, newId);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
    for (const id of ids.slice(0, 100)) {
      expect(id).toMatch(UUID_PATTERN);
      expect(id[14]).toBe('7');
      expect('89ab').toContain(id[19]);
    }
  });

  it('starts with the current Unix time in milliseconds', () => {
    const before = Date.now();
    const id = newId();
    const msecs = parseInt(id.replace(/-/g, '').slice(0, 12), 16);
    expect(msecs).toBeGreaterThanOrEqual(before);
    expect(msecs).toBeLessThanOrEqual(Date.now() + 1);
  });
});

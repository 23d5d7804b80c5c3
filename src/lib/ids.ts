import { randomFillSync } from 'node:crypto';
import { v7 } from 'uuid';

/**
 * Randomness for ids, drawn from the kernel 256 ids at a time: `uuid` asks for 16 bytes per id
 * (a getrandom call each), which was a tenth of an authenticated request's CPU time.
 */
const pool = new Uint8Array(16 * 256);
let poolOffset = pool.length;

function random16(): Uint8Array {
  if (poolOffset === pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  poolOffset += 16;
  return pool.subarray(poolOffset - 16, poolOffset);
}

/** Monotonic within a millisecond, as `uuid`'s own v7 state keeps it: a random start, then +1. */
const clock = { msecs: -Infinity, seq: 0 };

/** Time-ordered UUID (v7): new rows land at the end of their primary-key index. */
export function newId(): string {
  const random = random16();
  const now = Date.now();
  if (now > clock.msecs) {
    clock.msecs = now;
    clock.seq = ((random[6]! & 0x7f) << 24) | (random[7]! << 16) | (random[8]! << 8) | random[9]!;
  } else {
    clock.seq = (clock.seq + 1) | 0;
    if (clock.seq === 0) clock.msecs++;
  }
  return v7({ random, msecs: clock.msecs, seq: clock.seq });
}

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The read router's safety without a replica at hand (the real replica is test/e2e/read-replica.test.ts):
 * a DATABASE_READ_URL that names a server which is not a standby is never read from, since its lag
 * cannot be measured. Both drivers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/database.ts';
import { createReadRouter, primaryOnly } from '../../src/db/read-router.ts';
import { openTestDatabase } from '../helpers/database.ts';

let database: DatabaseHandle;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database?.close());

describe('read router', () => {
  it('never reads from a server that is not a standby (its lag is unknown): the primary serves', async () => {
    const primary = database.db;
    const notAStandby = database.db.withSchema('public'); // another handle on the same (primary) server
    const reads = createReadRouter({ primary, replica: notAStandby, maxLagMs: 1000, probeMs: 3_600_000 });
    try {
      expect(await reads.probe()).toBeUndefined();
      expect(reads.forMerchant('m1')).toBe(primary);
    } finally {
      reads.stop();
    }
  });

  it('without DATABASE_READ_URL every read is the primary', () => {
    expect(primaryOnly(database.db).forMerchant('m1')).toBe(database.db);
  });
});

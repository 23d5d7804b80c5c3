/**
 * `admin import-platform-key --purpose`: the sponsor, the treasury, or a further treasury wallet
 * (treasury_2 … treasury_8, decision 0057), in any case. A purpose it does not know ends the
 * command with the usage line (test/cli/cli-failures.test.ts, in a process of its own).
 */
import { describe, expect, it } from 'vitest';
import { purposeOf } from '../../src/cli/key-commands.ts';

describe('import-platform-key --purpose', () => {
  it('names the sponsor, the treasury or a further treasury wallet, in any case', () => {
    expect(['sponsor', 'TREASURY', 'treasury_2', 'Treasury_8'].map(purposeOf)).toEqual(['SPONSOR', 'TREASURY', 'TREASURY_2', 'TREASURY_8']);
  });
});

/**
 * The sponsor's balance rules and reading (src/modules/treasury/sponsor-balance.ts), without a
 * chain: low below SPONSOR_LOW_BALANCE or empty; able to pay a sweep from its fee, a token
 * account's rent and its own rent-exempt minimum; a crossing logged once each way; a reading that
 * could not pay a sweep always read again. The chain-simulator story is
 * test/modules/deposits/unfunded-sponsor.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { SWEEP_SPONSOR_MINIMUM_SOL, createSponsorBalance, sponsorStanding } from '../../../src/modules/treasury/sponsor-balance.ts';
import { TestClock } from '../../helpers/app.ts';
import { fakeTreasury } from './helpers.ts';

const SPONSOR = 'AoZpPbxkhcbiXu7FyP2BoBPpbc2VPHM5FgUG7zmkGkmi';

describe('sponsorStanding', () => {
  it.each([
    ['0', '0.05', { low: true, canPaySweep: false }],
    ['0', '0', { low: true, canPaySweep: false }],
    ['0.00294015', '0', { low: false, canPaySweep: false }],
    [SWEEP_SPONSOR_MINIMUM_SOL, '0.05', { low: true, canPaySweep: true }],
    ['0.049999999', '0.05', { low: true, canPaySweep: true }],
    ['0.05', '0.05', { low: false, canPaySweep: true }],
  ])('%s SOL against a threshold of %s', (balance, threshold, standing) => {
    expect(sponsorStanding(balance, threshold)).toEqual(standing);
  });

  it('one sweep needs 2,940,160 lamports', () => {
    expect(SWEEP_SPONSOR_MINIMUM_SOL).toBe('0.00294016');
  });
});

describe('createSponsorBalance', () => {
  function setup(sol: string) {
    const chain = fakeTreasury({ SOL: sol });
    const clock = new TestClock(new Date('2026-11-23T15:00:00Z'));
    const log = { lines: [] as Array<{ level: string; obj: object; msg: string }>, warn: (obj: object, msg: string) => log.lines.push({ level: 'warn', obj, msg }), info: (obj: object, msg: string) => log.lines.push({ level: 'info', obj, msg }) };
    const sponsor = createSponsorBalance({ address: SPONSOR, reader: chain.reader, threshold: '0.05', clock, log });
    return { chain, clock, log, sponsor };
  }

  it('logs the crossing below once, naming the sponsor, and the crossing back', async () => {
    const { chain, log, sponsor } = setup('0.01');
    expect(await sponsor.check()).toMatchObject({ address: SPONSOR, balance: '0.01', low: true, canPaySweep: true });
    await sponsor.check();
    expect(log.lines).toEqual([{ level: 'warn', obj: { sponsor: SPONSOR, balance: '0.01', threshold: '0.05', sweepMinimum: '0.00294016' }, msg: expect.stringMatching(/^sponsor SOL balance below SPONSOR_LOW_BALANCE: fund it before/) }]);
    chain.set('SOL', '2');
    await sponsor.check();
    expect(log.lines.at(-1)).toEqual({ level: 'info', obj: expect.objectContaining({ sponsor: SPONSOR, balance: '2' }), msg: 'sponsor SOL balance back above SPONSOR_LOW_BALANCE' });
    expect(sponsor.last()).toMatchObject({ low: false });
  });

  it('a funded reading is reused while fresh; one that cannot pay a sweep is read again every time', async () => {
    const { chain, clock, sponsor } = setup('1');
    await sponsor.current(60_000);
    await sponsor.current(60_000);
    expect(chain.state.reads).toBe(1);
    clock.advance(60_000);
    await sponsor.current(60_000);
    expect(chain.state.reads).toBe(2);
    chain.set('SOL', '0');
    clock.advance(60_000);
    expect(await sponsor.current(60_000)).toMatchObject({ canPaySweep: false });
    await sponsor.current(60_000);
    expect(chain.state.reads).toBe(4);
  });

  it('a node that fails keeps the last reading and throws', async () => {
    const { chain, sponsor } = setup('1');
    await sponsor.check();
    chain.state.failing = true;
    await expect(sponsor.check()).rejects.toThrow(/Solana RPC/);
    expect(sponsor.last()).toMatchObject({ balance: '1' });
  });
});

/**
 * The treasury's rules (src/modules/treasury/rules.ts): drift is on-chain − ledger; a negative
 * drift no larger than the transfers in flight is transient; a balance below its threshold is
 * low; a PAYIN the available balance cannot cover is refused with a stable code.
 */
import { describe, expect, it } from 'vitest';
import { decimal } from '../../../src/lib/money.ts';
import { availableAfter, driftOf, isLowBalance, isTransientDrift, liquidityRefusal, maxSolPerTransfer } from '../../../src/modules/treasury/rules.ts';

describe('drift', () => {
  it.each([
    ['100', '100', '0'],
    ['100.5', '100', '0.5'],
    ['90', '100', '-10'],
    ['0', '0.000000001', '-0.000000001'],
  ])('on chain %s, ledger %s: %s', (onChain, ledger, drift) => {
    expect(driftOf(onChain, ledger)).toBe(drift);
  });

  const none = { count: 0, amount: '0' };
  it.each([
    ['USDC', '0', none, true],
    ['USDC', '-10', none, false],
    ['USDC', '5', none, false],
    ['USDC', '-10', { count: 1, amount: '10' }, true],
    ['USDC', '-10.000001', { count: 1, amount: '10' }, false],
    ['USDC', '3', { count: 1, amount: '10' }, false],
    ['SOL', '-0.00001', { count: 2, amount: '0' }, true],
    ['SOL', '-0.00001', none, false],
    ['SOL', '0.1', { count: 2, amount: '0' }, false],
    // At most what the transfers in flight can have cost (0.01 SOL each here), never any shortfall.
    ['SOL', '-0.02', { count: 2, amount: '0' }, true],
    ['SOL', '-0.020000001', { count: 2, amount: '0' }, false],
    ['SOL', '-1000', { count: 1, amount: '0' }, false],
    // Nothing in flight: any shortfall is drift, whatever amount the count came with.
    ['USDC', '-5', { count: 0, amount: '10' }, false],
    ['SOL', '-0.005', { count: 0, amount: '1' }, false],
  ])('%s drift %s with %o in flight: transient %s', (currency, drift, inFlight, transient) => {
    expect(isTransientDrift(currency, drift, inFlight, '0.01')).toBe(transient);
  });

  it('a transfer costs the treasury at most its fee at the priority cap and one account\'s rent', () => {
    // 5000 (one signature) + 200000 CU × 1000 µlamports (200 lamports) + the 3000000 rent bound.
    expect(maxSolPerTransfer({ computeUnitLimit: 200_000, priorityFeeMaxMicroLamports: 1000 })).toBe('0.003005200');
    // Micro-lamports round up to a whole lamport.
    expect(maxSolPerTransfer({ computeUnitLimit: 3, priorityFeeMaxMicroLamports: 1 })).toBe('0.003005001');
  });
});

describe('low balance', () => {
  it.each([
    ['99.999999', '100', true],
    ['100', '100', false],
    ['1000', '100', false],
    ['0', undefined, false],
  ])('balance %s, threshold %s: low %s', (balance, threshold, low) => {
    expect(isLowBalance(balance, threshold)).toBe(low);
  });
});

describe('liquidity', () => {
  it('available is the balance less what open PAYINs owe', () => {
    expect(availableAfter('100', '35.5').toString()).toBe('64.5');
    expect(availableAfter('10', '12').toString()).toBe('-2');
  });

  it('refuses exactly what the available balance cannot cover', () => {
    expect(liquidityRefusal('USDC', '10', decimal('10'))).toBeNull();
    const refusal = liquidityRefusal('USDC', '10.000001', decimal('10'));
    expect(refusal?.code).toBe('TREASURY_INSUFFICIENT_LIQUIDITY');
    expect(refusal?.statusCode).toBe(503);
    // The merchant learns which token, never the treasury's balance.
    expect(refusal?.details).toEqual({ token: 'USDC' });
    expect(refusal?.message).toBe("The platform's treasury cannot cover this USDC order now; no PIX charge was created. Retry later.");
  });
});

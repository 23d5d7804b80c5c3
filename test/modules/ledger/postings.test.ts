/**
 * The posting recipes as one table: for each movement, the legs it writes per account, and the
 * rule the database also enforces (every currency of an entry sums to zero).
 */
import { describe, expect, it } from 'vitest';
import { type OrderAmounts, type OrderMovement, type Posting, isBalanced, orderPostings, settlementPostings } from '../../../src/modules/ledger/postings.ts';

const order: OrderAmounts = {
  id: 'o1',
  merchant_id: 'm1',
  token: 'USDC',
  amount_brl: '100.00',
  amount_token: '18.240740',
  net_amount_brl: '98.50',
  platform_fee_amount_brl: '1.00',
  merchant_fee_amount_brl: '0.50',
};

const legs = (postings: Posting[]) => postings.map((p) => `${p.account} ${p.currency} ${p.amount}`).sort();

const TABLE: Array<{ movement: OrderMovement; received?: string; legs: string[] }> = [
  { movement: 'PAYIN_PIX_RECEIVED', received: '100.00', legs: ['customer_funds_in_transit BRL -100', 'pix_cash BRL 100'] },
  { movement: 'PAYIN_PIX_RECEIVED', received: '99.99', legs: ['customer_funds_in_transit BRL -99.99', 'pix_cash BRL 99.99'] },
  {
    movement: 'PAYIN_COMPLETED',
    legs: [
      'customer_funds_in_transit BRL 100',
      'fx_conversion BRL -98.5',
      'fx_conversion USDC 18.24074',
      'merchant_fees_payable BRL -0.5',
      'platform_fee_revenue BRL -1',
      'token_treasury USDC -18.24074',
    ],
  },
  { movement: 'PAYIN_REFUNDED', received: '99.99', legs: ['customer_funds_in_transit BRL 99.99', 'pix_cash BRL -99.99'] },
  { movement: 'PAYOUT_DEPOSIT_RECEIVED', received: '18.240740', legs: ['customer_funds_in_transit USDC -18.24074', 'token_treasury USDC 18.24074'] },
  {
    movement: 'PAYOUT_COMPLETED',
    legs: [
      'customer_funds_in_transit USDC 18.24074',
      'fx_conversion BRL 100',
      'fx_conversion USDC -18.24074',
      'merchant_fees_payable BRL -0.5',
      'pix_cash BRL -98.5',
      'platform_fee_revenue BRL -1',
    ],
  },
];

describe('ledger posting recipes', () => {
  it.each(TABLE)('$movement (received $received) posts its legs and balances', ({ movement, received, legs: expected }) => {
    const postings = orderPostings(order, movement, received);
    expect(legs(postings)).toEqual([...expected].sort());
    expect(isBalanced(postings)).toBe(true);
  });

  it('leaves out a zero leg (no merchant fee) and still balances', () => {
    const postings = orderPostings({ ...order, merchant_fee_amount_brl: '0.00', net_amount_brl: '99.00' }, 'PAYIN_COMPLETED');
    expect(postings.map((p) => p.account)).not.toContain('merchant_fees_payable');
    expect(isBalanced(postings)).toBe(true);
  });

  it('settles fees payable into the merchant settlements account', () => {
    expect(legs(settlementPostings('12.34'))).toEqual(['merchant_fees_payable BRL 12.34', 'merchant_settlements BRL -12.34']);
  });

  it('an unbalanced set is refused by the check the writer runs', () => {
    expect(isBalanced([{ account: 'pix_cash', currency: 'BRL', amount: '1' }])).toBe(false);
    expect(isBalanced([{ account: 'pix_cash', currency: 'BRL', amount: '1' }, { account: 'token_treasury', currency: 'USDC', amount: '-1' }])).toBe(false);
  });
});

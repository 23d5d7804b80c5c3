/**
 * The ledger's posting recipes (src/modules/ledger/postings.ts) as a table: for each order
 * movement and for a settlement, the inputs and the postings expected on each account (debits
 * positive, credits negative), checked against the recipe functions, with the zero-sum
 * invariant (per currency) for every row. Pure: no database.
 */
import { describe, expect, it } from 'vitest';
import type { OrderRow } from '../../../src/modules/orders/tables.ts';
import { decimal } from '../../../src/lib/money.ts';
import { type AccountCode, type OrderMovement, type Posting, chainCostPostings, isBalanced, isMerchantAccount, orderPostings, settlementPostings, sweepCostPostings } from '../../../src/modules/ledger/postings.ts';

/** An order row with only what the recipes read made explicit; the rest is plausible filler. */
function order(overrides: Partial<OrderRow> & Pick<OrderRow, 'type'>): OrderRow {
  const at = new Date('2026-11-23T15:00:00.000Z');
  return {
    id: '0190a0e0-0000-7000-8000-00000000000a',
    merchant_id: '0190a0e0-0000-7000-8000-00000000000b',
    receiver_id: '0190a0e0-0000-7000-8000-00000000000c',
    status: 'COMPLETED',
    chain: 'solana',
    token: 'USDC',
    external_id: null,
    destination_wallet: null,
    deposit_address: null,
    pix_txid: null,
    pix_payment_code: null,
    pix_key: null,
    pix_key_type: null,
    recipient_name: null,
    pix_end_to_end_id: null,
    provider_transaction_id: null,
    refund_id: null,
    tx_hash: null,
    failure_reason: null,
    excess_amount_token: '0',
    treasury_wallet: null,
    payout_refused_at: null,
    payout_attempt: 0,
    dispute_hold: false,
    refund_nature: 'ORIGINAL',
    payer_document_type: null,
    payer_document: null,
    payer_name: null,
    limit_day: '2026-11-23',
    limit_released: false,
    unproven_wallet_reserved: false,
    expires_at: at,
    completed_at: null,
    next_step_at: null,
    step_attempts: 0,
    claimed_until: null,
    claimed_by: null,
    created_at: at,
    updated_at: at,
    amount_brl: '0',
    amount_token: '0',
    exchange_rate: '5.3730',
    platform_fee_percentage: '0.005',
    merchant_fee_percentage: '0.01',
    platform_fee_amount_brl: '0',
    merchant_fee_amount_brl: '0',
    net_amount_brl: '0',
    markup_bps: 0,
    markup_flat_brl: '0',
    markup_cap_brl: null,
    markup_amount_brl: '0',
    ...overrides,
  };
}

/** A payin of 250.00 BRL: 0.5 % platform fee, 1 % merchant fee, the net converted to 46.5 USDC. */
const payin = order({
  type: 'PAYIN',
  amount_brl: '250.00',
  platform_fee_amount_brl: '1.25',
  merchant_fee_amount_brl: '2.50',
  net_amount_brl: '246.25',
  amount_token: '46.5',
});
/** The same payin for a merchant who charges no fee of its own. */
const payinWithoutMerchantFee = order({
  type: 'PAYIN',
  amount_brl: '250.00',
  merchant_fee_percentage: '0',
  platform_fee_amount_brl: '1.25',
  merchant_fee_amount_brl: '0.00',
  net_amount_brl: '248.75',
  amount_token: '46.84',
});
/** A payout of 10 USDC worth 53.73 BRL gross: 0.27 platform fee, 0.54 merchant fee, 52.92 paid by PIX. */
const payout = order({
  type: 'PAYOUT',
  amount_token: '10',
  amount_brl: '53.73',
  platform_fee_amount_brl: '0.27',
  merchant_fee_amount_brl: '0.54',
  net_amount_brl: '52.92',
});

/** The payin of 250.00 BRL with a partner markup of 3.00: the net converted is 3.00 less. */
const markedPayin = order({ ...payin, markup_amount_brl: '3.00', net_amount_brl: '243.25', amount_token: '45.9' });
/** The payout with a markup of 0.50 taken from the PIX. */
const markedPayout = order({ ...payout, markup_amount_brl: '0.50', net_amount_brl: '52.42' });

type Leg = [account: AccountCode, currency: string, amount: string];
interface Row {
  name: string;
  postings: () => Posting[];
  /** Every posting, in the recipe's order: debits positive, credits negative. */
  expected: Leg[];
}

const movement = (row: OrderRow, kind: OrderMovement, received?: string) => () => orderPostings(row, kind, received);

const table: Row[] = [
  {
    name: 'PAYIN_PIX_RECEIVED: the PIX lands in cash, owed to the customer until converted',
    postings: movement(payin, 'PAYIN_PIX_RECEIVED', '250.00'),
    expected: [
      ['pix_cash', 'BRL', '250'],
      ['customer_funds_in_transit', 'BRL', '-250'],
    ],
  },
  {
    name: 'PAYIN_PIX_RECEIVED: the amount that actually arrived, not the order amount',
    postings: movement(payin, 'PAYIN_PIX_RECEIVED', '250.01'),
    expected: [
      ['pix_cash', 'BRL', '250.01'],
      ['customer_funds_in_transit', 'BRL', '-250.01'],
    ],
  },
  {
    name: 'PAYIN_COMPLETED: transit cleared into both fees and the conversion; the tokens leave the treasury',
    postings: movement(payin, 'PAYIN_COMPLETED'),
    expected: [
      ['customer_funds_in_transit', 'BRL', '250'],
      ['platform_fee_revenue', 'BRL', '-1.25'],
      ['merchant_fees_payable', 'BRL', '-2.5'],
      ['fx_conversion', 'BRL', '-246.25'],
      ['fx_conversion', 'USDC', '46.5'],
      ['token_treasury', 'USDC', '-46.5'],
    ],
  },
  {
    name: 'PAYIN_COMPLETED without a merchant fee: no zero leg on merchant_fees_payable',
    postings: movement(payinWithoutMerchantFee, 'PAYIN_COMPLETED'),
    expected: [
      ['customer_funds_in_transit', 'BRL', '250'],
      ['platform_fee_revenue', 'BRL', '-1.25'],
      ['fx_conversion', 'BRL', '-248.75'],
      ['fx_conversion', 'USDC', '46.84'],
      ['token_treasury', 'USDC', '-46.84'],
    ],
  },
  {
    name: 'PAYIN_REFUNDED: the money in transit goes back out of cash',
    postings: movement(payin, 'PAYIN_REFUNDED', '250.00'),
    expected: [
      ['customer_funds_in_transit', 'BRL', '250'],
      ['pix_cash', 'BRL', '-250'],
    ],
  },
  {
    name: 'PAYOUT_DEPOSIT_RECEIVED: the tokens land in the treasury, owed to the customer until converted',
    postings: movement(payout, 'PAYOUT_DEPOSIT_RECEIVED', '10'),
    expected: [
      ['token_treasury', 'USDC', '10'],
      ['customer_funds_in_transit', 'USDC', '-10'],
    ],
  },
  {
    name: 'PAYOUT_DEPOSIT_RECEIVED: the amount that actually arrived, not the order amount',
    postings: movement(payout, 'PAYOUT_DEPOSIT_RECEIVED', '9.999999'),
    expected: [
      ['token_treasury', 'USDC', '9.999999'],
      ['customer_funds_in_transit', 'USDC', '-9.999999'],
    ],
  },
  {
    name: 'PAYOUT_DEPOSIT_RECEIVED: an over-payment converts only the ordered tokens; the excess is owed back to the merchant',
    postings: movement({ ...payout, excess_amount_token: '999990' }, 'PAYOUT_DEPOSIT_RECEIVED', '1000000'),
    expected: [
      ['token_treasury', 'USDC', '1000000'],
      ['customer_funds_in_transit', 'USDC', '-10'],
      ['deposits_to_return', 'USDC', '-999990'],
    ],
  },
  {
    name: 'PAYOUT_COMPLETED: transit tokens converted; the gross BRL pays the PIX and both fees',
    postings: movement(payout, 'PAYOUT_COMPLETED'),
    expected: [
      ['customer_funds_in_transit', 'USDC', '10'],
      ['fx_conversion', 'USDC', '-10'],
      ['fx_conversion', 'BRL', '53.73'],
      ['pix_cash', 'BRL', '-52.92'],
      ['platform_fee_revenue', 'BRL', '-0.27'],
      ['merchant_fees_payable', 'BRL', '-0.54'],
    ],
  },
  {
    name: 'PAYIN_COMPLETED with a markup: the markup to its own merchant account, the merchant fee untouched',
    postings: movement(markedPayin, 'PAYIN_COMPLETED'),
    expected: [
      ['customer_funds_in_transit', 'BRL', '250'],
      ['platform_fee_revenue', 'BRL', '-1.25'],
      ['merchant_fees_payable', 'BRL', '-2.5'],
      ['merchant_markup_payable', 'BRL', '-3'],
      ['fx_conversion', 'BRL', '-243.25'],
      ['fx_conversion', 'USDC', '45.9'],
      ['token_treasury', 'USDC', '-45.9'],
    ],
  },
  {
    name: 'PAYOUT_COMPLETED with a markup: the PIX pays less, the markup to its own merchant account',
    postings: movement(markedPayout, 'PAYOUT_COMPLETED'),
    expected: [
      ['customer_funds_in_transit', 'USDC', '10'],
      ['fx_conversion', 'USDC', '-10'],
      ['fx_conversion', 'BRL', '53.73'],
      ['pix_cash', 'BRL', '-52.42'],
      ['platform_fee_revenue', 'BRL', '-0.27'],
      ['merchant_fees_payable', 'BRL', '-0.54'],
      ['merchant_markup_payable', 'BRL', '-0.5'],
    ],
  },
  {
    name: 'SETTLEMENT with a markup: fees and markup paid together, each account cleared apart, what is owed netted from both',
    postings: () => settlementPostings('2.50', '4.00', '3.00'),
    expected: [
      ['merchant_fees_payable', 'BRL', '2.5'],
      ['merchant_markup_payable', 'BRL', '3'],
      ['merchant_chargebacks_owed', 'BRL', '-4'],
      ['merchant_settlements', 'BRL', '-1.5'],
    ],
  },
  {
    name: "SETTLEMENT: the merchant's payable fees move to its settlements",
    postings: () => settlementPostings('2.50'),
    expected: [
      ['merchant_fees_payable', 'BRL', '2.5'],
      ['merchant_settlements', 'BRL', '-2.5'],
    ],
  },
];

/** Sum per currency, computed here rather than by the code under test. */
function sumsByCurrency(postings: Posting[]): Record<string, string> {
  const sums: Record<string, ReturnType<typeof decimal>> = {};
  for (const posting of postings) sums[posting.currency] = (sums[posting.currency] ?? decimal(0)).plus(posting.amount);
  return Object.fromEntries(Object.entries(sums).map(([currency, sum]) => [currency, sum.toString()]));
}

describe('posting recipes', () => {
  it('the table covers every order movement and the settlement', () => {
    const movements: OrderMovement[] = ['PAYIN_PIX_RECEIVED', 'PAYIN_COMPLETED', 'PAYIN_REFUNDED', 'PAYOUT_DEPOSIT_RECEIVED', 'PAYOUT_COMPLETED'];
    for (const kind of [...movements, 'SETTLEMENT']) expect(table.some((row) => row.name.startsWith(`${kind}:`) || row.name.startsWith(`${kind} `)), kind).toBe(true);
  });

  it.each(table.map((row) => [row.name, row] as const))('%s', (_name, row) => {
    const postings = row.postings();
    expect(postings.map((posting): Leg => [posting.account, posting.currency, posting.amount])).toEqual(row.expected);
    // Never a zero leg.
    for (const posting of postings) expect(decimal(posting.amount).isZero(), `${posting.account} ${posting.currency}`).toBe(false);
  });

  it.each(table.map((row) => [row.name, row] as const))('zero-sum per currency: %s', (_name, row) => {
    const postings = row.postings();
    const sums = sumsByCurrency(postings);
    expect(Object.keys(sums).length).toBeGreaterThan(0);
    for (const [currency, sum] of Object.entries(sums)) expect(sum, currency).toBe('0');
    expect(isBalanced(postings)).toBe(true);
  });

  it('the zero-sum check does fail: an order whose fees and net do not add up to its amount is unbalanced', () => {
    const inconsistent = order({ ...payin, net_amount_brl: '246.24' });
    const postings = orderPostings(inconsistent, 'PAYIN_COMPLETED');
    expect(sumsByCurrency(postings)).toEqual({ BRL: '0.01', USDC: '0' });
    expect(isBalanced(postings)).toBe(false);
    expect(isBalanced([{ account: 'pix_cash', currency: 'BRL', amount: '1' }, { account: 'token_treasury', currency: 'USDC', amount: '-1' }])).toBe(false);
  });

  it.each<[AccountCode, boolean]>([
    ['merchant_fees_payable', true],
    ['merchant_markup_payable', true],
    ['merchant_settlements', true],
    ['deposits_to_return', true],
    ['pix_cash', false],
    ['customer_funds_in_transit', false],
    ['fx_conversion', false],
    ['token_treasury', false],
    ['platform_fee_revenue', false],
    ['network_fees', false],
    ['account_rent', false],
  ])('%s is a merchant account: %s', (account, merchant) => {
    expect(isMerchantAccount(account)).toBe(merchant);
  });

  describe('chain costs: what the chain charged the treasury for a transfer, in SOL', () => {
    it.each<[bigint, bigint, Array<[AccountCode, string]>]>([
      [5000n, 2_039_280n, [['network_fees', '0.000005'], ['account_rent', '0.00203928'], ['token_treasury', '-0.00204428']]],
      [5600n, 0n, [['network_fees', '0.0000056'], ['token_treasury', '-0.0000056']]],
      [0n, 0n, []],
    ])('fee %s, rent %s lamports', (feeLamports, rentLamports, expected) => {
      const postings = chainCostPostings({ feeLamports, rentLamports });
      expect(postings.map((p) => [p.account, decimal(p.amount).toString()])).toEqual(expected);
      expect(postings.every((p) => p.currency === 'SOL')).toBe(true);
      expect(isBalanced(postings)).toBe(true);
    });

    it('refuses a negative cost', () => {
      expect(() => chainCostPostings({ feeLamports: -1n, rentLamports: 0n })).toThrow();
    });
  });

  describe('sweep costs: what the sponsor paid to sweep a deposit, net of the rent it got back, in SOL', () => {
    it.each<[bigint, bigint, Array<[AccountCode, string]>]>([
      // The closed deposit account's rent came back: the sponsor ends richer.
      [5000n, -2_039_280n, [['network_fees', '0.000005'], ['account_rent', '-0.00203928'], ['sponsor_sol', '0.00203428']]],
      // The treasury's token account was missing too: created and closed, about even.
      [5000n, 0n, [['network_fees', '0.000005'], ['sponsor_sol', '-0.000005']]],
      [0n, 0n, []],
    ])('fee %s, net rent %s lamports', (feeLamports, rentLamports, expected) => {
      const postings = sweepCostPostings({ feeLamports, rentLamports });
      expect(postings.map((p) => [p.account, decimal(p.amount).toString()])).toEqual(expected);
      expect(postings.every((p) => p.currency === 'SOL')).toBe(true);
      expect(isBalanced(postings)).toBe(true);
    });

    it('refuses a negative fee', () => {
      expect(() => sweepCostPostings({ feeLamports: -1n, rentLamports: 0n })).toThrow();
    });
  });
});

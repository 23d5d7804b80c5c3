/**
 * The by-hand mutants (scripts/mutation-by-hand.ts): each one exact text of a money or control
 * file, what it becomes, and the tests that must then fail. `find` must occur once in the file.
 */
export interface Mutant {
  id: string;
  file: string;
  find: string;
  replace: string;
  tests: string[];
}

const DISPUTES = ['test/modules/disputes/decided-after-defense.test.ts'];
const LIQUIDITY = ['test/modules/treasury/liquidity-snapshot.test.ts'];
const LIQ = 'src/modules/treasury/liquidity.ts';
const FEES = ['test/modules/wallets/fee-bounds.test.ts'];
const APPROVALS = ['test/modules/approvals/action-params.test.ts'];
const ACTIONS = 'src/modules/approvals/actions.ts';
const MONEY_TESTS = ['test/lib/money.test.ts', 'test/lib/decimal-boundaries.test.ts'];
const PRICING_TESTS = ['test/lib/pricing.test.ts', 'test/lib/decimal-boundaries.test.ts'];
const MONEY = 'src/lib/money.ts';
const PRICING = 'src/lib/pricing.ts';

export const MUTANTS: Mutant[] = [
  // Module-level: Stryker under isolate: false reports these survived without running them.
  { id: 'disputes/defended-decides-nothing', file: 'src/modules/disputes/state-machine.ts', find: "DEFENDED: ['ACCEPTED', 'REJECTED', 'CANCELLED']", replace: 'DEFENDED: []', tests: DISPUTES },
  { id: 'disputes/defended-never-accepted', file: 'src/modules/disputes/state-machine.ts', find: "DEFENDED: ['ACCEPTED', 'REJECTED', 'CANCELLED']", replace: "DEFENDED: ['REJECTED', 'CANCELLED']", tests: DISPUTES },
  { id: 'disputes/decided-moves-back', file: 'src/modules/disputes/state-machine.ts', find: 'REJECTED: [],', replace: "REJECTED: ['OPEN'],", tests: DISPUTES },
  { id: 'disputes/is-resolved-always', file: 'src/modules/disputes/state-machine.ts', find: 'NEXT[status].length === 0', replace: 'true', tests: DISPUTES },
  { id: 'disputes/unresolved-without-defended', file: 'src/modules/disputes/state-machine.ts', find: "UNRESOLVED: readonly DisputeStatus[] = ['OPEN', 'DEFENDED']", replace: "UNRESOLVED: readonly DisputeStatus[] = ['OPEN']", tests: DISPUTES },
  // The liquidity snapshot (Stryker reaches these too; kept here as the quick check of its tests).
  { id: 'liquidity/in-flight-not-owed', file: LIQ, find: '[...owed, ...inFlight]', replace: '[...owed]', tests: LIQUIDITY },
  { id: 'liquidity/stale-run-fresh', file: LIQ, find: 'now() - run.finished_at.getTime() < settings.balanceMaxAgeMs', replace: 'now() - run.finished_at.getTime() <= settings.balanceMaxAgeMs', tests: LIQUIDITY },
  { id: 'liquidity/any-run-fresh', file: LIQ, find: 'if (run && now() - run.finished_at.getTime() < settings.balanceMaxAgeMs)', replace: 'if (run)', tests: LIQUIDITY },
  { id: 'liquidity/stale-own-balance-fresh', file: LIQ, find: 'balances && now() - balances.at < settings.balanceMaxAgeMs', replace: 'balances && now() - balances.at <= settings.balanceMaxAgeMs', tests: LIQUIDITY },
  { id: 'liquidity/no-retry-pause', file: LIQ, find: 'now() - nodeFailedAt < NODE_RETRY_MS', replace: 'false', tests: LIQUIDITY },
  { id: 'liquidity/retry-pause-boundary', file: LIQ, find: 'now() - nodeFailedAt < NODE_RETRY_MS', replace: 'now() - nodeFailedAt <= NODE_RETRY_MS', tests: LIQUIDITY },
  { id: 'liquidity/remember-older-wins', file: LIQ, find: 'if (!balances || at >= balances.at)', replace: 'if (true)', tests: LIQUIDITY },
  { id: 'liquidity/remember-equal-ignored', file: LIQ, find: 'at >= balances.at', replace: 'at > balances.at', tests: LIQUIDITY },
  { id: 'liquidity/wait-boundary', file: LIQ, find: 'age < settings.balanceMaxAgeMs ? undefined : running', replace: 'age <= settings.balanceMaxAgeMs ? undefined : running', tests: LIQUIDITY },
  { id: 'liquidity/admitted-not-subtracted', file: LIQ, find: 'snapshot.available.set(token, available.minus(amount));', replace: '', tests: LIQUIDITY },
  { id: 'liquidity/refusal-boundary', file: 'src/modules/treasury/rules.ts', find: 'available.lt(amount)', replace: 'available.lte(amount)', tests: LIQUIDITY },
  // Sponsored fees: the fee cap and the budget's usage key.
  { id: 'fee/cap-boundary', file: 'src/modules/wallets/fee.ts', find: 'fee <= BigInt(settings.maxFeeLamports)', replace: 'fee < BigInt(settings.maxFeeLamports)', tests: FEES },
  { id: 'fee/cap-ignored', file: 'src/modules/wallets/fee.ts', find: 'if (fee <= BigInt(settings.maxFeeLamports)) return null;', replace: 'return null;', tests: FEES },
  { id: 'fee/priority-rounds-down', file: 'src/modules/wallets/fee.ts', find: '(budget.unitPrice * limit + 999_999n) / 1_000_000n', replace: '(budget.unitPrice * limit) / 1_000_000n', tests: FEES },
  { id: 'sponsor-budget/key-without-merchant', file: 'src/modules/wallets/sponsor-budget.ts', find: 'const key = `${fee.merchantId}|${fee.day}`;', replace: 'const key = `${fee.day}`;', tests: FEES },
  { id: 'sponsor-budget/key-without-day', file: 'src/modules/wallets/sponsor-budget.ts', find: 'const key = `${fee.merchantId}|${fee.day}`;', replace: 'const key = `${fee.merchantId}`;', tests: FEES },
  { id: 'sponsor-budget/key-constant', file: 'src/modules/wallets/sponsor-budget.ts', find: 'const key = `${fee.merchantId}|${fee.day}`;', replace: "const key = '';", tests: FEES },
  // The refusal's reset time (Stryker: the arithmetic of DAY_MS and of the reset survived before the details were read).
  { id: 'sponsor-budget/refusal-resets-today', file: 'src/modules/wallets/sponsor-budget.ts', find: 'latestSaoPauloTimeOfDay(at, 0).getTime() + DAY_MS', replace: 'latestSaoPauloTimeOfDay(at, 0).getTime()', tests: FEES },
  { id: 'sponsor-budget/usage-rows-unsorted', file: 'src/modules/wallets/sponsor-budget.ts', find: '[...usage.keys()].sort()', replace: '[...usage.keys()]', tests: FEES },
  { id: 'sponsor-budget/any-failure-over-budget', file: 'src/modules/wallets/sponsor-budget.ts', find: 'if (err instanceof OverBudget) return false;', replace: 'return false;', tests: FEES },
  // Approvals: the parameters' schemas (module-level constants, and calls Stryker replaces whole).
  { id: 'approvals/fee-params-unchecked', file: ACTIONS, find: 'if (!Value.Check(FeeTiersParams, proposal.params))', replace: 'if (false)', tests: APPROVALS },
  { id: 'approvals/fee-params-open', file: ACTIONS, find: 'const FeeTiersParams = Type.Object({ tiers: PlatformFeeTiersBody }, { additionalProperties: false });', replace: 'const FeeTiersParams = Type.Object({ tiers: PlatformFeeTiersBody });', tests: APPROVALS },
  { id: 'approvals/withdrawal-params-unchecked', file: ACTIONS, find: 'if (!Value.Check(WithdrawalParams, proposal.params))', replace: 'if (false)', tests: APPROVALS },
  { id: 'approvals/withdrawal-params-open', file: ACTIONS, find: "Type.Omit(FundingBody, ['currency'], { additionalProperties: false })", replace: "Type.Omit(FundingBody, ['currency'])", tests: APPROVALS },
  { id: 'approvals/withdrawal-note-dropped', file: ACTIONS, find: '...(params.note ? { note: params.note } : {})', replace: '', tests: APPROVALS },
  { id: 'approvals/any-order-type', file: ACTIONS, find: "if (targetId !== 'PAYIN' && targetId !== 'PAYOUT')", replace: "if (targetId === '')", tests: APPROVALS },
  { id: 'approvals/decided-twice', file: 'src/modules/approvals/service.ts', find: "if (approval.status !== 'PENDING')", replace: 'if (false)', tests: APPROVALS },
  // Decimal boundaries: decimal.js calls, which Stryker does not mutate.
  { id: 'money/rounding-half-up', file: MONEY, find: 'rounding: Decimal.ROUND_HALF_EVEN', replace: 'rounding: Decimal.ROUND_HALF_UP', tests: MONEY_TESTS },
  { id: 'money/at-most-decimals-strict', file: MONEY, find: 'decimal(value).decimalPlaces() <= places', replace: 'decimal(value).decimalPlaces() < places', tests: MONEY_TESTS },
  { id: 'money/places-boundary', file: MONEY, find: 'value.decimalPlaces() > rule.places', replace: 'value.decimalPlaces() >= rule.places', tests: MONEY_TESTS },
  { id: 'money/exclusive-minimum-inclusive', file: MONEY, find: 'value.lte(rule.exclusiveMinimum)', replace: 'value.lt(rule.exclusiveMinimum)', tests: MONEY_TESTS },
  { id: 'money/minimum-exclusive', file: MONEY, find: 'value.lt(rule.minimum)', replace: 'value.lte(rule.minimum)', tests: MONEY_TESTS },
  { id: 'money/maximum-exclusive', file: MONEY, find: 'value.gt(rule.maximum)', replace: 'value.gte(rule.maximum)', tests: MONEY_TESTS },
  { id: 'money/exponent-boundary', file: MONEY, find: 'Number(match[3]) > MAX_EXPONENT', replace: 'Number(match[3]) >= MAX_EXPONENT', tests: MONEY_TESTS },
  { id: 'money/number-read-raw', file: MONEY, find: "new Dec(typeof value === 'number' ? String(value) : value)", replace: 'new Dec(value)', tests: MONEY_TESTS },
  { id: 'money/fixed-text-trailing-zeros', file: MONEY, find: 'return { ok: true, text: value.toFixed() };', replace: 'return { ok: true, text: text };', tests: MONEY_TESTS },
  { id: 'money/percent-scale', file: MONEY, find: 'decimal(fraction).times(100)', replace: 'decimal(fraction).times(10)', tests: MONEY_TESTS },
  { id: 'pricing/platform-fee-half-up', file: PRICING, find: 'grossBrl.times(rates.platformFeePercentage).toDecimalPlaces(BRL_PLACES, Dec.ROUND_HALF_EVEN)', replace: 'grossBrl.times(rates.platformFeePercentage).toDecimalPlaces(BRL_PLACES, Dec.ROUND_HALF_UP)', tests: PRICING_TESTS },
  { id: 'pricing/merchant-fee-half-up', file: PRICING, find: 'grossBrl.times(rates.merchantFeePercentage).toDecimalPlaces(BRL_PLACES, Dec.ROUND_HALF_EVEN)', replace: 'grossBrl.times(rates.merchantFeePercentage).toDecimalPlaces(BRL_PLACES, Dec.ROUND_HALF_UP)', tests: PRICING_TESTS },
  { id: 'pricing/payin-token-rounds-half-even', file: PRICING, find: '.net.dividedBy(input.exchangeRate).toDecimalPlaces(input.tokenDecimals, Dec.ROUND_DOWN)', replace: '.net.dividedBy(input.exchangeRate).toDecimalPlaces(input.tokenDecimals, Dec.ROUND_HALF_EVEN)', tests: PRICING_TESTS },
  { id: 'pricing/payout-gross-rounds-half-even', file: PRICING, find: 'amountToken.times(input.exchangeRate).toDecimalPlaces(BRL_PLACES, Dec.ROUND_DOWN)', replace: 'amountToken.times(input.exchangeRate).toDecimalPlaces(BRL_PLACES, Dec.ROUND_HALF_EVEN)', tests: PRICING_TESTS },
  { id: 'pricing/keep-zero-allowed', file: PRICING, find: 'if (!keep.gt(0))', replace: 'if (!keep.gte(0))', tests: PRICING_TESTS },
  { id: 'pricing/search-excludes-last', file: PRICING, find: 'gross.lte(last)', replace: 'gross.lt(last)', tests: PRICING_TESTS },
  // (first rounded down instead of up is equivalent: the search starts a centavo lower and finds the same smallest amount.)
  { id: 'pricing/first-candidate-past-answer', file: PRICING, find: "first: Dec.max('0.01', net.minus('0.01')", replace: "first: Dec.max('0.01', net.plus('0.01')", tests: PRICING_TESTS },
  { id: 'pricing/last-candidate-narrow', file: PRICING, find: "last: Dec.max('0.01', net.plus('0.01').dividedBy(keep)", replace: "last: Dec.max('0.01', net.dividedBy(keep)", tests: PRICING_TESTS },
  { id: 'pricing/no-floor-candidate', file: PRICING, find: "first: Dec.max('0.01', ", replace: 'first: Dec.max(0, ', tests: PRICING_TESTS },
  { id: 'pricing/payout-token-rounds-down', file: PRICING, find: 'gross.dividedBy(input.exchangeRate).toDecimalPlaces(input.tokenDecimals, Dec.ROUND_UP)', replace: 'gross.dividedBy(input.exchangeRate).toDecimalPlaces(input.tokenDecimals, Dec.ROUND_DOWN)', tests: PRICING_TESTS },
  { id: 'pricing/payin-quote-gt', file: PRICING, find: 'amountToken).gte(input.amountToken)', replace: 'amountToken).gt(input.amountToken)', tests: PRICING_TESTS },
  { id: 'pricing/payout-quote-gt', file: PRICING, find: '.net.gte(input.netAmountBrl)', replace: '.net.gt(input.netAmountBrl)', tests: PRICING_TESTS },
  { id: 'treasury-rules/transient-drift-boundary', file: 'src/modules/treasury/rules.ts', find: 'value.negated().lte(tolerance)', replace: 'value.negated().lt(tolerance)', tests: ['test/modules/treasury/rules.test.ts'] },
  { id: 'treasury-rules/low-balance-boundary', file: 'src/modules/treasury/rules.ts', find: 'decimal(balance).lt(threshold)', replace: 'decimal(balance).lte(threshold)', tests: ['test/modules/treasury/rules.test.ts'] },
];

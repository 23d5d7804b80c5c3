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
  // Approvals: the parameters' schemas (module-level constants, and calls Stryker replaces whole).
  { id: 'approvals/fee-params-unchecked', file: ACTIONS, find: 'if (!Value.Check(FeeTiersParams, proposal.params))', replace: 'if (false)', tests: APPROVALS },
  { id: 'approvals/fee-params-open', file: ACTIONS, find: 'const FeeTiersParams = Type.Object({ tiers: PlatformFeeTiersBody }, { additionalProperties: false });', replace: 'const FeeTiersParams = Type.Object({ tiers: PlatformFeeTiersBody });', tests: APPROVALS },
  { id: 'approvals/withdrawal-params-unchecked', file: ACTIONS, find: 'if (!Value.Check(WithdrawalParams, proposal.params))', replace: 'if (false)', tests: APPROVALS },
  { id: 'approvals/withdrawal-params-open', file: ACTIONS, find: "Type.Omit(FundingBody, ['currency'], { additionalProperties: false })", replace: "Type.Omit(FundingBody, ['currency'])", tests: APPROVALS },
  { id: 'approvals/withdrawal-note-dropped', file: ACTIONS, find: '...(params.note ? { note: params.note } : {})', replace: '', tests: APPROVALS },
  { id: 'approvals/any-order-type', file: ACTIONS, find: "if (targetId !== 'PAYIN' && targetId !== 'PAYOUT')", replace: "if (targetId === '')", tests: APPROVALS },
  { id: 'approvals/decided-twice', file: 'src/modules/approvals/service.ts', find: "if (approval.status !== 'PENDING')", replace: 'if (false)', tests: APPROVALS },
];

/**
 * Every query key of both apps, from one factory, so a page that reads a thing and a form that
 * changes it name it the same way: a write invalidates `keys.orders.all` and every list and
 * detail of orders under it is read again. Keys are hierarchical (area, then kind, then the
 * parameters); the back office's start with OPS_KEY, which sign-out of either side relies on
 * (query-client.ts).
 */
import { OPS_KEY } from './query-client.ts';

const area = <const A extends string>(name: A) => ({
  all: [name] as const,
  /** Every list of the area, whatever its query: what a write invalidates when details stay valid. */
  lists: [name, 'list'] as const,
  list: (query?: object) => [name, 'list', query ?? {}] as const,
  detail: (id: string) => [name, 'detail', id] as const,
});

export const keys = {
  session: ['session'] as const,
  merchant: ['merchant'] as const,
  environment: ['merchant', 'environment'] as const,
  policies: ['merchant', 'policies'] as const,
  overview: (query: object) => ['overview', query] as const,
  orders: { ...area('orders'), timeline: (id: string) => ['orders', 'detail', id, 'timeline'] as const },
  receivers: {
    ...area('receivers'),
    choices: ['receivers', 'choices'] as const,
    limits: (id: string) => ['receivers', 'detail', id, 'limits'] as const,
    walletProofs: (id: string) => ['receivers', 'detail', id, 'wallet-ownership'] as const,
  },
  disputes: area('disputes'),
  payoutBatches: {
    ...area('payout-batches'),
    items: (id: string, query: object) => ['payout-batches', 'detail', id, 'items', query] as const,
    settings: ['payout-batches', 'settings'] as const,
  },
  ledger: {
    all: ['ledger'] as const,
    feeBalance: ['ledger', 'fee-balance'] as const,
    balances: ['ledger', 'balances'] as const,
    settlementPixKey: ['ledger', 'settlement-pix-key'] as const,
    settlements: (query: object) => ['ledger', 'settlements', query] as const,
    entries: (query: object) => ['ledger', 'entries', query] as const,
  },
  feeTiers: ['fee-tiers'] as const,
  markups: ['markups'] as const,
  webhookEvents: ['webhook-events'] as const,
  webhookEndpoints: area('webhook-endpoints'),
  webhookDeliveries: area('webhook-deliveries'),
  users: ['users'] as const,
  /** Under `users`: a change to the team reads the person's own sessions again too, as it always did. */
  mySessions: ['users', 'me', 'sessions'] as const,
  invitations: ['invitations'] as const,
  credentials: ['credentials'] as const,
  auditLog: (filters?: object) => (filters ? (['audit-log', filters] as const) : (['audit-log'] as const)),
} as const;

export const opsKeys = {
  all: [OPS_KEY] as const,
  session: [OPS_KEY, 'session'] as const,
  kycQueue: (filters: object) => [OPS_KEY, 'kyc-queue', filters] as const,
  receiverKyc: (id: string) => [OPS_KEY, 'receiver-kyc', id] as const,
  orders: { all: [OPS_KEY, 'orders'] as const, list: (query: object) => [OPS_KEY, 'orders', 'list', query] as const, detail: (id: string) => [OPS_KEY, 'orders', 'detail', id] as const, stuck: (query: object) => [OPS_KEY, 'orders', 'stuck', query] as const },
  approvals: { all: [OPS_KEY, 'approvals'] as const, lists: [OPS_KEY, 'approvals', 'list'] as const, list: (query?: object) => [OPS_KEY, 'approvals', 'list', query ?? {}] as const, detail: (id: string) => [OPS_KEY, 'approvals', 'detail', id] as const },
  disputes: { all: [OPS_KEY, 'disputes'] as const, list: (query: object) => [OPS_KEY, 'disputes', 'list', query] as const, detail: (id: string) => [OPS_KEY, 'disputes', 'detail', id] as const },
  merchants: { all: [OPS_KEY, 'merchants'] as const, page: (page: number) => [OPS_KEY, 'merchants', page] as const, choices: [OPS_KEY, 'merchants', 'choices'] as const },
  merchant: (id: string, part?: string) => (part ? ([OPS_KEY, 'merchant', id, part] as const) : ([OPS_KEY, 'merchant', id] as const)),
  treasury: [OPS_KEY, 'treasury'] as const,
  settlementsDue: [OPS_KEY, 'settlements-due'] as const,
  settlements: [OPS_KEY, 'settlements'] as const,
  reconciliations: [OPS_KEY, 'reconciliations'] as const,
  pspRuns: [OPS_KEY, 'psp-runs'] as const,
  webhooksHealth: (includeHealthy: boolean) => [OPS_KEY, 'webhooks-health', includeHealthy] as const,
  auditLog: (filters: object) => [OPS_KEY, 'audit-log', filters] as const,
  operators: [OPS_KEY, 'operators'] as const,
} as const;

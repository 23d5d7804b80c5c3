/**
 * The hand-written layer over the generated client, one object per resource of the spec. Each
 * method is one operation; anything not here is on `client.api`, typed the same way.
 */
import { type BodyOf, type GeneratedClient, type QueryOf, readInit, unwrap, type WriteOptions, writeInit } from './call.ts';
import { cursorPages, ITERATION_PAGE_SIZE, keysetPages, moreAfter, numberedPages, PAGE_SIZE_PARAM, type Paginated } from './pagination.ts';
import type { components } from './generated/openapi.ts';
import { walletOwnership } from './wallet-ownership.ts';

export type Order = components['schemas']['Order'];
export type Receiver = components['schemas']['Receiver'];
export type Merchant = components['schemas']['Merchant'];

type ReadOptions = { signal?: AbortSignal };
/** Filters of a list; the iterator sets the paging parameters itself. */
type Filters<Q> = Omit<Q, 'page' | 'limit' | 'pageSize' | 'startingAfter' | 'endingBefore' | 'cursor'>;

export function createResources(api: GeneratedClient) {
  const get = <T>(call: Promise<{ data?: T; error?: unknown; response: Response }>) => unwrap(call);

  const merchant = {
    get: (options?: ReadOptions) => get(api.GET('/merchant', { ...readInit(options) })),
    /** The payer, wallet ownership and destination policies an operator set (read-only: only operators change them). */
    policies: (options?: ReadOptions) => get(api.GET('/merchant/policies', { ...readInit(options) })),
  };

  const receivers = {
    create: (body: BodyOf<'createReceiver'>, options?: WriteOptions) => get(api.POST('/receivers', { body, ...writeInit(options) })),
    get: (id: string, options?: ReadOptions) => get(api.GET('/receivers/{id}', { params: { path: { id } }, ...readInit(options) })),
    update: (id: string, body: BodyOf<'updateReceiver'>, options?: WriteOptions) =>
      get(api.PATCH('/receivers/{id}', { body, params: { path: { id } }, ...writeInit(options) })),
    /** One page, as the service answers it. */
    listPage: (query: QueryOf<'listReceivers'> = {}, options?: ReadOptions) => get(api.GET('/receivers', { params: { query }, ...readInit(options) })),
    /** Every receiver matching the filters: `for await (const receiver of client.receivers.list({ kycStatus: 'APPROVED' }))`. */
    list: (filters: Filters<QueryOf<'listReceivers'>> = {}, pageSize?: number): Paginated<Receiver> =>
      numberedPages(async (page, size) => {
        const answer = await get(api.GET('/receivers', { params: { query: { ...filters, page, [PAGE_SIZE_PARAM]: size } } }));
        return { items: answer.data, hasMore: moreAfter(answer) };
      }, 1, pageSize),
    /** Wallet ownership: `proveWalletOwnership(receiverId, signer)` with an `@solana/kit` signer, or its steps one by one. */
    ...walletOwnership(api),
    getLimits: (id: string, options?: ReadOptions) => get(api.GET('/receivers/{id}/limits', { params: { path: { id } }, ...readInit(options) })),
    replaceLimits: (id: string, body: BodyOf<'replaceReceiverLimits'>, options?: WriteOptions) =>
      get(api.PUT('/receivers/{id}/limits', { body, params: { path: { id } }, ...writeInit(options) })),
    submitKyc: (id: string, body: BodyOf<'submitReceiverKyc'>, options?: WriteOptions) =>
      get(api.POST('/receivers/{id}/kyc', { body, params: { path: { id } }, ...writeInit(options) })),
  };

  const quotes = {
    create: (body: BodyOf<'createQuote'>, options?: WriteOptions) => get(api.POST('/quotes', { body, ...writeInit(options) })),
  };

  const payins = {
    /** A PAYIN: BRL in by PIX (`pixPaymentCode`), tokens out to the receiver's wallet. */
    create: (body: BodyOf<'createPayin'>, options?: WriteOptions) => get(api.POST('/payin', { body, ...writeInit(options) })),
  };

  const payouts = {
    /** A PAYOUT: tokens in at `depositAddress`, BRL out by PIX. */
    create: (body: BodyOf<'createPayout'>, options?: WriteOptions) => get(api.POST('/payout', { body, ...writeInit(options) })),
  };

  const orders = {
    get: (id: string, options?: ReadOptions) => get(api.GET('/orders/{id}', { params: { path: { id } }, ...readInit(options) })),
    /** One page, as the service answers it (numbered or keyset, as the query says). */
    listPage: (query: QueryOf<'listOrders'> = {}, options?: ReadOptions) => get(api.GET('/orders', { params: { query }, ...readInit(options) })),
    /**
     * Every order matching the filters, newest first, by keyset pages (`startingAfter`: begin
     * after that order). Each page costs the same however deep.
     */
    list: (filters: Filters<QueryOf<'listOrders'>> & { startingAfter?: string } = {}, pageSize?: number): Paginated<Order> => {
      const { startingAfter, ...rest } = filters;
      return keysetPages(async (after) => {
        const query = { ...rest, limit: pageSize ?? 100, ...(after !== undefined ? { startingAfter: after } : {}) };
        const answer = await get(api.GET('/orders', { params: { query } }));
        return { items: answer.data, hasMore: answer.hasMore };
      }, startingAfter);
    },
  };

  const ledger = {
    feeBalance: (options?: ReadOptions) => get(api.GET('/ledger/fees/balance', { ...readInit(options) })),
    /** What the merchant is owed and owes, from its own ledger accounts, and its orders in flight by stage. */
    balances: (options?: ReadOptions) => get(api.GET('/ledger/balances', { ...readInit(options) })),
    settlements: (pageSize?: number) =>
      numberedPages(async (page, size) => {
        const answer = await get(api.GET('/ledger/settlements', { params: { query: { page, [PAGE_SIZE_PARAM]: size } } }));
        return { items: answer.settlements, hasMore: answer.pagination.page < answer.pagination.totalPages };
      }, 1, pageSize),
    entries: (filters: Filters<QueryOf<'listLedgerEntries'>> = {}, pageSize?: number) =>
      numberedPages(async (page, size) => {
        const answer = await get(api.GET('/ledger/entries', { params: { query: { ...filters, page, [PAGE_SIZE_PARAM]: size } } }));
        return { items: answer.entries, hasMore: answer.pagination.page < answer.pagination.totalPages };
      }, 1, pageSize),
  };

  /** MED 2.0 fraud claims on the merchant's PAYINs (an extension of the spec). */
  const disputes = {
    get: (id: string, options?: ReadOptions) => get(api.GET('/disputes/{id}', { params: { path: { id } }, ...readInit(options) })),
    /** Every claim matching the filters, newest first. */
    list: (filters: Filters<QueryOf<'listDisputes'>> = {}, pageSize?: number) =>
      numberedPages(async (page, size) => {
        const answer = await get(api.GET('/disputes', { params: { query: { ...filters, page, [PAGE_SIZE_PARAM]: size } } }));
        return { items: answer.data, hasMore: moreAfter(answer) };
      }, 1, pageSize),
    /** The defense with its evidence, only while the claim is OPEN and before its `defenseDeadline`. */
    defend: (id: string, body: BodyOf<'submitDisputeDefense'>, options?: WriteOptions) =>
      get(api.POST('/disputes/{id}/defense', { body, params: { path: { id } }, ...writeInit(options) })),
  };

  /**
   * Bulk payouts (an extension of the spec): a batch is checked line by line when created, then
   * submitted; above the merchant's threshold a second person approves it in the dashboard (a
   * person's session, never a key), then one deposit funds every line.
   */
  const payoutBatches = {
    create: (body: BodyOf<'createPayoutBatch'>, options?: WriteOptions) => get(api.POST('/payout-batches', { body, ...writeInit(options) })),
    get: (id: string, options?: ReadOptions) => get(api.GET('/payout-batches/{id}', { params: { path: { id } }, ...readInit(options) })),
    /** Every batch, newest first. */
    list: (pageSize?: number) =>
      numberedPages(async (page, size) => {
        const answer = await get(api.GET('/payout-batches', { params: { query: { page, [PAGE_SIZE_PARAM]: size } } }));
        return { items: answer.data, hasMore: moreAfter(answer) };
      }, 1, pageSize),
    /** Every line of one batch, with its order's status once it has one. */
    items: (id: string, pageSize?: number) =>
      numberedPages(async (page, size) => {
        const answer = await get(api.GET('/payout-batches/{id}/items', { params: { path: { id }, query: { page, [PAGE_SIZE_PARAM]: size } } }));
        return { items: answer.data, hasMore: moreAfter(answer) };
      }, 1, pageSize),
    submit: (id: string, options?: WriteOptions) => get(api.POST('/payout-batches/{id}/submit', { params: { path: { id } }, ...writeInit(options) })),
    pause: (id: string, options?: WriteOptions) => get(api.POST('/payout-batches/{id}/pause', { params: { path: { id } }, ...writeInit(options) })),
    resume: (id: string, options?: WriteOptions) => get(api.POST('/payout-batches/{id}/resume', { params: { path: { id } }, ...writeInit(options) })),
    cancel: (id: string, options?: WriteOptions) => get(api.POST('/payout-batches/{id}/cancel', { params: { path: { id } }, ...writeInit(options) })),
  };

  const feeTiers = {
    list: (query: QueryOf<'listFeeTiers'> = {}, options?: ReadOptions) => get(api.GET('/fee-tiers', { params: { query }, ...readInit(options) })),
    replace: (orderType: 'PAYIN' | 'PAYOUT', body: BodyOf<'replaceFeeTiers'>, options?: WriteOptions) =>
      get(api.PUT('/fee-tiers/{orderType}', { body, params: { path: { orderType } }, ...writeInit(options) })),
  };

  /** The merchant's own markup per order type (partner markup), apart from its fee tiers. */
  const markups = {
    list: (options?: ReadOptions) => get(api.GET('/markups', { ...readInit(options) })),
    set: (orderType: 'PAYIN' | 'PAYOUT', body: BodyOf<'setMarkup'>, options?: WriteOptions) =>
      get(api.PUT('/markups/{orderType}', { body, params: { path: { orderType } }, ...writeInit(options) })),
  };

  const webhooks = {
    /** The event catalog, with each payload's JSON Schema. */
    events: (options?: ReadOptions) => get(api.GET('/webhook/events', { ...readInit(options) })),
    endpoints: {
      /** Answers the `whsec_...` secret, shown this once: keep it for `verifyWebhook`. */
      create: (body: BodyOf<'createWebhookEndpoint'>, options?: WriteOptions) =>
        get(api.POST('/webhook/endpoints', { body, ...writeInit(options) })),
      list: (options?: ReadOptions) => get(api.GET('/webhook/endpoints', { ...readInit(options) })),
      get: (id: string, options?: ReadOptions) => get(api.GET('/webhook/endpoints/{id}', { params: { path: { id } }, ...readInit(options) })),
      update: (id: string, body: BodyOf<'updateWebhookEndpoint'>, options?: WriteOptions) =>
        get(api.PATCH('/webhook/endpoints/{id}', { body, params: { path: { id } }, ...writeInit(options) })),
      delete: (id: string, options?: WriteOptions) =>
        get(api.DELETE('/webhook/endpoints/{id}', { params: { path: { id } }, ...writeInit(options) })),
      rotateSecret: (id: string, options?: WriteOptions) =>
        get(api.POST('/webhook/endpoints/{id}/rotate-secret', { params: { path: { id } }, ...writeInit(options) })),
      /** Sends a `webhook.test` ping to the endpoint. */
      test: (id: string, options?: WriteOptions) =>
        get(api.POST('/webhook/endpoints/{id}/test', { params: { path: { id } }, ...writeInit(options) })),
      recover: (id: string, body: BodyOf<'recoverWebhookEndpoint'>, options?: WriteOptions) =>
        get(api.POST('/webhook/endpoints/{id}/recover', { body, params: { path: { id } }, ...writeInit(options) })),
    },
    deliveries: {
      list: (filters: Filters<QueryOf<'listWebhookDeliveries'>> = {}, pageSize?: number) =>
        numberedPages(async (page, size) => {
          const answer = await get(api.GET('/webhook/deliveries', { params: { query: { ...filters, page, [PAGE_SIZE_PARAM]: size } } }));
          return { items: answer.data, hasMore: moreAfter(answer) };
        }, 1, pageSize),
      get: (id: string, options?: ReadOptions) => get(api.GET('/webhook/deliveries/{id}', { params: { path: { id } }, ...readInit(options) })),
      redeliver: (id: string, options?: WriteOptions) =>
        get(api.POST('/webhook/deliveries/{id}/redeliver', { params: { path: { id } }, ...writeInit(options) })),
    },
  };

  /** Sandbox only (`SANDBOX_ENABLED`): drive what customers, banks and chains would do. */
  const sandbox = {
    decideKyc: (receiverId: string, body: BodyOf<'sandboxDecideKyc'>, options?: WriteOptions) =>
      get(api.POST('/sandbox/receivers/{id}/kyc', { body, params: { path: { id: receiverId } }, ...writeInit(options) })),
    /** The customer pays the PAYIN's PIX charge (its whole amount unless `amountBrl`). */
    payPixCharge: (orderId: string, body: BodyOf<'sandboxPayPixCharge'> = {}, options?: WriteOptions) =>
      get(api.POST('/sandbox/orders/{id}/pix-payment', { body, params: { path: { id: orderId } }, ...writeInit(options) })),
    /** The merchant's deposit of a PAYOUT arrives on chain (its whole amount unless `amountCrypto`). */
    makeDeposit: (orderId: string, body: BodyOf<'sandboxMakeDeposit'> = {}, options?: WriteOptions) =>
      get(api.POST('/sandbox/orders/{id}/deposit', { body, params: { path: { id: orderId } }, ...writeInit(options) })),
    /** Arms a failure the order meets when it reaches `step` (order.failed, a failed refund) — before the money arrives. */
    armOrderFailure: (orderId: string, body: BodyOf<'sandboxArmOrderFailure'>, options?: WriteOptions) =>
      get(api.POST('/sandbox/orders/{id}/failure-injections', { body, params: { path: { id: orderId } }, ...writeInit(options) })),
    failOrderStep: (orderId: string, body: BodyOf<'sandboxFailOrderStep'>, options?: WriteOptions) =>
      get(api.POST('/sandbox/orders/{id}/fail', { body, params: { path: { id: orderId } }, ...writeInit(options) })),
    /** Registers who holds an EMAIL, PHONE or EVP key in the sandbox PSP's key lookup (payouts to such keys need the receiver's). */
    registerPixKey: (body: BodyOf<'sandboxRegisterPixKey'>, options?: WriteOptions) => get(api.POST('/sandbox/pix-keys', { body, ...writeInit(options) })),
    /** The payer's PSP opens a MED fraud claim on the PAYIN's PIX. */
    openMedClaim: (orderId: string, body: BodyOf<'sandboxOpenMedClaim'> = {}, options?: WriteOptions) =>
      get(api.POST('/sandbox/orders/{id}/med-claim', { body, params: { path: { id: orderId } }, ...writeInit(options) })),
    /** The receiving PSP decides the claim (ACCEPTED, REJECTED), or the payer's PSP withdraws it (CANCELLED). */
    decideMedClaim: (disputeId: string, body: BodyOf<'sandboxDecideMedClaim'>, options?: WriteOptions) =>
      get(api.POST('/sandbox/disputes/{id}/decision', { body, params: { path: { id: disputeId } }, ...writeInit(options) })),
    runSettlement: (body: BodyOf<'sandboxRunSettlement'> = {}, options?: WriteOptions) =>
      get(api.POST('/sandbox/settlements/run', { body, ...writeInit(options) })),
  };

  /** The merchant's audit log (team, invitations, API keys, exports), newest first. */
  const auditLog = {
    list: (filters: Filters<QueryOf<'listAuditLog'>> = {}, pageSize = ITERATION_PAGE_SIZE) =>
      cursorPages(async (cursor) => {
        const answer = await get(api.GET('/audit-log', { params: { query: { ...filters, limit: pageSize, ...(cursor !== undefined ? { cursor } : {}) } } }));
        return { items: answer.data, nextCursor: answer.nextCursor };
      }),
  };

  return { merchant, auditLog, receivers, quotes, payins, payouts, orders, ledger, disputes, payoutBatches, feeTiers, markups, webhooks, sandbox };
}

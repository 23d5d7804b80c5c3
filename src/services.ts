/**
 * The composition root: every module's service, wired by hand, one line each. Modules reach
 * each other only through what is passed here.
 */
import type { ReadRouter } from './db/read-router.ts';
import { createAdapters } from './adapters/index.ts';
import { createLiteSvmSandbox } from './adapters/chain/litesvm-sandbox.ts';
import { createSolanaRpcChain } from './adapters/chain/solana-rpc.ts';
import type { TreasurySigner } from './adapters/chain/solana-transfers.ts';
import type { ChainAdapter } from './adapters/chain/port.ts';
import { createSolanaDeposits } from './adapters/chain/solana-deposits.ts';
import { createSignatureSubscriptions } from './adapters/chain/solana-subscriptions.ts';
import { createSolanaSweeps } from './adapters/chain/solana-sweeps.ts';
import { createSolanaLookupTables } from './adapters/chain/solana-lookup-tables.ts';
import { createLookupTableIndex } from './adapters/chain/lookup-table-index.ts';
import { createSandboxDepositor } from './adapters/chain/solana-sandbox-depositor.ts';
import { signerFromSeed } from './lib/key-vault.ts';
import { createSolanaTreasuryReader } from './adapters/chain/solana-treasury.ts';
import { createSandboxTreasuryReader, type TreasuryBalanceReader } from './adapters/chain/treasury-port.ts';
import { forwardCommitSignals } from './platform/commit-signals.ts';
import type { Db } from './db/database.ts';
import { createInProcessNotifications, type Notifications } from './platform/notifications.ts';
import { deriveKey } from './lib/aead.ts';
import { createRotatingBox } from './lib/rotating-box.ts';
import { secretKeysOf } from './secret-custody.ts';
import type { Clock } from './lib/clock.ts';
import { createIdempotencyStore, IDEMPOTENCY_ANSWERS_PURPOSE } from './platform/idempotency/store.ts';
import { createAuthService } from './modules/auth/service.ts';
import { createTokenIssuer } from './modules/auth/tokens.ts';
import { createFeeTiersService } from './modules/fee-tiers/service.ts';
import { createDepositAddresses } from './modules/deposits/addresses.ts';
import { createSweeper } from './modules/deposits/sweeps.ts';
import { createLookupTableKeeper } from './modules/lookup-tables/keeper.ts';
import { lookupTableMetrics } from './modules/lookup-tables/metrics.ts';
import { createDepositWatcher } from './modules/deposits/watcher.ts';
import { createAccountSubscriptions } from './adapters/chain/solana-account-subscriptions.ts';
import { createPayoutBatchModule } from './modules/payout-batches/wiring.ts';
import { payoutBatchesRepo } from './modules/payout-batches/repo.ts';
import { createLedgerService } from './modules/ledger/service.ts';
import { createSettlementPixKeys } from './modules/settlement-payouts/keys.ts';
import { createSettlementPayouts } from './modules/settlement-payouts/payouts.ts';
import { createMerchantPolicies } from './modules/merchants/compliance-policies.ts';
import { createWalletOwnership } from './modules/wallet-ownership/service.ts';
import { createMerchantsService } from './modules/merchants/service.ts';
import { orderEventDefinitions } from './modules/orders/events.ts';
import { ORDER_CREATED_EVENT } from './modules/orders/order-source.ts';
import { createCurrentFeeRates } from './modules/orders/creation/fee-rates.ts';
import { createOrderExport } from './modules/orders/reads/export.ts';
import { createOrderListing } from './modules/orders/reads/listing.ts';
import { createOrderTimeline } from './modules/orders/reads/timeline.ts';
import { createAdminOrderReads } from './modules/orders/operator/admin-reads.ts';
import { createWebhookHealth } from './modules/webhooks/health.ts';
import { createOverviewService } from './modules/overview/service.ts';
import { createOrderNotifications } from './modules/orders/lifecycle/notifications.ts';
import { createOrdersService } from './modules/orders/service.ts';
import { createPixConfirmation } from './modules/orders/psp/pix-confirmation.ts';
import { createReconciliation } from './modules/orders/psp/reconciliation.ts';
import { transferMetrics } from './modules/orders/lifecycle/metrics.ts';
import { createOrderSteps } from './modules/orders/lifecycle/steps.ts';
import { createTransferWakeups } from './modules/orders/lifecycle/transfer-wakeups.ts';
import type { TransferLog } from './modules/orders/lifecycle/transfer-steps.ts';
import type { OrderLog } from './modules/orders/lifecycle-log.ts';
import type { Metrics } from './http/metrics.ts';
import { createMarkupsService } from './modules/markups/service.ts';
import { createStandingChargesService } from './modules/standing-charges/service.ts';
import { createStandingChargePayments } from './modules/standing-charges/payments.ts';
import { createStandingAddressesService } from './modules/standing-addresses/service.ts';
import { createStandingDepositsModule } from './modules/standing-addresses/wiring.ts';
import { createQuotesService } from './modules/quotes/service.ts';
import { receiverEventDefinitions } from './modules/receivers/events.ts';
import { createReceiversService } from './modules/receivers/service.ts';
import { createOperatorReads } from './operator-reads.ts';
import { receiverUsageAt } from './modules/orders/creation/daily-usage.ts';
import { heldForTest } from './modules/orders/lifecycle/test-hold.ts';
import { createSandboxDriver } from './modules/sandbox/service.ts';
import { createWebhooksService } from './modules/webhooks/service.ts';
import { createWalletsService } from './modules/wallets/service.ts';
import { createUsersService } from './modules/users/service.ts';
import { createOperatorsService } from './modules/operators/service.ts';
import { fourEyesActions } from './modules/approvals/actions.ts';
import { createApprovalsService } from './modules/approvals/service.ts';
import { createOrderOperatorActions } from './modules/orders/operator/operator-actions-service.ts';
import { createEmailSender } from './adapters/email/index.ts';
import type { EmailLog } from './adapters/email/log.ts';
import type { EmailSender } from './adapters/email/port.ts';
import { createLogger } from './logger.ts';
import { createLiquidity, type LiquidityLog } from './modules/treasury/liquidity.ts';
import { maxSolPerTransfer } from './modules/treasury/rules.ts';
import { createTreasuryService } from './modules/treasury/service.ts';
import { createSponsorBalance, type SponsorLog, SWEEP_SPONSOR_MINIMUM_SOL } from './modules/treasury/sponsor-balance.ts';
import { createKeyCustody } from './key-custody.ts';
import { sealClearPersonalData } from './platform/personal-data-sealed-marker.ts';
import type { RuntimeConfig } from './runtime-config.ts';
import { createDisputesService } from './modules/disputes/service.ts';
import { createDependencyTracking } from './dependency-tracking.ts';
import { disputeEventDefinitions } from './modules/disputes/events.ts';
import { createOrderDisputeClaims } from './modules/orders/lifecycle/dispute-claims.ts';

export interface ServiceDeps {
  config: RuntimeConfig;
  db: Db;
  clock: Clock;
  /** The process's notifications hub (main.ts: LISTEN/NOTIFY on PostgreSQL); in-process when not given. */
  notifications?: Notifications;
  /**
   * The worker role's own pool when both roles share a process (main.ts): webhook delivery and
   * order steps claim on it, so they never wait behind API requests for a connection.
   */
  workerDb?: Db;
  /** Where lists and exports read (main.ts: the read replica within its freshness bound, DATABASE_READ_URL); default: db. */
  reads?: ReadRouter;
  /**
   * Signs PAYIN transfers with CHAIN_PROVIDER=solana-rpc instead of the TREASURY key sealed in
   * platform_keys (tests that fund a key of their own on a simulator).
   */
  treasurySigner?: TreasurySigner;
  /**
   * The treasury's balances on chain. Default: the sandbox chain's (no treasury on chain, PAYINs
   * not limited); with CHAIN_PROVIDER=solana-rpc, createSolanaTreasuryReader over the same node,
   * with the address of the treasury that signs the transfers and CHAIN_TOKEN_MINTS.
   */
  treasuryReader?: TreasuryBalanceReader;
  /** The sponsor's SOL (default with SOLANA_RPC_URL: a balance reader on the sponsor's address, on that node). */
  sponsorReader?: Pick<TreasuryBalanceReader, 'readBalances'>;
  /**
   * Where the treasury's liquidity check warns (an unreadable node), the order steps tell of a
   * rebuilt or abandoned transfer, every order's creation and change of status is told once
   * committed (lifecycle-log.ts), and a dependency that goes down or answers again is told
   * (platform/dependency-health.ts).
   */
  log?: LiquidityLog & TransferLog & OrderLog & SponsorLog;
  /** Where EMAIL_PROVIDER=log writes the messages (default: a logger of its own at LOG_LEVEL). */
  emailLog?: EmailLog;
  /** Replaces the sender the configuration names. */
  email?: EmailSender;
  /** The process's one registry (main.ts): the order steps' transfer counters are on it. */
  metrics?: Metrics;
  /** Test-only (main.ts, NODE_ENV=test): the order steps call it once a signed transfer is committed, before its first send. */
  afterTransferStored?: (stored: { orders: number }) => void;
  /** Test-only (main.ts, NODE_ENV=test): the orders orders/lifecycle/test-hold.ts names stay where they are. */
  holdOrders?: true;
  /** Test-only: the deposit sweeps call it once a signed sweep is committed, before its first send. */
  afterSweepStored?: () => void;
}

export async function createServices({ config, db, clock, ...deps }: ServiceDeps) {
  const notifications = deps.notifications ?? createInProcessNotifications();
  // Every real adapter below is wrapped once so its calls feed the dependencies' health (GET /readyz, the order gate).
  const dependencies = createDependencyTracking({ db, clock, log: deps.log });
  const workerDb = deps.workerDb ?? db;
  // What transactions signal (an event recorded, an order step due) is published once they commit.
  for (const pool of new Set([db, workerDb])) forwardCommitSignals(pool, (channel, payload) => notifications.publish(channel, payload));
  const feeTiers = createFeeTiersService({ db, settings: config.feeTiers });
  // Each with its previous version while it rotates (secret-custody.ts, `rotate-secrets`).
  const secretKeys = secretKeysOf(config);
  const merchants = createMerchantsService({
    db,
    clock,
    apiSecretPepper: secretKeys.apiSecretPepper,
    onMerchantCreated: [feeTiers.initializeForMerchant],
    notifications,
  });
  // The platform's keys live sealed in platform_keys: created at first start outside production and
  // in a deployment declared all simulated (a key on a simulated chain guards nothing), imported
  // once from SPONSOR_PRIVATE_KEY when no sponsor is stored; real production refuses a missing one.
  const { walletVault, platformKeys, depositVault, personalData, personalDataTables } = createKeyCustody({ config, db, clock });
  // Seals what is still clear (rows from before migration 0046), before serving: a receiver without
  // its blind index would escape lookups. Skipped when the marker says nothing is clear (migration
  // 0052); values under an older KEK wait for `admin rotate-kek` (docs/architecture/keys.md).
  const personalDataAtStart = await sealClearPersonalData(db, personalData, personalDataTables);
  const createMissing = config.nodeEnv !== 'production' || config.simulationMode;
  const platformKeysAtStart = await platformKeys.prepare({ createMissing, sponsorKeypair: config.sponsorPrivateKey, treasuryWallets: config.chain.treasuryWallets });
  const { SPONSOR: sponsor } = platformKeysAtStart.signers;
  // Managed wallets' chain: a Solana node when SOLANA_RPC_URL is set, else LiteSVM in this process.
  const walletChain = config.solanaRpcUrl
    ? dependencies.chain(createSolanaRpcChain({ url: config.solanaRpcUrl }))
    : createLiteSvmSandbox({ sponsorAddress: sponsor.address, sponsorLamports: config.wallets.sandboxSponsorLamports });
  const tokens = await createTokenIssuer({ ...config.jwt, privateKeyPem: config.jwt.privateKeyPem });
  // TOTP secrets are sealed under their own key derived from WEBHOOK_SECRET_KEY (users/totp.ts).
  const email = dependencies.mail(deps.email ?? createEmailSender(config.email, deps.emailLog ?? createLogger(config.logLevel)), config.email.provider);
  const users = await createUsersService({ db, clock, totpKey: secretKeys.webhookSecretKey, email, publicAppUrl: config.email.publicAppUrl });
  const operators = await createOperatorsService({ db, clock, totpKey: secretKeys.webhookSecretKey, email, publicAppUrl: config.email.publicAppUrl });
  const auth = createAuthService({
    merchants,
    tokens,
    adminToken: config.adminToken,
    sessions: users.sessions,
    operatorSessions: { authenticate: operators.sessions.authenticate, csrfMatches: operators.sessions.csrfMatches },
    serviceAccounts: operators.serviceAccounts,
  });
  const wallets = createWalletsService({
    db,
    clock,
    vault: walletVault,
    sponsor,
    chain: walletChain,
    settings: config.wallets,
    findReceiver: (merchantId, receiverId) => receivers.get(merchantId, receiverId),
    sponsoredFees: {
      charge: (trx, fees) => ledger.postSponsoredFees(trx, fees, 'SPONSORED_FEE'),
      release: (trx, fee) => ledger.postSponsoredFees(trx, [fee], 'SPONSORED_FEE_RELEASED'),
    },
  });
  const receivers = createReceiversService({
    db,
    clock,
    defaults: config.receivers,
    personalData,
    onReceiverCreated: async (trx, receiver) => (receiver.managedWalletRequested ? wallets.createForReceiver(trx, receiver) : undefined),
    // The limits page shows the usage order creation checks: the orders module's one definition.
    dailyUsage: (receiverId, at) => receiverUsageAt(db, receiverId, at),
  });
  // Stored answers are sealed under their own key derived from WEBHOOK_SECRET_KEY (docs/decisions/0008-idempotent-answers-stored-sealed.md).
  const idempotency = createIdempotencyStore({ db, clock, answersKey: createRotatingBox(secretKeys.webhookSecretKey, IDEMPOTENCY_ANSWERS_PURPOSE) });
  const { prices } = config;
  const httpPrices = prices.source === 'http' && prices.url ? { url: prices.url, maxAgeMs: prices.maxAgeMs, timeoutMs: prices.timeoutMs } : undefined;
  const { chain } = config;
  const solanaTransfers =
    chain.provider === 'solana-rpc' && chain.rpcUrl
      ? { rpcUrl: chain.rpcUrl, commitment: chain.commitment, tokenMints: chain.tokenMints, computeUnitLimit: chain.computeUnitLimit, priorityFeeMaxMicroLamports: chain.priorityFeeMaxMicroLamports }
      : undefined;
  const adapterSettings = { pix: config.pix, tokenBrlRates: config.sandbox.tokenBrlRates, tokenDecimals: config.orders.tokens, httpPrices, priceSpread: prices.spread, apiPix: config.apiPix, solanaTransfers };
  // PAYIN transfers are signed by the treasury's wallets, never the sponsor (one key, one purpose); wallet 1 also takes the sweeps and holds the lookup tables (decision 0057).
  const treasurySigners = deps.treasurySigner ? [deps.treasurySigner] : platformKeysAtStart.treasuryWallets;
  // The treasury's lookup tables (decision 0056): the batch preparer loads from them, the keeper below appends to them.
  const lookupTableIndex = solanaTransfers && chain.lookupTables ? createLookupTableIndex() : undefined;
  const adapters = dependencies.adapters(createAdapters({ db, clock, settings: adapterSettings, treasuries: treasurySigners, lookupTables: lookupTableIndex }), {
    httpPrices: httpPrices !== undefined,
    priceToken: Object.keys(config.orders.tokens)[0] ?? 'USDC',
  });
  // With a real chain, a PAYOUT's deposit address is a sealed keypair of its own, watched on the node.
  const depositChain = solanaTransfers ? dependencies.chain(createSolanaDeposits({ rpcUrl: solanaTransfers.rpcUrl, commitment: solanaTransfers.commitment, tokenMints: solanaTransfers.tokenMints })) : undefined;
  const depositAddresses = depositChain ? createDepositAddresses({ db, clock, vault: depositVault, chain: depositChain }) : undefined;
  const chainForOrders: ChainAdapter = depositAddresses ? { ...adapters.chain, createDepositAddress: depositAddresses.create } : adapters.chain;
  const ledger = createLedgerService({ db, clock });
  // Quotes price with the merchant's current tier, which depends on the volume orders completed.
  const currentFeeRates = createCurrentFeeRates({ db, clock, feeTiers });
  const markups = createMarkupsService({ db, clock });
  const quotes = createQuotesService({ db, clock, settings: config.orders, prices: adapters.prices, receivers, currentFeeRates, markupTerms: markups.termsFor });
  const orderListing = createOrderListing({ db, personalData, cacheTtlMs: config.orders.listCacheMs, ...(deps.reads ? { reads: deps.reads } : {}) });
  // A change this process made: the merchant's cached pages go, and its reads go to the primary for a while (read your writes).
  const onOrderChanged = (merchantId: string) => {
    orderListing.forgetMerchant(merchantId);
    deps.reads?.wrote(merchantId);
  };
  // The treasury that signs the transfers is the one whose balances are read, on the same node.
  const balanceReader =
    deps.treasuryReader ??
    (solanaTransfers
      ? createSolanaTreasuryReader({ url: solanaTransfers.rpcUrl, commitment: solanaTransfers.commitment, addresses: treasurySigners.map((signer) => signer.address), mints: solanaTransfers.tokenMints })
      : createSandboxTreasuryReader());
  const treasuryReader = balanceReader.onChain ? dependencies.chain(balanceReader) : balanceReader;
  dependencies.registerChain({ rpcUrl: solanaTransfers?.rpcUrl, treasuryOnChain: treasuryReader.onChain, treasuryKind: treasuryReader.kind });
  const liquidity = createLiquidity({ db, clock, reader: treasuryReader, settings: { ...config.treasury, treasuryWallets: treasurySigners.length }, ...(deps.log ? { log: deps.log } : {}) });
  const treasury = createTreasuryService({ db, clock, reader: treasuryReader, ledger, liquidity, tokens: config.orders.tokens, lowBalance: config.treasury.lowBalance, walletCount: treasurySigners.length, solPerTransfer: maxSolPerTransfer(chain) });
  const { log } = deps;
  const dependencyHealth = dependencies.health;
  const orders = createOrdersService({ db, clock, settings: config.orders, pix: adapters.pix, chain: chainForOrders, quotes, receivers, personalData, liquidity, dependencies: dependencyHealth, onOrderChanged, log });
  // What every transition outside the worker's steps and the notifications is told of (transitions.ts).
  const transitions = { clock, ledger, onOrderChanged, personalData, log };
  // MED claims (issue 30): their returns settle through the orders' refund notifications.
  const disputes = createDisputesService({ db, clock, pix: adapters.pix, claims: createOrderDisputeClaims(transitions), ledger, personalData });
  // Settlements paid to the merchant by PIX (docs/decisions/0044): keys set by two operators, sent exactly once.
  const settlementPixKeys = createSettlementPixKeys({ db, clock, personalData });
  const settlementPayouts = createSettlementPayouts({ db, clock, pix: adapters.pix, ledger, personalData, ...(deps.log ? { log: deps.log } : {}) });
  // Standing PIX charges (issue 43): each PIX paid to one makes a PAYIN in the notification's transaction.
  const standingCharges = createStandingChargesService({ db, clock, rules: quotes.tradeRules, receivers, pix: config.pix });
  // Standing deposit addresses (issue 43, item 1; decision 0046): made, listed and disabled here.
  const standingAddresses = createStandingAddressesService({ db, clock, rules: quotes.tradeRules, receivers, chain: chainForOrders, pix: adapters.pix, personalData });
  const standingChargePayments = createStandingChargePayments({ db, clock, quotes, receivers, settings: config.orders, liquidity });
  const orderNotifications = createOrderNotifications({
    db,
    personalData,
    clock,
    ledger,
    minAmountBrl: config.orders.minAmountBrl,
    tokenDecimals: config.orders.tokens,
    onOrderChanged,
    log,
    disputeReturns: { settled: disputes.returnSettled },
    settlementPayouts: { settled: (trx, notification) => settlementPayouts.settled(trx, notification) },
    standingCharges: standingChargePayments,
  });
  // The PSP callback's notifications are applied only as the PSP confirms them (issue 24).
  const pixConfirmation = createPixConfirmation({ db, clock, pix: adapters.pix });
  // Issue 44 item 2 (decision 0054): a pending transfer's order woken when the node's websocket notifies its signature.
  const signatureSubscriptions = solanaTransfers && chain.wsUrl ? createSignatureSubscriptions({ wsUrl: chain.wsUrl, commitment: chain.commitment }, deps.log) : undefined;
  const orderSteps = createOrderSteps({
    db: workerDb,
    clock,
    ledger,
    pix: adapters.pix,
    chain: chainForOrders,
    personalData,
    onOrderChanged,
    transferMaxAttempts: chain.transferMaxAttempts,
    transferBatchMax: chain.transferBatchMax,
    chooseWallet: liquidity.chooseWallet,
    ...(deps.log ? { log: deps.log } : {}),
    ...(deps.metrics ? { metrics: transferMetrics(deps.metrics.registry) } : {}),
    ...(deps.afterTransferStored ? { afterTransferStored: deps.afterTransferStored } : {}),
    ...(signatureSubscriptions ? { watchTransfer: createTransferWakeups({ db: workerDb, clock, signatures: signatureSubscriptions, log: deps.log }) } : {}),
    ...(deps.holdOrders ? { holdStep: heldForTest } : {}),
  });
  // Payout batches (issue 43 item 3): their lines checked and made orders by the creation pipeline.
  const payoutBatches = createPayoutBatchModule({ db, clock, settings: config.orders, quotes, receivers, personalData, log, dependencies: dependencyHealth, chain: chainForOrders, pix: adapters.pix, ledger, transitions });
  // Standing addresses' deposits (decision 0046): each a PAYOUT made by the creation pipeline.
  const standingDeposits = createStandingDepositsModule({ db, clock, settings: config.orders, quotes, receivers, personalData, log, dependencies: dependencyHealth, chain: chainForOrders, pix: adapters.pix, transitions });
  const accountSubscriptions = depositChain && chain.wsUrl ? createAccountSubscriptions({ wsUrl: chain.wsUrl }, deps.log) : undefined;
  const depositWatcher = depositChain
    ? createDepositWatcher({
        db: workerDb,
        clock,
        chain: depositChain,
        handleChainDeposit: (deposit, trx) => orderNotifications.handleChainDeposit(deposit, trx),
        instruments: [
          { allWatched: (pool, now) => payoutBatchesRepo.allWatchedAddresses(pool, now), watched: (pool, now, limit) => payoutBatchesRepo.watchedAddresses(pool, now, limit), handle: (deposit, trx) => payoutBatches.funding.handleDeposit(deposit, trx) },
          { allWatched: (pool, now) => standingDeposits.allWatched(pool, now), watched: (pool, now, limit) => standingDeposits.watched(pool, now, limit), handle: (deposit, trx) => standingDeposits.handleDeposit(deposit, trx) },
        ],
        // Balances are read for every watched address; signatures listed regardless of them for a tenth of the batch (the safety rotation).
        settings: { batchSize: Math.max(1, Math.ceil(chain.depositWatchBatch / 10)), lateWatchMs: chain.depositLateWatchHours * 3_600_000, fullReadIntervalMs: chain.depositFullReadIntervalMs },
        accounts: accountSubscriptions,
        ...(deps.log ? { log: deps.log } : {}),
      })
    : undefined;
  // The sponsor pays sweeps and sponsored transactions: its SOL is watched wherever it is on a node.
  const sponsorReader = deps.sponsorReader ?? (config.solanaRpcUrl ? createSolanaTreasuryReader({ url: config.solanaRpcUrl, commitment: chain.commitment, addresses: [sponsor.address], mints: {} }) : undefined);
  const sponsorBalance = sponsorReader ? createSponsorBalance({ address: sponsor.address, reader: sponsorReader, threshold: config.treasury.sponsorLowBalance, clock, log: deps.log }) : undefined;
  const sponsorFunds = sponsorBalance
    ? async () => ({ ...(await sponsorBalance.current(config.treasury.reconciliationIntervalMs)), sweepMinimum: SWEEP_SPONSOR_MINIMUM_SOL })
    : undefined;
  // Credited deposits move to the treasury, the sponsor paying (never the treasury: one key, one purpose).
  const sweeper = solanaTransfers
    ? createSweeper({
        db: workerDb,
        clock,
        chain: dependencies.chain(createSolanaSweeps({ settings: { rpcUrl: solanaTransfers.rpcUrl, commitment: solanaTransfers.commitment, tokenMints: solanaTransfers.tokenMints }, sponsor, treasuryAddress: treasurySigners[0]!.address })),
        vault: depositVault,
        postSweepCosts: (trx, order, costs, at) => ledger.postSweepCosts(trx, order, costs, at),
        settings: { batchSize: chain.depositWatchBatch, maxAttempts: chain.transferMaxAttempts },
        sponsorFunds,
        log: deps.log,
        afterSweepStored: deps.afterSweepStored,
      })
    : undefined;
  const lookupTables = lookupTableIndex && solanaTransfers
    ? createLookupTableKeeper({ db: workerDb, clock, chain: dependencies.chain(createSolanaLookupTables({ settings: { rpcUrl: solanaTransfers.rpcUrl }, treasury: treasurySigners[0]! })), index: lookupTableIndex, postCosts: ledger.postLookupTableCosts, ...(deps.log ? { log: deps.log } : {}), ...(deps.metrics ? { metrics: lookupTableMetrics(deps.metrics.registry) } : {}) })
    : undefined;
  const reconciliation = createReconciliation({ db, clock, pix: adapters.pix, notifications: orderNotifications, settings: config.reconciliation, ...(adapters.apiPix ? { prepare: adapters.apiPix.registerWebhook } : {}) });
  const sandbox = createSandboxDriver({
    db,
    clock,
    pix: adapters.sandbox.pix,
    chain: adapters.sandbox.chain,
    notifications: orderNotifications,
    orders,
    autoCompleteSeconds: config.orders.sandboxAutoCompleteSeconds,
    ...(deps.holdOrders ? { holdOrders: true } : {}),
    // On a real chain the sandbox's deposits are real transfers from a test wallet whose key is
    // derived from the KEK under its own label: the same address at every start, nothing stored.
    ...(solanaTransfers && config.sandboxEnabled ? { depositor: createSandboxDepositor({ settings: solanaTransfers, signer: signerFromSeed(deriveKey(config.walletKek, 'sandbox-depositor')) }) } : {}),
  });
  const webhooksOn = (pool: Db) =>
    createWebhooksService({
      db: pool,
      clock,
      settings: config.webhooks,
      secretKey: secretKeys.webhookSecretKey,
      personalData,
      events: [...orderEventDefinitions(), ...receiverEventDefinitions(), ...disputeEventDefinitions(), ORDER_CREATED_EVENT],
    });
  const webhooks = webhooksOn(db);
  const merchantPolicies = createMerchantPolicies({ db, clock });
  const walletOwnership = createWalletOwnership({ db, clock, personalData, settings: { publicAppUrl: config.email.publicAppUrl } });
  /** What the worker's delivery and maintenance jobs use (the same service unless the worker has its own pool). */
  const webhookDelivery = workerDb === db ? webhooks : webhooksOn(workerDb);
  // The dashboard's reads: the export and the timeline belong to orders, the overview composes modules.
  const orderExport = createOrderExport({ db, clock, settings: { pageSize: config.orders.exportPageSize, maxRows: config.orders.exportMaxRows }, ...(deps.reads ? { reads: deps.reads } : {}) });
  const orderTimeline = createOrderTimeline({ db, explorerTxUrl: config.orders.explorerTxUrl, ledger, webhooks });
  const overview = createOverviewService({ db, clock, ledger, webhooks });
  // The back office's reads across merchants (docs/architecture/back-office.md): the order's own
  // timeline, its merchant read first; the audit export shares the order export's page size and cap.
  // Four-eyes: what two operators decide runs in the decision's transaction (approvals/actions.ts).
  const orderOperatorActions = createOrderOperatorActions({ db, clock, transitions });
  const approvals = createApprovalsService({ db, clock, actions: fourEyesActions({ orders: orderOperatorActions, merchants, feeTiers, treasury, operators, settlementPixKeys }) });
  const adminOrders = createAdminOrderReads({ db, clock, stuckOrderMinutes: config.orders.stuckOrderMinutes, timeline: orderTimeline, personalData });
  const webhookHealth = createWebhookHealth({ db, clock });
  const operatorReads = createOperatorReads({ db, clock, personalData, merchants, users, feeTiers, exports: { pageSize: config.orders.exportPageSize, maxRows: config.orders.exportMaxRows } });
  return { dependencyHealth, personalData, personalDataAtStart, disputes, operators, approvals, orderOperatorActions, webhookHealth, adminOrders, notifications, merchants, merchantPolicies, walletOwnership, auth, users, email, feeTiers, markups, standingCharges, standingAddresses, standingDeposits, receivers, idempotency, webhooks, webhookDelivery, adapters, quotes, orders, orderListing, orderExport, orderTimeline, overview, orderNotifications, pixConfirmation, orderSteps, reconciliation, sandbox, ledger, settlementPixKeys, settlementPayouts, clock, wallets, platformKeys, platformKeysAtStart, treasury, treasuryReader, sponsorBalance, liquidity, depositAddresses, depositWatcher, sweeper, lookupTables, operatorReads, payoutBatches, signatureSubscriptions, accountSubscriptions };
}

export type Services = Awaited<ReturnType<typeof createServices>>;

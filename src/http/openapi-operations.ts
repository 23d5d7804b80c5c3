/**
 * The stable names of the OpenAPI document: every operation's `operationId` (what generated
 * clients call their methods: a rename breaks every integrator's code, so these never change
 * once published) and the tags with their descriptions. Kept in one table instead of in each
 * route's schema so that the names read as one vocabulary and a route without one is found at
 * once (openapi.ts refuses to build the document without it; test/http/openapi.test.ts checks
 * the table has no stale entry). Keys are `METHOD path`, the path relative to the server URL.
 */
export const OPERATION_IDS: Readonly<Record<string, string>> = {
  'GET /healthz': 'getLiveness',
  'GET /readyz': 'getReadiness',
  'GET /metrics': 'getMetrics',

  'POST /auth/token': 'createAccessToken',
  'GET /.well-known/jwks.json': 'getJwks',
  'GET /merchant': 'getMerchant',

  'POST /auth/sessions': 'signIn',
  'GET /auth/sessions/current': 'getCurrentSession',
  'DELETE /auth/sessions/current': 'signOut',
  'GET /users/me/sessions': 'listMySessions',
  'DELETE /users/me/sessions/{id}': 'revokeMySession',
  'POST /users/me/totp': 'startTotpEnrolment',
  'POST /users/me/totp/confirm': 'confirmTotpEnrolment',
  'GET /users': 'listUsers',
  'POST /users': 'createUser',
  'PATCH /users/{id}': 'updateUserRole',
  'DELETE /users/{id}': 'deleteUser',

  'GET /credentials': 'listCredentials',
  'POST /credentials': 'createCredential',
  'DELETE /credentials/{credentialId}': 'revokeCredential',

  'POST /receivers': 'createReceiver',
  'GET /receivers': 'listReceivers',
  'GET /receivers/{id}': 'getReceiver',
  'PATCH /receivers/{id}': 'updateReceiver',
  'GET /receivers/{id}/limits': 'getReceiverLimits',
  'PUT /receivers/{id}/limits': 'replaceReceiverLimits',
  'POST /receivers/{id}/kyc': 'submitReceiverKyc',

  'POST /quotes': 'createQuote',
  'POST /payin': 'createPayin',
  'POST /payout': 'createPayout',
  'GET /orders/{id}': 'getOrder',
  'GET /orders': 'listOrders',

  'GET /ledger/fees/balance': 'getFeeBalance',
  'GET /ledger/settlements': 'listSettlements',
  'GET /ledger/entries': 'listLedgerEntries',

  'GET /fee-tiers': 'listFeeTiers',
  'PUT /fee-tiers/{orderType}': 'replaceFeeTiers',

  'GET /webhook/events': 'listWebhookEvents',
  'POST /webhook/endpoints': 'createWebhookEndpoint',
  'GET /webhook/endpoints': 'listWebhookEndpoints',
  'GET /webhook/endpoints/{id}': 'getWebhookEndpoint',
  'PATCH /webhook/endpoints/{id}': 'updateWebhookEndpoint',
  'DELETE /webhook/endpoints/{id}': 'deleteWebhookEndpoint',
  'POST /webhook/endpoints/{id}/rotate-secret': 'rotateWebhookEndpointSecret',
  'POST /webhook/endpoints/{id}/test': 'testWebhookEndpoint',
  'POST /webhook/endpoints/{id}/recover': 'recoverWebhookEndpoint',
  'GET /webhook/deliveries': 'listWebhookDeliveries',
  'GET /webhook/deliveries/{id}': 'getWebhookDelivery',
  'POST /webhook/deliveries/{id}/redeliver': 'redeliverWebhookDelivery',

  'GET /wallet/fee-payer': 'getFeePayer',
  'POST /receivers/{receiverId}/wallet/sign-transaction': 'signReceiverTransaction',
  'POST /receivers/{receiverId}/wallet/sign-and-send-transaction': 'signAndSendReceiverTransaction',
  'GET /merchant/wallet': 'getMerchantWallet',
  'POST /merchant/wallet/sign-transaction': 'signMerchantTransaction',
  'POST /merchant/wallet/sign-and-send-transaction': 'signAndSendMerchantTransaction',

  'POST /sandbox/receivers/{id}/kyc': 'sandboxDecideKyc',
  'POST /sandbox/orders/{id}/pix-payment': 'sandboxPayPixCharge',
  'POST /sandbox/orders/{id}/deposit': 'sandboxMakeDeposit',
  'GET /sandbox/chain/depositor': 'sandboxGetDepositor',
  'POST /sandbox/orders/{id}/fail': 'sandboxFailOrderStep',
  'POST /sandbox/orders/{id}/failure-injections': 'sandboxArmOrderFailure',
  'POST /sandbox/settlements/run': 'sandboxRunSettlement',
  'POST /sandbox/pix-keys': 'sandboxRegisterPixKey',
  'POST /sandbox/wallet/airdrop': 'sandboxAirdrop',
  'GET /sandbox/wallet/balances/{address}': 'sandboxGetBalance',
  'GET /sandbox/wallet/transactions/{signature}': 'sandboxGetTransaction',

  'POST /admin/merchants': 'adminCreateMerchant',
  'GET /admin/merchants': 'adminListMerchants',
  'GET /admin/merchants/{id}': 'adminGetMerchant',
  'POST /admin/merchants/{id}/disable': 'adminDisableMerchant',
  'POST /admin/merchants/{id}/enable': 'adminEnableMerchant',
  'GET /admin/merchants/{id}/credentials': 'adminListCredentials',
  'POST /admin/merchants/{id}/credentials': 'adminCreateCredential',
  'DELETE /admin/merchants/{id}/credentials/{credentialId}': 'adminRevokeCredential',
  'GET /admin/merchants/{id}/destination-policy': 'adminGetDestinationPolicy',
  'PUT /admin/merchants/{id}/destination-policy': 'adminSetDestinationPolicy',
  'GET /admin/receivers/{id}': 'adminGetReceiver',
  'POST /admin/receivers/{id}/kyc/start-review': 'adminStartKycReview',
  'POST /admin/receivers/{id}/kyc/approve': 'adminApproveKyc',
  'POST /admin/receivers/{id}/kyc/reject': 'adminRejectKyc',
  'POST /admin/receivers/{id}/suspend': 'adminSuspendReceiver',
  'POST /admin/receivers/{id}/block': 'adminBlockReceiver',
  'POST /admin/receivers/{id}/reactivate': 'adminReactivateReceiver',
  'GET /admin/platform-fee-tiers': 'adminListPlatformFeeTiers',
  'PUT /admin/platform-fee-tiers/{orderType}': 'adminReplacePlatformFeeTiers',
  'POST /admin/settlements/run': 'adminRunSettlements',
  'GET /admin/treasury': 'adminGetTreasury',
  'POST /admin/treasury/fundings': 'adminCreateTreasuryFunding',
};

/** Every tag a route uses, declared with what it groups (in the reference's order). */
export const TAGS = [
  { name: 'Authentication', description: 'API key and secret, or a short-lived bearer token exchanged for them; the public keys that verify tokens.' },
  { name: 'Merchant', description: 'The authenticated merchant.' },
  { name: 'People', description: "A merchant's users: sign-in sessions (cookie, CSRF token, TOTP two-factor) and the role table." },
  { name: 'API keys', description: "The merchant's own API keys: listed by any role, created and revoked by a signed-in OWNER or ADMIN with TOTP (never with an API key)." },
  { name: 'Receivers', description: 'The people and companies a merchant pays and is paid for: KYC, status and transaction limits.' },
  { name: 'Quote', description: 'A rate and fees held for a short time, to create an order at a known price.' },
  { name: 'Payin', description: 'BRL in by PIX, tokens out on chain to the receiver.' },
  { name: 'Payout', description: 'Tokens in on chain, BRL out by PIX.' },
  { name: 'Orders', description: 'Payins and payouts with their status and transactions.' },
  { name: 'Fee Tiers', description: "The merchant's own fee on top of the platform's, by monthly volume band." },
  { name: 'Ledger', description: 'Double-entry postings of every order, collected merchant fees and their settlements.' },
  { name: 'Webhook Config', description: 'Endpoints that receive signed event notifications, the event catalog and the delivery log.' },
  { name: 'Wallets', description: "Managed Solana wallets: signing and sending transactions, the platform paying the network fee." },
  { name: 'Sandbox', description: 'Test drivers of the simulated PIX provider and chain; mounted only where SANDBOX_ENABLED is true.' },
  { name: 'Admin', description: "The operator API (ADMIN_TOKEN): merchants, credentials, receivers' KYC and status, platform fees." },
  { name: 'Operations', description: 'Liveness, readiness and metrics, served at the root, outside /api/v1.' },
] as const;

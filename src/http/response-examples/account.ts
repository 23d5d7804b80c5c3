/**
 * Answer examples of the merchant's account operations (tokens, people, credentials, webhooks,
 * managed wallets) and of the operations document (health, readiness, metrics).
 */
import type { ResponseExamples } from './table.ts';
import {
  CREDENTIAL_ID,
  DEVELOPER_USER_ID,
  FEE_PAYER,
  MERCHANT,
  MERCHANT_ID,
  MERCHANT_WALLET,
  OWNER_USER_ID,
  PAYIN_COMPLETED,
  PAYIN_ID,
  PAYIN_TRANSFER_SIGNATURE,
  RECEIVER_WALLET,
  SIGNED_WIRE_TRANSACTION,
  WALLET_SEND_SIGNATURE,
  WEBHOOK_DELIVERY_ID,
  WEBHOOK_ENDPOINT_ID,
  WEBHOOK_EVENT_ID,
} from './values.ts';

export const CREDENTIAL = {
  id: CREDENTIAL_ID,
  apiKey: 'mk_3f9a1c2e7b4d40a8b6e2d9c1f5a7e3b0',
  label: 'production server',
  createdAt: '2026-11-20T17:45:12.330Z',
  revokedAt: null,
  expiresAt: '2027-11-26T00:00:00.000Z',
  allowedIps: ['203.0.113.0/24', '2001:db8::/32'],
  scopes: ['read', 'payments.write'],
  lastUsedAt: '2026-11-24T14:03:12.401Z',
};
/** The secret is shown once, at creation: sk_ and 43 characters of base64url. */
export const ISSUED_CREDENTIAL = { ...CREDENTIAL, lastUsedAt: null, apiSecret: 'sk_Yq7Rk2WmP9xTn4LcV8bJ3sHd6FgA1eZu0oKiQ5wNtXr' };

/**
 * An EdDSA access token for the credential above (sub: the merchant, cid: the credential), its
 * kid the RFC 7638 thumbprint of the JWKS key below (RFC 8037's example key); the signature is a placeholder.
 */
const ACCESS_TOKEN =
  'eyJhbGciOiJFZERTQSIsImtpZCI6ImtQcktfcW14VldhWVZBOXd3QkY2SXVvM3ZWeno3VHhIQ1R3WEJ5Z3JTNGsiLCJ0eXAiOiJKV1QifQ.eyJjaWQiOiIwMTk1ZjNiOS0xZjZkLTdjMjgtYjRhMC0zZTlkNWM3YTFmODIiLCJzdWIiOiIwMTk1ZjNiOC01YzAyLTdhOWQtYjNlMS02ZjRhMmQ4YzllNTAiLCJpc3MiOiJjcnlwdG8tYnJsLWV4Y2hhbmdlIiwiYXVkIjoibWVyY2hhbnQtYXBpIiwianRpIjoiMDE5YWI2ZjEtZmQyMC03YjNjLTllNDEtNmE4ZDJjNWYwYjE3IiwiaWF0IjoxNzk1NTI4OTkxLCJleHAiOjE3OTU1Mjk4OTF9.CpX_pm2C1QpZTRGj-CpxuBLo7x3hnD4q3g_a6U2djYhD7uh59dQofYe3LLEZ_RFvDZpfmy314AoZsvmNY3vXkg';

const OWNER = { id: OWNER_USER_ID, merchantId: MERCHANT_ID, email: 'ana.souza@example.com', role: 'OWNER', totpEnabled: true, createdAt: '2026-03-02T12:00:41.207Z' };
const DEVELOPER = { id: DEVELOPER_USER_ID, merchantId: MERCHANT_ID, email: 'joao.lima@example.com', role: 'DEVELOPER', totpEnabled: false, createdAt: '2026-11-02T10:15:27.804Z' };
const OWNER_PERMISSIONS = ['read', 'developer.write', 'payments.write', 'users.manage', 'owners.manage', 'credentials.manage'];
const CSRF_TOKEN = 'Vq3mZ8kR1xTn6LcW4bJ9sHd2FgA7eYu0oKiP5wNtXrQ';

export const TOTP_ENROLMENT = {
  otpauthUri: 'otpauth://totp/Crypto%2FBRL%20Exchange:ana.souza%40example.com?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=Crypto%2FBRL%20Exchange&algorithm=SHA1&digits=6&period=30',
  secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
};

const INVITATION = {
  id: '019a7e0f-8b2d-7a63-9c1e-4f7a2d5b8e30',
  email: 'joao.lima@example.com',
  role: 'DEVELOPER',
  invitedBy: OWNER_USER_ID,
  createdAt: '2026-11-01T19:02:44.519Z',
  expiresAt: '2026-11-08T19:02:44.519Z',
};

const WEBHOOK_ENDPOINT = {
  id: WEBHOOK_ENDPOINT_ID,
  url: 'https://merchant.example.com/webhooks/exchange',
  description: 'Order updates',
  eventTypes: ['order.completed', 'order.failed', 'order.refunded'],
  enabled: true,
  secretCreatedAt: '2026-11-05T11:20:03.771Z',
  previousSecretExpiresAt: null,
  failingSince: null,
  disabledReason: null,
  createdAt: '2026-11-05T11:20:03.771Z',
  updatedAt: '2026-11-05T11:20:03.771Z',
};

const COMPLETED_PAYLOAD = {
  event: 'order.completed',
  orderId: PAYIN_ID,
  externalId: PAYIN_COMPLETED.externalId,
  type: 'PAYIN',
  status: 'COMPLETED',
  amountBrl: PAYIN_COMPLETED.amountBrl,
  amountToken: PAYIN_COMPLETED.amountToken,
  targetToken: 'USDC',
  destinationWallet: RECEIVER_WALLET,
  txHash: PAYIN_TRANSFER_SIGNATURE,
  markupAmountBrl: 0,
  timestamp: PAYIN_COMPLETED.completedAt,
  deliveryId: WEBHOOK_DELIVERY_ID,
};

const WEBHOOK_DELIVERY = {
  id: WEBHOOK_DELIVERY_ID,
  endpointId: WEBHOOK_ENDPOINT_ID,
  eventId: WEBHOOK_EVENT_ID,
  event: 'order.completed',
  orderId: PAYIN_ID,
  status: 'SUCCEEDED',
  attemptCount: 1,
  nextAttemptAt: null,
  lastAttemptAt: '2026-11-24T14:05:56.377Z',
  lastStatusCode: 200,
  lastError: null,
  createdAt: '2026-11-24T14:05:56.204Z',
  updatedAt: '2026-11-24T14:05:56.377Z',
  payload: COMPLETED_PAYLOAD,
  attempts: [{ number: 1, attemptedAt: '2026-11-24T14:05:56.377Z', succeeded: true, statusCode: 200, latencyMs: 142, error: null, responseBody: '{"received":true}' }],
};

/** A delivery queued again: PENDING, attempted soon. */
const QUEUED_DELIVERY = { ...WEBHOOK_DELIVERY, status: 'PENDING', nextAttemptAt: '2026-11-24T16:10:02.118Z', updatedAt: '2026-11-24T16:10:02.118Z' };

const TEST_DELIVERY_ID = '019ab78c-2e5a-7f13-b8d6-0c4e9a1f3b72';
const TEST_DELIVERY = {
  ...WEBHOOK_DELIVERY,
  id: TEST_DELIVERY_ID,
  eventId: '019ab78c-2e57-7c90-9a1d-5f3b8e2c6d04',
  event: 'webhook.test',
  orderId: null,
  status: 'PENDING',
  attemptCount: 0,
  nextAttemptAt: '2026-11-24T16:09:48.530Z',
  lastAttemptAt: null,
  lastStatusCode: null,
  createdAt: '2026-11-24T16:09:48.530Z',
  updatedAt: '2026-11-24T16:09:48.530Z',
  payload: { event: 'webhook.test', endpointId: WEBHOOK_ENDPOINT_ID, message: 'Test event from the merchant API', timestamp: '2026-11-24T16:09:48.530Z', deliveryId: TEST_DELIVERY_ID },
  attempts: [],
};

const WEBHOOK_SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

/** A production dependency answering: its provider and its last successful call or probe. */
const dependency = (provider: string, lastSuccessAt: string) => ({ provider, state: 'ok', lastSuccessAt, lastFailureAt: null });

const METRICS = [
  '# HELP http_requests_total HTTP requests answered, by route template and status',
  '# TYPE http_requests_total counter',
  'http_requests_total{method="POST",route="/api/v1/payin",status_code="201"} 1284',
  'http_requests_total{method="GET",route="/api/v1/orders/:id",status_code="200"} 20931',
  "# HELP orders_stuck Orders in the operator's queue (GET /admin/orders/stuck), by type and reason",
  '# TYPE orders_stuck gauge',
  'orders_stuck{type="PAYIN",reason="IN_TRANSIT_TOO_LONG"} 0',
  'orders_stuck{type="PAYOUT",reason="FAILED_WITH_MONEY_HELD"} 0',
  '',
].join('\n');

export const ACCOUNT_RESPONSE_EXAMPLES: ResponseExamples = {
  createAccessToken: { 200: { accessToken: ACCESS_TOKEN, tokenType: 'Bearer', expiresIn: 900 } },
  getJwks: { 200: { keys: [{ kty: 'OKP', crv: 'Ed25519', x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo', kid: 'kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k', alg: 'EdDSA', use: 'sig' }] } },
  signIn: { 201: { user: OWNER, csrfToken: CSRF_TOKEN, expiresAt: '2026-11-25T02:03:12.418Z', totpEnrolmentRequired: false, permissions: OWNER_PERMISSIONS } },
  acceptInvitation: { 201: DEVELOPER },
  getFeePayer: { 200: { address: FEE_PAYER } },
  getMerchant: { 200: MERCHANT },
  getMerchantEnvironment: { 200: { sandbox: true, chains: ['solana'], tokens: ['USDC'] } },
  getMerchantPolicies: { 200: { merchantId: MERCHANT.id, destinationPolicy: 'RECEIVER_ONLY', payerPolicy: 'ANY', walletOwnershipPolicy: 'LIMITED', unprovenWalletLimitBrl: 500, updatedAt: '2026-11-12T14:30:18.227Z' } },
  listCredentials: { 200: [CREDENTIAL] },
  createCredential: { 201: ISSUED_CREDENTIAL },
  revokeCredential: { 200: { ...CREDENTIAL, revokedAt: '2026-11-24T18:12:09.663Z' } },
  getCurrentSession: { 200: { user: OWNER, csrfToken: CSRF_TOKEN, totpEnrolmentRequired: false, permissions: OWNER_PERMISSIONS } },
  listMySessions: {
    200: [
      {
        id: '019ab6e1-7d3f-7b28-a5c9-2e0f4b6d8a13',
        createdAt: '2026-11-24T13:58:40.126Z',
        lastSeenAt: '2026-11-24T14:03:12.418Z',
        expiresAt: '2026-11-25T01:58:40.126Z',
        ip: '203.0.113.24',
        userAgent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_6) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
        current: true,
      },
    ],
  },
  startTotpEnrolment: { 201: TOTP_ENROLMENT },
  listUsers: { 200: [OWNER, DEVELOPER] },
  updateUserRole: { 200: { ...DEVELOPER, role: 'VIEWER' } },
  inviteUser: { 202: INVITATION },
  listInvitations: { 200: [INVITATION] },
  listAuditLog: {
    200: {
      data: [
        {
          id: '019a1c44-8e31-7d05-b2a6-9f4c1e7d3b58',
          actor: `user:${OWNER_USER_ID}`,
          action: 'webhook_endpoint.created',
          targetType: 'webhook_endpoint',
          targetId: WEBHOOK_ENDPOINT_ID,
          details: { url: WEBHOOK_ENDPOINT.url },
          requestId: '019a1c44-8e20-7a91-8c3d-5b7e0f2a4c66',
          createdAt: WEBHOOK_ENDPOINT.createdAt,
        },
      ],
      nextCursor: null,
    },
  },
  listWebhookEvents: {
    200: {
      data: [
        {
          name: 'webhook.test',
          description: 'A ping sent on request (POST /webhook/endpoints/{id}/test) to check an endpoint and its signature verification',
          category: 'webhook',
          orderTypes: null,
          status: null,
          statusField: null,
          payload: {
            type: 'object',
            properties: {
              event: { type: 'string', description: 'Event name' },
              endpointId: { type: 'string', format: 'uuid', description: 'The endpoint being tested' },
              message: { type: 'string' },
              timestamp: { type: 'string', format: 'date-time', description: 'ISO 8601 UTC with milliseconds' },
              deliveryId: { type: 'string', description: 'Unique identifier of the delivery' },
            },
            required: ['event', 'endpointId', 'message', 'timestamp', 'deliveryId'],
          },
        },
      ],
    },
  },
  createWebhookEndpoint: { 201: { ...WEBHOOK_ENDPOINT, secret: WEBHOOK_SECRET } },
  listWebhookEndpoints: { 200: { data: [WEBHOOK_ENDPOINT] } },
  getWebhookEndpoint: { 200: WEBHOOK_ENDPOINT },
  updateWebhookEndpoint: { 200: { ...WEBHOOK_ENDPOINT, enabled: false, updatedAt: '2026-11-24T16:02:31.904Z' } },
  rotateWebhookEndpointSecret: { 200: { endpointId: WEBHOOK_ENDPOINT_ID, secret: 'whsec_R2xvYmFsLWV4YW1wbGUtc2VjcmV0LTIwMjY=', previousSecretExpiresAt: '2026-11-25T16:05:12.340Z' } },
  testWebhookEndpoint: { 202: TEST_DELIVERY },
  listWebhookDeliveries: { 200: { data: [WEBHOOK_DELIVERY], total: 1, page: 1, limit: 20 } },
  getWebhookDelivery: { 200: WEBHOOK_DELIVERY },
  redeliverWebhookDelivery: { 202: QUEUED_DELIVERY },
  recoverWebhookEndpoint: { 202: { endpointId: WEBHOOK_ENDPOINT_ID, since: '2026-11-22T03:00:00.000Z', requeued: 14 } },
  signReceiverTransaction: { 200: { signedTransaction: SIGNED_WIRE_TRANSACTION } },
  signAndSendReceiverTransaction: { 200: { hash: WALLET_SEND_SIGNATURE } },
  getMerchantWallet: { 200: { address: MERCHANT_WALLET, createdAt: '2026-03-02T12:00:41.512Z' } },
  signMerchantTransaction: { 200: { signedTransaction: SIGNED_WIRE_TRANSACTION } },
  signAndSendMerchantTransaction: { 200: { hash: WALLET_SEND_SIGNATURE } },
  getLiveness: { 200: { status: 'ok' } },
  getReadiness: {
    200: {
      status: 'ready',
      simulation: false,
      dependencies: {
        database: dependency('postgresql', '2026-11-24T14:05:59.204Z'),
        psp: dependency('api-pix', '2026-11-24T14:05:55.402Z'),
        chain: dependency('solana-rpc', '2026-11-24T14:05:58.731Z'),
        prices: dependency('http', '2026-11-24T14:05:30.016Z'),
        mail: dependency('smtp', '2026-11-24T13:12:44.980Z'),
      },
      ordersRefused: [],
    },
  },
  getMetrics: { 200: METRICS },
};

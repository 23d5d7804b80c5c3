/**
 * @crypto-brl-exchange/sdk: a typed client of the merchant API (README.md beside this folder).
 */
export { createExchangeClient, SDK_VERSION, type ClientOptions, type ExchangeClient } from './client.ts';
export type { Auth } from './auth.ts';
export { TokenManager, DEFAULT_REFRESH_MARGIN_SECONDS } from './auth.ts';
export type { ApiClient } from './api.ts';
export type { BodyOf, GeneratedClient, QueryOf, WriteOptions } from './call.ts';
export { ExchangeApiError, ExchangeError, ExchangeNetworkError, ExchangeTimeoutError, type ErrorBody, type ErrorCode } from './errors.ts';
export { ITERATION_PAGE_SIZE, PAGE_SIZE_PARAM, Paginated } from './pagination.ts';
export type { Merchant, Order, Receiver } from './resources.ts';
export type { RetryOptions } from './transport.ts';
export type { MessageToSign, WalletMessageSigner, WalletOwnershipChallenge, WalletOwnershipProof } from './wallet-ownership.ts';
export { ExchangeWebhookError, verifyWebhook, type WebhookHeaders } from './webhooks.ts';
export * from './webhook-events.ts';
export type { components, operations, paths } from './generated/openapi.ts';

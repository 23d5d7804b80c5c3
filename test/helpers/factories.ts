/**
 * Factories: small functions that build what a test needs through the real HTTP API (or a
 * service, where the API has no route for it), so that every test creates its own merchants,
 * receivers and endpoints and runs alone with `vitest -t`. Each throws with the response body
 * when the API refuses, so a broken setup reads as such and not as a failed assertion.
 */
import type { LightMyRequestResponse } from 'fastify';
import { ADMIN_TOKEN, type TestContext, type TestMerchant } from './app.ts';
import { randomCpf } from './documents.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers, asserted field by field
export type Json = Record<string, any>;
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type OrderType = 'PAYIN' | 'PAYOUT';

/** The operator's headers (the admin token as a bearer token). */
export const adminHeaders = { authorization: `Bearer ${ADMIN_TOKEN}` };
/** A valid Solana address, for receivers' wallets. */
export const SOLANA_WALLET = '4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T';
/** A well-formed id that names nothing. */
export const UNKNOWN_ID = '00000000-0000-7000-8000-000000000000';

/** A merchant API call under /api/v1 as `who` (a merchant's key+secret, or raw headers). */
export function callAs(
  ctx: TestContext,
  who: TestMerchant | Record<string, string>,
  method: Method,
  url: string,
  payload?: unknown,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  const credentials = isMerchant(who) ? who.headers : who;
  return ctx.app.inject({
    method,
    url: `/api/v1${url}`,
    headers: { ...credentials, ...headers },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

/** An operator call under /api/v1/admin with the admin token. */
export function callAsAdmin(ctx: TestContext, method: Method, url: string, payload?: unknown, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
  return callAs(ctx, { ...adminHeaders, ...headers }, method, `/admin${url}`, payload);
}

const isMerchant = (who: TestMerchant | Record<string, string>): who is TestMerchant =>
  typeof (who as TestMerchant).merchantId === 'string' && typeof (who as TestMerchant).headers === 'object';

function expectStatus(response: LightMyRequestResponse, status: number, what: string): Json {
  if (response.statusCode !== status) throw new Error(`${what}: expected ${status}, got ${response.statusCode} ${response.body}`);
  return response.body === '' ? {} : (response.json() as Json);
}

/** A new ACTIVE merchant with one credential (through the merchants service, as the CLI does). */
export function createMerchant(ctx: TestContext, name = 'Test Merchant'): Promise<TestMerchant> {
  return ctx.createMerchant(name);
}

/** Two merchants: the one a test acts as, and another whose resources it must never reach. */
export async function createMerchantPair(ctx: TestContext, names: [string, string] = ['Merchant A', 'Merchant B']): Promise<[TestMerchant, TestMerchant]> {
  return [await createMerchant(ctx, names[0]), await createMerchant(ctx, names[1])];
}

/** Sets a merchant's status (DISABLED or back to ACTIVE) through the service, as an operator would. */
export function setMerchantStatus(ctx: TestContext, merchant: TestMerchant, status: 'ACTIVE' | 'DISABLED') {
  return ctx.app.services.merchants.setMerchantStatus(merchant.merchantId, status, { actor: 'test' });
}

/** POST /receivers: a PENDING PF receiver named Maria Silva unless `overrides` say otherwise. */
export async function createReceiver(ctx: TestContext, merchant: TestMerchant, overrides: Json = {}): Promise<Json> {
  const body = { type: 'PF', document: randomCpf(), name: 'Maria Silva', email: 'maria@example.com', ...overrides };
  return expectStatus(await callAs(ctx, merchant, 'POST', '/receivers', body), 201, 'create receiver');
}

/** Decides a receiver's KYC through the sandbox route (emits receiver.kyc_approved / _rejected). */
export async function decideReceiverKyc(ctx: TestContext, merchant: TestMerchant, receiverId: string, decision: 'APPROVE' | 'REJECT', reason = 'Blurry selfie'): Promise<Json> {
  const body = decision === 'APPROVE' ? { decision } : { decision, reason };
  return expectStatus(await callAs(ctx, merchant, 'POST', `/sandbox/receivers/${receiverId}/kyc`, body), 200, `${decision} receiver KYC`);
}

/** Approves a receiver's KYC (sandbox): the receiver becomes ACTIVE. */
export function approveReceiver(ctx: TestContext, merchant: TestMerchant, receiverId: string): Promise<Json> {
  return decideReceiverKyc(ctx, merchant, receiverId, 'APPROVE');
}

/** A receiver created and approved: ACTIVE, ready for orders. */
export async function createActiveReceiver(ctx: TestContext, merchant: TestMerchant, overrides: Json = {}): Promise<Json> {
  const receiver = await createReceiver(ctx, merchant, overrides);
  const approved = await approveReceiver(ctx, merchant, receiver.id);
  if (approved.status !== 'ACTIVE') throw new Error(`approved receiver is ${approved.status}`);
  return approved;
}

/** PUT /fee-tiers/{orderType} with one unbounded band at this merchant fee (a fraction: 0.01 = 1 %). */
export async function setMerchantFee(ctx: TestContext, merchant: TestMerchant, orderType: OrderType, merchantFeePercentage: number): Promise<Json> {
  const body = [{ minVolumeBrl: 0, maxVolumeBrl: null, merchantFeePercentage }];
  return expectStatus(await callAs(ctx, merchant, 'PUT', `/fee-tiers/${orderType}`, body), 200, 'replace fee tiers');
}

export interface CreatedEndpoint {
  id: string;
  secret: string;
  url: string;
  eventTypes: string[] | null;
}

/** POST /webhook/endpoints; the answer carries the signing secret, shown this once. */
export async function createWebhookEndpoint(ctx: TestContext, merchant: TestMerchant, body: Json): Promise<CreatedEndpoint> {
  return expectStatus(await callAs(ctx, merchant, 'POST', '/webhook/endpoints', body), 201, 'create webhook endpoint') as CreatedEndpoint;
}

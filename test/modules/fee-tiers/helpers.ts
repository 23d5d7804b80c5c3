/**
 * Shared setup and calls of the fee tier tests. Fee tiers over HTTP (spec, "Fee tier", GET /fee-tiers, PUT /fee-tiers/{orderType}): each PUT
 * rule, exact decimal totals, tenancy, concurrency, the operators' platform schedule and
 * tierForVolume, the rates order creation will use. Percentages are fractions (0.005 = 0.5 %).
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect } from 'vitest';
import { ADMIN_TOKEN, createTestContext, type TestContext, type TestMerchant } from '../../helpers/app.ts';

export const API = '/api/v1';
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const adminHeaders = { authorization: `Bearer ${ADMIN_TOKEN}` };

export type OrderType = 'PAYIN' | 'PAYOUT';
export interface TierInput {
  minVolumeBrl: number;
  maxVolumeBrl: number | null;
  merchantFeePercentage: number;
}
export interface Tier {
  id: string;
  orderType: OrderType;
  minVolumeBrl: number;
  maxVolumeBrl: number | null;
  platformFeePercentage: number;
  merchantFeePercentage: number;
  totalFeePercentage: number;
}
export type ReplacedTier = Omit<Tier, 'orderType'>;

/** The platform schedule the migration seeds for both order types. */
export const PLATFORM_DEFAULT = [
  { minVolumeBrl: 0, maxVolumeBrl: 100000, platformFeePercentage: 0.005 },
  { minVolumeBrl: 100000, maxVolumeBrl: 1000000, platformFeePercentage: 0.0035 },
  { minVolumeBrl: 1000000, maxVolumeBrl: null, platformFeePercentage: 0.0025 },
];

export function getTiers(merchant: TestMerchant | Record<string, string>, query = '', ctx = shared): Promise<LightMyRequestResponse> {
  const headers = 'headers' in merchant ? (merchant as TestMerchant).headers : (merchant as Record<string, string>);
  return ctx.app.inject({ method: 'GET', url: `${API}/fee-tiers${query}`, headers });
}

export function putTiers(merchant: TestMerchant, orderType: string, body: unknown, ctx = shared): Promise<LightMyRequestResponse> {
  return ctx.app.inject({ method: 'PUT', url: `${API}/fee-tiers/${orderType}`, headers: merchant.headers, payload: body as object });
}

export async function tiersOf(merchant: TestMerchant, orderType?: OrderType, ctx = shared): Promise<Tier[]> {
  const response = await getTiers(merchant, orderType ? `?orderType=${orderType}` : '', ctx);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

export async function replace(merchant: TestMerchant, orderType: OrderType, body: TierInput[], ctx = shared): Promise<ReplacedTier[]> {
  const response = await putTiers(merchant, orderType, body, ctx);
  expect(response.statusCode, response.body).toBe(200);
  const answer = response.json() as { success: boolean; tiers: ReplacedTier[] };
  expect(answer.success).toBe(true);
  return answer.tiers;
}

export const bandsOf = (tiers: Array<Pick<Tier, 'minVolumeBrl' | 'maxVolumeBrl' | 'merchantFeePercentage'>>): TierInput[] =>
  tiers.map(({ minVolumeBrl, maxVolumeBrl, merchantFeePercentage }) => ({ minVolumeBrl, maxVolumeBrl, merchantFeePercentage }));

/** The test context of the current test file (one per file, see useSharedContext). */
export let shared: TestContext;

/** Opens a test context for the calling test file before its tests and closes it after them. */
export function useSharedContext(): void {
  beforeAll(async () => {
    shared = await createTestContext();
  });
  afterAll(async () => {
    await shared?.close();
  });
}

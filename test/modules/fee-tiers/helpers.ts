/**
 * Fee tiers over HTTP, for their tests: GET /fee-tiers and PUT /fee-tiers/{orderType} as a
 * merchant, the operators' platform schedule under /admin/platform-fee-tiers, and the schedule
 * the migration seeds. Percentages are fractions (0.005 = 0.5 %).
 */
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { TestContext, TestMerchant } from '../../helpers/app.ts';
import { adminHeaders } from '../../helpers/factories.ts';

export const API = '/api/v1';
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export { adminHeaders };

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

export const bandsOf = (tiers: Array<Pick<Tier, 'minVolumeBrl' | 'maxVolumeBrl' | 'merchantFeePercentage'>>): TierInput[] =>
  tiers.map(({ minVolumeBrl, maxVolumeBrl, merchantFeePercentage }) => ({ minVolumeBrl, maxVolumeBrl, merchantFeePercentage }));

/** The fee-tier calls over the context `getCtx` answers (created in the file's beforeAll or beforeEach). */
export function feeTiersFixture(getCtx: () => TestContext) {
  function getTiers(merchant: TestMerchant | Record<string, string>, query = ''): Promise<LightMyRequestResponse> {
    const headers = 'headers' in merchant ? (merchant as TestMerchant).headers : (merchant as Record<string, string>);
    return getCtx().app.inject({ method: 'GET', url: `${API}/fee-tiers${query}`, headers });
  }

  function putTiers(merchant: TestMerchant, orderType: string, body: unknown): Promise<LightMyRequestResponse> {
    return getCtx().app.inject({ method: 'PUT', url: `${API}/fee-tiers/${orderType}`, headers: merchant.headers, payload: body as object });
  }

  async function tiersOf(merchant: TestMerchant, orderType?: OrderType): Promise<Tier[]> {
    const response = await getTiers(merchant, orderType ? `?orderType=${orderType}` : '');
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  }

  async function replace(merchant: TestMerchant, orderType: OrderType, body: TierInput[]): Promise<ReplacedTier[]> {
    const response = await putTiers(merchant, orderType, body);
    expect(response.statusCode, response.body).toBe(200);
    const answer = response.json() as { success: boolean; tiers: ReplacedTier[] };
    expect(answer.success).toBe(true);
    return answer.tiers;
  }

  /** An operator call under /api/v1/admin (the admin token unless `headers` say otherwise). */
  const admin = (method: 'GET' | 'PUT', url: string, payload?: unknown, headers: Record<string, string> = adminHeaders) =>
    getCtx().app.inject({ method, url: `${API}/admin${url}`, headers, ...(payload === undefined ? {} : { payload: payload as object }) });

  return { getTiers, putTiers, tiersOf, replace, admin };
}

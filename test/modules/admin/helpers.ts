/**
 * Shared setup and helpers of the admin tests. The operator API under /api/v1/admin: its guard (admin token only; merchants 403; absent
 * when ADMIN_TOKEN is unset), merchants and credentials management, and the audit trail each
 * action leaves in admin_audit_log.
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect } from 'vitest';
import type { App } from '../../../src/http/types.ts';
import { ADMIN_TOKEN, createTestContext, type TestContext, type TestMerchant } from '../../helpers/app.ts';

export const ADMIN = '/api/v1/admin';
export const MERCHANT_URL = '/api/v1/merchant';
export const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const API_KEY = /^mk_[0-9a-f]{32}$/;
export const API_SECRET = /^sk_[A-Za-z0-9_-]{43}$/;
/** A well-formed id that names nothing, for routes the guard must refuse before any lookup. */
export const SOME_ID = '00000000-0000-4000-8000-000000000001';
export const adminHeaders = { authorization: `Bearer ${ADMIN_TOKEN}` };

export interface MerchantBody {
  id: string;
  name: string;
  status: 'ACTIVE' | 'DISABLED';
  createdAt: string;
}
export interface CredentialBody {
  id: string;
  apiKey: string;
  createdAt: string;
  revokedAt: string | null;
}
export interface IssuedCredentialBody extends CredentialBody {
  apiSecret: string;
}

export let ctx: TestContext;
/** Every secret this file saw: none may ever appear in the audit log. */
export const issuedSecrets: string[] = [];


export function admin(method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown, app: App = ctx.app): Promise<LightMyRequestResponse> {
  return app.inject({
    method,
    url: `${ADMIN}${url}`,
    headers: adminHeaders,
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });
}

export function getMerchant(headers: Record<string, string>): Promise<LightMyRequestResponse> {
  return ctx.app.inject({ method: 'GET', url: MERCHANT_URL, headers });
}

export const keyHeaders = (credential: { apiKey: string; apiSecret: string }) => ({ 'x-api-key': credential.apiKey, 'x-api-secret': credential.apiSecret });

export async function createViaApi(name: string): Promise<{ merchant: MerchantBody; credential: IssuedCredentialBody; response: LightMyRequestResponse }> {
  const response = await admin('POST', '/merchants', { name });
  expect(response.statusCode).toBe(201);
  const body = response.json() as { merchant: MerchantBody; credential: IssuedCredentialBody };
  issuedSecrets.push(body.credential.apiSecret);
  return { ...body, response };
}

export async function createViaService(name: string): Promise<TestMerchant> {
  const merchant = await ctx.createMerchant(name);
  issuedSecrets.push(merchant.apiSecret);
  return merchant;
}

export function auditRows() {
  return ctx.database.db.selectFrom('admin_audit_log').selectAll().orderBy('created_at').orderBy('id').execute();
}

/** The one audit row of this action on this target, checked against the response that caused it. */
export async function expectAudit(action: string, targetType: string, targetId: string, response: LightMyRequestResponse, details: Record<string, unknown>) {
  const rows = (await auditRows()).filter((row) => row.action === action && row.target_id === targetId);
  expect(rows).toHaveLength(1);
  const row = rows[0]!;
  expect(row.target_type).toBe(targetType);
  expect(row.actor.startsWith('admin-api')).toBe(true);
  expect(row.actor).toBe('admin-api@127.0.0.1');
  expect(typeof response.headers['x-request-id']).toBe('string');
  expect(row.request_id).toBe(response.headers['x-request-id']);
  expect(row.details).toEqual(details);
  expect(row.created_at).toBeInstanceOf(Date);
  return row;
}

/** Opens the test context before the calling file's tests and closes it after them. */
export function useAdminContext(): void {
  beforeAll(async () => {
    ctx = await createTestContext();
  });

  afterAll(async () => {
    await ctx?.close();
  });
}

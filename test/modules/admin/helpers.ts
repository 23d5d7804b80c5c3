/**
 * The operator API under /api/v1/admin, for its tests: calls with the admin token, merchants
 * created through it or through the service, and the audit trail each action leaves in
 * admin_audit_log. `adminFixture` binds these to a file's context and records every secret the
 * file saw (none may ever appear in the audit log).
 */
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { App } from '../../../src/http/types.ts';
import type { TestContext, TestMerchant } from '../../helpers/app.ts';
import { adminHeaders } from '../../helpers/factories.ts';

export const ADMIN = '/api/v1/admin';
export const MERCHANT_URL = '/api/v1/merchant';
export const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const API_KEY = /^mk_[0-9a-f]{32}$/;
export const API_SECRET = /^sk_[A-Za-z0-9_-]{43}$/;
/** A well-formed id that names nothing, for routes the guard must refuse before any lookup. */
export const SOME_ID = '00000000-0000-4000-8000-000000000001';
export { adminHeaders };

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

export const keyHeaders = (credential: { apiKey: string; apiSecret: string }) => ({ 'x-api-key': credential.apiKey, 'x-api-secret': credential.apiSecret });

/** The admin helpers over the context `getCtx` answers (created in the file's beforeAll). */
export function adminFixture(getCtx: () => TestContext) {
  /** Every secret this file saw: none may ever appear in the audit log. */
  const issuedSecrets: string[] = [];

  function admin(method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown, app: App = getCtx().app): Promise<LightMyRequestResponse> {
    return app.inject({
      method,
      url: `${ADMIN}${url}`,
      headers: adminHeaders,
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });
  }

  function getMerchant(headers: Record<string, string>): Promise<LightMyRequestResponse> {
    return getCtx().app.inject({ method: 'GET', url: MERCHANT_URL, headers });
  }

  /** POST /admin/merchants: a merchant and its first credential, created by the operator API. */
  async function createViaApi(name: string): Promise<{ merchant: MerchantBody; credential: IssuedCredentialBody; response: LightMyRequestResponse }> {
    const response = await admin('POST', '/merchants', { name });
    expect(response.statusCode).toBe(201);
    const body = response.json() as { merchant: MerchantBody; credential: IssuedCredentialBody };
    issuedSecrets.push(body.credential.apiSecret);
    return { ...body, response };
  }

  async function createViaService(name: string): Promise<TestMerchant> {
    const merchant = await getCtx().createMerchant(name);
    issuedSecrets.push(merchant.apiSecret);
    return merchant;
  }

  /** The audited actions (not the `admin_token.use` entry every admin-token request also leaves). */
  function auditRows() {
    return getCtx().database.db.selectFrom('admin_audit_log').selectAll().where('action', '!=', 'admin_token.use').orderBy('created_at').orderBy('id').execute();
  }

  /** The one audit row of this action on this target, checked against the response that caused it. */
  async function expectAudit(action: string, targetType: string, targetId: string, response: LightMyRequestResponse, details: Record<string, unknown>) {
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

  return { issuedSecrets, admin, getMerchant, createViaApi, createViaService, auditRows, expectAudit };
}

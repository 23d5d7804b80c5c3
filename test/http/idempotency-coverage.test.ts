/**
 * Every state-changing operation (POST, PUT, PATCH, DELETE) of the API accepts Idempotency-Key
 * and documents it as a header parameter (issue 14). The one exemption changes no state.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, createTestContext } from '../helpers/app.ts';

/** Operations that change nothing, so a key has nothing to protect. */
const EXEMPT: Record<string, string> = {
  'POST /auth/token': 'issues a signed token from the credential; stores nothing',
  'POST /auth/password-resets': 'public: always 202; a replay sends at most one more email, and one per account per minute is the cap',
  'POST /auth/password-resets/{token}': 'public: the single-use token is the guard; a replay is 410 LINK_INVALID',
  'POST /auth/invitations/{token}': 'public: the single-use token is the guard; a replay is 410 LINK_INVALID',
  'POST /auth/sessions': 'sign-in: each call must make a new session (a replay would hand out a stored session id); the password is the guard',
  'POST /admin/auth/sessions': "an operator's sign-in: the same reason as POST /auth/sessions",
  'POST /admin/auth/invitations/{token}': "public: an operator's invitation; the single-use token is the guard, a replay is 410 LINK_INVALID",
};

interface Operation {
  parameters?: Array<{ in: string; name: string; required?: boolean }>;
  responses: Record<string, unknown>;
}

describe('Idempotency-Key on every state-changing operation', () => {
  let ctx: TestContext;
  let operations: Array<{ name: string; operation: Operation }>;

  beforeAll(async () => {
    ctx = await createTestContext();
    const doc = ctx.app.swagger() as unknown as { paths: Record<string, Record<string, Operation>> };
    operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods)
        .filter(([method]) => ['post', 'put', 'patch', 'delete'].includes(method))
        .map(([method, operation]) => ({ name: `${method.toUpperCase()} ${path}`, operation })),
    );
  });
  afterAll(() => ctx.close());

  it('the document has the writes of every module, sandbox and admin included', () => {
    const names = operations.map((o) => o.name);
    // Paths are relative to the document's server, /api/v1.
    for (const expected of ['POST /payin', 'POST /receivers', 'PUT /receivers/{id}/limits', 'DELETE /webhook/endpoints/{id}', 'POST /admin/merchants']) {
      expect(names).toContain(expected);
    }
    expect(names.length).toBeGreaterThan(30);
  });

  it('each one declares the optional idempotency-key header and its 409, or is exempt for a reason', () => {
    const missing = operations
      .filter(({ name }) => !(name in EXEMPT))
      .filter(({ operation }) => {
        const header = operation.parameters?.find((p) => p.in === 'header' && p.name === 'idempotency-key');
        return header === undefined || header.required === true || !('409' in operation.responses);
      })
      .map(({ name }) => name);
    expect(missing).toEqual([]);
    for (const name of Object.keys(EXEMPT)) expect(operations.map((o) => o.name)).toContain(name);
  });
});

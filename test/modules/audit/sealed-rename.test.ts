/**
 * The audit log's rename entries (issue 38, docs/decisions/0026): renaming an APPROVED receiver
 * records both names, sealed in the entry's details (src/platform/audit/sealed-details.ts); every
 * reader of the log opens them; an entry written clear (before migration 0057, or by hand) is
 * sealed by the pass at start; the log stays append-only for everything else.
 */
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { newId } from '../../../src/lib/ids.ts';
import { RENAME_ACTION } from '../../../src/platform/audit/sealed-details.ts';
import { randomCpf } from '../../helpers/documents.ts';
import { adminHeaders } from '../../helpers/factories.ts';
import { type Json, ordersTest } from '../orders/helpers.ts';

describe('a receiver’s names in the audit log', () => {
  const t = ordersTest();
  const db = () => t.ctx.database.db;
  const admin = (url: string) => t.ctx.app.inject({ method: 'GET', url: `/api/v1/admin${url}`, headers: adminHeaders });
  const renameEntries = (targetId: string) =>
    db().selectFrom('admin_audit_log').select(['id', 'details']).where('action', '=', RENAME_ACTION).where('target_id', '=', targetId).execute();
  const secretName = (label: string) => `${label} Sigilosa ${randomCpf().slice(0, 6)}`;

  it('a rename seals both names in its entry; the log, the KYC file’s history and the export show them', async () => {
    const merchant = await t.merchant();
    const before = secretName('Maria');
    const after = secretName('Mariana');
    const receiver = await t.activeReceiver(merchant, { name: before });
    const renamed = await t.call('PATCH', `/receivers/${receiver.id}`, merchant, { name: after });
    expect(renamed.json().kycStatus).toBe('UNDER_REVIEW');

    const [entry] = await renameEntries(receiver.id);
    const raw = JSON.stringify(entry?.details);
    expect(raw).not.toContain(before);
    expect(raw).not.toContain(after);
    expect(entry?.details).toMatchObject({ previousName: expect.stringMatching(/^pd1:v1:/), name: expect.stringMatching(/^pd1:v1:/), from: 'APPROVED', to: 'UNDER_REVIEW' });

    const shown = { previousName: before, name: after, from: 'APPROVED', to: 'UNDER_REVIEW' };
    const listed = await admin(`/audit-log?action=${RENAME_ACTION}&targetId=${receiver.id}`);
    expect(listed.json().data).toEqual([expect.objectContaining({ details: expect.objectContaining(shown) })]);
    const file = await admin(`/receivers/${receiver.id}/kyc`);
    expect(file.json().history).toContainEqual(expect.objectContaining({ action: RENAME_ACTION, details: expect.objectContaining(shown) }));
    const exported = await admin(`/audit-log/export?action=${RENAME_ACTION}&targetId=${receiver.id}`);
    expect(exported.statusCode, exported.body).toBe(200);
    expect(exported.body).toContain(after);
    expect(exported.body).toContain(before);
  });

  it('an entry written with clear names is sealed by the next start and still reads the same', async () => {
    const merchant = await t.merchant();
    const receiver = await t.activeReceiver(merchant);
    const before = secretName('Ana');
    const after = secretName('Ana Paula');
    await db()
      .insertInto('admin_audit_log')
      .values({ id: newId(), actor: `merchant:${merchant.merchantId}`, action: RENAME_ACTION, target_type: 'receiver', target_id: receiver.id, details: JSON.stringify({ merchantId: merchant.merchantId, from: 'APPROVED', to: 'UNDER_REVIEW', previousName: before, name: after }) })
      .execute();
    expect((await sql<{ kek_version: number | null }>`select kek_version from personal_data_sealing`.execute(db())).rows[0]?.kek_version).toBeNull();

    const restarted = await t.ctx.buildApp();
    expect(restarted.services.personalDataAtStart.sealed.auditLog).toBe(1);
    const [entry] = await renameEntries(receiver.id);
    expect(JSON.stringify(entry?.details)).not.toContain(before);
    expect(entry?.details).toMatchObject({ previousName: expect.stringMatching(/^pd1:v1:/), name: expect.stringMatching(/^pd1:v1:/) });
    const listed = await restarted.inject({ method: 'GET', url: `/api/v1/admin/audit-log?targetId=${receiver.id}&action=${RENAME_ACTION}`, headers: adminHeaders });
    expect(listed.json().data[0].details).toMatchObject({ previousName: before, name: after });
  });

  it('the log refuses any change but the pass’s: details outside it, another column within it', async () => {
    const merchant = await t.merchant();
    const receiver = await t.activeReceiver(merchant);
    await t.call('PATCH', `/receivers/${receiver.id}`, merchant, { name: secretName('Clara') });
    const [entry] = await renameEntries(receiver.id);
    const id = entry!.id;
    await expect(sql`update admin_audit_log set details = '{}'::jsonb where id = ${id}`.execute(db())).rejects.toThrow(/append-only/);
    await expect(
      db()
        .transaction()
        .execute(async (trx) => {
          await sql`select set_config('app.personal_data_reseal', 'on', true)`.execute(trx);
          await sql`update admin_audit_log set actor = 'someone-else' where id = ${id}`.execute(trx);
        }),
    ).rejects.toThrow(/append-only/);
    expect(((await renameEntries(receiver.id))[0]?.details as Json).previousName).toMatch(/^pd1:v1:/);
  });
});

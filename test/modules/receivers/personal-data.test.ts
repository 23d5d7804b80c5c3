/**
 * Personal data at rest (issue 38, docs/decisions/0026-personal-data-sealed-at-rest.md): the raw
 * tables hold no receiver's CPF, name, email, phone or address, nor a KYC submission's mother's name, nor
 * the register's copies of them; the API answers as before; a document is still found (the
 * per-merchant uniqueness conflict with the existing id); a row from before migration 0046 is
 * sealed by the pass that runs at start; a KEK rotation re-seals every row, and a rerun finds
 * nothing left. The outbox's events hold the receiver's name and email and a PAYOUT's PIX key sealed
 * (src/platform/event-payload-sealing.ts), re-sealed by the rotation too. The stored idempotent answers (sealed whole under WEBHOOK_SECRET_KEY's key for
 * them, src/platform/idempotency/store.ts) hold none of it in clear either.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createKeyCustody, keyVaultSettings } from '../../../src/key-custody.ts';
import { createPersonalData } from '../../../src/lib/personal-data.ts';
import { openEventPayload } from '../../../src/platform/event-payload-sealing.ts';
import { resealPersonalData } from '../../../src/platform/personal-data-rotation.ts';
import { randomCpf } from '../../helpers/documents.ts';
import { adminHeaders } from '../../helpers/factories.ts';
import { type Json, WALLET, ordersTest } from '../orders/helpers.ts';

const RAW_TABLES = ['receivers', 'receiver_kyc_submissions', 'operations_register', 'orders', 'events', 'admin_audit_log'] as const;

describe('personal data at rest', () => {
  const t = ordersTest();
  const db = () => t.ctx.database.db;
  /** Every row of the tables holding personal data, as text. */
  const rawText = async () => {
    const parts: string[] = [];
    for (const table of RAW_TABLES) parts.push(JSON.stringify((await sql`select * from ${sql.table(table)}`.execute(db())).rows));
    return parts.join('\n');
  };
  const secrets = () => ({ cpf: randomCpf(), name: `Maria Sigilo ${randomCpf().slice(0, 6)}`, email: `maria.${randomCpf()}@example.com`, phone: '+5511987654321' });
  /** Every part of an address, each a value found nowhere else in the tables. */
  const address = () => {
    const tag = randomCpf().slice(0, 6);
    return { addressStreet: `Rua Escondida ${tag}`, addressNumber: `N${tag}`, addressComplement: `Apto ${tag}`, addressNeighborhood: `Bairro ${tag}`, addressCity: `Cidade ${tag}`, addressState: 'SP', addressZipCode: `0${tag.slice(0, 4)}-${tag.slice(3, 6)}` };
  };
  const ADDRESS_COLUMNS = ['address_street', 'address_number', 'address_complement', 'address_neighborhood', 'address_city', 'address_state', 'address_zip_code'] as const;

  it('no CPF, name, email, phone, address or mother’s name in clear in the raw tables, and the API answers them as before', async () => {
    const person = secrets();
    const home = address();
    const merchant = await t.merchant();
    const created = await t.call('POST', '/receivers', merchant, { type: 'PF', document: person.cpf, name: person.name, email: person.email, phone: person.phone, ...home, walletAddress: WALLET });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id;
    const kyc = await t.call('POST', `/receivers/${id}/kyc`, merchant, { birthDate: '1990-05-17', motherName: 'Ana Secreta Mãe', documents: [{ type: 'ID_FRONT', reference: 's3://kyc/front.jpg' }] });
    expect(kyc.statusCode, kyc.body).toBe(200);
    await t.call('POST', `/sandbox/receivers/${id}/kyc`, merchant, { decision: 'APPROVE' });
    // A PAYIN paid and sent: the register copies the receiver (client, originator, beneficiary).
    const payin = await t.payin(merchant, { receiverId: id, amountBrl: 11 });
    await t.call('POST', `/sandbox/orders/${payin.id}/pix-payment`, merchant, {});
    await t.drive();
    expect(await db().selectFrom('operations_register').select('movement').where('order_id', '=', payin.id).execute()).not.toHaveLength(0);
    // The sealing pass runs too (it finds nothing of this order left clear: all is sealed on write).
    await resealPersonalData(db(), t.ctx.app.services.personalData, createKeyCustody({ config: t.ctx.config, db: db(), clock: t.clock }).personalDataTables);

    const raw = await rawText();
    for (const value of [person.cpf, person.name, person.email, person.phone, 'Ana Secreta Mãe', ...Object.values(home).filter((part) => part !== 'SP')]) expect(raw).not.toContain(value);
    const row = await db().selectFrom('receivers').select(['document', 'name', 'email', 'phone', 'document_hash', ...ADDRESS_COLUMNS]).where('id', '=', id).executeTakeFirstOrThrow();
    for (const value of [row.document, row.name, row.email, row.phone, ...ADDRESS_COLUMNS.map((column) => row[column])]) expect(value).toMatch(/^pd1:v1:/);
    expect(row.document_hash).toMatch(/^1:[0-9a-f]{64}$/);

    const shown = await t.call('GET', `/receivers/${id}`, merchant);
    expect(shown.json()).toMatchObject({ document: person.cpf, name: person.name, email: person.email, phone: person.phone, ...home });
    const listed = await t.call('GET', '/receivers', merchant);
    expect(listed.json().data).toEqual([expect.objectContaining({ id, document: person.cpf, name: person.name, ...home })]);
    // A change of one part is sealed too, and the others stay as they were.
    const moved = await t.call('PATCH', `/receivers/${id}`, merchant, { addressCity: 'Outra Cidade Secreta' });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()).toMatchObject({ ...home, addressCity: 'Outra Cidade Secreta' });
    expect(await rawText()).not.toContain('Outra Cidade Secreta');
    const file = await t.ctx.app.inject({ method: 'GET', url: `/api/v1/admin/receivers/${id}/kyc`, headers: adminHeaders });
    expect(file.json()).toMatchObject({ receiver: { document: person.cpf, name: person.name, email: person.email, addressStreet: home.addressStreet }, submissions: [{ motherName: 'Ana Secreta Mãe' }] });
    const order = await t.call('GET', `/orders/${payin.id}`, merchant);
    expect(order.json().receiverName ?? order.json().receiver?.name).toBe(person.name);
    const report = await t.ctx.app.inject({ method: 'GET', url: '/api/v1/admin/reports/operations?month=2026-11&format=jsonl', headers: adminHeaders });
    const entries = report.body.trim().split('\n').map((line) => JSON.parse(line) as Json).filter((entry) => entry.orderId === payin.id);
    expect(entries.length).toBeGreaterThan(0);
    for (const entry of entries) expect(entry).toMatchObject({ clientDocument: person.cpf, clientName: person.name });
  });

  it('the PSP-reported payer of a PAYIN is sealed in the order and in the register as they are written; the admin detail and the report show it', async () => {
    const payer = secrets();
    const { merchant, receiver } = await t.merchantWithReceiver();
    const payin = await t.payin(merchant, { receiverId: receiver.id, amountBrl: 12 });
    const paid = await t.call('POST', `/sandbox/orders/${payin.id}/pix-payment`, merchant, { payer: { document: payer.cpf, name: payer.name } });
    expect(paid.statusCode, paid.body).toBe(200);
    await t.drive();
    // No sealing pass has run since: what was written is already sealed.
    const raw = await rawText();
    for (const value of [payer.cpf, payer.name]) expect(raw).not.toContain(value);
    const row = await db().selectFrom('orders').select(['payer_document', 'payer_name']).where('id', '=', payin.id).executeTakeFirstOrThrow();
    for (const value of [row.payer_document, row.payer_name]) expect(value).toMatch(/^pd1:v1:/);

    const detail = await t.ctx.app.inject({ method: 'GET', url: `/api/v1/admin/orders/${payin.id}`, headers: adminHeaders });
    expect(detail.json().payer).toEqual({ documentType: 'CPF', document: payer.cpf, name: payer.name });
    const report = await t.ctx.app.inject({ method: 'GET', url: '/api/v1/admin/reports/operations?month=2026-11&format=jsonl', headers: adminHeaders });
    const entries = report.body.trim().split('\n').map((line) => JSON.parse(line) as Json).filter((entry) => entry.orderId === payin.id);
    expect(entries.find((entry) => entry.movement === 'PIX_IN')).toMatchObject({ originatorDocument: payer.cpf, originatorName: payer.name });
  });

  it('a PAYOUT’s PIX key and recipient name are sealed in the order and the register; the API, the PIX sent, the events and the report show them', async () => {
    const { merchant, receiver } = await t.merchantWithReceiver();
    const recipient = `Destinatária Sigilosa ${randomCpf().slice(0, 6)}`;
    const created = await t.call('POST', '/payout', merchant, { receiverId: receiver.id, amountCrypto: 2, sourceToken: 'USDC', pixKey: receiver.document, pixKeyType: 'CPF', recipientName: recipient });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({ pixKey: receiver.document, recipientName: recipient });
    const id = created.json().id as string;
    await t.call('POST', `/sandbox/orders/${id}/deposit`, merchant, {});
    await t.drive();
    expect((await t.call('GET', `/orders/${id}`, merchant)).json()).toMatchObject({ status: 'COMPLETED', pixKey: receiver.document, recipientName: recipient });
    // No sealing pass has run since: the order's and the register's copies were sealed as written.
    const raw = await rawText();
    for (const value of [receiver.document, recipient]) expect(raw).not.toContain(value);
    const row = await db().selectFrom('orders').select(['pix_key', 'recipient_name']).where('id', '=', id).executeTakeFirstOrThrow();
    for (const value of [row.pix_key, row.recipient_name]) expect(value).toMatch(/^pd1:v1:/);

    const listed = await t.call('GET', '/orders', merchant);
    expect(listed.json().data).toEqual([expect.objectContaining({ id, pixKey: receiver.document, recipientName: recipient })]);
    const sent = await db().selectFrom('sandbox_pix_payouts').select(['pix_key', 'recipient_name']).execute();
    expect(sent).toContainEqual({ pix_key: receiver.document, recipient_name: recipient });
    const named = (await t.events(id)).filter((event) => 'pixKey' in event.payload);
    expect(named.length).toBeGreaterThan(0);
    for (const event of named) expect(event.payload.pixKey).toBe(receiver.document);
    const report = await t.ctx.app.inject({ method: 'GET', url: '/api/v1/admin/reports/operations?month=2026-11&format=jsonl', headers: adminHeaders });
    const entries = report.body.trim().split('\n').map((line) => JSON.parse(line) as Json).filter((entry) => entry.orderId === id);
    expect(entries.find((entry) => entry.movement === 'PIX_OUT')).toMatchObject({ beneficiaryAccount: receiver.document, beneficiaryName: recipient });
  });

  it('the stored idempotent answers hold no receiver’s data, address, PIX key or recipient name in clear; a replay answers the first body', async () => {
    const person = secrets();
    const home = address();
    const merchant = await t.merchant();
    const tag = randomUUID();
    const keyed = (key: string) => ({ 'idempotency-key': `${key}-${tag}` });
    const receiverBody = { type: 'PF', document: person.cpf, name: person.name, email: person.email, phone: person.phone, ...home, walletAddress: WALLET };
    const created = await t.call('POST', '/receivers', merchant, receiverBody, keyed('receiver'));
    expect(created.statusCode, created.body).toBe(201);
    await t.call('POST', `/sandbox/receivers/${created.json().id}/kyc`, merchant, { decision: 'APPROVE' });
    const recipient = `Destinatária Guardada ${randomCpf().slice(0, 6)}`;
    const payoutBody = { receiverId: created.json().id, amountCrypto: 2, sourceToken: 'USDC', pixKey: person.cpf, pixKeyType: 'CPF', recipientName: recipient };
    const payout = await t.call('POST', '/payout', merchant, payoutBody, keyed('payout'));
    expect(payout.statusCode, payout.body).toBe(201);
    expect(payout.json()).toMatchObject({ pixKey: person.cpf, recipientName: recipient });

    const stored = JSON.stringify((await sql`select * from idempotency_keys where merchant_id = ${merchant.merchantId}`.execute(db())).rows);
    expect(stored).toContain(`payout-${tag}`);
    for (const value of [person.cpf, person.name, person.email, person.phone, recipient, ...Object.values(home).filter((part) => part !== 'SP')]) expect(stored).not.toContain(value);

    const again = await t.call('POST', '/receivers', merchant, receiverBody, keyed('receiver'));
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toBe(created.body);
    const payoutAgain = await t.call('POST', '/payout', merchant, payoutBody, keyed('payout'));
    expect(payoutAgain.headers['idempotent-replayed']).toBe('true');
    expect(payoutAgain.body).toBe(payout.body);
  });

  it('a document is still found: the same document again under one merchant is 409 with the existing id, under another merchant a new receiver', async () => {
    const person = secrets();
    const [a, b] = [await t.merchant(), await t.merchant()];
    const first = await t.call('POST', '/receivers', a, { type: 'PF', document: person.cpf, name: person.name, email: person.email });
    expect(first.statusCode).toBe(201);
    // Formatted differently: the blind index is of the normalised document.
    const formatted = `${person.cpf.slice(0, 3)}.${person.cpf.slice(3, 6)}.${person.cpf.slice(6, 9)}-${person.cpf.slice(9)}`;
    const again = await t.call('POST', '/receivers', a, { type: 'PF', document: formatted, name: 'Outro Nome', email: 'outro@example.com' });
    expect(again.statusCode, again.body).toBe(409);
    expect(again.json()).toMatchObject({ error: 'CONFLICT', details: { existingReceiverId: first.json().id } });
    const elsewhere = await t.call('POST', '/receivers', b, { type: 'PF', document: person.cpf, name: person.name, email: person.email });
    expect(elsewhere.statusCode).toBe(201);
  });

  it('the KYC queue finds a receiver by its exact document across merchants, formatted or bare, by the keyed hash', async () => {
    const person = secrets();
    const [a, b] = [await t.merchant(), await t.merchant()];
    const ids: string[] = [];
    for (const merchant of [a, b]) {
      const created = await t.call('POST', '/receivers', merchant, { type: 'PF', document: person.cpf, name: person.name, email: person.email });
      ids.push(created.json().id);
    }
    await t.call('POST', '/receivers', a, { type: 'PF', document: randomCpf(), name: 'Outra Pessoa', email: 'outra@example.com' });
    const search = (query: string) => t.ctx.app.inject({ method: 'GET', url: `/api/v1/admin/receivers?${query}`, headers: adminHeaders });
    const formatted = `${person.cpf.slice(0, 3)}.${person.cpf.slice(3, 6)}.${person.cpf.slice(6, 9)}-${person.cpf.slice(9)}`;
    for (const document of [person.cpf, formatted]) {
      const found = await search(`document=${encodeURIComponent(document)}`);
      expect(found.statusCode, found.body).toBe(200);
      expect(found.json().data.map((item: Json) => item.receiver.id).sort()).toEqual([...ids].sort());
      expect(found.json().data[0].receiver).toMatchObject({ document: person.cpf, name: person.name });
    }
    expect((await search(`document=${person.cpf}&merchantId=${b.merchantId}`)).json().data.map((item: Json) => item.receiver.id)).toEqual([ids[1]]);
    expect((await search(`document=${person.cpf}&kycStatus=APPROVED`)).json().data).toEqual([]);
  });

  it('a row from before (clear, no hash, a clear address) is sealed by the pass at start, and found by its document after', async () => {
    const person = secrets();
    const home = address();
    const merchant = await t.merchant();
    const created = (await t.call('POST', '/receivers', merchant, { type: 'PF', document: person.cpf, name: person.name, email: person.email })).json();
    const clearAddress = { address_street: home.addressStreet, address_number: home.addressNumber, address_complement: home.addressComplement, address_neighborhood: home.addressNeighborhood, address_city: home.addressCity, address_state: home.addressState, address_zip_code: home.addressZipCode };
    await db().updateTable('receivers').set({ document: person.cpf, name: person.name, email: person.email, document_hash: null, ...clearAddress }).where('id', '=', created.id).execute();
    expect((await t.call('GET', `/receivers/${created.id}`, merchant)).json()).toMatchObject({ document: person.cpf, name: person.name, ...home });

    const restarted = await t.ctx.buildApp();
    const row = await db().selectFrom('receivers').select(['document', 'name', 'email', 'document_hash', ...ADDRESS_COLUMNS]).where('id', '=', created.id).executeTakeFirstOrThrow();
    expect(row.document).toMatch(/^pd1:/);
    expect(row.document_hash).toMatch(/^1:/);
    for (const column of ADDRESS_COLUMNS) expect(row[column]).toMatch(/^pd1:v1:/);
    expect((await restarted.inject({ method: 'GET', url: `/api/v1/receivers/${created.id}`, headers: merchant.headers })).json()).toMatchObject(home);
    const again = await restarted.inject({ method: 'POST', url: '/api/v1/receivers', headers: merchant.headers, payload: { type: 'PF', document: person.cpf, name: 'Outra Pessoa', email: 'outra@example.com' } });
    expect(again.statusCode).toBe(409);
    expect(again.json().details.existingReceiverId).toBe(created.id);
  });

  it('an order from before (payer and PIX key in clear) answers as before and is sealed by the pass at start', async () => {
    const { merchant, receiver } = await t.merchantWithReceiver();
    const created = (await t.call('POST', '/payout', merchant, { receiverId: receiver.id, amountCrypto: 2, sourceToken: 'USDC', recipientName: 'Nome Antigo' })).json();
    await db().updateTable('orders').set({ pix_key: receiver.document, recipient_name: 'Nome Antigo', payer_name: 'Pagador Antigo', payer_document: receiver.document }).where('id', '=', created.id).execute();
    expect((await t.call('GET', `/orders/${created.id}`, merchant)).json()).toMatchObject({ pixKey: receiver.document, recipientName: 'Nome Antigo' });

    const restarted = await t.ctx.buildApp();
    const row = await db().selectFrom('orders').select(['pix_key', 'recipient_name', 'payer_name', 'payer_document']).where('id', '=', created.id).executeTakeFirstOrThrow();
    for (const value of Object.values(row)) expect(value).toMatch(/^pd1:v1:/);
    const shown = await restarted.inject({ method: 'GET', url: `/api/v1/orders/${created.id}`, headers: merchant.headers });
    expect(shown.json()).toMatchObject({ pixKey: receiver.document, recipientName: 'Nome Antigo' });
  });

  it('a KEK rotation re-seals every row under the new version, a rerun finds nothing, and everything still opens and is found', async () => {
    const person = secrets();
    const merchant = await t.merchant();
    const home = address();
    const created = (await t.call('POST', '/receivers', merchant, { type: 'PF', document: person.cpf, name: person.name, email: person.email, phone: person.phone, ...home })).json();
    // Its KYC decision: an event naming it (name, email), sealed under version 1.
    expect((await t.call('POST', `/sandbox/receivers/${created.id}/kyc`, merchant, { decision: 'APPROVE' })).statusCode).toBe(200);
    const oldKek = t.ctx.config.walletKek;
    const newKek = Buffer.alloc(32, 7).toString('base64');
    const rotated = { ...t.ctx.config, walletKek: newKek, walletKekVersion: 2, walletKekPrevious: { 1: oldKek } };
    const custody = createKeyCustody({ config: rotated, db: db(), clock: t.clock });

    const stale = await db().selectFrom('receivers').select('id').where('document', 'not like', 'pd2:%').execute();
    expect(stale.length).toBeGreaterThan(0);
    const counts = await resealPersonalData(db(), custody.personalData, custody.personalDataTables);
    expect(counts.receivers).toBe(stale.length);
    const left = await db().selectFrom('receivers').select('id').where((eb) => eb.or([eb('document', 'not like', 'pd2:%'), eb('name', 'not like', 'pd2:%'), eb('email', 'not like', 'pd2:%'), eb('document_hash', 'not like', '2:%'), ...ADDRESS_COLUMNS.map((column) => eb(column, 'not like', 'pd2:%'))])).execute();
    expect(left).toEqual([]);
    expect(await db().selectFrom('orders').select('id').where((eb) => eb.or([eb('pix_key', 'not like', 'pd2:%'), eb('recipient_name', 'not like', 'pd2:%'), eb('payer_document', 'not like', 'pd2:%')])).execute()).toEqual([]);
    // The events' personal values, key by key inside the payload.
    const staleEvents = sql`select id from events where ${sql.join(['pixKey', 'name', 'email'].map((key) => sql`(jsonb_typeof(payload -> ${key}) = 'string' and payload ->> ${key} not like 'pd2:%')`), sql` or `)}`;
    expect(counts.events).toBeGreaterThan(0);
    expect((await staleEvents.execute(db())).rows).toEqual([]);
    const kycEvent = await db().selectFrom('events').select('payload').where(sql<string>`payload ->> 'receiverId'`, '=', created.id).executeTakeFirstOrThrow();
    expect(kycEvent.payload.name).toMatch(/^pd2:v1:/);
    expect(openEventPayload(custody.personalData, kycEvent.payload)).toMatchObject({ receiverId: created.id, name: person.name, email: person.email, kycStatus: 'APPROVED' });
    expect(await resealPersonalData(db(), custody.personalData, custody.personalDataTables)).toEqual({ receivers: 0, kycSubmissions: 0, operationsRegister: 0, orders: 0, events: 0, auditLog: 0, settlementPixKeys: 0, payoutBatchItems: 0, standingAddresses: 0 });

    // A process on the new KEK reads and finds them; the old KEK alone no longer opens them.
    const app = await t.ctx.buildApp({ WALLET_KEK: newKek, WALLET_KEK_VERSION: '2', WALLET_KEK_PREVIOUS: `1:${oldKek}` });
    const shown = await app.inject({ method: 'GET', url: `/api/v1/receivers/${created.id}`, headers: merchant.headers });
    expect(shown.json()).toMatchObject({ document: person.cpf, name: person.name, email: person.email, phone: person.phone, ...home });
    const again = await app.inject({ method: 'POST', url: '/api/v1/receivers', headers: merchant.headers, payload: { type: 'PF', document: person.cpf, name: 'Outra Pessoa', email: 'outra@example.com' } });
    expect(again.json().details?.existingReceiverId).toBe(created.id);
    const sealed = await db().selectFrom('receivers').select('name').where('id', '=', created.id).executeTakeFirstOrThrow();
    expect(() => createPersonalData(keyVaultSettings(t.ctx.config)).open('name', sealed.name)).toThrow(/KEK version 2/);
  });
});

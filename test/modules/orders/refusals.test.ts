/**
 * A refused order leaves nothing at the provider: every refusal that can be known without racing
 * comes before the PIX charge (PAYIN) or the deposit address (PAYOUT) is made. Counted in the
 * sandbox PSP's and chain's own tables (src/adapters/pix/sandbox-repo.ts,
 * src/adapters/chain/sandbox-repo.ts) around the refused request.
 */
import { describe, expect, it } from 'vitest';
import type { TestMerchant } from '../../helpers/app.ts';
import { expectErrorBody } from '../../helpers/app.ts';
import { type Json, UUID, ordersTest } from './helpers.ts';

type OrderKind = 'PAYIN' | 'PAYOUT';

describe('a refused order leaves no charge or deposit address at the provider', () => {
  const t = ordersTest();

  const providerRows = async () => {
    const db = t.ctx.database.db;
    const count = (table: 'sandbox_pix_charges' | 'sandbox_chain_deposit_addresses') =>
      db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow().then((row) => Number(row.n));
    return { charges: await count('sandbox_pix_charges'), depositAddresses: await count('sandbox_chain_deposit_addresses') };
  };

  const path = (kind: OrderKind) => (kind === 'PAYIN' ? '/payin' : '/payout');
  /** 54 BRL, or 10 USDC (54 BRL at the sandbox rate of 5.40). */
  const orderBody = (kind: OrderKind, receiverId: string, extra: Json = {}): Json =>
    kind === 'PAYIN' ? { receiverId, amountBrl: 54, ...extra } : { receiverId, amountCrypto: 10, sourceToken: 'USDC', ...extra };
  const quoteFor = async (kind: OrderKind, who: TestMerchant, extra: Json = {}) => {
    const response = await t.call('POST', '/quotes', who, kind === 'PAYIN' ? { type: 'PAYIN', amountBrl: 54, ...extra } : { type: 'PAYOUT', amountCrypto: 10, ...extra });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().id as string;
  };
  const accepted = async (kind: OrderKind, who: TestMerchant, body: Json) => {
    const response = await t.call('POST', path(kind), who, body);
    expect(response.statusCode, response.body).toBe(201);
  };

  /** Each case prepares its merchant and receiver and returns the body of the order to refuse. */
  const cases: Array<[string, number, string, (kind: OrderKind, who: TestMerchant) => Promise<Json>]> = [
    ['the receiver’s KYC is not approved', 422, 'KYC_NOT_APPROVED', async (kind, who) => orderBody(kind, (await t.pendingReceiver(who)).id)],
    [
      'the receiver is suspended',
      422,
      'RECEIVER_NOT_ACTIVE',
      async (kind, who) => {
        const receiver = await t.activeReceiver(who);
        await t.ctx.app.services.receivers.changeStatus(receiver.id, 'suspend', { actor: 'test' });
        return orderBody(kind, receiver.id);
      },
    ],
    [
      'it is night and the receiver does not allow night transactions',
      422,
      'NIGHT_TRANSACTIONS_DISABLED',
      async (kind, who) => {
        const receiver = await t.activeReceiver(who);
        t.clock.set('2026-11-24T01:30:00.000Z'); // 22:30 in São Paulo
        return orderBody(kind, receiver.id);
      },
    ],
    [
      'the externalId is taken',
      409,
      'CONFLICT',
      async (kind, who) => {
        const receiver = await t.activeReceiver(who);
        await accepted(kind, who, orderBody(kind, receiver.id, { externalId: 'taken' }));
        return orderBody(kind, receiver.id, { externalId: 'taken' });
      },
    ],
    [
      'the quote expired',
      422,
      'QUOTE_EXPIRED',
      async (kind, who) => {
        const receiver = await t.activeReceiver(who);
        const quoteId = await quoteFor(kind, who);
        t.clock.advance(31_000);
        return orderBody(kind, receiver.id, { quoteId });
      },
    ],
    [
      'the quote was already used',
      422,
      'QUOTE_INVALID',
      async (kind, who) => {
        const receiver = await t.activeReceiver(who);
        const quoteId = await quoteFor(kind, who);
        await accepted(kind, who, orderBody(kind, receiver.id, { quoteId }));
        return orderBody(kind, receiver.id, { quoteId });
      },
    ],
    [
      'the quote is for another receiver',
      422,
      'QUOTE_INVALID',
      async (kind, who) => {
        const receiver = await t.activeReceiver(who);
        const quoteId = await quoteFor(kind, who, { receiverId: (await t.activeReceiver(who)).id });
        return orderBody(kind, receiver.id, { quoteId });
      },
    ],
    ['the quote is unknown', 404, 'NOT_FOUND', async (kind, who) => orderBody(kind, (await t.activeReceiver(who)).id, { quoteId: UUID })],
    [
      'the receiver’s daily limit is reached',
      422,
      'LIMIT_EXCEEDED',
      async (kind, who) => {
        const receiver = await t.activeReceiver(who);
        await t.call('PUT', `/receivers/${receiver.id}/limits`, who, { dailyLimitBrl: 100, dailyTransactionLimit: null, nightTransactionsEnabled: false });
        await accepted(kind, who, orderBody(kind, receiver.id));
        return orderBody(kind, receiver.id); // 54 + 54 > 100
      },
    ],
    ['the receiver is unknown', 404, 'NOT_FOUND', async (kind) => orderBody(kind, UUID)],
  ];

  const table = (['PAYIN', 'PAYOUT'] as const).flatMap((kind) => cases.map(([name, status, code, prepare]) => [kind, name, status, code, prepare] as const));

  it.each(table)('%s refused because %s (%i %s) makes no provider call', async (kind, _name, status, code, prepare) => {
    const merchant = await t.merchant();
    const body = await prepare(kind, merchant);
    const before = await providerRows();
    expectErrorBody(await t.call('POST', path(kind), merchant, body), status, code);
    expect(await providerRows()).toEqual(before);
  });

  it('PAYOUT refused because the deposit is worth less than the minimum order (400) makes no deposit address', async () => {
    const { merchant, receiver } = await t.merchantWithReceiver();
    const before = await providerRows();
    const refused = expectErrorBody(await t.call('POST', '/payout', merchant, { receiverId: receiver.id, amountCrypto: 0.1, sourceToken: 'USDC' }), 400, 'VALIDATION_ERROR');
    expect(refused.details).toHaveProperty(['body.amountCrypto']);
    expect(await providerRows()).toEqual(before);
  });

  it('PAYIN refused because the receiver has no wallet and none was given (400) makes no charge', async () => {
    const merchant = await t.merchant();
    const receiver = await t.activeReceiver(merchant, { walletAddress: undefined });
    const before = await providerRows();
    const refused = expectErrorBody(await t.call('POST', '/payin', merchant, { receiverId: receiver.id, amountBrl: 54 }), 400, 'VALIDATION_ERROR');
    expect(refused.details).toHaveProperty(['body.destinationWallet']);
    expect(await providerRows()).toEqual(before);
  });

  it('the count sees provider calls: an accepted PAYIN makes one charge, an accepted PAYOUT one deposit address', async () => {
    const { merchant, receiver } = await t.merchantWithReceiver();
    const before = await providerRows();
    await accepted('PAYIN', merchant, orderBody('PAYIN', receiver.id));
    await accepted('PAYOUT', merchant, orderBody('PAYOUT', receiver.id));
    expect(await providerRows()).toEqual({ charges: before.charges + 1, depositAddresses: before.depositAddresses + 1 });
  });
});

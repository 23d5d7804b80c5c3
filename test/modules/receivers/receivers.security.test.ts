import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectErrorBody } from '../../helpers/app.ts';
import { type ReceiversFixture, createReceiversFixture } from './helpers.ts';

const UNKNOWN_ID = '00000000-0000-7000-8000-000000000000';

describe('receivers: security', () => {
  let ctx: ReceiversFixture['ctx'];
  let other: ReceiversFixture['other'];
  let call: ReceiversFixture['call'];
  let createReceiver: ReceiversFixture['createReceiver'];

  beforeAll(async () => {
    ({ ctx, other, call, createReceiver } = await createReceiversFixture());
  });
  afterAll(() => ctx.close());

  describe('GET /receivers and /receivers/{id}', () => {
    it('answers one receiver; unknown and foreign ids are 404, malformed 400', async () => {
      const receiver = await createReceiver();
      expect((await call('GET', `/receivers/${receiver.id}`)).json()).toEqual(receiver);
      expectErrorBody(await call('GET', `/receivers/${UNKNOWN_ID}`), 404, 'NOT_FOUND');
      expectErrorBody(await call('GET', `/receivers/${receiver.id}`, undefined, other), 404, 'NOT_FOUND');
      expectErrorBody(await call('GET', '/receivers/not-a-uuid'), 400, 'VALIDATION_ERROR');
    });
  });

  describe('PATCH /receivers/{id} (spec rules)', () => {
    it('another merchant’s receiver is 404 and stays unchanged', async () => {
      const receiver = await createReceiver();
      expectErrorBody(await call('PATCH', `/receivers/${receiver.id}`, { name: 'Hijack' }, other), 404, 'NOT_FOUND');
      expect((await call('GET', `/receivers/${receiver.id}`)).json().name).toBe(receiver.name);
    });
  });
});

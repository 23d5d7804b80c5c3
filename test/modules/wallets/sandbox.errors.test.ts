import { afterAll, beforeAll, describe, it } from 'vitest';
import { expectErrorBody } from '../../helpers/app.ts';
import { type WalletsFixture, createWalletsFixture } from './fixture.ts';

describe('managed wallets: sandbox errors', () => {
  let ctx: WalletsFixture['ctx'];
  let call: WalletsFixture['call'];

  beforeAll(async () => {
    ({ ctx, call } = await createWalletsFixture());
  });
  afterAll(() => ctx.close());

  it('a sandbox airdrop the chain refuses is 422 TRANSACTION_REJECTED, not a 500', async () => {
    const response = await call('POST', '/sandbox/wallet/airdrop', { address: '4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T', lamports: 1 });
    expectErrorBody(response, 422, 'TRANSACTION_REJECTED');
  });
});

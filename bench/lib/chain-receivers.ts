/**
 * The chain scenarios' receivers (bench/lib/chain-payin.ts): fresh wallets, KYC approved; and,
 * for a backlog of a merchant's regular customers, the same receivers made "returning": a few PAYINs
 * each settled first, then a wait until the treasury's address lookup tables hold their token
 * accounts (decision 0056: appended after a batch carried them, usable once finalized), as they do
 * for receivers paid before. Without it a burst of new receivers never meets a usable table: its
 * extension finalizes seconds after the burst is over, so every batch carries each receiver's
 * token account in full (32 bytes instead of a 1-byte index) and fewer transfers fit.
 */
import { generateKeyPairSigner } from '@solana/kit';
import { associatedTokenAddress } from '../../tools/chain-simulator/mints.ts';
import { TOKEN_PROGRAM } from '../../tools/chain-simulator/tokens.ts';
import type { Api } from './api.ts';
import { withClient } from './database.ts';
import { pool } from './load.ts';
import { benchCnpj } from './webhooks.ts';

export interface BenchReceiver {
  id: string;
  wallet: string;
}

export async function createReceivers(api: Api, count: number, documentOffset: number): Promise<BenchReceiver[]> {
  const receivers: BenchReceiver[] = [];
  for (let i = 0; i < count; i++) {
    const wallet = (await generateKeyPairSigner()).address;
    const receiver = await api.post<{ id: string }>('/api/v1/receivers', {
      type: 'PJ',
      document: benchCnpj(documentOffset + i),
      name: `Bench Chain Receiver ${i}`,
      email: `chain${documentOffset + i}@bench.example`,
      walletAddress: wallet,
      limits: { nightTransactionsEnabled: true },
    });
    await api.post(`/api/v1/sandbox/receivers/${receiver.id}/kyc`, { decision: 'APPROVE' });
    receivers.push({ id: receiver.id, wallet });
  }
  return receivers;
}

/**
 * Rounds of four PAYINs per receiver not yet listed, paid while the worker is stopped so that its
 * restart settles them in batches (a single transfer notes no candidates for the tables, and which
 * orders lead alone depends on timing), until every receiver's token account is in a finalized
 * lookup table.
 */
export async function makeReturning(api: Api, dbUrl: string, mint: string, receivers: BenchReceiver[], worker: { stop: () => Promise<void>; start: () => Promise<unknown> }): Promise<void> {
  const accounts = new Map(await Promise.all(receivers.map(async (r) => [await associatedTokenAddress(r.wallet, mint, TOKEN_PROGRAM), r] as const)));
  const unlisted = async () => {
    const listed = await withClient(dbUrl, async (client) => {
      const { rows } = await client.query<{ a: string }>('select distinct a from chain_lookup_tables t cross join unnest(t.addresses) as a where a = any($1::text[])', [[...accounts.keys()]]);
      return new Set(rows.map((row) => row.a));
    });
    return [...accounts].filter(([account]) => !listed.has(account)).map(([, receiver]) => receiver);
  };
  for (let round = 1, waiting = receivers; waiting.length > 0; round++, waiting = await unlisted()) {
    if (round > 5) throw new Error(`returning receivers: ${waiting.length}/${receivers.length} token accounts in no lookup table after ${round - 1} rounds`);
    await worker.stop();
    const ids = await pool(4 * waiting.length, 10, 60_000, async (i) => (await api.post<{ id: string }>('/api/v1/payin', { receiverId: waiting[i % waiting.length]!.id, amountBrl: 100 })).id);
    await pool(ids.length, 10, 60_000, (i) => api.post(`/api/v1/sandbox/orders/${ids[i]}/pix-payment`, {}));
    await worker.start();
    // Settled, then the extension they noted finalized and saved (about finality plus two passes of the job).
    await waitFor(dbUrl, `(select count(*) from orders where id = any($1::uuid[]) and status = 'COMPLETED') = $2`, [ids, ids.length], 60_000);
    await waitFor(dbUrl, `not exists (select from chain_lookup_table_extensions where status = 'PENDING') and now() - $1::timestamptz > interval '3 seconds'`, [new Date()], 60_000);
  }
}

/** Polls until the SQL condition is true. */
async function waitFor(dbUrl: string, condition: string, params: unknown[], waitMs: number): Promise<void> {
  await withClient(dbUrl, async (client) => {
    for (const deadline = Date.now() + waitMs; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 200))) {
      if ((await client.query<{ done: boolean }>(`select (${condition}) as done`, params)).rows[0]!.done) return;
    }
    throw new Error(`returning receivers: not true after ${waitMs} ms: ${condition}`);
  });
}

import { type TestMerchant, createTestContext } from '../../helpers/app.ts';
import { randomCpf } from '../../helpers/documents.ts';

export type ReceiversFixture = Awaited<ReturnType<typeof createReceiversFixture>>;

/** A fresh test context with two merchants, and the calls the receivers tests make through the merchant API. */
export async function createReceiversFixture() {
  const ctx = await createTestContext();
  const merchant = await ctx.createMerchant('Merchant A');
  const other = await ctx.createMerchant('Merchant B');
  const call = (method: 'GET' | 'POST' | 'PATCH' | 'PUT', url: string, payload?: unknown, who: TestMerchant = merchant) =>
    ctx.app.inject({ method, url: `/api/v1${url}`, headers: who.headers, ...(payload === undefined ? {} : { payload: payload as object }) });
  const createReceiver = async (body: Record<string, unknown> = {}, who: TestMerchant = merchant) => {
    const response = await call('POST', '/receivers', { type: 'PF', document: randomCpf(), name: 'Maria Silva', email: 'maria@example.com', ...body }, who);
    if (response.statusCode !== 201) throw new Error(response.body);
    return response.json();
  };
  return { ctx, merchant, other, call, createReceiver };
}

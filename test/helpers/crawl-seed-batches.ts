/**
 * The payout batches the every-route crawl visits (test/helpers/crawl-seed.ts), made through the
 * API as a merchant would: the OWNER's session sets the approval threshold (R$ 20,00), the demo key
 * uploads and moves the batches, the sandbox's deposit funds one. One batch per state the sandbox
 * reaches but EXPIRED (its prices hold for the PAYOUT deposit window, longer than the crawl).
 */
import type { ApiSession } from './dashboard-server.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
type MerchantApi = (method: string, path: string, body?: unknown) => Promise<Json>;

export const BATCH_STATES = ['validated, a line refused', 'awaiting approval', 'awaiting funding', 'paused', 'completed', 'cancelled'] as const;

/** A receiver id no merchant has: its line is refused when checked. */
const STRANGER = '00000000-0000-7000-8000-00000000abcd';

export async function seedBatches(baseUrl: string, merchantApi: MerchantApi, owner: ApiSession, receiverId: string): Promise<Record<(typeof BATCH_STATES)[number], string>> {
  const threshold = await fetch(`${baseUrl}/api/v1/payout-batch-settings`, {
    method: 'PUT',
    headers: { cookie: owner.cookie, 'x-csrf-token': owner.csrfToken, 'content-type': 'application/json' },
    body: JSON.stringify({ approvalThresholdBrl: '20.00' }),
  });
  if (threshold.status !== 200) throw new Error(`seed: batch threshold: ${threshold.status} ${await threshold.text()}`);
  // 2 USDC is about R$ 11 (below the threshold), 2 × 3 USDC above it.
  const batch = async (items: Array<{ receiverId: string; amountCrypto: string }>) => String((await merchantApi('POST', '/payout-batches', { token: 'USDC', items })).id);
  const small = () => batch([{ receiverId, amountCrypto: '2' }]);
  const act = (id: string, action: string) => merchantApi('POST', `/payout-batches/${id}/${action}`);

  const [validated, awaitingApproval, awaitingFunding, paused, completed, cancelled] = await Promise.all([
    batch([{ receiverId, amountCrypto: '2' }, { receiverId: STRANGER, amountCrypto: '2' }]),
    batch([{ receiverId, amountCrypto: '3' }, { receiverId, amountCrypto: '3' }]),
    small(),
    small(),
    small(),
    small(),
  ]);
  await act(awaitingApproval, 'submit');
  await act(awaitingFunding, 'submit');
  await act(paused, 'submit');
  await act(paused, 'pause');
  await act(completed, 'submit');
  await merchantApi('POST', `/sandbox/payout-batches/${completed}/deposit`, {});
  await act(cancelled, 'cancel');
  const expected: Array<[string, string]> = [[validated, 'VALIDATED'], [awaitingApproval, 'AWAITING_APPROVAL'], [awaitingFunding, 'AWAITING_FUNDING'], [paused, 'PAUSED'], [completed, 'COMPLETED'], [cancelled, 'CANCELLED']];
  for (const [id, status] of expected) {
    const seen = (await merchantApi('GET', `/payout-batches/${id}`)).status;
    if (seen !== status) throw new Error(`seed: payout batch ${id} is ${seen}, not ${status}`);
  }
  return {
    'validated, a line refused': validated,
    'awaiting approval': awaitingApproval,
    'awaiting funding': awaitingFunding,
    paused,
    completed,
    cancelled,
  };
}

/**
 * The dependencies' health rules (src/platform/dependency-health.ts), without a database: the
 * state from a dependency's record, calls observed through a wrapped port, and the probes (only
 * for dependencies not called lately, one at a time, a silent one counted as a failure).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type CallHistory, type CallRecord, createDependencyHealth, PROBE_TIMEOUT_MS, stateOf } from '../../src/platform/dependency-health.ts';
import { pspFailureOutcome } from '../../src/adapters/pix/call-outcome.ts';
import { PixProviderError } from '../../src/adapters/pix/api-pix/http-client.ts';
import { PixPayoutRefusedError } from '../../src/adapters/pix/port.ts';
import { chainFailureOutcome } from '../../src/adapters/chain/call-outcome.ts';
import { ChainTransferRefusedError } from '../../src/adapters/chain/port.ts';
import { ChainUnavailableError } from '../../src/adapters/chain/transactions-port.ts';

const T = 1_000_000_000;
const history = (lastSuccessAt: number | null, lastFailureAt: number | null, consecutiveFailures: number): CallHistory => ({ lastSuccessAt, lastFailureAt, consecutiveFailures });

describe('stateOf: down, degraded, ok', () => {
  it.each([
    ['never called', history(null, null, 0), 'ok'],
    ['only successes', history(T - 1000, null, 0), 'ok'],
    ['never reached: one failure is down', history(null, T - 1000, 1), 'down'],
    ['three failures in a row, a success 5 s before them', history(T - 5000, T - 100, 3), 'down'],
    ['two failures in a row, a success 5 s before', history(T - 5000, T - 100, 2), 'degraded'],
    ['the last call failed, no success in the last 60 s', history(T - 60_000, T - 100, 1), 'down'],
    ['the last call failed, a success 59.9 s ago', history(T - 59_900, T - 100, 1), 'degraded'],
    ['answering again, a failure 59.9 s ago', history(T - 100, T - 59_900, 0), 'degraded'],
    ['answering again, the failure 60 s ago', history(T - 100, T - 60_000, 0), 'ok'],
  ])('%s: %s', (_name, known, state) => {
    expect(stateOf(known, T)).toBe(state);
  });
});

describe('the outcome of a failed call', () => {
  it('PSP: a refusal of the request is refused (up); unreachable, 5xx and our credentials refused are errors', () => {
    expect(pspFailureOutcome(new PixPayoutRefusedError('refused'))).toBe('refused');
    expect(pspFailureOutcome(new PixProviderError('bad request', { status: 422, retryable: false }))).toBe('refused');
    expect(pspFailureOutcome(new PixProviderError('forbidden', { status: 403, retryable: false }))).toBe('error');
    expect(pspFailureOutcome(new PixProviderError('unavailable', { status: 503, retryable: true }))).toBe('error');
    expect(pspFailureOutcome(new PixProviderError('connect ECONNREFUSED', { retryable: true }))).toBe('error');
    expect(pspFailureOutcome(new TypeError('bug'))).toBe('error');
  });

  it('chain: a transfer refused before signing is refused; the node unreachable is an error', () => {
    expect(chainFailureOutcome(new ChainTransferRefusedError('no such mint'))).toBe('refused');
    expect(chainFailureOutcome(new ChainUnavailableError('Solana RPC getHealth failed'))).toBe('error');
  });
});

describe('createDependencyHealth', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  function tracker() {
    let now = T;
    const calls: CallRecord[] = [];
    const health = createDependencyHealth({ now: () => new Date(now) });
    health.onCall((call) => calls.push(call));
    return { health, calls, advance: (ms: number) => (now += ms) };
  }

  it('observes every call of a wrapped port, passing answers and errors through; close and synchronous functions are left alone', async () => {
    const { health, calls } = tracker();
    health.register('psp', { provider: 'api-pix' });
    const port = {
      name: 'apiPix',
      answer: async (x: number) => x * 2,
      refuse: async () => {
        throw new PixPayoutRefusedError('refused');
      },
      fail: async () => {
        throw new PixProviderError('timeout', { retryable: true });
      },
      close: async () => 'closed',
      sync: () => 'now',
    };
    const observed = health.instrument('psp', port, pspFailureOutcome, ['close']);
    expect(observed.name).toBe('apiPix');
    expect(await observed.answer(21)).toBe(42);
    await expect(observed.refuse()).rejects.toBeInstanceOf(PixPayoutRefusedError);
    expect(health.state('psp')).toBe('ok');
    await expect(observed.fail()).rejects.toBeInstanceOf(PixProviderError);
    expect(await observed.close()).toBe('closed');
    expect(observed.sync()).toBe('now');
    expect(calls.map(({ operation, outcome }) => `${operation} ${outcome}`)).toEqual(['answer ok', 'refuse refused', 'fail error']);
    expect(calls.every((call) => call.dependency === 'psp' && call.seconds >= 0)).toBe(true);
    expect(health.state('psp')).toBe('degraded');
    expect(health.report().psp).toMatchObject({ provider: 'api-pix', state: 'degraded', lastSuccessAt: new Date(T), lastFailureAt: new Date(T) });
  });

  it('an in-process dependency is always ok, whatever is recorded against it', () => {
    const { health } = tracker();
    health.register('chain', { provider: 'sandbox', inProcess: true });
    for (let i = 0; i < 3; i++) health.record({ dependency: 'chain', operation: 'x', outcome: 'error', seconds: 0 });
    expect(health.state('chain')).toBe('ok');
    expect(health.report().mail).toMatchObject({ provider: 'none', state: 'ok' });
  });

  it('probes only what was not called for 10 s, one probe at a time; firstDown starts them without waiting', async () => {
    const { health, advance } = tracker();
    let answering = false;
    let probes = 0;
    const node = health.instrument('chain', {
      getHealth: async () => {
        probes += 1;
        if (!answering) throw new ChainUnavailableError('Solana RPC getHealth failed');
      },
    });
    health.register('chain', { provider: 'solana-rpc', probe: () => node.getHealth() });

    // Never called: firstDown answers from memory (not down yet) and starts a probe.
    expect(health.firstDown(['psp', 'chain'])).toBeUndefined();
    expect(probes).toBe(1);
    await health.probeStale();
    expect(health.firstDown(['chain'])).toBe('chain');
    // Called less than 10 s ago: no probe, however often asked.
    advance(9_999);
    await Promise.all([health.probeStale(), health.probeStale()]);
    expect(probes).toBe(1);
    // Two askers of a stale one share one probe.
    advance(1);
    answering = true;
    await Promise.all([health.probeStale(), health.probeStale({ only: ['chain'] })]);
    expect(probes).toBe(2);
    expect(health.state('chain')).toBe('degraded');
    expect(health.firstDown(['chain'])).toBeUndefined();
  });

  it('a probe that does not answer counts as a failure after PROBE_TIMEOUT_MS, and frees the next probe', async () => {
    vi.useFakeTimers();
    const { health, calls, advance } = tracker();
    let probes = 0;
    health.register('psp', {
      provider: 'api-pix',
      probe: () => {
        probes += 1;
        return new Promise(() => {});
      },
    });
    const first = health.probe('psp');
    await vi.advanceTimersByTimeAsync(PROBE_TIMEOUT_MS);
    expect(await first).toMatchObject({ up: false });
    expect(calls).toMatchObject([{ dependency: 'psp', operation: 'probe', outcome: 'error' }]);
    expect(health.state('psp')).toBe('down');
    advance(10_000);
    void health.probeStale();
    expect(probes).toBe(2);
  });
});

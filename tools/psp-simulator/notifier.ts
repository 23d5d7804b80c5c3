/**
 * Sends notifications `POST <callback>/pix` with `{"pix": [...]}`, the way the API Pix document's
 * `callbacks` describe, applying the webhook faults: lost, duplicated, delayed, or held back and
 * sent after the next one (out of order). A delivery that fails is retried a few times. Every
 * notification carries the configured extra headers (a PSP that lets its client set a secret one).
 */
import type { Faults } from './faults.ts';

export function createNotifier(deps: { faults: Faults; log: (message: string) => void; headers?: Record<string, string> }) {
  let held: { url: string; body: unknown } | undefined;
  const pending = new Set<Promise<void>>();

  async function post(url: string, body: unknown): Promise<void> {
    for (let attempt = 1; attempt <= 4; attempt++) {
      try {
        const response = await fetch(url, { method: 'POST', headers: { ...deps.headers, 'content-type': 'application/json' }, body: JSON.stringify(body), signal: AbortSignal.timeout(5000) });
        if (response.ok) return;
        deps.log(`webhook ${url} answered ${response.status}`);
      } catch (error) {
        deps.log(`webhook ${url} failed: ${(error as Error).message}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
    }
  }

  function track(work: Promise<void>) {
    pending.add(work);
    void work.finally(() => pending.delete(work));
  }

  return {
    /** Notifies one batch of pix entries to the key's callback (none registered: nothing is sent). */
    notify(callback: string | undefined, pix: unknown[]) {
      if (!callback) return;
      const url = `${callback.replace(/\/+$/, '')}/pix`;
      const body = { pix };
      const fault = deps.faults.webhook.shift();
      if (fault === 'lose') return deps.log('webhook lost on purpose');
      if (fault === 'reorder' && !held) {
        held = { url, body };
        return;
      }
      const send = async () => {
        if (typeof fault === 'object') await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
        await post(url, body);
        if (fault === 'duplicate') await post(url, body);
        if (held) {
          const late = held;
          held = undefined;
          await post(late.url, late.body);
        }
      };
      track(send());
    },
    /** Resolves when every notification under way has been sent (or given up). */
    async idle() {
      while (pending.size > 0) await Promise.all([...pending]);
    },
  };
}

export type Notifier = ReturnType<typeof createNotifier>;

/**
 * Signature subscriptions over the node's RPC PubSub websocket (SOLANA_WS_URL): `signatureSubscribe`
 * at the configured commitment, one `signatureNotification` when the signature reaches it (or
 * lands with an error), after which the node ends the subscription itself. A notification is only
 * a wake-up: the caller asks `getTransferStatus` as before, so money never moves on a websocket
 * message alone (docs/decisions/0054).
 *
 * - Lazy: no connection until the first `watch`, so a process that never waits on a transfer
 *   (the API role) opens none.
 * - Bounded: at most `maxSubscriptions` signatures at once, each for `ttlMs` at most (a
 *   transaction that never lands is never notified); past either, polling alone covers it.
 * - Reconnects with a doubling back-off (capped, jittered) and subscribes again to every signature
 *   still watched; a signature that reached its commitment while the socket was down is notified
 *   at once by the node on the new subscription. While it is down, nothing changes for the caller:
 *   its polling runs as without subscriptions.
 * The URL may carry an API key: it is never logged. The socket itself: pubsub-socket.ts.
 */
import { createPubSubSocket, type PubSubLog, type PubSubMessage } from './pubsub-socket.ts';

export interface SignatureSubscriptionSettings {
  wsUrl: string;
  commitment: 'confirmed' | 'finalized';
  /** Signatures watched at once; more are left to polling. */
  maxSubscriptions?: number;
  /** How long a signature is watched before it is dropped unnotified. */
  ttlMs?: number;
  /** First reconnect delay, doubled per failed attempt up to `reconnectMaxMs`. */
  reconnectMinMs?: number;
  reconnectMaxMs?: number;
}

export type SubscriptionLog = PubSubLog;

/** The port the orders' transfer steps use (port.ts re-exports it): wake me when this signature lands. */
export interface SignatureWatch {
  /** `onNotified` runs once, when the node says the signature reached the commitment; never if it does not (then polling decides). Repeat calls for a watched signature are ignored. */
  watch(signature: string, onNotified: () => void): void;
}

export interface SignatureSubscriptions extends SignatureWatch {
  /** Signatures watched now, and whether the socket is open (tests, metrics). */
  watched(): number;
  connected(): boolean;
  close(): void;
}

interface Watched {
  onNotified: () => void;
  until: number;
  /** The node's subscription id on the current connection; undefined until it answers. */
  subscription?: number;
}

const DEFAULTS = { maxSubscriptions: 5_000, ttlMs: 180_000, reconnectMinMs: 250, reconnectMaxMs: 30_000 };

export function createSignatureSubscriptions(settings: SignatureSubscriptionSettings, log?: SubscriptionLog): SignatureSubscriptions {
  const limits = { ...DEFAULTS, ...settings };
  const watching = new Map<string, Watched>();
  const bySubscription = new Map<number, string>();
  /** Request id → signature, for the subscribe calls not answered yet. */
  const pending = new Map<number, string>();
  let closed = false;
  let pruneTimer: ReturnType<typeof setInterval> | undefined;

  const socket = createPubSubSocket(
    { wsUrl: settings.wsUrl, reconnectMinMs: limits.reconnectMinMs, reconnectMaxMs: limits.reconnectMaxMs },
    {
      wants: () => watching.size > 0,
      opened(reconnected) {
        if (reconnected) log?.info({ watched: watching.size }, 'chain websocket reconnected');
        for (const signature of watching.keys()) subscribe(signature);
      },
      closed(wasOpen) {
        pending.clear();
        bySubscription.clear();
        for (const entry of watching.values()) delete entry.subscription;
        if (wasOpen && !closed) log?.warn({ watched: watching.size }, 'chain websocket closed: polling alone until it is back');
      },
      message: onMessage,
    },
    log,
  );

  function subscribe(signature: string) {
    const id = socket.send('signatureSubscribe', [signature, { commitment: settings.commitment }]);
    if (id !== undefined) pending.set(id, signature);
  }

  function forget(signature: string) {
    const entry = watching.get(signature);
    if (!entry) return;
    watching.delete(signature);
    if (entry.subscription !== undefined) {
      bySubscription.delete(entry.subscription);
      socket.send('signatureUnsubscribe', [entry.subscription]);
    }
  }

  function onMessage(message: PubSubMessage) {
    if (message.method === 'signatureNotification') {
      const signature = bySubscription.get(Number(message.params?.subscription));
      if (signature === undefined) return;
      const entry = watching.get(signature)!;
      // The node has ended this subscription: nothing to unsubscribe.
      bySubscription.delete(entry.subscription!);
      watching.delete(signature);
      entry.onNotified();
      return;
    }
    if (typeof message.id !== 'number') return;
    const signature = pending.get(message.id);
    if (signature === undefined) return;
    pending.delete(message.id);
    const entry = watching.get(signature);
    if (typeof message.result !== 'number') {
      // Refused (a node limit, a bad signature): polling alone follows it.
      if (entry) watching.delete(signature);
      log?.warn({ error: message.error?.message }, 'signatureSubscribe refused by the node');
      return;
    }
    if (!entry) {
      socket.send('signatureUnsubscribe', [message.result]);
      return;
    }
    entry.subscription = message.result;
    bySubscription.set(message.result, signature);
  }

  /** Drops signatures watched past their time: never notified, so left to polling. */
  function prune() {
    const now = Date.now();
    for (const [signature, entry] of watching) if (entry.until <= now) forget(signature);
  }

  return {
    watch(signature, onNotified) {
      if (closed || watching.has(signature) || watching.size >= limits.maxSubscriptions) return;
      watching.set(signature, { onNotified, until: Date.now() + limits.ttlMs });
      if (!pruneTimer) {
        pruneTimer = setInterval(prune, Math.min(10_000, limits.ttlMs));
        pruneTimer.unref();
      }
      if (socket.connected()) subscribe(signature);
      else socket.ensure();
    },
    watched: () => watching.size,
    connected: () => socket.connected(),
    close() {
      closed = true;
      clearInterval(pruneTimer);
      watching.clear();
      socket.close();
    },
  };
}

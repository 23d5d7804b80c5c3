/**
 * Account subscriptions over the node's RPC PubSub websocket (SOLANA_WS_URL), for the deposit
 * watcher (issue 44 item 3, decision 0055): `accountSubscribe` at `finalized` for every watched
 * token account, kept equal to the set the watcher names at each pass (`sync`), and an
 * `accountNotification` is a wake-up only: the watcher lists the account's signatures as it would
 * have at its next pass, so no deposit is credited on a websocket message alone.
 *
 * - `covered(account)`: the node has answered this account's subscription on the current
 *   connection, so a change from now on is notified (a token: the same at two passes, no gap). An account not covered (not answered yet,
 *   past `maxSubscriptions`, refused, the socket down) is the watcher's to read by polling.
 * - Reconnects (pubsub-socket.ts) and subscribes every account again; until the node answers,
 *   they are not covered.
 */
import { createPubSubSocket, type PubSubLog, type PubSubMessage } from './pubsub-socket.ts';

export interface AccountSubscriptionSettings {
  wsUrl: string;
  /** Accounts subscribed at once; more are left to polling. */
  maxSubscriptions?: number;
  reconnectMinMs?: number;
  reconnectMaxMs?: number;
}

/** The port the deposit watcher uses: keep these accounts watched; tell me when one changes at `finalized`. */
export interface AccountWatch {
  /** The accounts to watch from now on (the others are unsubscribed); `onChanged` is called with the account at each notification. */
  sync(accounts: Iterable<string>, onChanged: (account: string) => void): void;
  /**
   * Undefined while a change of the account might go unnotified; else a token of its
   * subscription: the same token at two moments means it was covered all along between them (a
   * new connection's subscription has a new one).
   */
  covered(account: string): number | undefined;
}

export interface AccountSubscriptions extends AccountWatch {
  /** Accounts to watch, and those the node has answered (covered). */
  watched(): number;
  answered(): number;
  connected(): boolean;
  close(): void;
}

const DEFAULTS = { maxSubscriptions: 20_000, reconnectMinMs: 250, reconnectMaxMs: 30_000 };

export function createAccountSubscriptions(settings: AccountSubscriptionSettings, log?: PubSubLog): AccountSubscriptions {
  const limits = { ...DEFAULTS, ...settings };
  /** Account → the node's subscription id on this connection and our token for it (both unset until answered). */
  const watching = new Map<string, { subscription?: number; token?: number }>();
  let tokens = 0;
  const byId = new Map<number, string>();
  /** Request id → account, for the subscribe calls not answered yet. */
  const pending = new Map<number, string>();
  let onChanged: (account: string) => void = () => {};

  const socket = createPubSubSocket(
    { wsUrl: settings.wsUrl, reconnectMinMs: limits.reconnectMinMs, reconnectMaxMs: limits.reconnectMaxMs },
    {
      wants: () => watching.size > 0,
      opened(reconnected) {
        if (reconnected) log?.info({ accounts: watching.size }, 'chain websocket (accounts) reconnected');
        for (const account of watching.keys()) subscribe(account);
      },
      closed(wasOpen) {
        pending.clear();
        byId.clear();
        for (const account of watching.keys()) watching.set(account, {});
        if (wasOpen && watching.size > 0) log?.warn({ accounts: watching.size }, 'chain websocket (accounts) closed: deposits polled until it is back');
      },
      message,
    },
    log,
  );

  function subscribe(account: string) {
    const id = socket.send('accountSubscribe', [account, { commitment: 'finalized', encoding: 'base64' }]);
    if (id !== undefined) pending.set(id, account);
  }

  function unsubscribe(account: string) {
    const subscription = watching.get(account)?.subscription;
    watching.delete(account);
    if (subscription === undefined) return;
    byId.delete(subscription);
    socket.send('accountUnsubscribe', [subscription]);
  }

  function message(received: PubSubMessage) {
    if (received.method === 'accountNotification') {
      const account = byId.get(Number(received.params?.subscription));
      if (account !== undefined) onChanged(account);
      return;
    }
    if (typeof received.id !== 'number') return;
    const account = pending.get(received.id);
    if (account === undefined) return;
    pending.delete(received.id);
    if (typeof received.result !== 'number') {
      // Refused (a node limit): polling covers it; asked again on the next connection.
      log?.warn({ error: received.error?.message }, 'accountSubscribe refused by the node');
      return;
    }
    if (!watching.has(account)) {
      socket.send('accountUnsubscribe', [received.result]);
      return;
    }
    watching.set(account, { subscription: received.result, token: ++tokens });
    byId.set(received.result, account);
  }

  return {
    sync(accounts, changed) {
      onChanged = changed;
      const wanted = new Set(accounts);
      for (const account of [...watching.keys()]) if (!wanted.has(account)) unsubscribe(account);
      for (const account of wanted) {
        if (watching.has(account) || watching.size >= limits.maxSubscriptions) continue;
        watching.set(account, {});
        subscribe(account);
      }
      if (watching.size > 0) socket.ensure();
    },
    covered: (account) => watching.get(account)?.token,
    watched: () => watching.size,
    answered: () => byId.size,
    connected: () => socket.connected(),
    close() {
      watching.clear();
      socket.close();
    },
  };
}

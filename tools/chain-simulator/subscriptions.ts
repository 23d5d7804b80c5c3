/**
 * The websocket JSON-RPC methods kit's confirmation helpers use: signatureSubscribe (one
 * notification when the signature reaches the commitment, then the subscription ends, as on a
 * node), slotSubscribe, rootSubscribe, accountSubscribe (a notification when a change of the
 * account reaches the subscription's commitment, finalized by default as on a node), and their
 * *Unsubscribe. Checked after every slot.
 */
import type { AccountConfig } from './accounts.ts';
import type { Chain, Commitment } from './chain.ts';
import { INVALID_PARAMS, INVALID_REQUEST, METHOD_NOT_FOUND, RpcError, stringify } from './jsonrpc.ts';
import { commitmentOf, config, stringParam } from './params.ts';
import type { WebSocketConnection } from './websocket.ts';

const RANK: Record<string, number> = { processed: 0, confirmed: 1, finalized: 2 };

interface Subscription {
  id: number;
  connection: WebSocketConnection;
  kind: 'signature' | 'slot' | 'root' | 'account';
  /** Sends what is due; true when the subscription is over. */
  check(): boolean;
}

export function createSubscriptions(chain: Chain, log: (message: string) => void) {
  const subscriptions = new Map<number, Subscription>();
  let nextId = 0;

  const notify = (connection: WebSocketConnection, method: string, subscription: number, result: unknown) =>
    connection.send(stringify({ jsonrpc: '2.0', method, params: { result, subscription } }));

  function run(subscription: Subscription) {
    if (subscription.connection.closed || subscription.check()) subscriptions.delete(subscription.id);
  }

  chain.onSlot(() => {
    for (const subscription of [...subscriptions.values()]) run(subscription);
  });

  function subscribe(connection: WebSocketConnection, method: string, params: unknown[]): number {
    const id = nextId++;
    let check: () => boolean;
    let kind: Subscription['kind'];
    if (method === 'signatureSubscribe') {
      kind = 'signature';
      const signature = stringParam(params, 0, 'a signature');
      const commitment: Commitment = commitmentOf(config(params, 1)) ?? 'finalized';
      check = () => {
        const status = chain.signatureStatus(signature, true);
        if (!status || RANK[status.confirmationStatus]! < RANK[commitment]!) return false;
        notify(connection, 'signatureNotification', id, { context: { slot: chain.slot }, value: { err: status.err } });
        return true;
      };
    } else if (method === 'slotSubscribe') {
      kind = 'slot';
      check = () => {
        notify(connection, 'slotNotification', id, { parent: Math.max(0, chain.slot - 1), root: chain.root, slot: chain.slot });
        return false;
      };
    } else if (method === 'rootSubscribe') {
      kind = 'root';
      let last = chain.root;
      check = () => {
        if (chain.root !== last) notify(connection, 'rootNotification', id, (last = chain.root));
        return false;
      };
    } else if (method === 'accountSubscribe') {
      kind = 'account';
      const address = stringParam(params, 0, 'a base58 address');
      const cfg = config(params, 1) as AccountConfig;
      const encoding: AccountConfig = { encoding: cfg.encoding ?? 'base64' };
      const commitment: Commitment = commitmentOf(config(params, 1)) ?? 'finalized';
      const snapshot = () => {
        const account = chain.accounts.read(address);
        return account ? `${account.lamports}/${account.owner}/${Buffer.from(account.data).toString('base64')}` : '';
      };
      let last = snapshot();
      /** Slots where the account changed, not yet at the commitment: a node notifies a change once its commitment reaches it. */
      const changes: number[] = [];
      // Written before the subscription, not yet at its commitment: a node notifies it when it gets there.
      const written = chain.lastWrittenSlot(address);
      if (written !== undefined && written > chain.slotAt(commitment)) changes.push(written);
      check = () => {
        if (chain.touchedSinceLastSlot(address)) {
          const now = snapshot();
          if (now !== last) {
            last = now;
            changes.push(chain.slot);
          }
        }
        const committed = chain.slotAt(commitment);
        if (changes.length === 0 || changes[0]! > committed) return false;
        while (changes.length > 0 && changes[0]! <= committed) changes.shift();
        // The account as it is now: the simulator keeps no older states (a node would send the state at the commitment).
        const account = chain.accounts.read(address);
        notify(connection, 'accountNotification', id, { context: { slot: committed }, value: account ? chain.accounts.encode(account, encoding) : null });
        return false;
      };
    } else throw new RpcError(METHOD_NOT_FOUND, 'Method not found');
    const subscription: Subscription = { id, connection, kind, check };
    subscriptions.set(id, subscription);
    return id;
  }

  function message(connection: WebSocketConnection, text: string) {
    let request: { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: unknown };
    try {
      request = JSON.parse(text) as typeof request;
    } catch {
      return connection.send(stringify({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } }));
    }
    const id = typeof request.id === 'number' || typeof request.id === 'string' ? request.id : null;
    try {
      if (request.jsonrpc !== '2.0' || typeof request.method !== 'string') throw new RpcError(INVALID_REQUEST, 'Invalid request');
      const params = Array.isArray(request.params) ? request.params : [];
      let result: unknown;
      if (request.method.endsWith('Unsubscribe')) {
        const target = subscriptions.get(Number(params[0]));
        if (!target || target.connection !== connection) throw new RpcError(INVALID_PARAMS, 'Invalid subscription id.');
        subscriptions.delete(target.id);
        result = true;
      } else result = subscribe(connection, request.method, params);
      connection.send(stringify({ jsonrpc: '2.0', id, result }));
      // A signature already at its commitment is notified at once, after the answer that names
      // the subscription (as a node does): before it, a client cannot tell whose notification it is.
      const created = request.method === 'signatureSubscribe' ? subscriptions.get(result as number) : undefined;
      if (created) run(created);
    } catch (error) {
      if (!(error instanceof RpcError)) log(`subscription: ${(error as Error).stack ?? String(error)}`);
      const code = error instanceof RpcError ? error.code : -32603;
      connection.send(stringify({ jsonrpc: '2.0', id, error: { code, message: (error as Error).message } }));
    }
  }

  function closed(connection: WebSocketConnection) {
    for (const subscription of subscriptions.values()) if (subscription.connection === connection) subscriptions.delete(subscription.id);
  }

  return { message, closed, count: () => subscriptions.size };
}

/**
 * The notifications hub: how a committed change wakes whoever waits for it, in this process at once
 * and in every other process of the deployment through PostgreSQL's LISTEN/NOTIFY.
 *
 * Publishing never happens inside the writing transaction: a transaction that runs NOTIFY takes a
 * cluster-wide lock at commit, so notifying transactions commit one at a time. Modules never call
 * `publish` themselves: they raise `signalAfterCommit(trx, channel, payload)` where they write
 * (commit-signals.ts), and the composition root forwards each signal here once its transaction has
 * committed (dropped on rollback), so no process hears of a change it could not yet read, and this
 * process's subscribers run after the commit too. The hub sends on its own dedicated connection
 * (not one of the pool's), and
 * coalesces identical (channel, payload) pairs published within a few milliseconds into one
 * NOTIFY. The same connection LISTENs; the notifications it sent itself come back with its own
 * backend pid and are dropped (this process's subscribers already ran).
 *
 * A lost connection is re-established with backoff; notifications sent while it was down are lost,
 * so `onResync` handlers run every time the LISTEN connection is (re)established: caches clear,
 * workers sweep. On the embedded PGlite (one process) delivery is in-process only.
 */
import pg from 'pg';

export interface Notifications {
  /** After a commit (the commit signals' forwarder calls it, services.ts): runs this process's subscribers at once, and
   *  tells other processes through a coalesced NOTIFY sent on its own connection (never inside the writing transaction). */
  publish(channel: string, payload?: string): void;
  subscribe(channel: string, handler: (payload: string) => void): () => void;
  /** Runs after the LISTEN connection is (re)established following a loss: caches clear, workers sweep. */
  onResync(handler: () => void): () => void;
  /** Resolves once other processes' notifications can arrive (the LISTEN connection is up); at once in-process. */
  ready(): Promise<void>;
  close(): Promise<void>;
}

/** Channel names are SQL identifiers we choose: lowercase, digits and underscores. */
const CHANNEL = /^[a-z_][a-z0-9_]{0,62}$/;
/** Publishes of one (channel, payload) within this window become one NOTIFY. */
const COALESCE_MS = 2;
/** Distinct pairs kept while the connection is down (beyond that, the resync sweep covers them). */
const MAX_PENDING = 1000;
const BACKOFF_START_MS = 100;
const BACKOFF_MAX_MS = 5000;

export interface NotificationsLog {
  warn(obj: object, msg: string): void;
  info?(obj: object, msg: string): void;
}

function assertChannel(channel: string): void {
  if (!CHANNEL.test(channel)) throw new Error(`notification channel ${JSON.stringify(channel)} must match ${CHANNEL}`);
}

/** Subscribers and resync handlers of one process; both implementations dispatch through it. */
function createLocalBus(log?: NotificationsLog) {
  const handlers = new Map<string, Set<(payload: string) => void>>();
  const resyncHandlers = new Set<() => void>();
  const safely = (run: () => void) => {
    try {
      run();
    } catch (err) {
      log?.warn({ err }, 'notification handler failed');
    }
  };
  return {
    handlers,
    deliver(channel: string, payload: string) {
      const set = handlers.get(channel);
      if (set) for (const handler of [...set]) safely(() => handler(payload));
    },
    resync() {
      for (const handler of [...resyncHandlers]) safely(handler);
    },
    /** Adds a handler; `first` is told when a channel gains its first subscriber. */
    subscribe(channel: string, handler: (payload: string) => void, first?: (channel: string) => void) {
      assertChannel(channel);
      let set = handlers.get(channel);
      if (!set) {
        set = new Set();
        handlers.set(channel, set);
        first?.(channel);
      }
      set.add(handler);
      return () => void set.delete(handler);
    },
    onResync(handler: () => void) {
      resyncHandlers.add(handler);
      return () => void resyncHandlers.delete(handler);
    },
  };
}

/** One process only (the embedded database, tests): subscribers run at once, nothing leaves the process. */
export function createInProcessNotifications(options: { log?: NotificationsLog } = {}): Notifications {
  const bus = createLocalBus(options.log);
  let closed = false;
  return {
    publish(channel, payload = '') {
      assertChannel(channel);
      if (!closed) bus.deliver(channel, payload);
    },
    subscribe: (channel, handler) => bus.subscribe(channel, handler),
    onResync: (handler) => bus.onResync(handler),
    ready: () => Promise.resolve(),
    async close() {
      closed = true;
    },
  };
}

export interface PostgresNotificationsOptions {
  url: string;
  log?: NotificationsLog;
  /** Tests shorten the reconnect backoff. */
  backoffStartMs?: number;
}

/**
 * Several processes on one PostgreSQL: one dedicated connection that LISTENs to every subscribed
 * channel and sends this process's coalesced NOTIFYs.
 */
export function createPostgresNotifications(options: PostgresNotificationsOptions): Notifications {
  const { log } = options;
  const bus = createLocalBus(log);
  const pending = new Map<string, [channel: string, payload: string]>();
  let client: pg.Client | undefined;
  let connected = false;
  let closed = false;
  let flushTimer: NodeJS.Timeout | undefined;
  let reconnectTimer: NodeJS.Timeout | undefined;
  let backoff = options.backoffStartMs ?? BACKOFF_START_MS;
  let readyWaiters: Array<() => void> = [];
  /** The hub connection's queries, one after another (pg 9 refuses a query while another runs). */
  let queries: Promise<void> = Promise.resolve();
  const inTurn = <T>(work: () => Promise<T>): Promise<T> => {
    const turn = queries.then(work);
    queries = turn.then(
      () => undefined,
      () => undefined,
    );
    return turn;
  };

  const listen = (target: pg.Client, channel: string) => target.query(`LISTEN ${channel}`);

  async function connect(): Promise<void> {
    const next = new pg.Client({ connectionString: options.url, application_name: 'exchange-notifications' });
    // An error on an idle client must not crash the process: it is a lost connection.
    next.on('error', (err) => lost(next, err));
    next.on('end', () => lost(next));
    next.on('notification', (message) => {
      // Our own NOTIFY coming back: this process's subscribers already ran at publish.
      if (message.processId === (next as pg.Client & { processID?: number }).processID) return;
      bus.deliver(message.channel, message.payload ?? '');
    });
    try {
      await next.connect();
      for (const channel of bus.handlers.keys()) await listen(next, channel);
    } catch (err) {
      next.removeAllListeners('end');
      next.end().catch(() => {});
      throw err;
    }
    if (closed) {
      await next.end().catch(() => {});
      return;
    }
    client = next;
    connected = true;
    backoff = options.backoffStartMs ?? BACKOFF_START_MS;
    for (const resolve of readyWaiters) resolve();
    readyWaiters = [];
    // Whatever was published while we were away goes out now; what others sent is lost: sweep.
    scheduleFlush();
    bus.resync();
  }

  function lost(which: pg.Client, err?: Error) {
    if (which !== client) return;
    client = undefined;
    connected = false;
    which.removeAllListeners('notification');
    which.end().catch(() => {});
    if (closed) return;
    log?.warn({ err }, 'notifications connection lost; reconnecting');
    scheduleReconnect();
  }

  function scheduleReconnect() {
    if (closed || reconnectTimer) return;
    reconnectTimer = setTimeout(() => {
      reconnectTimer = undefined;
      connect().catch((err: unknown) => {
        log?.warn({ err, retryInMs: backoff }, 'notifications connection failed');
        backoff = Math.min(backoff * 2, BACKOFF_MAX_MS);
        scheduleReconnect();
      });
    }, backoff);
    reconnectTimer.unref();
  }

  function scheduleFlush() {
    if (flushTimer || pending.size === 0 || !connected || closed) return;
    flushTimer = setTimeout(() => {
      flushTimer = undefined;
      void inTurn(flush);
    }, COALESCE_MS);
  }

  async function flush(): Promise<void> {
    const target = client;
    if (!target || pending.size === 0) return;
    const batch = [...pending.values()];
    pending.clear();
    try {
      await target.query('select pg_notify(c, p) from unnest($1::text[], $2::text[]) as t(c, p)', [batch.map(([c]) => c), batch.map(([, p]) => p)]);
    } catch (err) {
      // Kept for the next connection (the resync sweep covers anything beyond the bound).
      for (const [channel, payload] of batch) if (pending.size < MAX_PENDING) pending.set(`${channel}\u0000${payload}`, [channel, payload]);
      log?.warn({ err }, 'NOTIFY failed');
    }
  }

  const started = connect().catch((err: unknown) => {
    log?.warn({ err }, 'notifications connection failed; retrying');
    scheduleReconnect();
  });

  return {
    publish(channel, payload = '') {
      assertChannel(channel);
      if (closed) return;
      bus.deliver(channel, payload);
      const key = `${channel}\u0000${payload}`;
      if (!pending.has(key) && pending.size >= MAX_PENDING) return;
      pending.set(key, [channel, payload]);
      scheduleFlush();
    },
    subscribe(channel, handler) {
      return bus.subscribe(channel, handler, (first) => {
        const target = client;
        if (target && connected) inTurn(() => listen(target, first)).catch((err: unknown) => lost(target, err as Error));
      });
    },
    onResync: (handler) => bus.onResync(handler),
    async ready() {
      await started;
      if (connected || closed) return;
      await new Promise<void>((resolve) => readyWaiters.push(resolve));
    },
    async close() {
      if (closed) return;
      closed = true;
      clearTimeout(reconnectTimer);
      if (flushTimer) {
        clearTimeout(flushTimer);
        flushTimer = undefined;
        void inTurn(flush);
      }
      await queries;
      for (const resolve of readyWaiters) resolve();
      readyWaiters = [];
      const last = client;
      client = undefined;
      connected = false;
      if (last) {
        last.removeAllListeners('end');
        await last.end().catch(() => {});
      }
    },
  };
}

/**
 * One websocket to the node's RPC PubSub (SOLANA_WS_URL), as the subscription kinds share it:
 * signatures (solana-subscriptions.ts) and accounts (solana-account-subscriptions.ts) each hold
 * one. It connects when asked (`ensure`), tells the kind when it opened (subscribe everything
 * again) and closed (forget the node's subscription ids), and reconnects with a doubling,
 * jittered back-off while the kind still `wants` it. The URL may carry an API key: never logged.
 */

export interface PubSubLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface PubSubSocketSettings {
  wsUrl: string;
  /** First reconnect delay, doubled per failed attempt up to `reconnectMaxMs`. */
  reconnectMinMs: number;
  reconnectMaxMs: number;
}

export interface PubSubHandlers {
  /** Whether to stay connected (reconnect after a close). */
  wants(): boolean;
  opened(reconnected: boolean): void;
  closed(wasOpen: boolean): void;
  message(message: PubSubMessage): void;
}

export interface PubSubMessage {
  id?: number;
  result?: unknown;
  error?: { message?: string };
  method?: string;
  params?: { subscription?: number };
}

export interface PubSubSocket {
  /** Sends a request on the open socket; answers its id (undefined: not open, nothing sent). */
  send(method: string, params: unknown[]): number | undefined;
  /** Connects unless connected or waiting to reconnect. */
  ensure(): void;
  connected(): boolean;
  close(): void;
}

export function createPubSubSocket(settings: PubSubSocketSettings, handlers: PubSubHandlers, log?: PubSubLog): PubSubSocket {
  let socket: WebSocket | undefined;
  let open = false;
  let closed = false;
  let failures = 0;
  let nextRequest = 1;
  let reconnectTimer: ReturnType<typeof setTimeout> | undefined;

  function onMessage(text: string) {
    try {
      handlers.message(JSON.parse(text) as PubSubMessage);
    } catch (err) {
      if (!(err instanceof SyntaxError)) log?.warn({ err }, 'chain websocket: a message was not handled');
    }
  }

  function connect() {
    if (closed || socket) return;
    const ws = new WebSocket(settings.wsUrl);
    socket = ws;
    ws.addEventListener('open', () => {
      open = true;
      const reconnected = failures > 0;
      failures = 0;
      handlers.opened(reconnected);
    });
    ws.addEventListener('message', (event) => onMessage(typeof event.data === 'string' ? event.data : String(event.data)));
    // 'error' is always followed by 'close'.
    ws.addEventListener('close', () => {
      if (socket !== ws) return;
      const wasOpen = open;
      socket = undefined;
      open = false;
      handlers.closed(wasOpen);
      if (closed) return;
      const delay = Math.min(settings.reconnectMaxMs, settings.reconnectMinMs * 2 ** Math.min(failures, 16));
      failures++;
      // Jittered so that many workers do not knock on the node at the same instant.
      reconnectTimer = setTimeout(() => {
        reconnectTimer = undefined;
        if (handlers.wants()) connect();
      }, delay * (0.5 + Math.random() / 2));
      reconnectTimer.unref();
    });
  }

  return {
    send(method, params) {
      if (!open) return undefined;
      const id = nextRequest++;
      socket!.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
      return id;
    },
    ensure() {
      if (!reconnectTimer) connect();
    },
    connected: () => open,
    close() {
      closed = true;
      clearTimeout(reconnectTimer);
      socket?.close();
    },
  };
}

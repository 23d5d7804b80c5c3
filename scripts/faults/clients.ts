/**
 * The suite's clients. `Api` spreads requests over the api processes (a random one each time,
 * as a load balancer without health checks would) and judges every failure: a 503, or a
 * connection-level failure, is allowed only from a process that was starting, draining or down
 * at some moment of the request; any other 5xx, and any failure of a process that was up the
 * whole time, is a violation. `runOrder` is one merchant's customer: it creates a PAYIN or a
 * PAYOUT with an Idempotency-Key, retrying every failure until it gets an answer, checks that a
 * retry replays that answer, then pays it (PIX or deposit) through the sandbox the same way.
 */
import { randomUUID } from 'node:crypto';
import { Agent, fetch } from 'undici';
import type { Slot } from './processes.ts';

export type Json = Record<string, unknown>;

export interface Answer {
  status: number;
  body: Json;
  replayed: boolean;
}

export interface HttpFigures {
  requests: number;
  /** Retries by cause: "connection lost", "503 SERVICE_UNAVAILABLE", "409 CONFLICT", ... */
  retries: Record<string, number>;
  allowed503: number;
  /** 503s of a process that was up, by error code (overload: SERVICE_UNAVAILABLE "busy", PROVIDER_UNAVAILABLE); violations too. */
  busy503: Record<string, number>;
  allowedConnectionFailures: number;
  /** 5xx of a process that was up the whole time (503 included), and its connection failures or timeouts. */
  violations: string[];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Requests in flight per api process, as a load balancer's upstream pool bounds them: the 500
 * clients' requests queue here, and a process serves at most this many at once. Without a bound
 * every client had its own socket, and the process left alone while the other restarted took
 * 500 requests at once: pool checkouts timed out (503 busy) and answers took over 30 s. The
 * request's 30 s deadline starts when it leaves this queue, so it measures the process only.
 */
export const IN_FLIGHT_PER_PROCESS = 32;
const dispatcher = new Agent({ connections: IN_FLIGHT_PER_PROCESS, keepAliveTimeout: 10_000 });

/** A counting semaphore per process: FIFO waiters. */
class Gate {
  private free = IN_FLIGHT_PER_PROCESS;
  private readonly waiters: Array<() => void> = [];
  async enter(): Promise<void> {
    if (this.free > 0) {
      this.free--;
      return;
    }
    await new Promise<void>((resolve) => this.waiters.push(resolve));
  }
  leave(): void {
    const next = this.waiters.shift();
    if (next) next();
    else this.free++;
  }
}

export class Api {
  readonly figures: HttpFigures = { requests: 0, retries: {}, allowed503: 0, busy503: {}, allowedConnectionFailures: 0, violations: [] };
  private readonly slots: Slot[];
  private readonly gates = new Map<Slot, Gate>();

  constructor(slots: Slot[]) {
    this.slots = slots;
    for (const slot of slots) this.gates.set(slot, new Gate());
  }

  private retry(cause: string) {
    this.figures.retries[cause] = (this.figures.retries[cause] ?? 0) + 1;
  }

  /** One request to one process; undefined when it failed in a way that calls for a retry (counted and judged here). */
  async once(method: string, url: string, headers: Record<string, string>, body?: unknown, slot?: Slot): Promise<Answer | undefined> {
    // A process known to be gone is skipped (a load balancer's health check); one that is
    // starting or draining still gets its share, so its 503s and closed connections are judged.
    const candidates = this.slots.filter((s) => s.state !== 'down');
    const pool = candidates.length > 0 ? candidates : this.slots;
    const target = slot ?? pool[Math.floor(Math.random() * pool.length)]!;
    const gate = this.gates.get(target)!;
    await gate.enter();
    try {
      return await this.send(target, method, url, headers, body);
    } finally {
      gate.leave();
    }
  }

  private async send(target: Slot, method: string, url: string, headers: Record<string, string>, body: unknown): Promise<Answer | undefined> {
    const sentAt = Date.now();
    this.figures.requests++;
    let response: Awaited<ReturnType<typeof fetch>>;
    let text: string;
    try {
      response = await fetch(`http://127.0.0.1:${target.port}/api/v1${url}`, {
        method,
        headers: { 'content-type': 'application/json', ...headers },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(30_000),
        dispatcher,
      });
      text = await response.text();
    } catch (err) {
      this.retry('connection lost');
      if (target.wasNotUpDuring(sentAt, Date.now())) this.figures.allowedConnectionFailures++;
      else this.figures.violations.push(`${method} ${url} to ${target.name} (up): ${(err as Error).cause ?? (err as Error).message}`);
      return undefined;
    }
    let parsed: Json;
    try {
      parsed = JSON.parse(text) as Json;
    } catch {
      parsed = { text };
    }
    if (response.status >= 500) {
      this.retry(`${response.status} ${String(parsed.error ?? '')}`);
      if (response.status === 503 && target.wasNotUpDuring(sentAt, Date.now())) this.figures.allowed503++;
      else {
        if (response.status === 503) this.figures.busy503[String(parsed.error)] = (this.figures.busy503[String(parsed.error)] ?? 0) + 1;
        this.figures.violations.push(`${method} ${url} to ${target.name} (up): ${response.status} ${text.slice(0, 300)}`);
      }
      return undefined;
    }
    return { status: response.status, body: parsed, replayed: response.headers.get('idempotent-replayed') === 'true' };
  }

  /**
   * Sends until an answer other than a retryable failure arrives: connection lost, 5xx, 409
   * "in progress" (the key's holder is alive, or died less than the owner lease ago) and 429.
   */
  async untilAnswered(method: string, url: string, headers: Record<string, string>, body: unknown, deadline: number): Promise<Answer | undefined> {
    // Exponential backoff with full jitter, as a well-behaved client retries: 100 ms doubling to 2 s.
    const backOff = (n: number) => sleep(Math.random() * Math.min(2000, 100 * 2 ** n));
    for (let n = 0; Date.now() < deadline; n++) {
      const answer = await this.once(method, url, headers, body);
      if (!answer) {
        await backOff(n);
        continue;
      }
      if (answer.status === 409 && answer.body.error === 'CONFLICT' && String(answer.body.message).includes('in progress')) {
        this.retry('409 in progress');
        await backOff(n);
        continue;
      }
      if (answer.status === 429) {
        this.retry('429');
        await sleep(1000);
        continue;
      }
      return answer;
    }
    return undefined;
  }

  /** For setup steps: one answer with the expected status, or an exception. */
  async expect(status: number, method: string, url: string, headers: Record<string, string>, body?: unknown): Promise<Json> {
    const answer = await this.untilAnswered(method, url, headers, body, Date.now() + 60_000);
    if (answer?.status !== status) throw new Error(`${method} ${url}: ${answer?.status ?? 'no answer'} ${JSON.stringify(answer?.body)}`);
    return answer.body;
  }
}

export interface Merchant {
  name: string;
  id: string;
  auth: Record<string, string>;
  receiverId: string;
  endpointId: string;
}

export type OrderKind = 'PAYIN' | 'PAYOUT';

export interface OrderPlan {
  i: number;
  merchant: Merchant;
  type: OrderKind;
  /** A PAYIN paid with another amount: refunded (REFUNDED) rather than completed. */
  wrongAmount: boolean;
}

/** One keyed request's story: its first answer, and whether the retry after it replayed it. */
export interface Keyed {
  key: string;
  first?: Answer;
  replayMatches?: boolean;
  /** The answer to the retry after the first, when it did not replay the first. */
  mismatch?: Answer;
  unexpected?: string;
}

export interface OrderOutcome {
  plan: OrderPlan;
  create: Keyed;
  pay: Keyed;
  orderId?: string;
}

/** Error bodies carry the replaying request's own requestId: everything else must be equal. */
function sameAnswer(a: Answer, b: Answer): boolean {
  const strip = ({ requestId: _requestId, ...rest }: Json) => rest;
  return a.status === b.status && JSON.stringify(a.status >= 400 ? strip(a.body) : a.body) === JSON.stringify(b.status >= 400 ? strip(b.body) : b.body);
}

/**
 * Sends one keyed request until answered, then once more: the second answer must be the first,
 * replayed. `accept` says which first answers are final (others are unexpected).
 */
async function keyed(api: Api, url: string, merchant: Merchant, key: string, body: unknown, deadline: number, accept: (a: Answer) => boolean, onAnswered: () => void): Promise<Keyed> {
  const story: Keyed = { key };
  const headers = { ...merchant.auth, 'idempotency-key': key };
  const first = await api.untilAnswered('POST', url, headers, body, deadline);
  if (!first) return { ...story, unexpected: 'no answer before the deadline' };
  story.first = first;
  if (!accept(first)) return { ...story, unexpected: `${first.status} ${JSON.stringify(first.body)}` };
  onAnswered();
  const again = await api.untilAnswered('POST', url, headers, body, deadline);
  story.replayMatches = again !== undefined && again.replayed && sameAnswer(first, again);
  if (!story.replayMatches) story.mismatch = again;
  return story;
}

export function planOrders(count: number, a: Merchant, b: Merchant): OrderPlan[] {
  return Array.from({ length: count }, (_, i) => {
    const type: OrderKind = i % 3 === 2 ? 'PAYOUT' : 'PAYIN';
    return { i, merchant: i % 10 === 9 ? b : a, type, wrongAmount: type === 'PAYIN' && i % 20 === 0 };
  });
}

/** Unique per order within its merchant and type, so orders without an answer can be found. */
export const payinAmount = (i: number) => Number(((1000 + i) / 100).toFixed(2));
export const payoutAmount = (i: number) => Number((2 + i / 100).toFixed(2));

export async function runOrder(api: Api, plan: OrderPlan, deadline: number, progress: () => void): Promise<OrderOutcome> {
  const key = `fault-${plan.i}-${randomUUID()}`;
  const { merchant, type } = plan;
  const body =
    type === 'PAYIN'
      ? { receiverId: merchant.receiverId, amountBrl: payinAmount(plan.i) }
      : { receiverId: merchant.receiverId, amountCrypto: payoutAmount(plan.i), sourceToken: 'USDC' };
  const create = await keyed(api, type === 'PAYIN' ? '/payin' : '/payout', merchant, key, body, deadline, (a) => a.status === 201, progress);
  const outcome: OrderOutcome = { plan, create, pay: { key: `${key}-pay` } };
  if (!create.first || create.unexpected) return outcome;
  const orderId = create.first.body.id as string;
  outcome.orderId = orderId;
  const [url, payBody] =
    type === 'PAYIN'
      ? [`/sandbox/orders/${orderId}/pix-payment`, plan.wrongAmount ? { amountBrl: payinAmount(plan.i) + 1 } : {}]
      : [`/sandbox/orders/${orderId}/deposit`, {}];
  // 200: paid. A 409 naming the order's status: the payment was made by an attempt whose answer
  // was lost with its process (the sandbox routes store their answer after the commit), and the
  // retry that took the key over found the order paid; the drain then shows it progressed.
  const paid = (a: Answer) => a.status === 200 || (a.status === 409 && typeof (a.body.details as Json | undefined)?.status === 'string');
  outcome.pay = await keyed(api, url, merchant, outcome.pay.key, payBody, deadline, paid, progress);
  return outcome;
}

/**
 * The fault suite's processes: `src/main.ts` children started with one role each (ROLES=api or
 * ROLES=worker), on one PostgreSQL and one DATA_DIR (so they share the development keys), that
 * the suite kills with SIGKILL, stops with SIGTERM and starts again.
 *
 * An api process is ready when GET /healthz answers; a worker when it logs "worker started".
 * Each api slot remembers its state over time (up, starting, draining, down) so a client can
 * tell whether a 503 came from a process that was starting or shutting down (allowed) or from
 * one that was up (a failure).
 */
import { type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { runTs, waitFor } from '../../test/helpers/processes.ts';

export type SlotState = 'up' | 'starting' | 'draining' | 'down';

interface Child {
  process: ChildProcess;
  exited: Promise<unknown>;
  output(): string;
}

function spawnMain(env: Record<string, string>): Child {
  const child = runTs('src/main.ts', [], env);
  let output = '';
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  return { process: child, exited: once(child, 'exit'), output: () => output };
}

/** One role's place in the cluster: at most one process at a time, restarted by the suite. */
export class Slot {
  readonly name: string;
  readonly role: 'api' | 'worker';
  private readonly env: Record<string, string>;
  private child?: Child;
  private stateValue: SlotState = 'down';
  /** Times at which the state left 'up' and came back: [from, to) windows, to undefined while open. */
  readonly notUp: Array<{ from: number; to?: number; why: string }> = [];
  kills = 0;
  terms = 0;
  /** Output of processes that exited on their own (not killed by the suite), for the report. */
  readonly crashes: string[] = [];
  /** Exit codes after SIGTERM: 0, or 1 when the 10 s grace ran out (main.ts forces the exit). */
  readonly termExits: Array<number | null> = [];
  private readonly note: (what: string) => void;

  constructor(name: string, role: 'api' | 'worker', env: Record<string, string>, note: (what: string) => void = () => {}) {
    this.name = name;
    this.role = role;
    this.note = note;
    this.env = { ...env, ROLES: role, LOG_LEVEL: role === 'worker' ? 'info' : 'warn' };
  }

  get port(): string | undefined {
    return this.role === 'api' ? this.env.PORT : undefined;
  }

  get state(): SlotState {
    return this.stateValue;
  }

  private setState(state: SlotState, why: string) {
    const now = Date.now();
    if (state !== 'up' && this.stateValue === 'up') this.notUp.push({ from: now, why });
    if (state === 'up') {
      const open = this.notUp.at(-1);
      if (open && open.to === undefined) open.to = now;
    }
    this.stateValue = state;
  }

  /** Whether the slot was other than up at any time in [from, to]. */
  wasNotUpDuring(from: number, to: number): boolean {
    return this.notUp.some((w) => w.from <= to && (w.to === undefined || w.to >= from));
  }

  async start(): Promise<void> {
    this.setState('starting', 'start');
    const child = spawnMain(this.env);
    this.child = child;
    void child.exited.then(() => {
      if (this.child === child) this.setState('down', 'exited');
      if (!child.process.killed) this.crashes.push(`${this.name} exited on its own (${child.process.exitCode}):\n${child.output().slice(-4000)}`);
    });
    const ready =
      this.role === 'api'
        ? async () => ((await fetch(`http://127.0.0.1:${this.port}/healthz`)).ok ? true : undefined)
        : async () => (child.output().includes('"worker started"') ? true : undefined);
    await waitFor(ready, 60_000).catch((err: Error) => {
      child.process.kill('SIGKILL');
      throw new Error(`${this.name}: ${err.message}\n${child.output()}`);
    });
    this.setState('up', 'ready');
    this.note(`${this.name} up`);
  }

  /** kill -9, wait for the exit, start again after `pauseMs`. */
  async kill9AndRestart(pauseMs = 0): Promise<void> {
    const child = this.child;
    if (!child || child.process.exitCode !== null || child.process.signalCode !== null) return;
    this.kills++;
    this.setState('down', 'kill -9');
    child.process.kill('SIGKILL');
    await child.exited;
    if (pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
    await this.start();
  }

  /** SIGTERM (the process drains and exits by itself), then start again. Resolves with its exit code. */
  async termAndRestart(): Promise<number | null> {
    const child = this.child;
    if (!child) return null;
    this.terms++;
    this.setState('draining', 'SIGTERM');
    child.process.kill('SIGTERM');
    await child.exited;
    const code = child.process.exitCode;
    this.termExits.push(code);
    await this.start();
    return code;
  }

  /** SIGTERM and wait, at the end of the run. */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.process.exitCode !== null || child.process.signalCode !== null) return;
    this.setState('draining', 'stop');
    child.process.kill('SIGTERM');
    await child.exited;
  }
}

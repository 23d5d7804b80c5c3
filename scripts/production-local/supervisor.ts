/**
 * What keeps `npm run production-local` honest about its processes: one line per step on stdout,
 * every child process started through here (its output in <state>/logs/<name>.log, never on the
 * terminal), and one stop for everything: on SIGINT or SIGTERM, on a failed step, or when a child
 * exits by itself, the service's processes get SIGTERM first (they finish what is in flight), the
 * simulators next, then the in-process servers close; a child still alive after its grace is
 * killed, so no process outlives the command.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import path from 'node:path';

/** main.ts's own grace is 10 s (SHUTDOWN_GRACE_MS): a little more, then SIGKILL. */
const CHILD_GRACE_MS = 12_000;

export interface Child {
  name: string;
  process: ChildProcess;
  logFile: string;
  /** Resolves with the first output line that `match` accepts (stdout or stderr); rejects if the child exits first. */
  line(match: (line: string) => boolean, timeoutMs: number): Promise<string>;
}

interface Tracked extends Child {
  /** Stopped in waves: 0 (the service) before 1 (the simulators). */
  wave: number;
  exited: Promise<unknown>;
  expectedExit: boolean;
  /** A command run to its end (runNode), not a process that serves. */
  command: boolean;
}

export interface Supervisor {
  /** Runs one step and prints its line: `✓ name  detail (1.2 s)`, or `✗ name  error` and throws. */
  step<T>(name: string, run: () => Promise<T>, detail: (result: T) => string): Promise<T>;
  /** A line that is not a step (what to do next, a notice). */
  say(text: string): void;
  /** Starts `node <script> ...args` with exactly `env` (plus PATH and HOME). */
  spawnNode(name: string, script: string, args: string[], env: Record<string, string>, wave: 0 | 1): Child;
  /** Runs a command to its end (the admin CLI, migrations): its stdout; a failure throws with its last lines. */
  runNode(name: string, script: string, args: string[], env: Record<string, string>): Promise<string>;
  /** Closed after every child has exited, the last registered first. */
  onStop(close: () => Promise<void> | void): void;
  /** Resolves when something asks for the stop (a signal, a child that died); with the exit code to use. */
  readonly stopRequested: Promise<number>;
  requestStop(code: number, why?: string): void;
  /** Stops everything; resolves with how many served, those that exited otherwise than 0 (killed after the grace included), and any still alive (none, unless the OS refused a kill). */
  stop(): Promise<{ stopped: number; unclean: string[]; alive: string[] }>;
  /** SIGKILL to every child still alive (a second Ctrl-C). */
  killAll(): void;
}

export function createSupervisor(logDir: string, options: { write?: (line: string) => void; graceMs?: number } = {}): Supervisor {
  const write = options.write ?? ((line: string) => process.stdout.write(`${line}\n`));
  const graceMs = options.graceMs ?? CHILD_GRACE_MS;
  const started = Date.now();
  const children: Tracked[] = [];
  const closers: Array<() => Promise<void> | void> = [];
  /** Set once a stop is asked for: children exiting after that are part of the stop (a terminal's Ctrl-C reaches them too). */
  let stopping = false;
  let resolveStop!: (code: number) => void;
  const stopRequested = new Promise<number>((resolve) => (resolveStop = resolve));
  const elapsed = () => `${((Date.now() - started) / 1000).toFixed(1).padStart(5)} s`;

  function requestStop(code: number, why?: string) {
    if (why) write(`${elapsed()}  ■ ${why}`);
    stopping = true;
    resolveStop(code);
  }

  function spawnNode(name: string, script: string, args: string[], env: Record<string, string>, wave: 0 | 1, kind: { command?: boolean } = {}): Child & { output(): string; exited: Promise<unknown> } {
    if (stopping) throw new Error(`${name}: not started, production-local is stopping`);
    const logFile = path.join(logDir, `${name}.log`);
    const log = createWriteStream(logFile, { flags: 'a' });
    // The project's pinned Node (npm run puts node_modules/.bin first), never the inherited environment.
    const child = spawn(process.execPath, [script, ...args], { env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    const listeners = new Set<(line: string) => void>();
    let recent = '';
    for (const stream of [child.stdout!, child.stderr!]) {
      let partial = '';
      stream.on('data', (chunk: Buffer) => {
        log.write(chunk);
        recent = (recent + chunk.toString('utf8')).slice(-8000);
        const lines = (partial + chunk.toString('utf8')).split('\n');
        partial = lines.pop() ?? '';
        for (const text of lines) for (const listener of listeners) listener(text);
      });
    }
    // 'close': the process exited and its output was read to the end; then its log file is
    // written out, or a process.exit right after the stop would lose the last lines.
    const exited = once(child, 'close').then(() => new Promise<void>((resolve) => log.end(resolve)));
    const tail = () => recent.trimEnd().split('\n').slice(-15).map((line) => `      | ${line.slice(0, 400)}`).join('\n');
    const tracked: Tracked = {
      name,
      process: child,
      logFile,
      wave,
      exited,
      expectedExit: kind.command === true,
      command: kind.command === true,
      line: (match, timeoutMs) =>
        new Promise<string>((resolve, reject) => {
          const timer = setTimeout(() => done(new Error(`${name}: not ready within ${timeoutMs} ms; see ${logFile}`)), timeoutMs);
          const onExit = () => done(new Error(`${name} exited (code ${child.exitCode ?? child.signalCode}) before it was ready:\n${tail()}`));
          const listener = (text: string) => (match(text) ? done(undefined, text) : undefined);
          function done(error?: Error, text?: string) {
            clearTimeout(timer);
            listeners.delete(listener);
            if (error) reject(error);
            else resolve(text!);
          }
          listeners.add(listener);
          void exited.then(onExit);
        }),
    };
    void exited.then(() => {
      if (!tracked.expectedExit && !stopping) requestStop(1, `${name} exited by itself (code ${child.exitCode ?? child.signalCode}); stopping everything. Its log: ${logFile}\n${tail()}`);
    });
    children.push(tracked);
    return { ...tracked, output: () => recent };
  }

  async function runNode(name: string, script: string, args: string[], env: Record<string, string>): Promise<string> {
    const child = spawnNode(name, script, args, env, 0, { command: true });
    let stdout = '';
    child.process.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    await child.exited;
    if (child.process.exitCode !== 0) throw new Error(`${name} failed (code ${child.process.exitCode ?? child.process.signalCode}): ${child.output().trim().split('\n').slice(-3).join(' | ')}`);
    return stdout;
  }

  async function stopWave(wave: number, killed: string[]) {
    const alive = children.filter((c) => c.wave === wave && c.process.exitCode === null && c.process.signalCode === null);
    for (const child of alive) {
      child.expectedExit = true;
      child.process.kill('SIGTERM');
    }
    await Promise.all(
      alive.map(async (child) => {
        const timer = setTimeout(() => {
          killed.push(child.name);
          child.process.kill('SIGKILL');
        }, graceMs);
        await child.exited;
        clearTimeout(timer);
      }),
    );
  }

  return {
    async step(name, run, detail) {
      const stepStarted = Date.now();
      try {
        const result = await run();
        write(`${elapsed()}  ✓ ${name.padEnd(16)} ${detail(result)} (${((Date.now() - stepStarted) / 1000).toFixed(1)} s)`);
        return result;
      } catch (err) {
        // A step cut short by the stop is not a failure of its own: only the cause is printed.
        if (!stopping) write(`${elapsed()}  ✗ ${name.padEnd(16)} ${(err as Error).message}`);
        throw err;
      }
    },
    say: (text) => write(`${elapsed()}    ${text}`),
    spawnNode: (name, script, args, env, wave) => spawnNode(name, script, args, env, wave),
    runNode,
    onStop: (close) => void closers.push(close),
    stopRequested,
    requestStop,
    async stop() {
      stopping = true;
      for (const child of children) child.expectedExit = true;
      const killed: string[] = [];
      await stopWave(0, killed);
      await stopWave(1, killed);
      for (const close of closers.reverse()) await Promise.resolve(close()).catch(() => undefined);
      const served = children.filter((c) => !c.command);
      const unclean = served.filter((c) => c.process.exitCode !== 0).map((c) => `${c.name} (${killed.includes(c.name) ? 'killed after the grace' : `exit ${c.process.exitCode ?? c.process.signalCode}`})`);
      return { stopped: served.length, unclean, alive: children.filter((c) => isAlive(c.process.pid)).map((c) => `${c.name} (pid ${c.process.pid})`) };
    },
    killAll() {
      for (const child of children) if (child.process.exitCode === null && child.process.signalCode === null) child.process.kill('SIGKILL');
    },
  };
}

/** Whether a process with this pid still exists (signal 0 checks without sending anything). */
function isAlive(pid: number | undefined): boolean {
  if (pid === undefined) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A path as short as it can be said in a line: relative inside the project, absolute outside it. */
export function shown(file: string): string {
  return file.startsWith(`${process.cwd()}${path.sep}`) ? path.relative(process.cwd(), file) : file;
}

/** One `src/main.ts` process for the fault suite: started, answering /healthz, killable with SIGKILL. */
import { once } from 'node:events';
import { runTs, waitFor } from '../../test/helpers/processes.ts';

export interface ApiProcess {
  kill9(): void;
  /** Resolves when the process has exited. */
  exited: Promise<unknown>;
  /** SIGTERM, then waits for the exit. */
  stop(): Promise<void>;
}

export async function startApi(env: Record<string, string>): Promise<ApiProcess> {
  const child = runTs('src/main.ts', [], env);
  let output = '';
  child.stdout!.on('data', (chunk) => (output = (output + chunk).slice(-20_000)));
  child.stderr!.on('data', (chunk) => (output = (output + chunk).slice(-20_000)));
  const exited = once(child, 'exit');
  const health = `http://127.0.0.1:${env.PORT}/healthz`;
  await waitFor(async () => ((await fetch(health)).ok ? true : undefined), 60_000).catch((err: Error) => {
    child.kill('SIGKILL');
    throw new Error(`${err.message}\n${output}`);
  });
  return {
    kill9: () => child.kill('SIGKILL'),
    exited,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      await exited;
    },
  };
}

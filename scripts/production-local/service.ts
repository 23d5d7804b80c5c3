/**
 * The service as a deployment runs it (docs/operations/deployment.md "Processes and roles"):
 * N processes with ROLES=api, each on its own port behind the TLS front, and M with ROLES=worker
 * (each serving its /healthz, /readyz and /metrics on an OPERATIONS_PORT of its own),
 * all `src/main.ts` (what `npm start` runs) on the one database and the one set of keys. An api
 * process is ready when it logs "listening" (its app is built and the port open), a worker when it
 * logs "worker started".
 */
import type { Env } from './settings.ts';
import type { Supervisor } from './supervisor.ts';

/** A first start on two busy cores: module loading, the schema check, the PSP's OAuth token. */
const READY_MS = 60_000;

const logged = (message: string) => (line: string) => line.includes(`"msg":"${message}"`);

export async function startService(run: Supervisor, env: Env, apiPorts: number[], workerPorts: number[]): Promise<string[]> {
  const starting = [
    ...apiPorts.map((port, i) => run.spawnNode(`api-${i + 1}`, 'src/main.ts', [], { ...env, ROLES: 'api', PORT: String(port) }, 0).line(logged('listening'), READY_MS)),
    // Each worker's health and metrics on a port of its own (OPERATIONS_PORT), as a deployment scrapes them.
    ...workerPorts.map((port, i) => run.spawnNode(`worker-${i + 1}`, 'src/main.ts', [], { ...env, ROLES: 'worker', OPERATIONS_PORT: String(port) }, 0).line(logged('worker started'), READY_MS)),
  ];
  await Promise.all(starting);
  return [...apiPorts.map((port, i) => `api-${i + 1} :${port}`), ...workerPorts.map((port, i) => `worker-${i + 1} :${port} (/metrics)`)];
}

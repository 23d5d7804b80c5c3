/**
 * What every command-line tool shares: its configuration, and failures an operator can fix
 * (a bad argument or setting, the database busy or unreachable) ended with one line on stderr
 * naming the problem and the fix, no stack trace. A failure nobody can fix from the command line
 * (a bug) keeps its stack. The tools check their arguments before they import the service's
 * modules (dynamic imports), so a typo is answered at once.
 */
import { ConfigError, loadConfig } from '../config.ts';
import { AppError } from '../errors.ts';
import type { RuntimeConfig } from '../runtime-config.ts';
import { explainStartupFailure } from '../startup-failure.ts';

let tool = 'cli';
let loaded: RuntimeConfig | undefined;

/** Names the tool in its failure lines (`admin: ...`). */
export function cliName(name: string): void {
  tool = name;
}

/** The service's configuration for a command-line tool; a bad setting ends it, one line per bad variable. */
export async function cliConfig(): Promise<RuntimeConfig> {
  try {
    const { resolveRuntimeConfig } = await import('../runtime-config.ts');
    loaded = (await resolveRuntimeConfig(loadConfig())).config;
    return loaded;
  } catch (err) {
    if (err instanceof ConfigError) fail(...err.problems.map((problem) => `invalid configuration: ${problem}`));
    throw err;
  }
}

export function fail(...lines: string[]): never {
  for (const line of lines) console.error(`${tool}: ${line}`);
  process.exit(1);
}

/**
 * The one line for a failure an operator can fix: what the server says when it cannot start
 * (src/startup-failure.ts: database busy, unreachable, missing, credentials refused), or a
 * refusal of the service (an unknown merchant). Undefined for anything else.
 */
export function explainCliFailure(err: unknown): string | undefined {
  if (err instanceof AppError) return err.message;
  if (!loaded) return undefined;
  return explainStartupFailure(err, { host: loaded.host, port: loaded.port, databaseUrl: loaded.databaseUrl, dataDir: loaded.dataDir });
}

/** Runs a tool's work: a failure an operator can fix ends it with its one line, anything else is rethrown. */
export async function runCli(work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (err) {
    const known = explainCliFailure(err);
    if (known) fail(known);
    throw err;
  }
}

/** Node's parseArgs refusal (an unknown option, a missing value) as one line ending in the usage. */
export function parseArgsProblem(err: unknown, usage: string): string | undefined {
  const code = (err as { code?: unknown }).code;
  if (typeof code !== 'string' || !code.startsWith('ERR_PARSE_ARGS_')) return undefined;
  const problem = String((err as Error).message).split('. ')[0]!.replace(/\.$/, '');
  return `${problem.charAt(0).toLowerCase()}${problem.slice(1)}; usage: ${usage}`;
}

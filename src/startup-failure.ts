/**
 * The start-up failures an operator meets and can fix, as one line naming the fix (no stack
 * trace): the database is missing or unreachable, the port is taken, the embedded database is
 * locked by another process, a platform key is missing, WALLET_KEK does not open the stored keys or a
 * rotation lacks its previous KEK (platform-keys/service.ts), a configured token mint is refused (solana-mints.ts). Anything else is
 * unexpected and keeps its stack.
 */
import type { Config } from './config.ts';

export type StartupSettings = Pick<Config, 'host' | 'port' | 'databaseUrl' | 'dataDir'> & { operationsPort?: number | undefined; roles?: readonly string[] };

type ErrorLike = { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };

/** The error and its causes (and an AggregateError's members), outermost first. */
function chain(err: unknown): ErrorLike[] {
  const found: ErrorLike[] = [];
  const pending: unknown[] = [err];
  while (pending.length > 0 && found.length < 20) {
    const next = pending.shift();
    if (next === null || typeof next !== 'object') continue;
    const error = next as ErrorLike;
    found.push(error);
    if (error.cause !== undefined) pending.push(error.cause);
    if (Array.isArray(error.errors)) pending.push(...(error.errors as unknown[]));
  }
  return found;
}

/** host:port/database of a PostgreSQL URL, without its user or password. */
function describeDatabase(url: string | undefined): { where: string; name: string } {
  try {
    const parsed = new URL(url ?? '');
    return { where: `${parsed.hostname}:${parsed.port || '5432'}`, name: decodeURIComponent(parsed.pathname.slice(1)) || '(default)' };
  } catch {
    return { where: '(unparsable DATABASE_URL)', name: '(unknown)' };
  }
}

export function explainStartupFailure(err: unknown, settings: StartupSettings): string | undefined {
  const errors = chain(err);
  const codes = new Set(errors.map((error) => error.code));
  const database = describeDatabase(settings.databaseUrl);
  // A worker-only process listens on OPERATIONS_PORT, if anywhere.
  const [port, variable] = settings.roles && !settings.roles.includes('api') ? [settings.operationsPort, 'OPERATIONS_PORT'] : [settings.port, 'PORT'];
  if (codes.has('EADDRINUSE')) {
    return `port ${port} on ${settings.host} is already in use: stop the process holding it, or set ${variable} to a free port`;
  }
  if (codes.has('EACCES') && errors.some((error) => String(error.message).includes('listen'))) {
    return `not allowed to listen on port ${port}: use a port above 1023 (set ${variable})`;
  }
  // Their messages name the fix and carry no secret (src/modules/platform-keys/service.ts, src/platform/key-rotation.ts).
  for (const code of ['EMBEDDED_DATABASE_LOCKED', 'PLATFORM_KEYS_MISSING', 'PLATFORM_KEY_EXISTS', 'TREASURY_WALLETS_LOWERED', 'KEK_VERSION_MISSING', 'KEK_DOES_NOT_OPEN', 'TOKEN_MINT_REFUSED']) {
    if (codes.has(code)) return String(errors.find((error) => error.code === code)!.message);
  }
  if (codes.has('3D000')) {
    return `database "${database.name}" does not exist on ${database.where}: create it (createdb -h ${database.where.split(':')[0]} ${database.name}) or fix DATABASE_URL`;
  }
  if (codes.has('28P01') || codes.has('28000')) {
    return `PostgreSQL at ${database.where} refused the credentials of DATABASE_URL: fix the user or password`;
  }
  for (const code of ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH']) {
    if (codes.has(code)) return `cannot reach PostgreSQL at ${database.where} (${code}): start it, or fix DATABASE_URL`;
  }
  return undefined;
}

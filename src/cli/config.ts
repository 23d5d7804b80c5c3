import { ConfigError, loadConfig } from '../config.ts';
import { resolveRuntimeConfig, type RuntimeConfig } from '../runtime-config.ts';

/** The service's configuration for a command-line tool; a bad setting ends it with the message. */
export async function cliConfig(): Promise<RuntimeConfig> {
  try {
    return (await resolveRuntimeConfig(loadConfig())).config;
  } catch (err) {
    if (err instanceof ConfigError) fail(err.message);
    throw err;
  }
}

export function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

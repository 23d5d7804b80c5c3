/**
 * `npm run production-local`: the service in production on this machine, with every part it
 * demands running locally (README "Production on this machine"; the parts: start.ts). One line
 * per step; Ctrl-C (SIGINT) or SIGTERM stops every process it started. With `--smoke` it runs a
 * PAYIN and a PAYOUT through the deployment (smoke.ts), stops, drops its database and exits 0,
 * or exits 1 keeping its state directory to read; with `--hold` too, it keeps everything running
 * after the smoke run passed, until a signal.
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { parseOptions, USAGE } from './options.ts';
import { dropDatabase } from './postgres.ts';
import { runSmoke } from './smoke.ts';
import { type Deployment, freshStateDir, startDeployment } from './start.ts';
import { createSupervisor, shown } from './supervisor.ts';

let options;
try {
  options = parseOptions(process.argv.slice(2));
} catch (err) {
  console.error(`production-local: ${(err as Error).message}${(err as Error).message.includes('usage:') ? '' : `\n${USAGE}`}`);
  process.exit(1);
}
try {
  freshStateDir(options.stateDir);
} catch (err) {
  console.error(`production-local: ${(err as Error).message}`);
  process.exit(1);
}

const run = createSupervisor(path.join(options.stateDir, 'logs'));
const started = Date.now();
let firstSignalAt: number | undefined;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    // A terminal's Ctrl-C reaches npm too, which passes it on: the same Ctrl-C arrives twice
    // within milliseconds. Only a second Ctrl-C a person typed later skips the graceful stop.
    if (firstSignalAt !== undefined) return Date.now() - firstSignalAt > 1000 ? run.killAll() : undefined;
    firstSignalAt = Date.now();
    run.requestStop(0, `${signal}: stopping every process (Ctrl-C again to kill them at once)`);
  });
}

function readyLines(deployment: Deployment): void {
  run.say(`ready: the merchant API at ${deployment.apiUrl} (trust ${shown(deployment.tls.caCertFile)}), the merchant's key and secret in ${shown(path.join(deployment.stateDir, 'merchant.json'))}`);
  run.say(`the admin CLI on this deployment: set -a; . ${shown(path.join(deployment.stateDir, 'service.env'))}; set +a; npm run -s admin -- <command>`);
  run.say('Ctrl-C stops everything');
}

/** A stop asked for (a signal, a child that died) while starting or during the smoke run: its code ends the run. */
class StopRequested extends Error {
  readonly code: number;
  constructor(code: number) {
    super('stop requested');
    this.code = code;
  }
}

let code: number;
try {
  // Whichever loses a race still settles later: handled here, so its rejection cannot end the process before the stop.
  const handled = <T>(promise: Promise<T>) => (promise.catch(() => undefined), promise);
  const stopped = handled(run.stopRequested.then((c) => Promise.reject(new StopRequested(c))));
  const deployment = await Promise.race([handled(startDeployment(run, options)), stopped]);
  if (options.smoke) {
    await Promise.race([handled(runSmoke(run, deployment)), stopped]);
    run.say(`smoke: passed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
  if (!options.smoke || options.hold) {
    readyLines(deployment);
    code = await run.stopRequested;
  } else code = 0;
} catch (err) {
  // A smoke run stopped before it passed has failed, whatever stopped it.
  code = err instanceof StopRequested && !options.smoke ? err.code : 1;
}

const { stopped, unclean, alive } = await run.stop();
run.say(`stopped: ${stopped} processes ended, ${unclean.length === 0 ? 'each with exit 0' : `not cleanly: ${unclean.join(', ')}`}; ${alive.length === 0 ? 'none left running' : `STILL RUNNING: ${alive.join(', ')}`}`);
if (alive.length > 0 || unclean.length > 0) code = 1;
if (options.smoke && code === 0) {
  // A passed smoke run leaves nothing behind; held, its logs and mail stay to be read.
  await dropDatabase(options.postgres, options.database).catch(() => undefined);
  if (!options.hold) rmSync(options.stateDir, { recursive: true, force: true });
} else if (code !== 0) {
  run.say(`failed (exit ${code}); the logs are in ${shown(path.join(options.stateDir, 'logs'))}`);
}
process.exit(code);

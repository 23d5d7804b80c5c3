/**
 * `npm run admin -- report operations --month YYYY-MM [--format csv|jsonl]`: the month's
 * operations register (docs/architecture/operations-register.md) written to stdout, the same
 * file GET /admin/reports/operations answers. The arguments are checked before the database is
 * opened; the file is written as it is read, waiting for stdout to drain. The export is recorded in
 * the audit log as `cli:<system user>`, as the API's are by operator.
 */
import { once } from 'node:events';
import os from 'node:os';
import { saoPauloMonthRange } from '../lib/sao-paulo-time.ts';
import { REPORT_FORMATS } from '../modules/operations-register/formatters.ts';
import type { RuntimeConfig } from '../runtime-config.ts';
import { fail } from './config.ts';

export const REPORT_USAGE = `npm run admin -- report operations --month YYYY-MM [--format ${REPORT_FORMATS.join('|')}]`;

export interface ReportArgs {
  month: string;
  format: string;
}

/** The report asked for, or the usage line and exit 1. */
export function checkReportArgs(positionals: string[], values: { month?: string | undefined; format?: string | undefined }): ReportArgs {
  if (positionals[0] !== 'operations' || positionals.length > 1) fail(`the only report is "operations"; usage: ${REPORT_USAGE}`);
  const month = values.month ?? '';
  if (!saoPauloMonthRange(month)) fail(`--month must be a calendar month, YYYY-MM (São Paulo time); usage: ${REPORT_USAGE}`);
  const format = values.format ?? 'csv';
  if (!(REPORT_FORMATS as string[]).includes(format)) fail(`--format must be ${REPORT_FORMATS.join(' or ')}; usage: ${REPORT_USAGE}`);
  return { month, format };
}

export async function runReportCommand(config: RuntimeConfig, args: ReportArgs): Promise<void> {
  const [{ openConfiguredDatabase }, { createOperationsReport }, { createPersonalData }, { keyVaultSettings }] = await Promise.all([
    import('../db/open-configured.ts'),
    import('../modules/operations-register/report.ts'),
    import('../lib/personal-data.ts'),
    import('../key-custody.ts'),
  ]);
  const database = await openConfiguredDatabase(config);
  try {
    const file = await createOperationsReport({ db: database.db, personalData: createPersonalData(keyVaultSettings(config)), pageSize: config.orders.exportPageSize }).start(args, { actor: `cli:${os.userInfo().username}` });
    for await (const chunk of file.body) {
      if (!process.stdout.write(chunk)) await once(process.stdout, 'drain');
    }
  } finally {
    await database.close();
  }
}

/**
 * GET /admin/reports/operations: one month of the operations register as a file, for operators
 * with `reports.export` (COMPLIANCE, ADMIN; the guard's READ_PERMISSIONS), each export recorded in
 * the audit log. Thin: the month, the file and its record are report.ts's.
 */
import { Readable } from 'node:stream';
import { Type } from 'typebox';
import { StrictObject, errorResponses } from '../../http/schemas.ts';
import { adminActor } from '../../http/audit-actor.ts';
import type { App } from '../../http/types.ts';
import { REGISTER_COLUMNS } from './formatters.ts';
import { REPORT_FORMATS, type OperationsReport } from './report.ts';

const DESCRIPTION =
  "The operations register's rows of one calendar month in São Paulo time (America/Sao_Paulo: from the first day's 00:00 to the next month's, UTC−3), oldest first: one row per PIX and on-chain movement of a client order, written when the movement was confirmed (PIX_IN, PIX_REFUND, PIX_OUT, CHAIN_TRANSFER, CHAIN_DEPOSIT), with the client, the wallet and the travel-rule parties. " +
  'The data the regulators\' reports are built from, not a certified filing. ' +
  `\`format=csv\` (default): RFC 4180, CRLF, a header line with the columns ${REGISTER_COLUMNS.join(', ')}; null is an empty cell, and a text cell starting with =, +, -, @, a tab or CR is prefixed with a single quote. ` +
  '`format=jsonl`: one JSON object per line with the same keys in the same order. Amounts are decimal text (quantity in the asset\'s units, valueBrl with two places), times ISO 8601 UTC. ' +
  'Written as it is read (a page at a time), never capped. The file name is operations-<month>.<format>. A month that is not YYYY-MM is 400 VALIDATION_ERROR. ' +
  'The file holds every client\'s personal data: an operator needs the `reports.export` permission (COMPLIANCE, ADMIN; others 403 ROLE_NOT_ALLOWED), and every export is recorded in the audit log before the file starts (action `report.export`, target `operations-<month>`, the month and format in details), as the CLI\'s are. The admin token exports only during the bootstrap (until two operators have enrolled TOTP), recorded too; then 403 ADMIN_TOKEN_BOOTSTRAP_OVER.';

export const OperationsReportQuery = StrictObject({
  month: Type.String({ pattern: '^\\d{4}-(0[1-9]|1[0-2])$', description: 'The calendar month in São Paulo time, YYYY-MM', examples: ['2026-11'] }),
  format: Type.Optional(Type.Enum([...REPORT_FORMATS], { description: 'csv (default) or jsonl' })),
});

export function registerOperationsReportRoutes(app: App, report: OperationsReport): void {
  app.get(
    '/admin/reports/operations',
    {
      schema: {
        tags: ['Admin'],
        summary: 'Export one month of the operations register (CSV or JSON lines)',
        description: DESCRIPTION,
        querystring: OperationsReportQuery,
        response: {
          200: {
            description: 'The file (Content-Disposition: attachment)',
            headers: { 'content-disposition': Type.String({ description: 'attachment; filename="operations-YYYY-MM.csv" (or .jsonl)' }) },
            content: { 'text/csv': { schema: Type.String() }, 'application/x-ndjson': { schema: Type.String() } },
          },
          ...errorResponses(400, 401, 403),
        },
      },
    },
    async (request, reply) => {
      const file = await report.start(request.query, adminActor(request));
      return reply
        .type(file.contentType)
        .header('content-disposition', `attachment; filename="${file.filename}"`)
        // The typed reply expects the schema's string: a stream is sent as it is read.
        .send(Readable.from(file.body) as never);
    },
  );
}

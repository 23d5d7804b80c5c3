/**
 * The audit log across the platform for operators (GET /admin/audit-log) and its CSV export.
 * Thin: the reading is log.ts's, the file export.ts's.
 */
import { Readable } from 'node:stream';
import { Type } from 'typebox';
import { errorResponses } from '../../http/schemas.ts';
import type { App } from '../../http/types.ts';
import { adminActor } from '../../http/audit-actor.ts';
import { AUDIT_EXPORT_COLUMNS, type AuditExport } from './export.ts';
import { type AuditReadDeps, listAudit } from './log.ts';
import { OperatorAuditExportQuery, OperatorAuditLogPageSchema, OperatorAuditLogQuery } from './schemas.ts';

const tags = ['Admin'];
const ERRORS = [400, 401, 403] as const;
const FILTERS = 'Filters (all optional, combined): `actor`, `action`, `targetType`, `targetId`, `merchantId`, and a `from` (inclusive) / `to` (exclusive) time range in ISO 8601.';

const EXPORT_DESCRIPTION =
  `The entries GET /admin/audit-log lists for the same filters, newest first, as one CSV file (RFC 4180: comma-separated, CRLF line ends, a header line, fields holding a comma, a double quote or a line break quoted with their quotes doubled). ${FILTERS} ` +
  `Columns: ${AUDIT_EXPORT_COLUMNS.join(', ')}; details is the entry's JSON text, times ISO 8601 UTC, empty cells for null. ` +
  'A text cell that starts with =, +, -, @, a tab or a carriage return is prefixed with a single quote, so that a spreadsheet never runs it as a formula. ' +
  'Written as it is read (a page at a time). It holds at most ORDER_EXPORT_MAX_ROWS entries (100 000 by default, the order export’s cap): the header `X-Export-Truncated` is `true` when more match, and the older ones are exported by setting `to` to the `createdAt` of the last line. ' +
  'The file name is audit-log-<UTC date>.csv. ' +
  'An operator needs the `reports.export` permission (COMPLIANCE, ADMIN; others 403 ROLE_NOT_ALLOWED); every export is recorded in the audit log before the file starts (action `audit_log.export`, its filters in details), so the file holds its own record when the filters match it. The admin token exports only during the bootstrap (until two operators have enrolled TOTP); then 403 ADMIN_TOKEN_BOOTSTRAP_OVER.';

export function registerAdminAuditRoutes(app: App, deps: AuditReadDeps & { exporter: AuditExport }): void {
  app.get(
    '/admin/audit-log',
    {
      schema: {
        tags,
        summary: 'The audit log across the platform, newest first',
        description: `Every operator, person and system action recorded, of every merchant and of the platform. Cursor-paged: pass \`nextCursor\` as \`cursor\` for the next (older) page. ${FILTERS}`,
        querystring: OperatorAuditLogQuery,
        response: { 200: OperatorAuditLogPageSchema, ...errorResponses(...ERRORS) },
      },
    },
    async (request) => listAudit(deps, request.query),
  );

  app.get(
    '/admin/audit-log/export',
    {
      schema: {
        tags,
        summary: 'Export the audit log as CSV',
        description: EXPORT_DESCRIPTION,
        querystring: OperatorAuditExportQuery,
        response: {
          200: {
            description: 'The CSV file (Content-Disposition: attachment)',
            headers: {
              'content-disposition': Type.String({ description: 'attachment; filename="audit-log-YYYY-MM-DD.csv"' }),
              'x-export-truncated': Type.String({ description: '`true` when more entries match than the file holds (ORDER_EXPORT_MAX_ROWS), else `false`' }),
            },
            content: { 'text/csv': { schema: Type.String() } },
          },
          ...errorResponses(...ERRORS),
        },
      },
    },
    async (request, reply) => {
      const file = await deps.exporter.start(request.query, adminActor(request));
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${file.filename}"`)
        .header('x-export-truncated', String(file.truncated))
        // The typed reply expects the schema's string: a stream is sent as it is read.
        .send(Readable.from(file.body) as never);
    },
  );
}

/**
 * The dashboard's routes on orders: the CSV export of a listing and one order's timeline. Thin:
 * the rules are in export.ts and timeline.ts.
 */
import { Type } from 'typebox';
import { Readable } from 'node:stream';
import { merchantIdOf } from '../../../http/auth.ts';
import { merchantActor } from '../../../http/audit-actor.ts';
import { AUTHENTICATED_ERRORS, IdParams, errorResponses } from '../../../http/schemas.ts';
import type { App } from '../../../http/types.ts';
import { EXPORT_COLUMNS, type OrderExport } from './export.ts';
import { OrderExportQuery } from '../schemas.ts';
import type { OrderTimelineService } from './timeline.ts';
import { OrderTimelineSchema } from './timeline-schemas.ts';

const EXPORT_DESCRIPTION =
  'The orders `GET /orders` lists for the same filters (`type`, `status`, `receiverId`, `externalId`, `createdFrom`, `createdTo`, `amountBrlMin`, `amountBrlMax`), newest first, as one CSV file (RFC 4180: comma-separated, CRLF line ends, a header line, fields holding a comma, a double quote or a line break are quoted with their quotes doubled). ' +
  `Columns: ${EXPORT_COLUMNS.join(', ')}. Amounts are plain decimal text (BRL, and token units for amountToken), times ISO 8601 UTC, empty cells for null (externalId, completedAt, failureReason). markupBrl is the partner markup the order took (0 when none), apart from platformFeeBrl and merchantFeeBrl, which keep their meaning. ` +
  "A text cell that starts with =, +, -, @, a tab or a carriage return (externalId, failureReason, chain, token) is prefixed with a single quote, so that a spreadsheet never runs it as a formula. " +
  'The file is written as it is read (a page of orders at a time), so a large one starts at once. It holds at most ORDER_EXPORT_MAX_ROWS orders (100 000 by default): the header `X-Export-Truncated` is `true` when more match, and the older ones are exported by setting `createdTo` to the `createdAt` of the last line (an order created in that same millisecond may be in both files: its id tells). ' +
  "Orders created while the file is written are not in it; an order whose status changes meanwhile shows the status of the moment its page was read. The file name is orders-<São Paulo date>.csv. " +
  'Every export is recorded in the merchant\'s audit log (GET /audit-log): action `orders.export`, who (the person, or the API key), when, and the filters.';

export function registerOrderReportRoutes(app: App, exporter: OrderExport, timeline: OrderTimelineService): void {
  app.get(
    '/orders/export',
    {
      schema: {
        tags: ['Orders'],
        summary: "Export the merchant's orders as CSV",
        description: EXPORT_DESCRIPTION,
        querystring: OrderExportQuery,
        response: {
          200: {
            description: 'The CSV file (Content-Disposition: attachment)',
            headers: {
              'content-disposition': Type.String({ description: 'attachment; filename="orders-YYYY-MM-DD.csv"' }),
              'x-export-truncated': Type.String({ description: '`true` when more orders match than the file holds (ORDER_EXPORT_MAX_ROWS), else `false`' }),
            },
            content: { 'text/csv': { schema: Type.String() } },
          },
          ...errorResponses(...AUTHENTICATED_ERRORS, 400),
        },
      },
    },
    async (request, reply) => {
      const file = await exporter.start(merchantIdOf(request), request.query, merchantActor(request));
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${file.filename}"`)
        .header('x-export-truncated', String(file.truncated))
        // The typed reply expects the schema's string: a stream is sent as it is read.
        .send(Readable.from(file.body) as never);
    },
  );

  app.get(
    '/orders/:id/timeline',
    {
      schema: {
        tags: ['Orders'],
        summary: "One order's story, oldest first",
        description:
          "Everything recorded about the order, in time order: its status changes (the status it was created in, each order event, and its current status when no event reports it: SWAPPING, TRANSFERRING, PIX_SENT_UNCONFIRMED and EXPIRED have none; events are kept EVENT_RETENTION_DAYS, 30 by default, and longer only while a delivery of theirs is kept, so an older order shows its creation and current status only), its PIX and chain movements (a chain signature links to the configured explorer), the ledger entries it posted that touch the merchant's own accounts, with those accounts' postings only (the platform's internal accounts are not shown), and the webhook deliveries about it (the newest 100; their attempts are at GET /webhook/deliveries/{id}). " +
          "Another merchant's order is 404, as an unknown id is.",
        params: IdParams,
        response: { 200: OrderTimelineSchema, ...errorResponses(...AUTHENTICATED_ERRORS, 400, 404) },
      },
    },
    async (request) => timeline.get(merchantIdOf(request), request.params.id),
  );
}

/**
 * The register's report of one month: its rows in São Paulo's calendar month, oldest first,
 * through a formatter (formatters.ts). Read a page at a time (keyset on occurred_at, id), so
 * memory holds one page whatever the month's size; never capped (a report with rows missing is
 * worse than a slow one). Rows are never changed, so pages read one after another see one story;
 * a movement registered while the file is written shows if its page is still to come.
 * Bad input is refused here, before the file starts: 400 VALIDATION_ERROR.
 */
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { PersonalData } from '../../lib/personal-data.ts';
import { invalidField } from '../../errors.ts';
import { decimal } from '../../lib/money.ts';
import { saoPauloMonthRange } from '../../lib/sao-paulo-time.ts';
import { type AuditActor, recordDataRelease } from '../../platform/audit/record.ts';
import { FORMATTERS, REPORT_FORMATS, type RegisterEntry, type RegisterFormatter, type ReportFormat } from './formatters.ts';
import type { OperationsRegisterRow } from './tables.ts';
import { REGISTER_ROW_COLUMNS } from './tables.ts';

/** `pd` opens the sealed names and documents (sealed-columns.ts); clear ones pass as they are. */
export function toEntry(row: OperationsRegisterRow, pd: Pick<PersonalData, 'open' | 'openNullable'>): RegisterEntry {
  return {
    id: row.id,
    occurredAt: row.occurred_at.toISOString(),
    orderId: row.order_id,
    orderType: row.order_type,
    merchantId: row.merchant_id,
    movement: row.movement,
    direction: row.direction,
    asset: row.asset,
    chain: row.chain,
    quantity: decimal(row.quantity).toFixed(),
    valueBrl: decimal(row.value_brl).toFixed(2),
    clientDocumentType: row.client_document_type,
    clientDocument: pd.open('document', row.client_document),
    clientName: pd.open('name', row.client_name),
    walletAddress: row.wallet_address,
    walletSelfHosted: row.wallet_self_hosted,
    counterpartyType: row.counterparty_type,
    originatorName: pd.openNullable('name', row.originator_name),
    originatorDocumentType: row.originator_document_type,
    originatorDocument: pd.openNullable('document', row.originator_document),
    originatorAccount: pd.openNullable('account', row.originator_account),
    beneficiaryName: pd.openNullable('name', row.beneficiary_name),
    beneficiaryDocumentType: row.beneficiary_document_type,
    beneficiaryDocument: pd.openNullable('document', row.beneficiary_document),
    beneficiaryAccount: pd.openNullable('account', row.beneficiary_account),
    pixEndToEndId: row.pix_end_to_end_id,
    pspReference: row.psp_reference,
    txSignature: row.tx_signature,
  };
}

export interface OperationsReportFile {
  filename: string;
  contentType: string;
  body: AsyncGenerator<string>;
}

export function createOperationsReport(deps: { db: Db; pageSize: number; personalData: Pick<PersonalData, 'open' | 'openNullable'>; formatters?: Record<string, RegisterFormatter> }) {
  const { db, pageSize } = deps;
  const formatters: Record<string, RegisterFormatter> = deps.formatters ?? FORMATTERS;

  async function* pages(range: { from: Date; to: Date }): AsyncGenerator<RegisterEntry[]> {
    let after: { at: Date; id: string } | undefined;
    for (;;) {
      const rows = await db
        .selectFrom('operations_register')
        .select(REGISTER_ROW_COLUMNS)
        .where('occurred_at', '>=', range.from)
        .where('occurred_at', '<', range.to)
        .$if(after !== undefined, (qb) => qb.where(sql<boolean>`(occurred_at, id) > (${after!.at}::timestamptz, ${after!.id}::uuid)`))
        .orderBy('occurred_at')
        .orderBy('id')
        .limit(pageSize)
        .execute();
      yield rows.map((row) => toEntry(row, deps.personalData));
      const last = rows.at(-1);
      if (rows.length < pageSize || !last) return;
      after = { at: last.occurred_at, id: last.id };
    }
  }

  return {
    /**
     * The month's file (`month` 'YYYY-MM' in São Paulo time; `format` csv by default), recorded
     * in the audit log as `report.export` by `by` before its first line is read.
     */
    async start(query: { month: string; format?: string | undefined }, by: AuditActor): Promise<OperationsReportFile> {
      const range = saoPauloMonthRange(query.month);
      if (!range) throw invalidField('querystring.month', 'must be a calendar month, YYYY-MM (e.g. 2026-11)');
      const format = query.format ?? 'csv';
      const formatter = Object.hasOwn(formatters, format) ? formatters[format] : undefined;
      if (!formatter) throw invalidField('querystring.format', `must be one of ${Object.keys(formatters).join(', ')}`);
      await recordDataRelease(db, by, { action: 'report.export', targetType: 'report', targetId: `operations-${query.month}`, details: { report: 'operations', filter: { month: query.month, format } } });
      return { filename: `operations-${query.month}.${formatter.extension}`, contentType: formatter.contentType, body: formatter.lines(pages(range), { month: query.month }) };
    },
  };
}

export type OperationsReport = ReturnType<typeof createOperationsReport>;
export { REPORT_FORMATS, type ReportFormat };

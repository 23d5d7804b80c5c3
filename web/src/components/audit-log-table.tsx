/**
 * One audit log for both apps (the team's GET /audit-log and the platform's GET /admin/audit-log
 * answer the same page shape): newest first, one row per entry with its time, actor, action,
 * target and change, paged by the API's opaque cursor. The pages differ by props only: their
 * filters (the page keeps them, and sends the cursor with them), how an actor and a target are
 * named, and the texts (one prefix of messages, `team.audit` or `opsAudit`).
 */
import { Code } from '@mantine/core';
import { useI18n } from '../i18n/context.tsx';
import { formatDateTime } from '../i18n/format.ts';
import { AuditChange } from './audit-change.tsx';
import { CursorPager, DataTable, ListState, type Column } from './data-table.tsx';

/** What both APIs' entries have in common (the platform's also carry the merchant). */
export interface AuditEntry {
  id: string;
  actor: string;
  action: string;
  targetType: string;
  targetId: string | null;
  details: Record<string, unknown>;
  createdAt: string;
}
interface AuditPage {
  data: AuditEntry[];
  nextCursor?: string | null;
}
export type AuditTexts = 'team.audit' | 'opsAudit';

const BREAK = { style: { wordBreak: 'break-all' as const } };

export function AuditLogTable({ log, texts, actorName, targetName, cursor, onCursor, minWidth }: {
  log: { data?: AuditPage | undefined; error: Error | null; isPending: boolean };
  texts: AuditTexts;
  actorName: (actor: string) => string;
  targetName: (entry: AuditEntry) => string;
  /** The page's cursor (undefined: the first page); the page resets it when its filters change. */
  cursor: string | undefined;
  onCursor: (cursor: string | undefined) => void;
  minWidth: number;
}) {
  const { t } = useI18n();
  const columns: Column<AuditEntry>[] = [
    { id: 'time', header: t(`${texts}.time`), cell: (entry) => formatDateTime(entry.createdAt) },
    { id: 'actor', header: t(`${texts}.actor`), cell: (entry) => <span {...BREAK}>{actorName(entry.actor)}</span> },
    { id: 'action', header: t(`${texts}.action`), cell: (entry) => <Code>{entry.action}</Code> },
    { id: 'target', header: t(`${texts}.target`), cell: (entry) => <span {...BREAK}>{targetName(entry)}</span> },
    { id: 'change', header: t(`${texts}.change`), cell: (entry) => <AuditChange details={entry.details} before={t(`${texts}.before`)} after={t(`${texts}.after`)} /> },
  ];
  return (
    <ListState query={log} isEmpty={(page) => page.data.length === 0 && cursor === undefined} empty={t(`${texts}.empty`)}>
      {(page) => (
        <>
          <DataTable caption={t(`${texts}.caption`)} columns={columns} rows={page.data} rowKey={(entry) => entry.id} minWidth={minWidth} />
          <CursorPager isFirst={cursor === undefined} nextCursor={page.nextCursor} onFirst={() => onCursor(undefined)} onNext={onCursor} label={t(`${texts}.caption`)} />
        </>
      )}
    </ListState>
  );
}

/**
 * The one list layer: every list of both apps is a DataTable inside a ListState, with one of the
 * pagers below, so loading, failure, emptiness, caption, horizontal scroll and paging look and
 * read the same everywhere (and are checked once, by axe, in the browser tests).
 *
 * - ListState: the query's three states (loading status region, the error alert, the empty text),
 *   then its children with the data.
 * - DataTable: a captioned table of typed columns; a sortable column is a button in its header
 *   with `aria-sort`, for lists whose API sorts (the page passes the order to its query).
 * - PagePager (page numbers: `page`/`totalPages`), KeysetPager (previous/next by the ids at the
 *   page's ends: `startingAfter`/`endingBefore`) and CursorPager (next by `nextCursor`).
 * - ExportButton: a plain download of an export route (the session cookie authenticates it).
 */
import { Button, Group, Pagination, Table, Text, UnstyledButton, type TableTdProps } from '@mantine/core';
import type { MouseEvent, ReactNode } from 'react';
import { useI18n } from '../i18n/context.tsx';
import { ErrorAlert } from './error-alert.tsx';
import { Loading } from './loading.tsx';

export interface Column<Row> {
  /** Stable id of the column: React key, and the sort field when sortable. */
  id: string;
  header: ReactNode;
  cell: (row: Row) => ReactNode;
  align?: TableTdProps['ta'];
  /** The cell names its row (a `th scope="row"`), as a currency names its balances. */
  rowHeader?: boolean;
  /** A fixed width, for a narrow column beside a wide one. */
  width?: number;
  /** The column sorts by the API's field of this id. */
  sortable?: boolean;
}

export interface Sort {
  by: string;
  direction: 'asc' | 'desc';
}

export interface DataTableProps<Row> {
  caption: ReactNode;
  columns: Column<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row, index: number) => string;
  /** The width below which the table scrolls sideways instead of squeezing its columns. */
  minWidth?: number;
  sort?: Sort;
  onSort?: (sort: Sort) => void;
  /** Attributes of a row: `aria-current` for the row that is the reader's own, test ids. */
  rowProps?: (row: Row) => Record<`aria-${string}` | `data-${string}`, string | undefined>;
  /** A click anywhere on the row (a convenience for the mouse: the row must also hold a link to the same place). */
  onRowClick?: (row: Row, event: MouseEvent<HTMLTableRowElement>) => void;
  /** The id of a text that describes the table (e.g. how often it refreshes). */
  describedBy?: string;
  /** A table inside a cell: compact, bordered, not striped. */
  nested?: boolean;
  /** `data-testid` of the table element, for tests that count its own rows. */
  testId?: string;
}

export function DataTable<Row>({ caption, columns, rows, rowKey, minWidth = 640, sort, onSort, rowProps, onRowClick, describedBy, nested = false, testId }: DataTableProps<Row>) {
  return (
    <Table.ScrollContainer minWidth={minWidth}>
      <Table striped={!nested} highlightOnHover={!nested} withTableBorder={nested} fz={nested ? 'sm' : undefined} verticalSpacing={nested ? 4 : undefined} aria-describedby={describedBy} data-testid={testId}>
        <Table.Caption c="dark.8" ta={nested ? 'left' : undefined}>
          {caption}
        </Table.Caption>
        <Table.Thead>
          <Table.Tr>
            {columns.map((column) => (
              <Table.Th key={column.id} scope="col" ta={column.align} w={column.width} aria-sort={column.sortable && sort?.by === column.id ? (sort.direction === 'asc' ? 'ascending' : 'descending') : undefined}>
                {column.sortable && onSort ? <SortButton column={column} sort={sort} onSort={onSort} /> : column.header}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row, index) => (
            <Table.Tr key={rowKey(row, index)} {...rowProps?.(row)} onClick={onRowClick ? (event) => onRowClick(row, event) : undefined} style={onRowClick ? { cursor: 'pointer' } : undefined}>
              {columns.map((column) =>
                column.rowHeader ? (
                  <Table.Th key={column.id} scope="row" ta={column.align}>
                    {column.cell(row)}
                  </Table.Th>
                ) : (
                  <Table.Td key={column.id} ta={column.align}>
                    {column.cell(row)}
                  </Table.Td>
                ),
              )}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function SortButton<Row>({ column, sort, onSort }: { column: Column<Row>; sort?: Sort; onSort: (sort: Sort) => void }) {
  const active = sort?.by === column.id;
  const next: Sort = { by: column.id, direction: active && sort.direction === 'desc' ? 'asc' : 'desc' };
  return (
    <UnstyledButton fw={700} fz="sm" onClick={() => onSort(next)}>
      {column.header} {active ? (sort.direction === 'asc' ? '↑' : '↓') : ''}
    </UnstyledButton>
  );
}

/** A query's loading, failure and empty states; `children` renders the data once there is some. */
export function ListState<Data>({ query, isEmpty, empty, children }: { query: { data?: Data | undefined; error: Error | null; isPending: boolean }; isEmpty: (data: Data) => boolean; empty: ReactNode; children: (data: Data) => ReactNode }) {
  return (
    <>
      {query.error ? <ErrorAlert error={query.error} /> : null}
      {query.isPending ? <Loading /> : null}
      {query.data !== undefined ? (isEmpty(query.data) ? <Text>{empty}</Text> : children(query.data)) : null}
    </>
  );
}

const controlLabel = (t: (key: 'common.previous' | 'common.next') => string) => (control: string) => ({
  'aria-label': control === 'previous' ? t('common.previous') : control === 'next' ? t('common.next') : control,
});

/** Page numbers, for the lists the API pages by number. Nothing when there is one page. */
export function PagePager({ page, totalPages, onChange, label }: { page: number; totalPages: number; onChange: (page: number) => void; label?: string }) {
  const { t } = useI18n();
  if (totalPages <= 1) return null;
  const where = t('common.pageOf', { page, pages: totalPages });
  return (
    <Group justify="center" component="nav" aria-label={label ? `${label}: ${where}` : where} mt="sm">
      <Pagination total={totalPages} value={page} onChange={onChange} getControlProps={controlLabel(t)} />
    </Group>
  );
}

/** Previous and next by the ids at the ends of the page, for the lists the API pages by keyset. */
export function KeysetPager({ hasPrevious, hasNext, onPrevious, onNext, label }: { hasPrevious: boolean; hasNext: boolean; onPrevious: () => void; onNext: () => void; label: string }) {
  const { t } = useI18n();
  if (!hasPrevious && !hasNext) return null;
  return (
    <Group justify="center" component="nav" aria-label={label} mt="sm">
      <Button variant="default" disabled={!hasPrevious} onClick={onPrevious}>
        ← {t('common.previous')}
      </Button>
      <Button variant="default" disabled={!hasNext} onClick={onNext}>
        {t('common.next')} →
      </Button>
    </Group>
  );
}

/** The first page again, or the next by the API's opaque cursor (the audit logs). */
export function CursorPager({ isFirst, nextCursor, onFirst, onNext, label }: { isFirst: boolean; nextCursor: string | null | undefined; onFirst: () => void; onNext: (cursor: string) => void; label: string }) {
  const { t } = useI18n();
  if (isFirst && !nextCursor) return null;
  return (
    <Group justify="center" component="nav" aria-label={label} mt="sm">
      <Button variant="default" disabled={isFirst} onClick={onFirst}>
        ⇤ {t('common.first')}
      </Button>
      <Button variant="default" disabled={!nextCursor} onClick={() => nextCursor && onNext(nextCursor)}>
        {t('common.next')} →
      </Button>
    </Group>
  );
}

/** A download of an export route with the list's filters (the session cookie authenticates it). */
export function ExportButton({ href, label, hint }: { href: string; label: ReactNode; hint?: string }) {
  return (
    <Button component="a" href={href} download variant="default" title={hint}>
      {label}
    </Button>
  );
}

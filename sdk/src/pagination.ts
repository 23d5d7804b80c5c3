/**
 * Iteration over lists. `GET /orders` pages by keyset (`startingAfter` = the last id seen, while
 * `hasMore`), which costs the same however deep and neither skips nor repeats an order when new
 * ones arrive meanwhile; `GET /audit-log` by an opaque cursor (`nextCursor`), the same way. The
 * other lists page by number (`page` and a page size); an item created during the iteration can
 * shift a page and be seen twice or not at all.
 */

/**
 * The query parameter that sets the page size of every page-based list, in one place: the
 * ledger lists took `limit` like the others (`pageSize` stays a deprecated alias there).
 */
export const PAGE_SIZE_PARAM = 'limit';
/** Page size the iterators ask for: the most every list allows (spec, Limits). */
export const ITERATION_PAGE_SIZE = 100;

/** One page as the iterators see it. */
export interface PageOf<T> {
  items: T[];
  hasMore: boolean;
}

/** A lazy list: `for await (const item of list)`, page by page with `.pages()`, or `.toArray()`. */
export class Paginated<T> implements AsyncIterable<T> {
  #pages: () => AsyncGenerator<T[]>;

  constructor(pages: () => AsyncGenerator<T[]>) {
    this.#pages = pages;
  }

  pages(): AsyncGenerator<T[]> {
    return this.#pages();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T> {
    for await (const page of this.#pages()) yield* page;
  }

  /** Every item (at most `max`, default all): mind the size of what you ask for. */
  async toArray(max = Number.POSITIVE_INFINITY): Promise<T[]> {
    const all: T[] = [];
    for await (const item of this) {
      if (all.length >= max) break;
      all.push(item);
    }
    return all;
  }
}

/** Keyset pages: `fetchPage(after)` with the id of the last item seen (undefined first). */
export function keysetPages<T extends { id: string }>(fetchPage: (startingAfter: string | undefined) => Promise<PageOf<T>>, startingAfter?: string): Paginated<T> {
  return new Paginated(async function* () {
    let after = startingAfter;
    for (;;) {
      const page = await fetchPage(after);
      if (page.items.length > 0) yield page.items;
      const last = page.items.at(-1);
      if (!page.hasMore || !last) return;
      after = last.id;
    }
  });
}

/** Cursor pages: `fetchPage(cursor)` answers the items and the next page's cursor (null on the last). */
export function cursorPages<T>(fetchPage: (cursor: string | undefined) => Promise<{ items: T[]; nextCursor: string | null }>): Paginated<T> {
  return new Paginated(async function* () {
    for (let cursor: string | undefined; ; ) {
      const page = await fetchPage(cursor);
      if (page.items.length > 0) yield page.items;
      if (page.nextCursor === null || page.items.length === 0) return;
      cursor = page.nextCursor;
    }
  });
}

/** Numbered pages from `firstPage` (default 1): `fetchPage(page, size)`. */
export function numberedPages<T>(fetchPage: (page: number, size: number) => Promise<PageOf<T>>, firstPage = 1, size = ITERATION_PAGE_SIZE): Paginated<T> {
  return new Paginated(async function* () {
    for (let page = firstPage; ; page += 1) {
      const { items, hasMore } = await fetchPage(page, size);
      if (items.length > 0) yield items;
      if (!hasMore || items.length === 0) return;
    }
  });
}

/** `hasMore` of the `{data, total, page, limit}` lists. */
export const moreAfter = (answer: { total: number; page: number; limit: number }) => answer.page * answer.limit < answer.total;

import { Type, type TSchema } from 'typebox';

export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 20;

/** `page` (1-based) and `limit` (at most 100, DESIGN.md §4); larger limits are a 400, not clamped. */
export const PageQuery = {
  page: Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1, description: '1-based page number' }),
  limit: Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE, description: `Page size, at most ${MAX_PAGE_SIZE}` }),
};

export const PageOf = <T extends TSchema>(item: T, title: string) =>
  Type.Object(
    {
      data: Type.Array(item),
      total: Type.Integer({ description: 'Number of items matching the filters' }),
      page: Type.Integer(),
      limit: Type.Integer(),
    },
    { title },
  );

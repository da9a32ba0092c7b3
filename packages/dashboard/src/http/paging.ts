/** Items of one page when the request names no limit, and the most one page may hold. */
export const DEFAULT_PAGE_SIZE = 100;
export const MAX_PAGE_SIZE = 1000;

/** `?limit=&offset=` of a list request (bounded by its schema, schemas/common.ts Paging). */
export function pageOf(query: { limit?: number; offset?: number }): {
  limit: number;
  offset: number;
} {
  return { limit: Math.max(1, query.limit ?? DEFAULT_PAGE_SIZE), offset: query.offset ?? 0 };
}

import { errors } from '../core/errors';
import type { ColumnValue, ListQuery, SummaryPage } from '../store/store';

/**
 * List paging. OCI's `page` token is opaque; here it says where the next page starts:
 * - for stored lists, after the last item's sort key and id (keyset paging), so items created
 *   or deleted between two calls neither repeat nor vanish from the pages that follow;
 * - for lists that only grow at their end (work-request logs and errors, oldest first), at a
 *   position in that list, read forwards or, newest first, backwards from it.
 * `opc-next-page` is sent only when more items remain.
 */
export interface Page {
  limit: number;
  offset: number;
  after?: { value: ColumnValue; id: string };
}

export const DEFAULT_PAGE_LIMIT = 100;
export const MAX_PAGE_LIMIT = 1000;

const encode = (token: unknown): string => Buffer.from(JSON.stringify(token), 'utf8').toString('base64url');

export function parsePage(query: { limit?: number; page?: string }): Page {
  const limit = query.limit ?? DEFAULT_PAGE_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_LIMIT) {
    throw errors.invalidParameter(`Invalid query parameter 'limit': must be an integer from 1 to ${MAX_PAGE_LIMIT}.`);
  }
  if (query.page === undefined) return { limit, offset: 0 };
  let token: unknown;
  try {
    token = JSON.parse(Buffer.from(query.page, 'base64url').toString('utf8'));
  } catch {
    token = undefined;
  }
  if (Array.isArray(token) && token[0] === 'o' && Number.isInteger(token[1]) && token[1] >= 0)
    return { limit, offset: token[1] };
  if (
    Array.isArray(token) &&
    token[0] === 'k' &&
    ['string', 'number'].includes(typeof token[1]) &&
    typeof token[2] === 'string'
  ) {
    return { limit, offset: 0, after: { value: token[1], id: token[2] } };
  }
  throw errors.invalidParameter(
    `Invalid query parameter 'page': '${query.page}' is not a page token from opc-next-page.`,
  );
}

/** One page of a fixed list, fetching one extra item to learn whether another page exists. */
export function paginate<T>(
  page: Page,
  fetch: (limit: number, offset: number) => T[],
): { items: T[]; headers: Record<string, string> } {
  const rows = fetch(page.limit + 1, page.offset);
  const more = rows.length > page.limit;
  return {
    items: more ? rows.slice(0, page.limit) : rows,
    headers: more ? { 'opc-next-page': encode(['o', page.offset + page.limit]) } : {},
  };
}

/**
 * One page of a list that only grows at its end, read backwards (newest first): the token is the
 * position the next page ends before, counted from the start, so entries added at the end
 * between two calls neither repeat on the next page nor push others onto it. No token (or one
 * that is not a position) starts at the end.
 */
export function paginateBackwards<T>(page: Page, list: T[]): { items: T[]; headers: Record<string, string> } {
  const end = page.offset > 0 ? Math.min(page.offset, list.length) : list.length;
  const start = Math.max(0, end - page.limit);
  return {
    items: list.slice(start, end).reverse(),
    headers: start > 0 ? { 'opc-next-page': encode(['o', start]) } : {},
  };
}

/**
 * One page of a stored list sorted by `orderBy` (one column, then id): the query continues
 * after the previous page's last item.
 */
export function paginateQuery<T extends { id: string }>(
  page: Page,
  orderBy: NonNullable<ListQuery['orderBy']>,
  fetch: (query: Pick<ListQuery, 'orderBy' | 'limit' | 'after'>) => T[],
): { items: T[]; headers: Record<string, string> } {
  const column = orderBy[0].column;
  const rows = fetch({
    orderBy,
    limit: page.limit + 1,
    ...(page.after ? { after: { values: [page.after.value], id: page.after.id } } : {}),
  });
  const more = rows.length > page.limit;
  const items = more ? rows.slice(0, page.limit) : rows;
  const last = items[items.length - 1] as (T & Record<string, unknown>) | undefined;
  return {
    items,
    headers: more && last ? { 'opc-next-page': encode(['k', last[column] as ColumnValue, last.id]) } : {},
  };
}

/**
 * One page of stored summaries sorted by `orderBy` (one column, then id), continuing after the
 * previous page's last item: the page's JSON array as stored, and `opc-next-page` when more remain.
 */
export function paginateSummaries(
  page: Page,
  orderBy: NonNullable<ListQuery['orderBy']>,
  fetch: (query: Pick<ListQuery, 'orderBy' | 'after'> & { limit: number }) => SummaryPage,
): { json: string; headers: Record<string, string> } {
  const result = fetch({
    orderBy,
    limit: page.limit,
    ...(page.after ? { after: { values: [page.after.value], id: page.after.id } } : {}),
  });
  const last = result.last;
  return {
    json: result.json,
    headers: result.more && last ? { 'opc-next-page': encode(['k', last[orderBy[0].column], last.id as string]) } : {},
  };
}

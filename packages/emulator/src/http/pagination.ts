import { errors } from '../core/errors';

/**
 * List paging. OCI's `page` is opaque: here it is the offset of the next item, encoded, so a
 * client cannot mistake it for a number it may compute. `opc-next-page` is sent only when more
 * items remain.
 */
export interface Page {
  limit: number;
  offset: number;
}

export const DEFAULT_PAGE_LIMIT = 100;
export const MAX_PAGE_LIMIT = 1000;

export function parsePage(query: { limit?: number; page?: string }): Page {
  const limit = query.limit ?? DEFAULT_PAGE_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_LIMIT) {
    throw errors.invalidParameter(`Invalid query parameter 'limit': must be an integer from 1 to ${MAX_PAGE_LIMIT}.`);
  }
  if (query.page === undefined) return { limit, offset: 0 };
  const match = /^p1-(\d+)$/.exec(Buffer.from(query.page, 'base64url').toString('utf8'));
  if (!match) throw errors.invalidParameter(`Invalid query parameter 'page': '${query.page}' is not a page token from opc-next-page.`);
  return { limit, offset: Number(match[1]) };
}

export const pageToken = (offset: number): string => Buffer.from(`p1-${offset}`, 'utf8').toString('base64url');

/**
 * Runs a list with one extra row to learn whether another page exists, and returns the page
 * plus the `opc-next-page` header when it does.
 */
export function paginate<T>(page: Page, fetch: (limit: number, offset: number) => T[]): { items: T[]; headers: Record<string, string> } {
  const rows = fetch(page.limit + 1, page.offset);
  const more = rows.length > page.limit;
  return {
    items: more ? rows.slice(0, page.limit) : rows,
    headers: more ? { 'opc-next-page': pageToken(page.offset + page.limit) } : {},
  };
}

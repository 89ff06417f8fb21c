import type { Entity } from './entity';

/** A value an indexed column can hold. */
export type ColumnValue = string | number | null;

/**
 * One kind of stored entity: its table and the columns list filters and sorting use. Columns
 * are computed from the entity whenever it is written; the entity itself is kept as JSON.
 */
/** An indexed column: its SQL type and how to compute it from the entity (a method, so kinds of any body fit). */
export interface ColumnDefinition<TBody extends object = object> {
  type: 'TEXT' | 'INTEGER';
  value(entity: Entity<TBody>): ColumnValue;
}

export interface KindDefinition<TBody extends object = object> {
  /** Table name, snake_case. */
  name: string;
  columns: Record<string, ColumnDefinition<TBody>>;
  /**
   * The item a List operation serves for the entity (OCI's *Summary shape). Kept beside the
   * document when given, so a list page reads small summaries instead of whole documents.
   */
  summary?(entity: Entity<TBody>): object;
  /**
   * Composite indexes (after `region`) for the kind's common filter + sort pairs, e.g.
   * `[['drProtectionGroupId', 'timeCreated']]`, so a list page is a range scan, not a sort.
   */
  indexes?: string[][];
}

/**
 * A page of stored list summaries: their JSON texts joined into one JSON array, served as is
 * (never parsed and serialised again), with what paging needs: the last row's `orderBy` and
 * id values, and whether more rows follow.
 */
export interface SummaryPage {
  json: string;
  count: number;
  last?: Record<string, ColumnValue>;
  more: boolean;
}

/** The stored form of a list-valued column, for `ListQuery.includes`. */
export const listColumn = (values: string[]): string => `|${values.join('|')}|`;

export interface ListQuery {
  /** Equality filters on `region`, `id` or the kind's columns. */
  where?: Record<string, ColumnValue>;
  /**
   * Membership filters on list-valued columns: the column holds its values as `|a|b|` (see
   * `listColumn`), and a row matches when the given value is one of them.
   */
  includes?: Record<string, string>;
  orderBy?: Array<{ column: string; direction: 'ASC' | 'DESC' }>;
  limit?: number;
  offset?: number;
  /**
   * Keyset paging: only rows that sort after these `orderBy` values and id. All `orderBy`
   * columns must share one direction.
   */
  after?: { values: ColumnValue[]; id: string };
}

/**
 * Dumb persistence: keeps entities and answers equality/sort/page queries on indexed columns.
 * It knows nothing of OCI rules or lifecycles; the services own those.
 */
export interface Store {
  /** Creates the kind's table, or adds (and backfills) columns it gained since. */
  ensureKind(kind: KindDefinition): void;
  get<T extends object>(kind: KindDefinition, id: string): Entity<T> | undefined;
  put(kind: KindDefinition, entity: Entity<object>, settleAt: number | null): void;
  delete(kind: KindDefinition, id: string): void;
  list<T extends object>(kind: KindDefinition, query: ListQuery): Array<Entity<T>>;
  /** One page (`limit` rows) of `list`, as the kind's stored summaries (the kind must define `summary`). */
  summaryPage(kind: KindDefinition, query: ListQuery & { limit: number }): SummaryPage;
  count(kind: KindDefinition, where?: Record<string, ColumnValue>): number;
  /** Entities with a scheduled change due at or before `now` (at most `limit`, earliest first). */
  due<T extends object>(kind: KindDefinition, now: number, limit: number): Array<Entity<T>>;
  /** Removes every entity of every kind (admin reset); credentials and other meta stay. */
  clearAll(): void;
  /** Runs `fn` atomically; nested calls join the outer transaction. */
  transaction<R>(fn: () => R): R;
  getMeta(key: string): string | undefined;
  setMeta(key: string, value: string): void;
  close(): void;
}

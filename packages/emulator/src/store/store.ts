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
 * A list summary as stored: its JSON text, served as is (a list page is the texts joined, never
 * parsed and serialised again), plus its id and the values of the query's `orderBy` columns.
 */
export type StoredSummary = { id: string; json: string } & Record<string, ColumnValue>;

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
  /**
   * Like `list`, but returns the kind's stored summaries (the kind must define `summary`) as the
   * JSON text they are stored as, with the row's id and `orderBy` column values (for paging).
   */
  listSummaries(kind: KindDefinition, query: ListQuery): StoredSummary[];
  count(kind: KindDefinition, where?: Record<string, ColumnValue>): number;
  /** Entities with a scheduled change due at or before `now`. */
  due<T extends object>(kind: KindDefinition, now: number): Array<Entity<T>>;
  /** Removes every entity of every kind (admin reset); credentials and other meta stay. */
  clearAll(): void;
  /** Runs `fn` atomically; nested calls join the outer transaction. */
  transaction<R>(fn: () => R): R;
  getMeta(key: string): string | undefined;
  setMeta(key: string, value: string): void;
  close(): void;
}

import { chmodSync, closeSync, openSync, statSync } from 'node:fs';
import type { Entity } from './entity';
import {
  isBusyError,
  openSqlite,
  type SqliteConnection,
  type SqliteDriverName,
  type SqliteStatement,
} from './sqlite-driver';
import type { ColumnValue, KindDefinition, ListQuery, Store, SummaryPage } from './store';

/**
 * Schema version of the database layout. Kind tables evolve additively on their own
 * (`ensureKind` adds and backfills new columns); anything else that changes the layout is a
 * numbered migration below, applied once, in order, inside a transaction.
 */
export const SCHEMA_VERSION = 1;
const MIGRATIONS: Record<number, (db: SqliteConnection) => void> = {
  1: (db) => db.exec('CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)'),
};

/** Column holding a kind's list summary (see KindDefinition.summary). */
const SUMMARY_COLUMN = 'summary';

const IDENTIFIER = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const quote = (name: string): string => {
  if (!IDENTIFIER.test(name)) throw new Error(`bad SQL identifier ${name}`);
  return `"${name}"`;
};

/**
 * Makes a database file readable by its owner only (0600): it holds the API private key and
 * every tenancy's data. The file is created with that mode before SQLite opens it, and SQLite
 * gives the `-wal` and `-shm` files it creates the database file's mode; files already there
 * (an older emulator's, or a `-wal` a killed one left) are tightened when this user owns them.
 */
function restrictToOwner(filename: string): void {
  closeSync(openSync(filename, 'a', 0o600));
  for (const file of [filename, `${filename}-wal`, `${filename}-shm`]) {
    let owner: number;
    try {
      owner = statSync(file).uid;
    } catch {
      continue; // not there
    }
    if (owner === process.getuid?.()) chmodSync(file, 0o600);
  }
}

/**
 * SQLite through `node:sqlite` or better-sqlite3 (see sqlite-driver.ts): one table per kind (`id`, `region`, `settle_at`, the kind's
 * indexed columns, and the entity as a JSON `doc`). WAL journal: a write acknowledged to a
 * client is in the WAL file before the response is sent, so it survives the process being
 * killed (synchronous=NORMAL only risks the last transactions on an OS crash or power loss).
 */
export class SqliteStore implements Store {
  private readonly db: SqliteConnection;
  private readonly statements = new Map<string, SqliteStatement>();
  private readonly knownKinds = new Set<string>();
  /** How many `atomic` calls are running: 0 outside a transaction. */
  private depth = 0;

  /** `driver` forces a SQLite driver; by default the running Node's (see sqlite-driver.ts). */
  constructor(filename: string, options: { driver?: SqliteDriverName } = {}) {
    if (filename !== ':memory:') restrictToOwner(filename);
    this.db = openSqlite(filename, options.driver);
    try {
      // No long busy wait: the only other connection there can be is another emulator (see below).
      this.db.exec('PRAGMA busy_timeout = 100');
      if (filename !== ':memory:') {
        this.db.exec('PRAGMA journal_mode = WAL');
        // One emulator per data directory: its clock, retry tokens and settlement assume they
        // are the only writer. The exclusive lock is held until close or the process's death.
        this.db.exec('PRAGMA locking_mode = EXCLUSIVE');
        this.db.exec('BEGIN EXCLUSIVE; COMMIT');
      }
      this.db.exec('PRAGMA synchronous = NORMAL');
      // What a row held is zeroed when the row is replaced or deleted (where that costs no extra
      // I/O), so content no longer there, such as the private key older embedded data directories
      // kept (see loadOrCreateCredentials), is not left in the file's free space.
      this.db.exec('PRAGMA secure_delete = FAST');
      this.migrate();
    } catch (error) {
      this.db.close();
      if (isBusyError(error)) {
        throw new Error(`the database ${filename} is in use by another emulator`, { cause: error });
      }
      // SQLite's reasons ("file is not a database", "attempt to write a readonly database") name no file.
      throw new Error(`cannot open the database ${filename}: ${(error as Error).message}`, { cause: error });
    }
  }

  private migrate(): void {
    this.db.exec('CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)');
    const current = Number(this.getMeta('schema_version') ?? 0);
    if (current > SCHEMA_VERSION) {
      throw new Error(
        `database schema version ${current} is newer than this emulator (${SCHEMA_VERSION}); upgrade ocikit`,
      );
    }
    for (let version = current + 1; version <= SCHEMA_VERSION; version++) {
      this.atomic(() => {
        MIGRATIONS[version](this.db);
        this.setMeta('schema_version', String(version));
      });
    }
  }

  /** Which SQLite driver this store runs on. */
  get driver(): SqliteDriverName {
    return this.db.driver;
  }

  /**
   * Runs `fn` in a transaction; a nested call gets a savepoint, so its failure undoes only its
   * own part (what better-sqlite3's `db.transaction` did, which node:sqlite lacks).
   */
  private atomic<R>(fn: () => R): R {
    const savepoint = this.depth ? `s${this.depth}` : undefined;
    this.db.exec(savepoint ? `SAVEPOINT ${savepoint}` : 'BEGIN');
    this.depth++;
    try {
      const result = fn();
      this.db.exec(savepoint ? `RELEASE ${savepoint}` : 'COMMIT');
      return result;
    } catch (error) {
      try {
        this.db.exec(savepoint ? `ROLLBACK TO ${savepoint}; RELEASE ${savepoint}` : 'ROLLBACK');
      } catch {
        // SQLite already rolled the transaction back (e.g. on SQLITE_FULL): nothing to undo.
      }
      throw error;
    } finally {
      this.depth--;
    }
  }

  private statement(sql: string): SqliteStatement {
    let stmt = this.statements.get(sql);
    if (!stmt) {
      stmt = this.db.prepare(sql);
      this.statements.set(sql, stmt);
    }
    return stmt;
  }

  ensureKind(kind: KindDefinition): void {
    if (this.knownKinds.has(kind.name)) return;
    const table = quote(kind.name);
    this.atomic(() => {
      this.db.exec(
        `CREATE TABLE IF NOT EXISTS ${table} (id TEXT PRIMARY KEY, region TEXT NOT NULL, settle_at INTEGER, doc TEXT NOT NULL)`,
      );
      this.db.exec(
        `CREATE INDEX IF NOT EXISTS ${quote(`${kind.name}_settle_at`)} ON ${table} (settle_at) WHERE settle_at IS NOT NULL`,
      );
      const existing = new Set(
        (this.db.prepare(`PRAGMA table_info(${table})`).all() as Array<{ name: string }>).map((c) => c.name),
      );
      const added = Object.entries(this.columnsOf(kind)).filter(([name]) => !existing.has(name));
      for (const [name, column] of added) {
        this.db.exec(`ALTER TABLE ${table} ADD COLUMN ${quote(name)} ${column.type}`);
        if (name !== SUMMARY_COLUMN) {
          this.db.exec(
            `CREATE INDEX IF NOT EXISTS ${quote(`${kind.name}_${name}`)} ON ${table} (region, ${quote(name)})`,
          );
        }
      }
      for (const columns of kind.indexes ?? []) {
        const name = quote(`${kind.name}_${columns.join('_')}`);
        this.db.exec(`CREATE INDEX IF NOT EXISTS ${name} ON ${table} (region, ${columns.map(quote).join(', ')}, id)`);
      }
      if (added.length && existing.size) {
        // Backfill the new columns from the stored documents.
        const rows = this.db.prepare(`SELECT id, doc FROM ${table}`).all() as Array<{ id: string; doc: string }>;
        const update = this.db.prepare(
          `UPDATE ${table} SET ${added.map(([name]) => `${quote(name)} = ?`).join(', ')} WHERE id = ?`,
        );
        for (const row of rows) {
          const entity = JSON.parse(row.doc) as Entity<object>;
          update.run(...added.map(([, column]) => column.value(entity)), row.id);
        }
      }
    });
    this.knownKinds.add(kind.name);
  }

  /** The kind's indexed columns plus, when it has summaries, the (unindexed) summary column. */
  private columnsOf(kind: KindDefinition): KindDefinition['columns'] {
    const summary = kind.summary;
    if (!summary) return kind.columns;
    return { ...kind.columns, [SUMMARY_COLUMN]: { type: 'TEXT', value: (entity) => JSON.stringify(summary(entity)) } };
  }

  get<T extends object>(kind: KindDefinition, id: string): Entity<T> | undefined {
    const row = this.statement(`SELECT doc FROM ${quote(kind.name)} WHERE id = ?`).get(id) as
      { doc: string } | undefined;
    return row ? (JSON.parse(row.doc) as Entity<T>) : undefined;
  }

  put(kind: KindDefinition, entity: Entity<object>, settleAt: number | null): void {
    const columns = this.columnsOf(kind);
    const names = Object.keys(columns);
    const sql =
      `INSERT OR REPLACE INTO ${quote(kind.name)} (id, region, settle_at, doc${names.map((n) => `, ${quote(n)}`).join('')}) ` +
      `VALUES (?, ?, ?, ?${names.map(() => ', ?').join('')})`;
    this.statement(sql).run(
      entity.id,
      entity.region,
      settleAt,
      JSON.stringify(entity),
      ...names.map((n) => columns[n].value(entity)),
    );
  }

  delete(kind: KindDefinition, id: string): void {
    this.statement(`DELETE FROM ${quote(kind.name)} WHERE id = ?`).run(id);
  }

  private whereClause(where: Record<string, ColumnValue> = {}): { sql: string; params: ColumnValue[] } {
    const entries = Object.entries(where);
    if (!entries.length) return { sql: '', params: [] };
    return {
      sql:
        ' WHERE ' +
        entries
          .map(([name, value]) => (value === null ? `${quote(name)} IS NULL` : `${quote(name)} = ?`))
          .join(' AND '),
      params: entries.filter(([, value]) => value !== null).map(([, value]) => value),
    };
  }

  /** The FROM … WHERE … part of a query, its ORDER BY, its parameters, and the row key (`orderBy` columns, then id). */
  private filtered(
    kind: KindDefinition,
    query: ListQuery,
  ): { from: string; order: string; params: ColumnValue[]; keys: string } {
    const where = this.whereClause(query.where);
    for (const [name, value] of Object.entries(query.includes ?? {})) {
      where.sql += `${where.sql ? ' AND' : ' WHERE'} instr(${quote(name)}, ?) > 0`;
      where.params.push(`|${value}|`);
    }
    const orderBy = query.orderBy ?? [];
    if (query.after) {
      const keys = [...orderBy.map((o) => o.column), 'id'];
      const descending = orderBy[0]?.direction === 'DESC';
      if (orderBy.some((o) => (o.direction === 'DESC') !== descending))
        throw new Error('keyset paging needs one sort direction');
      const condition = `(${keys.map(quote).join(', ')}) ${descending ? '<' : '>'} (${keys.map(() => '?').join(', ')})`;
      where.sql += where.sql ? ` AND ${condition}` : ` WHERE ${condition}`;
      where.params.push(...query.after.values, query.after.id);
    }
    // Ties break on id, in the direction of the last sort key, so a composite index serves the whole ORDER BY.
    const order = [...orderBy, { column: 'id', direction: orderBy[orderBy.length - 1]?.direction ?? ('ASC' as const) }]
      .map((o) => `${quote(o.column)} ${o.direction === 'DESC' ? 'DESC' : 'ASC'}`)
      .join(', ');
    return {
      from: `FROM ${quote(kind.name)}${where.sql}`,
      order,
      params: where.params,
      keys: [...new Set([...orderBy.map((o) => o.column), 'id'])].map(quote).join(', '),
    };
  }

  list<T extends object>(kind: KindDefinition, query: ListQuery): Array<Entity<T>> {
    const { from, order, params } = this.filtered(kind, query);
    const paged = query.limit !== undefined;
    const rows = this.statement(`SELECT doc ${from} ORDER BY ${order}${paged ? ' LIMIT ? OFFSET ?' : ''}`).all(
      ...params,
      ...(paged ? [Math.trunc(query.limit!), Math.trunc(query.offset ?? 0)] : []),
    ) as Array<{ doc: string }>;
    return rows.map((row) => JSON.parse(row.doc) as Entity<T>);
  }

  summaryPage(kind: KindDefinition, query: ListQuery & { limit: number }): SummaryPage {
    if (!kind.summary) throw new Error(`kind ${kind.name} keeps no summaries`);
    const { from, order, params, keys } = this.filtered(kind, query);
    const limit = Math.trunc(query.limit);
    const offset = Math.trunc(query.offset ?? 0);
    // One string for the whole page, joined by SQLite in the page's order: no row objects and
    // no per-item strings in JavaScript (the stored summaries are never parsed).
    const page = this.statement(
      `SELECT '[' || coalesce(group_concat(json, ',' ORDER BY ${order}), '') || ']' AS json, count(*) AS n ` +
        `FROM (SELECT ${SUMMARY_COLUMN} AS json, ${keys} ${from} ORDER BY ${order} LIMIT ? OFFSET ?)`,
    ).get(...params, limit, offset) as { json: string; n: number };
    if (page.n < limit) return { json: page.json, count: page.n, more: false };
    // The page's last row (the next page starts after it) and whether another row follows.
    const edge = this.statement(`SELECT ${keys} ${from} ORDER BY ${order} LIMIT 2 OFFSET ?`).all(
      ...params,
      offset + limit - 1,
    ) as Array<Record<string, ColumnValue>>;
    // A plain object on both drivers (node:sqlite answers null-prototype rows).
    return { json: page.json, count: page.n, last: { ...edge[0] }, more: edge.length > 1 };
  }

  count(kind: KindDefinition, where?: Record<string, ColumnValue>): number {
    const clause = this.whereClause(where);
    return (
      this.statement(`SELECT COUNT(*) AS n FROM ${quote(kind.name)}${clause.sql}`).get(...clause.params) as {
        n: number;
      }
    ).n;
  }

  due<T extends object>(kind: KindDefinition, now: number, limit: number): Array<Entity<T>> {
    return (
      this.statement(
        `SELECT doc FROM ${quote(kind.name)} WHERE settle_at IS NOT NULL AND settle_at <= ? ORDER BY settle_at LIMIT ?`,
      ).all(now, limit) as Array<{ doc: string }>
    ).map((r) => JSON.parse(r.doc) as Entity<T>);
  }

  clearAll(): void {
    this.transaction(() => {
      for (const name of this.knownKinds) this.db.exec(`DELETE FROM ${quote(name)}`);
    });
  }

  transaction<R>(fn: () => R): R {
    return this.depth ? fn() : this.atomic(fn);
  }

  getMeta(key: string): string | undefined {
    return (this.statement('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined)?.value;
  }

  setMeta(key: string, value: string): void {
    this.statement('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)').run(key, value);
  }

  close(): void {
    this.db.close();
  }
}

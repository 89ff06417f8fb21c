import type BetterSqlite3 from 'better-sqlite3';

/**
 * The few SQLite calls the store makes, behind one tiny interface with two implementations:
 * `node:sqlite` (built into Node 22.13+ / 23.4+ / 24, no native build) and better-sqlite3 12
 * (Node 20, an optional dependency). better-sqlite3 12 aborts the process on Node 24.19+ when
 * the garbage collector frees a statement, so it is only the fallback.
 */
export type SqliteDriverName = 'node' | 'better-sqlite3';

/** A value SQLite binds or returns here (`undefined` binds as NULL on both drivers). */
export type SqliteValue = string | number | null | undefined;

export interface SqliteStatement {
  run(...params: SqliteValue[]): void;
  get(...params: SqliteValue[]): unknown;
  all(...params: SqliteValue[]): unknown[];
}

export interface SqliteConnection {
  readonly driver: SqliteDriverName;
  /** Runs one or more statements, ignoring their rows. */
  exec(sql: string): void;
  prepare(sql: string): SqliteStatement;
  close(): void;
}

/** Env var forcing a driver (tests, benchmarks): `node` or `better-sqlite3`. */
export const DRIVER_ENV = 'OCIKIT_SQLITE';

/** Minimal typing of `node:sqlite` (`@types/node` 20 does not describe it). */
interface NodeSqliteModule {
  DatabaseSync: new (path: string) => {
    exec(sql: string): void;
    prepare(sql: string): {
      run(...params: Array<string | number | null>): unknown;
      get(...params: Array<string | number | null>): unknown;
      all(...params: Array<string | number | null>): unknown[];
    };
    close(): void;
  };
}

let nodeSqlite: NodeSqliteModule | null | undefined;

/**
 * `node:sqlite`, or null when this Node lacks it without a flag (Node 20; 22 before 22.13).
 * Loading it prints "ExperimentalWarning: SQLite is an experimental feature" on Node 22/23:
 * exactly that warning is dropped, every other one still goes through.
 */
function loadNodeSqlite(): NodeSqliteModule | null {
  if (nodeSqlite !== undefined) return nodeSqlite;
  const emitWarning = process.emitWarning;
  process.emitWarning = function (this: unknown, warning: string | Error, ...rest: unknown[]) {
    const type = typeof rest[0] === 'string' ? rest[0] : (rest[0] as { type?: string } | undefined)?.type;
    const message = typeof warning === 'string' ? warning : warning.message;
    const name = typeof warning === 'string' ? type : warning.name;
    if (name === 'ExperimentalWarning' && /^SQLite is an experimental feature/.test(message)) return;
    return (emitWarning as (...args: unknown[]) => void).call(process, warning, ...rest);
  } as typeof process.emitWarning;
  try {
    nodeSqlite = require('node:sqlite') as NodeSqliteModule;
  } catch {
    nodeSqlite = null;
  } finally {
    process.emitWarning = emitWarning;
  }
  return nodeSqlite;
}

/** Whether the running Node has `node:sqlite` without a flag. */
export const hasNodeSqlite = (): boolean => loadNodeSqlite() !== null;

/** The driver used when none is forced: `node:sqlite` when the running Node has it. */
export function sqliteDriverName(): SqliteDriverName {
  const forced = process.env[DRIVER_ENV];
  if (forced) {
    if (forced !== 'node' && forced !== 'better-sqlite3') {
      throw new Error(`${DRIVER_ENV}=${forced} is not a SQLite driver (use node or better-sqlite3)`);
    }
    return forced;
  }
  return loadNodeSqlite() ? 'node' : 'better-sqlite3';
}

/** Opens `filename` (or `:memory:`) with the chosen driver. */
export function openSqlite(filename: string, driver: SqliteDriverName = sqliteDriverName()): SqliteConnection {
  return driver === 'node' ? openNode(filename) : openBetterSqlite3(filename);
}

/** Whether `error` is SQLite's SQLITE_BUSY (or an extended form of it), from either driver. */
export function isBusyError(error: unknown): boolean {
  const e = error as { code?: unknown; errcode?: unknown };
  if (typeof e?.code === 'string' && e.code.startsWith('SQLITE_BUSY')) return true; // better-sqlite3
  return typeof e?.errcode === 'number' && (e.errcode & 0xff) === 5; // node:sqlite
}

const bindable = (params: SqliteValue[]) => params.map((p) => (p === undefined ? null : p));

function openNode(filename: string): SqliteConnection {
  const sqlite = loadNodeSqlite();
  if (!sqlite) {
    throw new Error(`node:sqlite is not available on Node.js ${process.version} (it needs 22.13+, 23.4+ or 24)`);
  }
  const db = new sqlite.DatabaseSync(filename);
  let open = true;
  return {
    driver: 'node',
    exec: (sql) => db.exec(sql),
    prepare(sql) {
      const stmt = db.prepare(sql);
      return {
        run: (...params) => void stmt.run(...bindable(params)),
        get: (...params) => stmt.get(...bindable(params)),
        all: (...params) => stmt.all(...bindable(params)),
      };
    },
    close() {
      if (open) db.close();
      open = false;
    },
  };
}

function openBetterSqlite3(filename: string): SqliteConnection {
  let Database: typeof BetterSqlite3;
  try {
    Database = require('better-sqlite3') as typeof BetterSqlite3;
  } catch (error) {
    throw betterSqlite3Error(error, {
      forced: process.env[DRIVER_ENV] === 'better-sqlite3' && hasNodeSqlite(),
      version: process.version,
    });
  }
  const db = new Database(filename);
  return {
    driver: 'better-sqlite3',
    exec: (sql) => void db.exec(sql),
    prepare(sql) {
      const stmt = db.prepare(sql);
      return {
        run: (...params) => void stmt.run(...params),
        get: (...params) => stmt.get(...params),
        all: (...params) => stmt.all(...params),
      };
    },
    close() {
      if (db.open) db.close();
    },
  };
}

/**
 * Why better-sqlite3 cannot be opened, and what to do: on a Node without node:sqlite the emulator
 * needs it; where `OCIKIT_SQLITE=better-sqlite3` forces it (`forced`), that setting is the cause.
 */
export function betterSqlite3Error(error: unknown, o: { forced: boolean; version: string }): Error {
  const reason =
    (error as { code?: string }).code === 'MODULE_NOT_FOUND'
      ? 'is not installed'
      : `cannot be loaded (${(error as Error).message.split('\n')[0]})`;
  const reinstall =
    "install it again with `npm ci` (its build needs Node's headers: access to github.com or nodejs.org, " +
    "or npm_config_nodedir=<Node's prefix>, e.g. /usr for Debian's nodejs)";
  return new Error(
    o.forced
      ? `better-sqlite3 ${reason}; ${DRIVER_ENV}=better-sqlite3 forces it on Node.js ${o.version}: ${reinstall}, ` +
          `or unset ${DRIVER_ENV} to use the built-in node:sqlite`
      : `better-sqlite3 ${reason}; on Node.js ${o.version} the emulator needs it: ${reinstall}, ` +
          'or use Node.js 22.13+ (built-in node:sqlite)',
    { cause: error },
  );
}

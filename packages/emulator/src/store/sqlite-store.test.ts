import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Entity } from './entity';
import {
  betterSqlite3Error,
  DRIVER_ENV,
  hasNodeSqlite,
  openSqlite,
  sqliteDriverName,
  type SqliteDriverName,
} from './sqlite-driver';
import { SCHEMA_VERSION, SqliteStore } from './sqlite-store';
import type { KindDefinition } from './store';

type Thing = { id: string; name: string; rank: number };
const kind: KindDefinition = {
  name: 'things',
  columns: {
    name: { type: 'TEXT', value: (e: Entity<Thing>) => e.body.name },
    rank: { type: 'INTEGER', value: (e: Entity<Thing>) => e.body.rank },
  },
  summary: (e: Entity<Thing>) => ({ id: e.body.id, name: e.body.name }),
  indexes: [['name', 'rank']],
};
const thing = (id: string, name: string, rank: number, region = 'r1'): Entity<Thing> => ({
  id,
  region,
  body: { id, name, rank },
  transitions: [],
});

/** Whether better-sqlite3 is installed and built for this Node. */
function betterSqlite3Loads(): boolean {
  try {
    openSqlite(':memory:', 'better-sqlite3').close();
    return true;
  } catch {
    return false;
  }
}

// Every driver the running Node can use. better-sqlite3 12 aborts the process on Node 24.19+
// (when a statement is garbage-collected), so beside node:sqlite it is tested on 22/23 only.
const drivers: SqliteDriverName[] = hasNodeSqlite() ? ['node'] : ['better-sqlite3'];
if (hasNodeSqlite() && Number(process.versions.node.split('.')[0]) < 24 && betterSqlite3Loads()) {
  drivers.push('better-sqlite3');
}

for (const driver of drivers) describeStore(driver);

describe('SQLite driver choice', () => {
  const forced = process.env[DRIVER_ENV];
  after(() => {
    if (forced === undefined) delete process.env[DRIVER_ENV];
    else process.env[DRIVER_ENV] = forced;
  });

  it('uses node:sqlite where the running Node has it, better-sqlite3 otherwise', () => {
    delete process.env[DRIVER_ENV];
    assert.equal(sqliteDriverName(), hasNodeSqlite() ? 'node' : 'better-sqlite3');
    assert.equal(new SqliteStore(':memory:').driver, sqliteDriverName());
  });

  it(`lets ${DRIVER_ENV} force a driver and rejects unknown ones in one line`, () => {
    process.env[DRIVER_ENV] = drivers[0];
    assert.equal(sqliteDriverName(), drivers[0]);
    process.env[DRIVER_ENV] = 'sqlite4';
    assert.throws(() => new SqliteStore(':memory:'), /^Error: OCIKIT_SQLITE=sqlite4 is not a SQLite driver/);
  });

  it('names what is missing when the forced driver cannot load', { skip: hasNodeSqlite() }, () => {
    assert.throws(() => openSqlite(':memory:', 'node'), /node:sqlite is not available on Node\.js v20/);
  });

  it(`blames ${DRIVER_ENV}, not Node, when it forces a better-sqlite3 that is not installed`, () => {
    const missing = Object.assign(new Error("Cannot find module 'better-sqlite3'"), { code: 'MODULE_NOT_FOUND' });
    const forced = betterSqlite3Error(missing, { forced: true, version: 'v24.1.0' }).message;
    assert.match(
      forced,
      /^better-sqlite3 is not installed; OCIKIT_SQLITE=better-sqlite3 forces it on Node\.js v24\.1\.0: /,
    );
    assert.match(forced, /or unset OCIKIT_SQLITE to use the built-in node:sqlite$/);
    assert.doesNotMatch(forced, /the emulator needs it|use Node\.js 22/);
    const needed = betterSqlite3Error(missing, { forced: false, version: 'v20.20.2' }).message;
    assert.match(needed, /^better-sqlite3 is not installed; on Node\.js v20\.20\.2 the emulator needs it: /);
  });
});

function describeStore(driver: SqliteDriverName) {
  const open = (filename: string) => new SqliteStore(filename, { driver });
  describe(`SqliteStore on ${driver}`, () => {
    const dir = mkdtempSync(join(tmpdir(), 'ocikit-store-'));
    after(() => rmSync(dir, { recursive: true, force: true }));

    it('runs on the driver it was given', () => {
      const store = open(':memory:');
      assert.equal(store.driver, driver);
      store.close();
    });

    it('filters, sorts, pages and returns stored summaries', () => {
      const store = open(':memory:');
      store.ensureKind(kind);
      store.put(kind, thing('a', 'x', 2), null);
      store.put(kind, thing('b', 'x', 1), null);
      store.put(kind, thing('c', 'y', 3), null);
      store.put(kind, thing('d', 'x', 9, 'r2'), null);
      const page = store.list<Thing>(kind, {
        where: { region: 'r1', name: 'x' },
        orderBy: [{ column: 'rank', direction: 'ASC' }],
        limit: 1,
        offset: 1,
      });
      assert.deepEqual(
        page.map((e) => e.id),
        ['a'],
      );
      // Summaries come back as one JSON array of their stored texts, with what paging needs.
      const rankDesc = { where: { region: 'r1' }, orderBy: [{ column: 'rank', direction: 'DESC' as const }] };
      const first = store.summaryPage(kind, { ...rankDesc, limit: 2 });
      assert.deepEqual(JSON.parse(first.json), [
        { id: 'c', name: 'y' },
        { id: 'a', name: 'x' },
      ]);
      assert.deepEqual([first.count, first.more, first.last], [2, true, { rank: 2, id: 'a' }]);
      const rest = store.summaryPage(kind, { ...rankDesc, limit: 2, after: { values: [2], id: 'a' } });
      assert.deepEqual([JSON.parse(rest.json), rest.count, rest.more], [[{ id: 'b', name: 'x' }], 1, false]);
      const exact = store.summaryPage(kind, { ...rankDesc, limit: 3 });
      assert.deepEqual([exact.count, exact.more], [3, false]);
      const none = store.summaryPage(kind, { where: { region: 'nowhere' }, limit: 5 });
      assert.deepEqual([none.json, none.count, none.more], ['[]', 0, false]);
      assert.equal(store.count(kind, { region: 'r2' }), 1);
      store.close();
    });

    it('finds entities with due transitions by their settle time', () => {
      const store = open(':memory:');
      store.ensureKind(kind);
      store.put(kind, thing('a', 'x', 1), 100);
      store.put(kind, thing('b', 'x', 1), 200);
      store.put(kind, thing('c', 'x', 1), null);
      assert.deepEqual(
        store.due(kind, 150, 10).map((e) => e.id),
        ['a'],
      );
      store.close();
    });

    it('rolls back a failed transaction', () => {
      const store = open(':memory:');
      store.ensureKind(kind);
      assert.throws(() =>
        store.transaction(() => {
          store.put(kind, thing('a', 'x', 1), null);
          throw new Error('half-way');
        }),
      );
      assert.equal(store.get(kind, 'a'), undefined);
      store.close();
    });

    it('adds and backfills columns a kind gains, keeping its data', () => {
      const file = join(dir, 'evolve.db');
      const v1: KindDefinition = { name: 'things', columns: { name: kind.columns.name } };
      const first = open(file);
      first.ensureKind(v1);
      first.put(v1, thing('a', 'x', 7), null);
      first.close();
      const second = open(file);
      second.ensureKind(kind);
      assert.deepEqual(
        second.list<Thing>(kind, { where: { rank: 7 } }).map((e) => e.id),
        ['a'],
      );
      assert.deepEqual(JSON.parse(second.summaryPage(kind, { limit: 10 }).json), [{ id: 'a', name: 'x' }]);
      second.close();
    });

    // The database holds the API private key and every tenancy's data.
    it(
      'keeps the database, its -wal and -shm readable by their owner only',
      { skip: process.platform === 'win32' },
      () => {
        const files = (prefix: string) =>
          readdirSync(dir)
            .filter((f) => f.startsWith(prefix))
            .map((f) => [f, (statSync(join(dir, f)).mode & 0o777).toString(8)]);
        const store = open(join(dir, 'private.db'));
        store.setMeta('written', 'yes');
        assert.deepEqual(files('private.db'), [
          ['private.db', '600'],
          ['private.db-wal', '600'],
        ]);
        store.close();
        // One an older emulator left readable by all, with a -wal and -shm a killed one left beside it.
        writeFileSync(join(dir, 'older.db-wal'), '');
        writeFileSync(join(dir, 'older.db-shm'), '');
        writeFileSync(join(dir, 'older.db'), '');
        for (const [file] of files('older.db')) chmodSync(join(dir, file), 0o644);
        const older = open(join(dir, 'older.db'));
        const modes = files('older.db');
        assert.ok(modes.length >= 2 && modes.every(([, mode]) => mode === '600'), JSON.stringify(modes));
        older.close();
      },
    );

    it('lets only one emulator open a data directory at a time', () => {
      const file = join(dir, 'locked.db');
      const owner = open(file);
      assert.throws(() => open(file), /in use by another emulator/);
      owner.close();
      open(file).close(); // free again once closed
    });

    it('names the file when it cannot use a database: not one, or of a newer schema', () => {
      const file = join(dir, 'not-a-database.db');
      writeFileSync(file, 'a text file, not SQLite\n'.repeat(100));
      assert.throws(
        () => open(file),
        (error: Error) => error.message === `cannot open the database ${file}: file is not a database`,
      );
      const newer = join(dir, 'newer.db');
      const store = open(newer);
      store.setMeta('schema_version', String(SCHEMA_VERSION + 1));
      store.close();
      assert.throws(
        () => open(newer),
        (error: Error) =>
          error.message ===
          `cannot open the database ${newer}: database schema version ${SCHEMA_VERSION + 1} is newer than this emulator (${SCHEMA_VERSION}); upgrade ocikit`,
      );
    });

    it('undoes only a failed nested part of a transaction, and joins nested store transactions', () => {
      const store = open(':memory:');
      store.ensureKind(kind);
      store.transaction(() => {
        store.put(kind, thing('a', 'x', 1), null);
        store.transaction(() => store.put(kind, thing('b', 'x', 1), null));
        // A kind created inside a transaction whose creation fails leaves the outer work intact.
        assert.throws(() =>
          store.ensureKind({ name: 'bad', columns: { 'no-such"col': { type: 'TEXT', value: () => null } } }),
        );
      });
      assert.deepEqual(
        store.list(kind, {}).map((e) => e.id),
        ['a', 'b'],
      );
      store.close();
    });

    it('stores a column value the kind leaves undefined as NULL', () => {
      const store = open(':memory:');
      const sparse: KindDefinition = {
        name: 'sparse',
        columns: { note: { type: 'TEXT', value: () => undefined as never } },
      };
      store.ensureKind(sparse);
      store.put(sparse, thing('a', 'x', 1), null);
      assert.deepEqual(
        store.list(sparse, { where: { note: null } }).map((e) => e.id),
        ['a'],
      );
      store.close();
    });
  });
}

import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Entity } from './entity';
import { SqliteStore } from './sqlite-store';
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

describe('SqliteStore', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ocikit-store-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('filters, sorts, pages and returns stored summaries', () => {
    const store = new SqliteStore(':memory:');
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
    assert.deepEqual(
      store.listSummaries(kind, { where: { region: 'r1' }, orderBy: [{ column: 'rank', direction: 'DESC' }] }),
      [
        { id: 'c', name: 'y' },
        { id: 'a', name: 'x' },
        { id: 'b', name: 'x' },
      ],
    );
    assert.equal(store.count(kind, { region: 'r2' }), 1);
    store.close();
  });

  it('finds entities with due transitions by their settle time', () => {
    const store = new SqliteStore(':memory:');
    store.ensureKind(kind);
    store.put(kind, thing('a', 'x', 1), 100);
    store.put(kind, thing('b', 'x', 1), 200);
    store.put(kind, thing('c', 'x', 1), null);
    assert.deepEqual(
      store.due(kind, 150).map((e) => e.id),
      ['a'],
    );
    store.close();
  });

  it('rolls back a failed transaction', () => {
    const store = new SqliteStore(':memory:');
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
    const first = new SqliteStore(file);
    first.ensureKind(v1);
    first.put(v1, thing('a', 'x', 7), null);
    first.close();
    const second = new SqliteStore(file);
    second.ensureKind(kind);
    assert.deepEqual(
      second.list<Thing>(kind, { where: { rank: 7 } }).map((e) => e.id),
      ['a'],
    );
    assert.deepEqual(second.listSummaries(kind, {}), [{ id: 'a', name: 'x' }]);
    second.close();
  });

  it('lets only one emulator open a data directory at a time', () => {
    const file = join(dir, 'locked.db');
    const owner = new SqliteStore(file);
    assert.throws(() => new SqliteStore(file), /in use by another emulator/);
    owner.close();
    new SqliteStore(file).close(); // free again once closed
  });
});

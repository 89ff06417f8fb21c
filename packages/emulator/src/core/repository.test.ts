import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SqliteStore } from '../store/sqlite-store';
import type { KindDefinition } from '../store/store';
import type { Entity } from './lifecycle';
import { Repository } from './repository';

interface Body {
  state: string;
}
const kind: KindDefinition = { name: 'things', columns: {} };

describe('Repository.settleDue', () => {
  it('settles every due entity, loading them a bounded batch at a time', () => {
    const store = new SqliteStore(':memory:');
    const now = 1_000_000;
    const repository = new Repository<Body>(store, kind, { now: () => now });
    for (let i = 0; i < 450; i++) {
      const entity: Entity<Body> = {
        id: `t${i}`,
        region: 'r',
        body: { state: 'CREATING' },
        transitions: [{ at: now - 1, set: { state: 'ACTIVE' } }],
      };
      repository.save(entity);
    }
    const loaded: number[] = [];
    const due = store.due.bind(store);
    store.due = <T extends object>(k: KindDefinition, at: number, limit: number) => {
      const batch = due<T>(k, at, limit);
      loaded.push(batch.length);
      return batch;
    };
    repository.settleDue();
    assert.deepEqual(loaded, [200, 200, 50]);
    assert.equal(store.due(kind, now, 1000).length, 0);
    assert.equal(repository.count({ region: 'r' }), 450);
    assert.ok(repository.list({}).every((e) => e.body.state === 'ACTIVE' && e.transitions.length === 0));
    store.close();
  });
});

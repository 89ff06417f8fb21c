import type { Clock } from './clock';
import { isVisible } from './tenancy-scope';
import { type Entity, nextSettleAt, settle } from './lifecycle';
import type { ListQuery, KindDefinition, Store, StoredSummary } from '../store/store';

/**
 * Entities of one kind as they are *now*: every read first applies the scheduled transitions
 * that the clock says are due and writes the result back, so list filters on indexed columns
 * (lifecycleState, …) see current values.
 */
export class Repository<T extends object> {
  constructor(
    private readonly store: Store,
    readonly kind: KindDefinition<T>,
    private readonly clock: Clock,
  ) {
    store.ensureKind(kind);
  }

  /** The entity in `region` (any region when omitted), or undefined when absent or gone. */
  find(id: string, region?: string): Entity<T> | undefined {
    const stored = this.store.get<T>(this.kind, id);
    if (!stored) return undefined;
    const current = this.settleOne(stored);
    if (!current || !isVisible(current.body)) return undefined;
    return region === undefined || current.region === region ? current : undefined;
  }

  /** The entity exists but belongs to another tenancy than the running request's (see tenancy-scope). */
  isHiddenFromCaller(id: string): boolean {
    const stored = this.store.get<T>(this.kind, id);
    return stored !== undefined && !isVisible(stored.body);
  }

  save(entity: Entity<T>): Entity<T> {
    entity.transitions.sort((a, b) => a.at - b.at);
    this.store.put(this.kind, entity, nextSettleAt(entity));
    return entity;
  }

  remove(id: string): void {
    this.store.delete(this.kind, id);
  }

  list(query: ListQuery): Array<Entity<T>> {
    this.settleDue();
    return this.store.list<T>(this.kind, query);
  }

  /** The kind's list summaries as stored JSON text, current as of now (the kind must define `summary`). */
  listSummaries(query: ListQuery): StoredSummary[] {
    this.settleDue();
    return this.store.listSummaries(this.kind, query);
  }

  count(where: ListQuery['where']): number {
    this.settleDue();
    return this.store.count(this.kind, where);
  }

  /** Applies every transition that has come due across the kind. */
  settleDue(): void {
    const due = this.store.due<T>(this.kind, this.clock.now());
    if (!due.length) return;
    this.store.transaction(() => due.forEach((entity) => this.settleOne(entity)));
  }

  private settleOne(entity: Entity<T>): Entity<T> | undefined {
    const result = settle(entity, this.clock.now());
    if (result.removed) {
      this.remove(entity.id);
      return undefined;
    }
    if (result.changed) this.save(result.entity);
    return result.entity;
  }
}

import type { Clock } from './clock';
import { isVisible } from './tenancy-scope';
import { type Entity, nextSettleAt, settle } from './lifecycle';
import type { ListQuery, KindDefinition, Store, SummaryPage } from '../store/store';

/** How many due entities `settleDue` loads at once. */
const SETTLE_BATCH = 200;

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

  /** A page of the kind's list summaries as stored JSON, current as of now (the kind must define `summary`). */
  summaryPage(query: ListQuery & { limit: number }): SummaryPage {
    this.settleDue();
    return this.store.summaryPage(this.kind, query);
  }

  count(where: ListQuery['where']): number {
    this.settleDue();
    return this.store.count(this.kind, where);
  }

  /**
   * Applies every transition that has come due across the kind, a bounded batch at a time: after
   * 10,000 creates that nothing has read yet, the first list must not hold every document in
   * memory at once (that alone grew the heap by ~400 MB).
   */
  settleDue(): void {
    const now = this.clock.now();
    for (;;) {
      const due = this.store.due<T>(this.kind, now, SETTLE_BATCH);
      if (!due.length) return;
      const changed = this.store.transaction(() => due.filter((entity) => this.settleOne(entity) !== entity).length);
      // A batch that changed nothing would come back the same: stop (settling is lazy anyway).
      if (due.length < SETTLE_BATCH || changed === 0) return;
    }
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

/**
 * Clock-derived lifecycles. A stored entity carries the wire body clients see now plus the
 * changes already scheduled for it (`transitions`): "at time T, set these fields". Reading an
 * entity applies every transition whose time has come, so a restart loses nothing, no timers
 * run, and a zero transition delay makes every change visible on the next read.
 */
import type { Entity } from '../store/entity';

export type { Entity, Transition } from '../store/entity';

export interface SettleResult<T extends object> {
  entity: Entity<T>;
  changed: boolean;
  removed: boolean;
}

/** Applies the transitions that are due at `now`. Pure: returns a new entity when anything changed. */
export function settle<T extends object>(entity: Entity<T>, now: number): SettleResult<T> {
  const due = entity.transitions.filter((t) => t.at <= now);
  if (due.length === 0) return { entity, changed: false, removed: false };
  let body = { ...entity.body } as Record<string, unknown>;
  let removed = false;
  for (const t of due) {
    if (t.remove) removed = true;
    if (t.set) body = { ...body, ...t.set };
    for (const key of t.unset ?? []) delete body[key];
  }
  const settled: Entity<T> = {
    ...entity,
    body: body as T,
    transitions: entity.transitions.filter((t) => t.at > now),
  };
  return { entity: settled, changed: true, removed };
}

/** The time the next scheduled change is due, or null when the entity is at rest. */
export function nextSettleAt(entity: Entity<object>): number | null {
  return entity.transitions.length ? Math.min(...entity.transitions.map((t) => t.at)) : null;
}

import type { JSONSchema } from 'json-schema-to-ts';
import type { Transition } from '../../core/lifecycle';
import type { EmulatorSettings } from '../../core/settings';

/**
 * Request-shape and lifecycle pieces every OCI resource here shares. Services compose their
 * operation schemas from these so both APIs validate tags, names and list queries alike.
 */

/** `freeformTags`: string → string. */
export const freeformTagsSchema = { type: 'object', additionalProperties: { type: 'string' } } as const;

/** `definedTags`: namespace → (key → any JSON value). */
export const definedTagsSchema = {
  type: 'object',
  additionalProperties: { type: 'object', additionalProperties: {} },
} as const;

/** An OCID-valued field (loose syntax check; existence is the service's business). */
export const ocidSchema = {
  type: 'string',
  pattern: '^ocid1\\.[a-z0-9]+\\.[a-z0-9-]+\\.[a-z0-9-]*\\.[a-zA-Z0-9._-]+$',
} as const;

/** A copy of `body` without the keys whose value is undefined: OCI leaves absent optional fields out. */
export function compact<T extends object>(body: T): T {
  return Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined)) as T;
}

export const displayNameSchema = { type: 'string', minLength: 1, maxLength: 255 } as const;

export const sortOrderSchema = { type: 'string', enum: ['ASC', 'DESC'] } as const;

/** Query parameters of every List operation, plus the operation's own filters. */
export function listQuerySchema<
  const P extends Record<string, JSONSchema>,
  const R extends readonly string[] = readonly [],
>(properties: P, required: R = [] as unknown as R) {
  return {
    type: 'object',
    required,
    properties: {
      limit: { type: 'integer', minimum: 1, maximum: 1000 },
      page: { type: 'string', minLength: 1 },
      sortOrder: sortOrderSchema,
      sortBy: { type: 'string', enum: ['timeCreated', 'displayName'] },
      ...properties,
    },
  } as const;
}

/** OCI's default sort: newest first by time, A→Z by name, unless `sortOrder` says otherwise. */
export function listOrder(query: { sortBy?: 'timeCreated' | 'displayName'; sortOrder?: 'ASC' | 'DESC' }) {
  const column = query.sortBy ?? 'timeCreated';
  return [{ column, direction: query.sortOrder ?? (column === 'timeCreated' ? ('DESC' as const) : ('ASC' as const)) }];
}

/**
 * What a delete schedules: DELETING now (set by the caller), DELETED when the work is done,
 * then gone (404) once the retention period has passed.
 */
export function deletionTransitions(now: number, settings: EmulatorSettings, workRequestId?: string): Transition[] {
  const deletedAt = now + settings.transitionDelayMs;
  return [
    { at: deletedAt, set: { lifecycleState: 'DELETED' }, ...(workRequestId ? { workRequestId } : {}) },
    { at: deletedAt + settings.deletedRetentionMs, remove: true },
  ];
}

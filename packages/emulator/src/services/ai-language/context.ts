import type { Clock } from '../../core/clock';
import { errors } from '../../core/errors';
import type { Repository } from '../../core/repository';
import type { EmulatorSettings } from '../../core/settings';
import type { ColumnValue } from '../../store/store';
import type { ObjectStore } from '../common/objects';
import type { WorkRequests } from '../common/work-requests';
import type { EndpointBody } from './endpoints';
import type { LifecycleState } from './enums';
import type { ModelBody } from './models';
import type { ProjectBody } from './projects';

/** API version path of AI Language. */
export const BASE_PATH = '/20221001';

/** What the AI Language services share: storage of each kind, its work requests, the clock and settings. */
export interface AiLanguageContext {
  clock: Clock;
  settings: EmulatorSettings;
  objects: ObjectStore;
  projects: Repository<ProjectBody>;
  models: Repository<ModelBody>;
  endpoints: Repository<EndpointBody>;
  workRequests: WorkRequests;
}

export type FreeformTags = Record<string, string>;
export type DefinedTags = Record<string, Record<string, unknown>>;

/** Fields every AI Language resource carries. OCI serves empty tag maps rather than omitting them. */
export interface ResourceBody {
  id: string;
  displayName: string;
  compartmentId: string;
  description?: string;
  timeCreated: string;
  timeUpdated?: string;
  lifecycleState: LifecycleState;
  lifecycleDetails?: string;
  freeformTags: FreeformTags;
  definedTags: DefinedTags;
  systemTags: DefinedTags;
}

/** Drops `undefined` members: OCI omits absent optional fields instead of sending nulls. */
export function compact<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/** List filters: equality on the given columns; an absent filter matches everything. */
export function whereOf(filters: Record<string, ColumnValue | undefined>): Record<string, ColumnValue> {
  return Object.fromEntries(Object.entries(filters).filter(([, v]) => v !== undefined)) as Record<string, ColumnValue>;
}

/**
 * The name OCI gives a resource created without `displayName`, as the console shows it:
 * `ailanguage<resource><yyyyMMddHHmmss>` (e.g. `ailanguageendpoint20230825155844`).
 */
export function generatedDisplayName(resource: 'project' | 'model' | 'endpoint', now: number): string {
  const stamp = new Date(now).toISOString().replace(/[-:T]/g, '').slice(0, 14);
  return `ailanguage${resource}${stamp}`;
}

/** The URI of a resource, as work request resources and the `location` header name it. */
export const entityUri = (collection: 'projects' | 'models' | 'endpoints', id: string): string => `${BASE_PATH}/${collection}/${id}`;

/**
 * Refuses to change a resource whose lifecycle state does not allow it.
 *
 * - ACTIVE (and FAILED when `allowFailed`, so a failed resource can be deleted) may change.
 * - CREATING, UPDATING, DELETING: 409 IncorrectState. The state ends by itself, and the SDKs
 *   retry IncorrectState, so a client that does not wait still succeeds.
 * - FAILED (when not allowed): 409 Conflict, which clients do not retry: it never changes.
 * - DELETED: 404 NotAuthorizedOrNotFound; the resource is only kept readable for a while.
 */
export function assertChangeable(
  kind: 'Project' | 'Model' | 'Endpoint',
  body: { id: string; lifecycleState: LifecycleState },
  operation: string,
  options: { allowFailed?: boolean } = {},
): void {
  const state = body.lifecycleState;
  if (state === 'ACTIVE' || (state === 'FAILED' && options.allowFailed)) return;
  if (state === 'DELETED') throw errors.notAuthorizedOrNotFound(`${kind.toLowerCase()} ${body.id} (it is DELETED)`);
  if (state === 'FAILED') {
    throw errors.conflict(`${kind} ${body.id} is FAILED; ${operation} is not possible. Delete it and create a new one.`);
  }
  throw errors.incorrectState(`${kind} ${body.id} is ${state}; ${operation} is possible once it is ACTIVE.`);
}

/**
 * Refuses to delete a parent while children remain: 409 Conflict while any child is not being
 * deleted (it needs the caller to act), 409 IncorrectState while the only remaining children
 * are DELETING (they end DELETED by themselves and the SDKs retry IncorrectState). DELETED
 * children do not count, as the API documentation says.
 */
export function assertNoLiveChildren(
  parent: string,
  children: Array<{ what: string; repository: Repository<{ lifecycleState: string }>; where: Record<string, ColumnValue> }>,
): void {
  for (const { what, repository, where } of children) {
    const all = repository.count(where);
    const deleted = repository.count({ ...where, lifecycleState: 'DELETED' });
    const deleting = repository.count({ ...where, lifecycleState: 'DELETING' });
    const live = all - deleted - deleting;
    if (live > 0) {
      throw errors.conflict(`${parent} still has ${live} ${what} that ${live === 1 ? 'is' : 'are'} not DELETED; delete ${live === 1 ? 'it' : 'them'} first.`);
    }
    if (deleting > 0) {
      throw errors.incorrectState(`${parent} still has ${deleting} ${what} being deleted; retry once ${deleting === 1 ? 'it is' : 'they are'} DELETED.`);
    }
  }
}

import type { Entity } from '../../core/lifecycle';
import type { Repository } from '../../core/repository';
import type { RequestContext } from '../../http/operation';
import { paginateSummaries, parsePage } from '../../http/pagination';
import type { ColumnValue, KindDefinition } from '../../store/store';
import { compact, listOrder } from '../common/resources';
import type { LifecycleState } from './enums';

/** API version path of AI Language. */
export const BASE_PATH = '/20221001';

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

/** What every Create* body carries; each kind adds its own fields. */
export interface CreateResourceDetails {
  compartmentId: string;
  displayName?: string;
  description?: string;
  freeformTags?: FreeformTags;
  definedTags?: DefinedTags;
}

/** What every Update* body may change (an absent field keeps its value); a kind may add more. */
export type UpdateResourceDetails = Omit<Partial<CreateResourceDetails>, 'compartmentId'>;

/**
 * The store kind of a resource: the columns every List filters or sorts by, plus the kind's own
 * filters, and the summary its List serves (kept stored, so a page never parses whole documents).
 */
export function resourceKind<T extends ResourceBody>(
  name: string,
  own: KindDefinition['columns'],
  summary: (body: T) => object,
): KindDefinition {
  return {
    name,
    summary: (e: Entity<T>) => summary(e.body),
    indexes: [
      ['compartmentId', 'timeCreated'],
      ['compartmentId', 'displayName'],
    ],
    columns: {
      compartmentId: { type: 'TEXT', value: (e: Entity<T>) => e.body.compartmentId },
      lifecycleState: { type: 'TEXT', value: (e: Entity<T>) => e.body.lifecycleState },
      displayName: { type: 'TEXT', value: (e: Entity<T>) => e.body.displayName },
      timeCreated: { type: 'TEXT', value: (e: Entity<T>) => e.body.timeCreated },
      ...own,
    },
  };
}

/** Query parameters every AI Language List operation takes; each kind adds its own filters. */
export interface ListQuery {
  compartmentId: string;
  lifecycleState?: LifecycleState;
  displayName?: string;
  limit?: number;
  page?: string;
  sortOrder?: 'ASC' | 'DESC';
  sortBy?: 'timeCreated' | 'displayName';
}

/**
 * One page of a kind's resources in the request's region, as the kind's summaries. Filters are
 * equality on columns, `query`'s common ones plus the kind's `filters`; an absent one matches everything.
 */
export function listPage<T extends ResourceBody>(
  repository: Repository<T>,
  ctx: RequestContext,
  query: ListQuery,
  filters: Record<string, ColumnValue | undefined>,
) {
  const where = compact({
    region: ctx.region,
    compartmentId: query.compartmentId,
    ...filters,
    lifecycleState: query.lifecycleState,
    displayName: query.displayName,
  }) as Record<string, ColumnValue>;
  return paginateSummaries(parsePage(query), listOrder(query), (page) => repository.summaryPage({ where, ...page }));
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
export const entityUri = (collection: 'projects' | 'models' | 'endpoints', id: string): string =>
  `${BASE_PATH}/${collection}/${id}`;

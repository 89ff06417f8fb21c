import type { RequestContext } from '../../http/operation';
import { parsePage } from '../../http/pagination';
import { listOrder } from '../common/resources';
import { entriesPage, type WorkRequestBody, type WorkRequests } from '../common/work-requests';

export interface ListWorkRequestsQuery {
  compartmentId: string;
  workRequestId?: string;
  resourceId?: string;
  limit?: number;
  page?: string;
  sortOrder?: 'ASC' | 'DESC';
  sortBy?: 'timeCreated' | 'displayName';
}

export interface ListWorkRequestDetailsQuery {
  limit?: number;
  page?: string;
  sortOrder?: 'ASC' | 'DESC';
  sortBy?: 'timeCreated' | 'displayName';
}

/** The direction a list of work requests, logs or errors takes for its query. */
const order = (query: ListWorkRequestDetailsQuery) => listOrder(query)[0].direction;

/**
 * The AI Language view of the shared work requests: the API's four read operations. Work
 * requests, their logs and errors have no name, so `sortBy=displayName` orders by time too. The
 * default order is the API's for the sort key, as for projects: `timeCreated` (the default key)
 * newest first, `displayName` ascending; `sortOrder` overrides it.
 */
export class LanguageWorkRequests {
  constructor(private readonly workRequests: WorkRequests) {}

  get(ctx: RequestContext, workRequestId: string): WorkRequestBody {
    const { body } = this.workRequests.get(workRequestId, ctx.region);
    return body;
  }

  list(ctx: RequestContext, query: ListWorkRequestsQuery) {
    return this.workRequests.list(
      ctx.region,
      {
        compartmentId: query.compartmentId,
        workRequestId: query.workRequestId,
        resourceId: query.resourceId,
        sortOrder: order(query),
      },
      parsePage(query),
    );
  }

  errors(ctx: RequestContext, workRequestId: string, query: ListWorkRequestDetailsQuery) {
    return entriesPage(this.workRequests.errors(workRequestId, ctx.region), query, order(query));
  }

  logs(ctx: RequestContext, workRequestId: string, query: ListWorkRequestDetailsQuery) {
    return entriesPage(this.workRequests.logs(workRequestId, ctx.region), query, order(query));
  }
}

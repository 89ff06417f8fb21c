import type { RequestContext } from '../../http/operation';
import { parsePage } from '../../http/pagination';
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

/**
 * The AI Language view of the shared work requests: the API's four read operations. Work
 * requests have no name, so `sortBy=displayName` orders like `timeCreated` (their time accepted).
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
        sortOrder: query.sortOrder,
      },
      parsePage(query),
    );
  }

  /** Oldest first unless `sortOrder=DESC`. */
  errors(ctx: RequestContext, workRequestId: string, query: ListWorkRequestDetailsQuery) {
    return entriesPage(this.workRequests.errors(workRequestId, ctx.region), query, 'ASC');
  }

  /** Oldest first unless `sortOrder=DESC`. */
  logs(ctx: RequestContext, workRequestId: string, query: ListWorkRequestDetailsQuery) {
    return entriesPage(this.workRequests.logs(workRequestId, ctx.region), query, 'ASC');
  }
}

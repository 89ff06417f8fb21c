import { etagOf } from '../core/etag';
import { JsonText } from './json-text';
import type { OperationResult, RequestContext } from './operation';

/**
 * The one place that builds the responses of both services, with the headers the OCI SDKs read:
 * `etag` on every resource served, a region-aware `location` on creates (the `/r/<region>` prefix
 * when the request was not for the home region, so the URL works as given), and
 * `opc-work-request-id` on every change carried out by a work request. Services return bodies
 * and work-request ids; the routes hand them to these builders.
 */

/** Where a resource lives: its URI under the API version, on the request's region path. */
export function locationOf(ctx: RequestContext, uri: string): string {
  return `${ctx.region === ctx.homeRegion ? '' : `/r/${ctx.region}`}${uri}`;
}

/** GET: 200 with the resource and its etag. */
export const resource = (body: object): OperationResult => ({ status: 200, body, headers: { etag: etagOf(body) } });

/**
 * Create: 200 with the new resource (still CREATING), its etag, the work request and, when
 * `uri` is given (the operations whose SDK response reads it), its region-aware location.
 */
export function created(
  ctx: RequestContext,
  started: { resource: object; workRequestId: string },
  uri?: string,
): OperationResult {
  return {
    status: 200,
    body: started.resource,
    headers: {
      etag: etagOf(started.resource),
      location: uri === undefined ? undefined : locationOf(ctx, uri),
      'opc-work-request-id': started.workRequestId,
    },
  };
}

/** An accepted change: 202 with the work request that carries it out (none for immediate ones). */
export const accepted = (started: { workRequestId?: string } = {}): OperationResult => ({
  status: 202,
  headers: { 'opc-work-request-id': started.workRequestId },
});

/** A list page: `{items}` plus `opc-next-page` when more remain (stored summaries: `summaryPage`). */
export const page = (result: { items: unknown[]; headers: Record<string, string> }): OperationResult => ({
  status: 200,
  body: { items: result.items },
  headers: result.headers,
});

/** A list page of stored summaries (`paginateSummaries`): `{items}` around their stored JSON, plus `opc-next-page`. */
export const summaryPage = (result: { json: string; headers: Record<string, string> }): OperationResult => ({
  status: 200,
  body: new JsonText(`{"items":${result.json}}`),
  headers: result.headers,
});

/** A body without an etag (inference results, collections that are not pages). */
export const content = (body: unknown): OperationResult => ({ status: 200, body });

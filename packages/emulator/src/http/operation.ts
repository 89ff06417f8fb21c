import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errors } from '../core/errors';
import { isKnownRegion } from '../core/regions';
import type { Principal } from './auth';
import { RetryTokens, type RecordedResponse } from './retry-tokens';
import { beforeOperation, dropResponse, resourceKindOf, type FaultInjector } from './faults';
import type { Store } from '../store/store';

/** What every service operation knows about the request it serves. */
export interface RequestContext {
  requestId: string;
  /** `/r/<region>/…` paths name the region; other paths are the emulator's home region. */
  region: string;
  principal: Principal;
}

export interface OperationInput {
  ctx: RequestContext;
  params: Record<string, string>;
  query: Record<string, any>;
  body: any;
  ifMatch?: string;
}

export interface OperationResult {
  /** HTTP status; 200 when a body is returned, 204 otherwise, unless set. */
  status?: number;
  body?: unknown;
  headers?: Record<string, string | undefined>;
}

/** One OCI API operation: its route, its request schema and the service call behind it. */
export interface OperationDefinition {
  /** OCI's operation name, e.g. `CreateDrPlan` (used in 501s and fault injection). */
  name: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Path under the API version, fastify syntax: `/drPlans/:drPlanId`. */
  path: string;
  schema?: { body?: object; querystring?: object; params?: object };
  /** The operation accepts `opc-retry-token` (creates and POST actions). */
  retryToken?: boolean;
  /** Synchronous on purpose: the whole call runs inside one SQLite transaction. */
  handler?: (input: OperationInput) => OperationResult;
}

export interface ServiceRoutes {
  /** API version path, e.g. `/20220125`. */
  basePath: string;
  operations: OperationDefinition[];
}

export interface HttpDependencies {
  store: Store;
  retryTokens: RetryTokens;
  faults: FaultInjector;
  homeRegion: string;
}

function regionOf(request: FastifyRequest, homeRegion: string): string {
  const region = (request.params as { region?: string }).region;
  if (region === undefined) return homeRegion;
  if (!isKnownRegion(region)) throw errors.notFound(`Unknown region '${region}'.`);
  return region;
}

function send(reply: FastifyReply, response: RecordedResponse): FastifyReply {
  reply.code(response.status).headers(response.headers);
  return response.body === undefined ? reply.send() : reply.send(response.body);
}

/**
 * Registers a service's operations under its version path and under `/r/:region/<version>`.
 * The HTTP layer stays thin: it resolves the region, replays retry tokens, runs the service
 * call in a transaction and serialises the result; the rules are the service's.
 */
export function registerOperations(app: FastifyInstance, routes: ServiceRoutes, deps: HttpDependencies): void {
  for (const operation of routes.operations) {
    const resourceKind = resourceKindOf(operation.path);
    for (const prefix of ['', '/r/:region']) {
      app.route({
        method: operation.method,
        url: `${prefix}${routes.basePath}${operation.path}`,
        schema: operation.handler ? operation.schema : undefined,
        handler: async (request, reply) => {
          const fault = deps.faults.take(operation.name, resourceKind);
          if (fault) await beforeOperation(fault, reply);
          const response = execute(operation, request, deps);
          return fault?.kind === 'drop-response' ? dropResponse(request, reply) : send(reply, response);
        },
      });
    }
  }
}

function execute(operation: OperationDefinition, request: FastifyRequest, deps: HttpDependencies): RecordedResponse {
  const ctx: RequestContext = {
    requestId: request.requestId,
    region: regionOf(request, deps.homeRegion),
    principal: request.principal!,
  };
  if (!operation.handler) throw errors.methodNotImplemented(operation.name);

  const header = (name: string) => {
    const value = request.headers[name];
    return Array.isArray(value) ? value[0] : value;
  };
  const token = operation.retryToken ? header('opc-retry-token') : undefined;
  const fingerprint =
    token && RetryTokens.fingerprint(ctx.principal.tenancyId, request.method, request.url, request.body);

  const run = (): RecordedResponse => {
    if (token && fingerprint) {
      const recorded = deps.retryTokens.replay(ctx.principal.tenancyId, token, fingerprint);
      if (recorded) return { ...recorded, headers: { ...recorded.headers, 'opc-request-id': ctx.requestId } };
    }
    const result = operation.handler!({
      ctx,
      params: request.params as Record<string, string>,
      query: (request.query ?? {}) as Record<string, unknown>,
      body: request.body,
      ifMatch: header('if-match'),
    });
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(result.headers ?? {})) if (value !== undefined) headers[name] = value;
    const response: RecordedResponse = {
      status: result.status ?? (result.body === undefined ? 204 : 200),
      headers,
      body: result.body,
    };
    if (token && fingerprint) deps.retryTokens.record(ctx.principal.tenancyId, token, fingerprint, response);
    return response;
  };
  // A read changes nothing a client asked for (settling due transitions is atomic on its own),
  // so only mutating calls pay for a transaction around the whole call.
  return operation.method === 'GET' ? run() : deps.store.transaction(run);
}

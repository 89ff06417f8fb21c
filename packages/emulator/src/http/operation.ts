import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FromSchema, JSONSchema } from 'json-schema-to-ts';
import { errors } from '../core/errors';
import { isKnownRegion } from '../core/regions';
import type { Principal } from './auth';
import { RetryTokens, type RecordedResponse } from './retry-tokens';
import { JsonText } from './json-text';
import { withWorkRequestFailure } from '../services/common/work-requests';
import { beforeOperation, dropResponse, resourceKindOf, type FaultInjector } from './faults';
import type { Store } from '../store/store';
import { withinTenancy } from '../core/tenancy-scope';
import type { TenancyRules } from '../core/identities';

/** What every service operation knows about the request it serves. */
export interface RequestContext {
  requestId: string;
  /** `/r/<region>/…` paths name the region; other paths are the emulator's home region. */
  region: string;
  /** The emulator's home region (responses name other regions on their `/r/<region>` path). */
  homeRegion: string;
  principal: Principal;
}

/**
 * What a handler receives. `Body`, `Query` and `Params` are derived from the operation's request
 * schemas by `defineOperation`, so a handler sees exactly the shape validation lets through.
 */
export interface OperationInput<Body = unknown, Query = Record<string, unknown>, Params = Record<string, string>> {
  ctx: RequestContext;
  params: Params;
  query: Query;
  body: Body;
  ifMatch?: string;
}

export interface OperationResult {
  /** HTTP status; 200 when a body is returned, 204 otherwise, unless set. */
  status?: number;
  body?: unknown;
  headers?: Record<string, string | undefined>;
}

/** The request schemas of an operation (JSON Schema, declared `as const` so their types carry over). */
export interface RequestSchemas {
  body?: JSONSchema;
  querystring?: JSONSchema;
  params?: JSONSchema;
}

/** The type validation lets through for a schema, or `Otherwise` when the operation declares none. */
type Validated<S, Otherwise> = S extends JSONSchema ? FromSchema<S> : Otherwise;

/** Path parameters: named in the path (`/drPlans/:drPlanId`), always strings. */
type PathParams<Path extends string> = Path extends `${string}:${infer Name}/${infer Rest}`
  ? { [K in Name]: string } & PathParams<`/${Rest}`>
  : Path extends `${string}:${infer Name}`
    ? { [K in Name]: string }
    : Record<never, string>;

/** One OCI API operation: its route, its request schema and the service call behind it. */
export interface OperationDefinition {
  /** OCI's operation name, e.g. `CreateDrPlan` (used in 501s and fault injection). */
  name: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Path under the API version, fastify syntax: `/drPlans/:drPlanId`. */
  path: string;
  schema?: RequestSchemas;
  /** The operation accepts `opc-retry-token` (creates and POST actions). */
  retryToken?: boolean;
  /** Synchronous on purpose: the whole call runs inside one SQLite transaction. */
  handler?: (input: OperationInput) => OperationResult;
}

/** An operation as a service declares it: the handler's input typed from the schemas and path. */
export interface OperationSpec<Path extends string, S extends RequestSchemas> {
  name: string;
  method: OperationDefinition['method'];
  path: Path;
  schema?: S;
  retryToken?: boolean;
  handler?: (
    input: OperationInput<
      Validated<S['body'], undefined>,
      Validated<S['querystring'], Record<string, never>>,
      PathParams<Path>
    >,
  ) => OperationResult;
}

/**
 * Declares an operation with its handler's input derived from its request schemas (through
 * json-schema-to-ts's `FromSchema`) and its path parameters from its path. The route layer
 * validates every request against the same schemas before the handler runs, which is what makes
 * the one widening cast below sound.
 */
export function defineOperation<const Path extends string, const S extends RequestSchemas = Record<never, never>>(
  spec: OperationSpec<Path, S>,
): OperationDefinition {
  return spec as unknown as OperationDefinition;
}

/** An operation the emulator declares but does not implement: it answers 501 MethodNotImplemented. */
export const notImplemented = (
  name: string,
  method: OperationDefinition['method'],
  path: string,
): OperationDefinition => ({ name, method, path });

export interface ServiceRoutes {
  /** API version path, e.g. `/20220125`. */
  basePath: string;
  operations: OperationDefinition[];
  /**
   * Whether a resource of the service is DELETING, DELETED or no longer there: a retry token of
   * a request on it no longer replays (http/retry-tokens.ts).
   */
  isGone: (resourceId: string) => boolean;
}

export interface HttpDependencies {
  store: Store;
  retryTokens: RetryTokens;
  faults: FaultInjector;
  homeRegion: string;
  /** Which compartments each tenancy owns and sees (isolation between tenancies). */
  tenancies: TenancyRules;
}

function regionOf(request: FastifyRequest, homeRegion: string): string {
  const region = (request.params as { region?: string }).region;
  if (region === undefined) return homeRegion;
  if (!isKnownRegion(region)) throw errors.notFound(`Unknown region '${region}'.`);
  return region;
}

function send(reply: FastifyReply, response: RecordedResponse): FastifyReply {
  reply.code(response.status).headers(response.headers);
  if (response.body instanceof JsonText) return reply.type('application/json; charset=utf-8').send(response.body.text);
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
        preValidation: (request: FastifyRequest, _reply: unknown, done: (error?: Error) => void) => {
          // An unknown region is a 404 whatever the request holds: it comes before validation.
          try {
            regionOf(request, deps.homeRegion);
          } catch (error) {
            return done(error as Error);
          }
          // The OCI SDKs send no body when the details are `{}` (oci-common drops a "{}" body): an
          // empty body is the empty object, so an empty update is valid and a create names the
          // field it lacks (MissingParameter) instead of refusing the body.
          if (operation.handler && operation.schema?.body && request.body === undefined) request.body = {};
          done();
        },
        handler: async (request, reply) => {
          const fault = deps.faults.take(operation.name, resourceKind);
          if (fault) await beforeOperation(fault, reply);
          const call = () => execute(operation, routes, request, deps);
          const response = fault?.kind === 'fail-work-request' ? withWorkRequestFailure(fault.failure!, call) : call();
          return fault?.kind === 'drop-response' ? dropResponse(request, reply) : send(reply, response);
        },
      });
    }
  }
}

/** The resource a request concerns: the one its path names (an action), else the one it created. */
function resourceOf(operation: OperationDefinition, params: Record<string, string>, response: RecordedResponse) {
  const param = /:(\w+)/.exec(operation.path)?.[1];
  const id = param ? params[param] : (response.body as { id?: unknown } | undefined)?.id;
  return typeof id === 'string' ? id : undefined;
}

function execute(
  operation: OperationDefinition,
  routes: ServiceRoutes,
  request: FastifyRequest,
  deps: HttpDependencies,
): RecordedResponse {
  const ctx: RequestContext = {
    requestId: request.requestId,
    region: regionOf(request, deps.homeRegion),
    homeRegion: deps.homeRegion,
    principal: request.principal!,
  };
  if (!operation.handler) throw errors.methodNotImplemented(operation.name);
  // A compartment named in the query (list filters) or body (creates, moves) must be the caller's.
  const tenancyId = ctx.principal.tenancyId;
  for (const source of [request.query, request.body]) {
    const compartmentId = (source as { compartmentId?: unknown } | undefined)?.compartmentId;
    if (typeof compartmentId === 'string' && !deps.tenancies.owns(tenancyId, compartmentId))
      throw errors.notAuthorizedOrNotFound(`compartment ${compartmentId}`);
  }

  const header = (name: string) => {
    const value = request.headers[name];
    return Array.isArray(value) ? value[0] : value;
  };
  const token = operation.retryToken ? header('opc-retry-token') : undefined;
  const fingerprint =
    token && RetryTokens.fingerprint(ctx.principal.tenancyId, request.method, request.url, request.body);
  // The service (its API version in the path) and region the token is kept for.
  const tokenScope = `${ctx.region}/${/\/(\d{8})\//.exec(request.url)?.[1] ?? ''}`;

  const run = (): RecordedResponse => {
    if (token && fingerprint) {
      const recorded = deps.retryTokens.replay(ctx.principal.tenancyId, tokenScope, token, fingerprint, routes.isGone);
      if (recorded) return { ...recorded, headers: { ...recorded.headers, 'opc-request-id': ctx.requestId } };
    }
    const params = request.params as Record<string, string>;
    const result = operation.handler!({
      ctx,
      params,
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
    if (token && fingerprint)
      deps.retryTokens.record(
        ctx.principal.tenancyId,
        tokenScope,
        token,
        fingerprint,
        response,
        resourceOf(operation, params, response),
      );
    return response;
  };
  // A read changes nothing a client asked for (settling due transitions is atomic on its own),
  // so only mutating calls pay for a transaction around the whole call.
  const confined = () => withinTenancy((compartmentId) => deps.tenancies.sees(tenancyId, compartmentId), run);
  return operation.method === 'GET' ? confined() : deps.store.transaction(confined);
}

import { rfc3339 } from '../../core/clock';
import { errors } from '../../core/errors';
import { assertIfMatch, etagOf } from '../../core/etag';
import { newOcid } from '../../core/ids';
import type { Entity } from '../../core/lifecycle';
import type { RequestContext } from '../../http/operation';
import { paginate, parsePage } from '../../http/pagination';
import type { KindDefinition } from '../../store/store';
import { deletionTransitions, listOrder } from '../common/resources';
import {
  assertChangeable,
  compact,
  whereOf,
  entityUri,
  generatedDisplayName,
  type AiLanguageContext,
  type DefinedTags,
  type FreeformTags,
  type ResourceBody,
} from './context';
import { ENTITY_TYPES, type LifecycleState } from './enums';
import type { ModelBody } from './models';

/** `Endpoint`. */
export interface EndpointBody extends ResourceBody {
  projectId: string;
  modelId: string;
  alias?: string;
  inferenceUnits: number;
}

/** `EndpointSummary`: the Endpoint without `timeUpdated`. */
export type EndpointSummaryBody = Omit<EndpointBody, 'timeUpdated'>;

interface EndpointInternal extends Record<string, unknown> {
  /** Aliases are unique per tenancy and region. */
  tenancyId: string;
}

export interface CreateEndpointDetails {
  compartmentId: string;
  modelId: string;
  displayName?: string;
  alias?: string;
  description?: string;
  inferenceUnits?: number;
  freeformTags?: FreeformTags;
  definedTags?: DefinedTags;
}

export type UpdateEndpointDetails = Omit<Partial<CreateEndpointDetails>, 'compartmentId'>;

export interface ListEndpointsQuery {
  compartmentId: string;
  endpointId?: string;
  projectId?: string;
  modelId?: string;
  displayName?: string;
  lifecycleState?: LifecycleState;
  limit?: number;
  page?: string;
  sortOrder?: 'ASC' | 'DESC';
  sortBy?: 'timeCreated' | 'displayName';
}

/**
 * Inference units an endpoint may have. The console says "The maximum is 10" and at least one
 * is needed to serve; the API's own bounds are not published, so the console's are enforced.
 */
export const INFERENCE_UNITS = { min: 1, max: 10, default: 1 } as const;

export const ENDPOINT_KIND: KindDefinition = {
  name: 'ai_language_endpoints',
  columns: {
    compartmentId: { type: 'TEXT', value: (e: Entity<EndpointBody>) => e.body.compartmentId },
    projectId: { type: 'TEXT', value: (e: Entity<EndpointBody>) => e.body.projectId },
    modelId: { type: 'TEXT', value: (e: Entity<EndpointBody>) => e.body.modelId },
    lifecycleState: { type: 'TEXT', value: (e: Entity<EndpointBody>) => e.body.lifecycleState },
    displayName: { type: 'TEXT', value: (e: Entity<EndpointBody>) => e.body.displayName },
    timeCreated: { type: 'TEXT', value: (e: Entity<EndpointBody>) => e.body.timeCreated },
    alias: { type: 'TEXT', value: (e: Entity<EndpointBody>) => e.body.alias ?? null },
    tenancyId: { type: 'TEXT', value: (e: Entity<EndpointBody>) => (e.internal as EndpointInternal | undefined)?.tenancyId ?? null },
  },
};

export function toEndpointSummary(body: EndpointBody): EndpointSummaryBody {
  const { timeUpdated: _timeUpdated, ...summary } = body;
  return summary;
}

export interface EndpointWithEtag {
  endpoint: EndpointBody;
  etag: string;
}

/**
 * AI Language endpoints: a model deployed for inference. An endpoint serves only while it is
 * ACTIVE; its project is always its model's project.
 */
export class Endpoints {
  constructor(private readonly c: AiLanguageContext) {}

  create(ctx: RequestContext, details: CreateEndpointDetails): EndpointWithEtag & { workRequestId: string; location: string } {
    const model = this.deployableModel(ctx, details.modelId);
    const inferenceUnits = this.inferenceUnits(details.inferenceUnits);
    if (details.alias !== undefined) this.assertAliasFree(ctx, details.alias);
    const now = this.c.clock.now();
    const id = newOcid('ailanguageendpoint', ctx.region);
    const work = this.c.workRequests.start({
      region: ctx.region,
      operationType: 'CREATE_ENDPOINT',
      compartmentId: details.compartmentId,
      resources: [{ entityType: ENTITY_TYPES.endpoint, identifier: id, entityUri: entityUri('endpoints', id), action: 'CREATED' }],
    });
    const body: EndpointBody = compact({
      id,
      alias: details.alias,
      displayName: details.displayName ?? generatedDisplayName('endpoint', now),
      compartmentId: details.compartmentId,
      projectId: model.projectId,
      description: details.description,
      timeCreated: rfc3339(now),
      lifecycleState: 'CREATING' as const,
      inferenceUnits,
      modelId: model.id,
      freeformTags: details.freeformTags ?? {},
      definedTags: details.definedTags ?? {},
      systemTags: {},
    });
    const internal: EndpointInternal = { tenancyId: ctx.principal.tenancyId };
    this.c.endpoints.save({
      id,
      region: ctx.region,
      body,
      internal,
      transitions: [
        { at: work.finishesAt, set: { lifecycleState: 'ACTIVE', timeUpdated: rfc3339(work.finishesAt) }, workRequestId: work.id },
      ],
    });
    return { endpoint: body, etag: etagOf(body), workRequestId: work.id, location: entityUri('endpoints', id) };
  }

  /** The endpoint in the request's region, or 404. */
  find(ctx: RequestContext, endpointId: string): Entity<EndpointBody> {
    const entity = this.c.endpoints.find(endpointId, ctx.region);
    if (!entity) throw errors.notAuthorizedOrNotFound(`endpoint ${endpointId}`);
    return entity;
  }

  /** The endpoint with this alias in the caller's tenancy and the request's region (DELETED ones have given theirs up). */
  findByAlias(ctx: RequestContext, alias: string): Entity<EndpointBody> | undefined {
    return this.c.endpoints
      .list({ where: { region: ctx.region, tenancyId: ctx.principal.tenancyId, alias } })
      .find((e) => e.body.lifecycleState !== 'DELETED');
  }

  get(ctx: RequestContext, endpointId: string): EndpointWithEtag {
    const { body } = this.find(ctx, endpointId);
    return { endpoint: body, etag: etagOf(body) };
  }

  list(ctx: RequestContext, query: ListEndpointsQuery) {
    const where = whereOf({
      region: ctx.region,
      compartmentId: query.compartmentId,
      id: query.endpointId,
      projectId: query.projectId,
      modelId: query.modelId,
      lifecycleState: query.lifecycleState,
      displayName: query.displayName,
    });
    return paginate(parsePage(query), (limit, offset) =>
      this.c.endpoints.list({ where, orderBy: listOrder(query), limit, offset }).map((e) => toEndpointSummary(e.body)),
    );
  }

  /**
   * Applies the given fields (unchanged values are fine: Terraform always sends them all) and
   * goes UPDATING → ACTIVE. A new `modelId` must name an ACTIVE model; the endpoint then
   * belongs to that model's project.
   */
  update(ctx: RequestContext, endpointId: string, details: UpdateEndpointDetails, ifMatch?: string): { workRequestId: string } {
    const entity = this.find(ctx, endpointId);
    assertIfMatch(ifMatch, entity.body);
    assertChangeable('Endpoint', entity.body, 'UpdateEndpoint');
    const model = details.modelId !== undefined && details.modelId !== entity.body.modelId ? this.deployableModel(ctx, details.modelId) : undefined;
    const inferenceUnits = details.inferenceUnits === undefined ? entity.body.inferenceUnits : this.inferenceUnits(details.inferenceUnits);
    if (details.alias !== undefined && details.alias !== entity.body.alias) this.assertAliasFree(ctx, details.alias, endpointId);
    const now = this.c.clock.now();
    const work = this.c.workRequests.start({
      region: ctx.region,
      operationType: 'UPDATE_ENDPOINT',
      compartmentId: entity.body.compartmentId,
      resources: [{ entityType: ENTITY_TYPES.endpoint, identifier: endpointId, entityUri: entityUri('endpoints', endpointId), action: 'UPDATED' }],
    });
    this.c.endpoints.save({
      ...entity,
      body: compact({
        ...entity.body,
        displayName: details.displayName ?? entity.body.displayName,
        alias: details.alias ?? entity.body.alias,
        description: details.description ?? entity.body.description,
        modelId: model?.id ?? entity.body.modelId,
        projectId: model?.projectId ?? entity.body.projectId,
        inferenceUnits,
        freeformTags: details.freeformTags ?? entity.body.freeformTags,
        definedTags: details.definedTags ?? entity.body.definedTags,
        lifecycleState: 'UPDATING' as const,
        timeUpdated: rfc3339(now),
      }),
      transitions: [
        ...entity.transitions,
        { at: work.finishesAt, set: { lifecycleState: 'ACTIVE', timeUpdated: rfc3339(work.finishesAt) }, workRequestId: work.id },
      ],
    });
    return { workRequestId: work.id };
  }

  /** DELETING → DELETED (readable for the retention period) → gone. */
  delete(ctx: RequestContext, endpointId: string, ifMatch?: string): { workRequestId: string } {
    const entity = this.find(ctx, endpointId);
    assertIfMatch(ifMatch, entity.body);
    assertChangeable('Endpoint', entity.body, 'DeleteEndpoint', { allowFailed: true });
    const now = this.c.clock.now();
    const work = this.c.workRequests.start({
      region: ctx.region,
      operationType: 'DELETE_ENDPOINT',
      compartmentId: entity.body.compartmentId,
      resources: [{ entityType: ENTITY_TYPES.endpoint, identifier: endpointId, entityUri: entityUri('endpoints', endpointId), action: 'DELETED' }],
    });
    this.c.endpoints.save({
      ...entity,
      body: { ...entity.body, lifecycleState: 'DELETING', timeUpdated: rfc3339(now) },
      transitions: deletionTransitions(now, this.c.settings, work.id),
    });
    return { workRequestId: work.id };
  }

  /** Immediate, with no work request (the API declares none); the endpoint stays ACTIVE. */
  changeCompartment(ctx: RequestContext, endpointId: string, compartmentId: string, ifMatch?: string): void {
    const entity = this.find(ctx, endpointId);
    assertIfMatch(ifMatch, entity.body);
    assertChangeable('Endpoint', entity.body, 'ChangeEndpointCompartment');
    if (entity.body.compartmentId === compartmentId) return;
    this.c.endpoints.save({ ...entity, body: { ...entity.body, compartmentId, timeUpdated: rfc3339(this.c.clock.now()) } });
  }

  /**
   * The model an endpoint may serve.
   * - Unknown (or in another region): 400 RelatedResourceNotAuthorizedOrNotFound, OCI's code
   *   for an id in a request body that does not resolve.
   * - CREATING (still training) or UPDATING: 409 IncorrectState. It becomes ACTIVE by itself,
   *   so the SDKs' automatic retry of IncorrectState is what the caller wants.
   * - FAILED, DELETING or DELETED: 409 Conflict. It never becomes ACTIVE; retrying is useless,
   *   and Conflict makes the SDKs fail at once.
   */
  private deployableModel(ctx: RequestContext, modelId: string): ModelBody {
    const model = this.c.models.find(modelId, ctx.region)?.body;
    if (!model) throw errors.relatedResourceNotFound('modelId', modelId);
    switch (model.lifecycleState) {
      case 'ACTIVE':
        return model;
      case 'CREATING':
      case 'UPDATING':
        throw errors.incorrectState(
          `Model ${modelId} is ${model.lifecycleState}; an endpoint can be created for it once it is ACTIVE.`,
        );
      default:
        throw errors.conflict(`Model ${modelId} is ${model.lifecycleState}; only an ACTIVE model can be deployed to an endpoint.`);
    }
  }

  /** 400 InvalidParameter naming the field and its bounds. */
  private inferenceUnits(value: number | undefined): number {
    if (value === undefined) return INFERENCE_UNITS.default;
    if (!Number.isInteger(value) || value < INFERENCE_UNITS.min || value > INFERENCE_UNITS.max) {
      throw errors.invalidParameter(
        `Invalid field 'inferenceUnits': must be an integer from ${INFERENCE_UNITS.min} to ${INFERENCE_UNITS.max}, got ${value}.`,
      );
    }
    return value;
  }

  /**
   * An alias names one endpoint per tenancy and region (until that endpoint is DELETED). A
   * taken alias is 409 Conflict: a lasting clash the caller must resolve, so no client retries it.
   */
  private assertAliasFree(ctx: RequestContext, alias: string, self?: string): void {
    const holder = this.findByAlias(ctx, alias);
    if (holder && holder.id !== self) {
      throw errors.conflict(`The alias '${alias}' is already used by endpoint ${holder.id} in ${ctx.region}; aliases are unique per tenancy and region.`);
    }
  }
}

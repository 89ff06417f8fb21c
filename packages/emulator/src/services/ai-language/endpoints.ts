import { rfc3339 } from '../../core/clock';
import { errors } from '../../core/errors';
import { etagOf } from '../../core/etag';
import { newOcid } from '../../core/ids';
import type { Entity } from '../../core/lifecycle';
import type { RequestContext } from '../../http/operation';
import { entityUri, generatedDisplayName, listPage, resourceKind } from './resources';
import { compact } from '../common/resources';
import type { CreateResourceDetails, ListQuery, WithEtag } from './resources';
import type { AiLanguageContext } from './context';
import { activeWhenDone, LifecycleOperations } from './lifecycle-operations';
import type { EndpointBody, ModelBody } from './bodies';

export type { EndpointBody } from './bodies';

/** `EndpointSummary`: the Endpoint without `timeUpdated`. */
export type EndpointSummaryBody = Omit<EndpointBody, 'timeUpdated'>;

interface EndpointInternal extends Record<string, unknown> {
  /** Aliases are unique per tenancy and region. */
  tenancyId: string;
}

export interface CreateEndpointDetails extends CreateResourceDetails {
  modelId: string;
  alias?: string;
  inferenceUnits?: number;
}

export type UpdateEndpointDetails = Omit<Partial<CreateEndpointDetails>, 'compartmentId'>;

export interface ListEndpointsQuery extends ListQuery {
  endpointId?: string;
  projectId?: string;
  modelId?: string;
}

/**
 * Inference units an endpoint may have. The console says "The maximum is 10" and at least one
 * is needed to serve; the API's own bounds are not published, so the console's are enforced.
 */
export const INFERENCE_UNITS = { min: 1, max: 10, default: 1 } as const;

export const ENDPOINT_KIND = resourceKind<EndpointBody>(
  'ai_language_endpoints',
  {
    projectId: { type: 'TEXT', value: (e: Entity<EndpointBody>) => e.body.projectId },
    modelId: { type: 'TEXT', value: (e: Entity<EndpointBody>) => e.body.modelId },
    alias: { type: 'TEXT', value: (e: Entity<EndpointBody>) => e.body.alias ?? null },
    tenancyId: {
      type: 'TEXT',
      value: (e: Entity<EndpointBody>) => (e.internal as EndpointInternal | undefined)?.tenancyId ?? null,
    },
  },
  toEndpointSummary,
);

export function toEndpointSummary(body: EndpointBody): EndpointSummaryBody {
  const { timeUpdated: _timeUpdated, ...summary } = body;
  return summary;
}

export type EndpointWithEtag = WithEtag<'endpoint', EndpointBody>;

/**
 * AI Language endpoints: a model deployed for inference. An endpoint serves only while it is
 * ACTIVE; its project is always its model's project.
 */
export class Endpoints {
  private readonly lifecycle: LifecycleOperations<EndpointBody>;

  constructor(private readonly c: AiLanguageContext) {
    this.lifecycle = new LifecycleOperations(c, 'Endpoint', c.endpoints);
  }

  create(
    ctx: RequestContext,
    details: CreateEndpointDetails,
  ): EndpointWithEtag & { workRequestId: string; location: string } {
    const model = this.deployableModel(ctx, details.modelId);
    const inferenceUnits = this.inferenceUnits(details.inferenceUnits);
    if (details.alias !== undefined) this.assertAliasFree(ctx, details.alias);
    const now = this.c.clock.now();
    const id = newOcid('ailanguageendpoint', ctx.region);
    const work = this.lifecycle.startWork(ctx, 'CREATED', id, details.compartmentId);
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
    this.c.endpoints.save({ id, region: ctx.region, body, internal, transitions: [activeWhenDone(work)] });
    return { endpoint: body, etag: etagOf(body), workRequestId: work.id, location: entityUri('endpoints', id) };
  }

  /** The endpoint in the request's region, or 404. */
  find(ctx: RequestContext, endpointId: string): Entity<EndpointBody> {
    return this.lifecycle.find(ctx, endpointId);
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
    return listPage(this.c.endpoints, ctx, query, {
      id: query.endpointId,
      projectId: query.projectId,
      modelId: query.modelId,
    });
  }

  /**
   * Applies the given fields (unchanged values are fine: Terraform always sends them all) and
   * goes UPDATING → ACTIVE. A new `modelId` must name an ACTIVE model; the endpoint then
   * belongs to that model's project.
   */
  update(
    ctx: RequestContext,
    endpointId: string,
    details: UpdateEndpointDetails,
    ifMatch?: string,
  ): { workRequestId: string } {
    return this.lifecycle.update(ctx, endpointId, details, ifMatch, (current) => {
      const model =
        details.modelId !== undefined && details.modelId !== current.modelId
          ? this.deployableModel(ctx, details.modelId)
          : undefined;
      const inferenceUnits =
        details.inferenceUnits === undefined ? current.inferenceUnits : this.inferenceUnits(details.inferenceUnits);
      if (details.alias !== undefined && details.alias !== current.alias)
        this.assertAliasFree(ctx, details.alias, endpointId);
      return {
        alias: details.alias ?? current.alias,
        modelId: model?.id ?? current.modelId,
        projectId: model?.projectId ?? current.projectId,
        inferenceUnits,
      };
    });
  }

  /** DELETING → DELETED (readable for the retention period) → gone. */
  delete(ctx: RequestContext, endpointId: string, ifMatch?: string): { workRequestId: string } {
    return this.lifecycle.delete(ctx, endpointId, ifMatch);
  }

  /** Immediate, with no work request (the API declares none); the endpoint stays ACTIVE. */
  changeCompartment(ctx: RequestContext, endpointId: string, compartmentId: string, ifMatch?: string): void {
    this.lifecycle.changeCompartment(ctx, endpointId, compartmentId, ifMatch);
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
        throw errors.conflict(
          `Model ${modelId} is ${model.lifecycleState}; only an ACTIVE model can be deployed to an endpoint.`,
        );
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
      throw errors.conflict(
        `The alias '${alias}' is already used by endpoint ${holder.id} in ${ctx.region}; aliases are unique per tenancy and region.`,
      );
    }
  }
}

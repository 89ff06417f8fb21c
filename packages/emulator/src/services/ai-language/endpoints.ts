import { rfc3339 } from '../../core/clock';
import { errors } from '../../core/errors';
import { newOcid } from '../../core/ids';
import type { Entity } from '../../core/lifecycle';
import type { RequestContext } from '../../http/operation';
import { generatedDisplayName, listPage, resourceKind } from './resources';
import { compact } from '../common/resources';
import type { CreateResourceDetails, ListQuery } from './resources';
import type { AiLanguageDependencies } from './dependencies';
import type { Started } from '../common/work-requests';
import { activeWhenDone, LifecycleOperations } from './lifecycle-operations';
import { assertUsable, isTransient } from '../common/lifecycle-policy';
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

export const endpointKind = resourceKind<EndpointBody>(
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
  endpointSummary,
);

export function endpointSummary(body: EndpointBody): EndpointSummaryBody {
  const { timeUpdated: _timeUpdated, ...summary } = body;
  return summary;
}

/**
 * AI Language endpoints: a model deployed for inference. An endpoint serves only while it is
 * ACTIVE; its project is always its model's project.
 */
export class Endpoints {
  private readonly lifecycle: LifecycleOperations<EndpointBody>;

  constructor(private readonly c: AiLanguageDependencies) {
    this.lifecycle = new LifecycleOperations(c, 'Endpoint', c.endpoints);
  }

  create(ctx: RequestContext, details: CreateEndpointDetails): Started<EndpointBody> {
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
    return { resource: body, workRequestId: work.id };
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

  get(ctx: RequestContext, endpointId: string): EndpointBody {
    const { body } = this.find(ctx, endpointId);
    return body;
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
  ): { workRequestId?: string } {
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
  delete(ctx: RequestContext, endpointId: string, ifMatch?: string): { workRequestId?: string } {
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
    assertUsable(model.lifecycleState, (state) =>
      isTransient(state)
        ? `Model ${modelId} is ${state}; an endpoint can be created for it once it is ACTIVE.`
        : `Model ${modelId} is ${state}; only an ACTIVE model can be deployed to an endpoint.`,
    );
    return model;
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

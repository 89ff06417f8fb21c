// oci:AiLanguage/endpoint:Endpoint. Never replaced: a compartment change runs
// ChangeEndpointCompartment, everything else UpdateEndpoint.
import type * as lang from 'oci-ailanguage';
import { call, messageOf, PartialFailure, ProviderError } from '../../errors';
import { nestTags, packageSchema, shapeObject } from '../../schema';
import type { Props } from '../../wire';
import { createIdempotently, deleteAndWait, readResource, settle, type ResourceAccess } from '../ops';
import { tagFilter, type Failure, type OpContext, type ResourceModule } from '../resource';
import { checkDefinedTags, definedTagsToSend, tagInputs } from '../tags';

const TOKEN = 'oci:AiLanguage/endpoint:Endpoint';
/** AI Language accepts 1–10 inference units per endpoint (400 InvalidParameter outside). */
export const INFERENCE_UNITS = { min: 1, max: 10 };
const UPDATABLE = ['displayName', 'description', 'alias', 'modelId', 'inferenceUnits', 'freeformTags', 'definedTags'];

type Ep = lang.models.Endpoint;

function toOutputs(ep: Ep): Props {
  const spec = packageSchema().resources[TOKEN];
  return shapeObject(ep, spec, Object.keys(spec.inputProperties)) ?? {};
}

/** AI Language endpoints as the shared steps reach them. */
const ENDPOINTS: ResourceAccess<Ep> = {
  getOperation: 'GetEndpoint',
  workRequests: (ctx) => ctx.clients.language,
  get: async (ctx, id) => (await ctx.clients.language.getEndpoint({ endpointId: id })).endpoint,
};

function getEndpoint(ctx: OpContext, id: string): Promise<Ep | undefined> {
  return readResource(ctx, ENDPOINTS, id);
}

function ready(ctx: OpContext, ep: Ep | undefined): Ep {
  if (!ep) throw new ProviderError(`${ctx.subject}: the endpoint disappeared while it was being changed`);
  if (ep.lifecycleState !== 'ACTIVE') {
    throw new ProviderError(
      `${ctx.subject}: the endpoint ended ${ep.lifecycleState}${ep.lifecycleDetails ? `: ${ep.lifecycleDetails}` : ''}, not ACTIVE`,
    );
  }
  return ep;
}

async function partial(ctx: OpContext, id: string, e: unknown, fallback: Props): Promise<never> {
  const ep = await getEndpoint(ctx, id).catch(() => undefined);
  throw new PartialFailure(messageOf(e), id, ep ? toOutputs(ep) : fallback);
}

export const endpoint: ResourceModule = {
  token: TOKEN,
  kind: 'Endpoint',
  defaultTimeoutMs: 60 * 60_000,
  computedInputs: ['alias', 'description', 'displayName', 'inferenceUnits', 'freeformTags', 'definedTags'],
  triggers: [],
  unreported: [],
  stables: ['timeCreated'],
  computedOutputs: ['lifecycleDetails', 'projectId', 'state', 'systemTags', 'timeCreated', 'timeUpdated'],
  defaults(inputs) {
    // The service default, applied in a create's Check so the plan shows it (pulumi-oci shows it
    // after create).
    return inputs.inferenceUnits === undefined ? { ...inputs, inferenceUnits: 1 } : inputs;
  },
  validate(inputs): Failure[] {
    const failures: Failure[] = [];
    const u = inputs.inferenceUnits;
    if (typeof u === 'number' && (u < INFERENCE_UNITS.min || u > INFERENCE_UNITS.max)) {
      failures.push({
        property: 'inferenceUnits',
        reason: `inferenceUnits must be between ${INFERENCE_UNITS.min} and ${INFERENCE_UNITS.max}, got ${u}`,
      });
    }
    failures.push(...checkDefinedTags(inputs.definedTags));
    return failures;
  },

  async create(ctx, inputs) {
    let id: string | undefined;
    try {
      const ep = await createIdempotently(ctx, inputs, {
        send: async (opcRetryToken) => {
          const r = await call(ctx.subject, 'CreateEndpoint', () =>
            ctx.clients.language.createEndpoint({
              createEndpointDetails: {
                compartmentId: inputs.compartmentId as string,
                modelId: inputs.modelId as string,
                alias: inputs.alias as string | undefined,
                description: inputs.description as string | undefined,
                displayName: inputs.displayName as string | undefined,
                inferenceUnits: inputs.inferenceUnits as number | undefined,
                freeformTags: inputs.freeformTags as Record<string, string> | undefined,
                definedTags: inputs.definedTags ? nestTags(inputs.definedTags as Record<string, string>) : undefined,
              },
              opcRetryToken,
            }),
          );
          return { id: r.endpoint.id, workRequestId: r.opcWorkRequestId };
        },
        settle: (endpointId, wrId) =>
          settle(ctx, ENDPOINTS, {
            operation: 'CreateEndpoint',
            workRequestId: wrId,
            id: endpointId,
            transient: 'CREATING',
            ready: (e) => e.lifecycleState === 'ACTIVE',
          }),
        onCreated: (endpointId) => (id = endpointId),
      });
      const active = ready(ctx, ep);
      return { id: active.id, outputs: toOutputs(active) };
    } catch (e) {
      if (id === undefined) throw e;
      return partial(ctx, id, e, { ...inputs });
    }
  },

  async read(ctx, id) {
    const ep = await getEndpoint(ctx, id);
    if (!ep || ep.lifecycleState === 'DELETED') return undefined;
    return toOutputs(ep);
  },

  async update(ctx, { id, news, olds, changed }) {
    let touched = false;
    try {
      if (changed.includes('compartmentId')) {
        await call(ctx.subject, 'ChangeEndpointCompartment', () =>
          ctx.clients.language.changeEndpointCompartment({
            endpointId: id,
            changeEndpointCompartmentDetails: { compartmentId: news.compartmentId as string },
          }),
        );
        touched = true;
      }
      if (changed.some((k) => UPDATABLE.includes(k))) {
        const details: lang.models.UpdateEndpointDetails = {};
        for (const k of changed) {
          if (k === 'definedTags') {
            details.definedTags = definedTagsToSend(
              news.definedTags as Record<string, string>,
              olds.definedTags as Record<string, string>,
              tagFilter(ctx.config),
            );
          } else if (k === 'freeformTags') details.freeformTags = (news.freeformTags as Record<string, string>) ?? {};
          else if (UPDATABLE.includes(k) && news[k] !== undefined) (details as Props)[k] = news[k];
        }
        const r = await call(ctx.subject, 'UpdateEndpoint', () =>
          ctx.clients.language.updateEndpoint({ endpointId: id, updateEndpointDetails: details }),
        );
        touched = true;
        ready(
          ctx,
          await settle(ctx, ENDPOINTS, {
            operation: 'UpdateEndpoint',
            workRequestId: r.opcWorkRequestId,
            id,
            transient: 'UPDATING',
          }),
        );
      }
    } catch (e) {
      if (!touched) throw e;
      return partial(ctx, id, e, olds);
    }
    const ep = await getEndpoint(ctx, id);
    if (!ep) throw new ProviderError(`${ctx.subject}: the endpoint was deleted during the update`);
    return toOutputs(ep);
  },

  async delete(ctx, id) {
    await deleteAndWait(ctx, ENDPOINTS, {
      operation: 'DeleteEndpoint',
      id,
      del: () => ctx.clients.language.deleteEndpoint({ endpointId: id }),
    });
  },

  inputsFromOutputs(o) {
    const inputs: Props = tagInputs(o);
    for (const k of ['compartmentId', 'modelId', 'alias', 'description', 'displayName', 'inferenceUnits']) {
      if (o[k] !== undefined) inputs[k] = o[k];
    }
    return inputs;
  },
};

import { errors } from '../../core/errors';
import type { RequestContext } from '../../http/operation';
import type { AiLanguageDependencies } from './dependencies';
import type { Endpoints, EndpointBody } from './endpoints';
import type { ModelType } from './enums';
import { runInference, type InferenceModel, type InferenceOperation, type InferenceQuery } from './inference';
import type { ModelInternal } from './models';
import { assertUsable, isTransient } from '../common/lifecycle-policy';

/** The routing fields every batch inference body carries. */
export interface InferenceRouting {
  endpointId?: string;
  alias?: string;
  compartmentId?: string;
}

/** The pre-trained model that answers a call naming no endpoint (compartmentId alone, or nothing). */
const DEFAULT_PRETRAINED: Record<InferenceOperation, ModelType> = {
  batchDetectLanguageEntities: 'PRE_TRAINED_NAMED_ENTITY_RECOGNITION',
  batchDetectLanguageTextClassification: 'PRE_TRAINED_TEXT_CLASSIFICATION',
  batchDetectLanguageSentiments: 'PRE_TRAINED_SENTIMENT_ANALYSIS',
  batchDetectDominantLanguage: 'PRE_TRAINED_LANGUAGE_DETECTION',
  batchDetectLanguageKeyPhrases: 'PRE_TRAINED_KEYPHRASE_EXTRACTION',
};

/**
 * The data plane's batch operations. A call naming `endpointId` or `alias` is answered by the
 * model deployed on that endpoint (a custom model with what it learnt); a call naming neither
 * is answered by the operation's pre-trained model. Results are computed by `runInference`,
 * which also enforces the document limits (400).
 */
export class InferenceActions {
  constructor(
    private readonly c: AiLanguageDependencies,
    private readonly endpoints: Endpoints,
  ) {}

  run(ctx: RequestContext, operation: InferenceOperation, details: InferenceRouting, query?: InferenceQuery): object {
    return runInference(operation, this.modelFor(ctx, operation, details), details, query);
  }

  private modelFor(ctx: RequestContext, operation: InferenceOperation, details: InferenceRouting): InferenceModel {
    if (details.endpointId === undefined && details.alias === undefined)
      return { modelType: DEFAULT_PRETRAINED[operation] };
    const endpoint = this.servingEndpoint(ctx, details);
    const model = this.c.models.find(endpoint.modelId, ctx.region);
    if (!model || model.body.lifecycleState === 'DELETED') {
      // Cannot happen through the API (a model with live endpoints cannot be deleted); kept as a
      // clear answer rather than a crash.
      throw errors.conflict(`Endpoint ${endpoint.id} serves model ${endpoint.modelId}, which no longer exists.`);
    }
    const { modelType, languageCode } = model.body.modelDetails;
    const { artifact } = (model.internal ?? {}) as ModelInternal;
    return { modelType, ...(artifact ? { artifact } : {}), ...(languageCode ? { languageCode } : {}) };
  }

  /**
   * The endpoint a call names, ready to serve.
   * - Unknown `endpointId` or `alias` (or one of another region): 404 NotAuthorizedOrNotFound.
   *   On the data plane the endpoint is the resource the call is addressed to, as a path
   *   parameter would be, not a related resource.
   * - `endpointId` and `alias` naming different endpoints: 400 InvalidParameter.
   * - CREATING or UPDATING: 409 IncorrectState. It serves once ACTIVE, by itself, so the SDKs'
   *   automatic retry of IncorrectState is what a caller wants.
   * - FAILED, DELETING or DELETED: 409 Conflict. It will never serve; no retry helps.
   */
  private servingEndpoint(ctx: RequestContext, details: InferenceRouting): EndpointBody {
    let endpoint: EndpointBody | undefined;
    if (details.endpointId !== undefined) {
      endpoint = this.endpoints.find(ctx, details.endpointId).body;
      if (details.alias !== undefined && details.alias !== endpoint.alias) {
        throw errors.invalidParameter(`'endpointId' and 'alias' name different endpoints; give one of them.`);
      }
    } else {
      endpoint = this.endpoints.findByAlias(ctx, details.alias!)?.body;
      if (!endpoint) throw errors.notAuthorizedOrNotFound(`endpoint with alias '${details.alias}'`);
    }
    const serving = endpoint;
    assertUsable(serving.lifecycleState, (state) =>
      isTransient(state)
        ? `Endpoint ${serving.id} is ${state}; it serves inference requests once it is ACTIVE.`
        : `Endpoint ${serving.id} is ${state} and does not serve inference requests.`,
    );
    return serving;
  }
}

import { rfc3339 } from '../../core/clock';
import { errors } from '../../core/errors';
import { newOcid } from '../../core/ids';
import type { Entity, Transition } from '../../core/lifecycle';
import type { RequestContext } from '../../http/operation';
import { generatedDisplayName, listPage, resourceKind } from './resources';
import { compact } from '../common/resources';
import type { CreateResourceDetails, ListQuery, UpdateResourceDetails } from './resources';
import type { AiLanguageDependencies } from './dependencies';
import type { Started } from '../common/work-requests';
import { isOneOf, TRAINABLE_MODEL_TYPES, type TrainableModelType } from './enums';
import {
  modelVersionFor,
  parseTrainingData,
  trainModel,
  TrainingDataError,
  type ModelArtifact,
  type TrainedModel,
  type TrainingFile,
} from './inference';
import { LifecycleOperations } from './lifecycle-operations';
import { assertUsable, isTransient } from '../common/lifecycle-policy';
import type { DatasetDetails, ModelBody, ModelDetails, TestStrategy } from './bodies';

export type { DatasetDetails, ModelBody, ModelDetails, ObjectListLocation, TestStrategy } from './bodies';

/** `ModelSummary`: no `timeUpdated`, datasets, test strategy or evaluation results. */
export type ModelSummaryBody = Omit<
  ModelBody,
  'timeUpdated' | 'trainingDataset' | 'testStrategy' | 'evaluationResults'
>;

/** What inference needs from a model, never served. */
export interface ModelInternal extends Record<string, unknown> {
  /** The trained parameters of a custom model. */
  artifact?: ModelArtifact;
}

export interface CreateModelDetails extends CreateResourceDetails {
  projectId: string;
  modelDetails: ModelDetails;
  trainingDataset?: DatasetDetails;
  testStrategy?: TestStrategy;
}

/** Name, description and tags only. */
export type UpdateModelDetails = UpdateResourceDetails;

export interface ListModelsQuery extends ListQuery {
  modelId?: string;
  projectId?: string;
}

export const modelKind = resourceKind<ModelBody>(
  'ai_language_models',
  {
    projectId: { type: 'TEXT', value: (e: Entity<ModelBody>) => e.body.projectId },
  },
  modelSummary,
);

export function modelSummary(body: ModelBody): ModelSummaryBody {
  const { timeUpdated: _u, trainingDataset: _d, testStrategy: _t, evaluationResults: _e, ...summary } = body;
  return summary;
}

/** Why a custom model cannot be trained; becomes the FAILED model's `lifecycleDetails` and its work request's error. */
interface TrainingFailure {
  code: string;
  message: string;
}

/** The outcome of training at CreateModel time. */
type TrainingOutcome = { trained: TrainedModel } | { failure: TrainingFailure };

/** A dataset that cannot be read; `code` becomes the work request error's code. */
class DatasetError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** Reads and trains the datasets of a custom model (pure apart from reading objects). */
export function trainFromDatasets(
  objects: AiLanguageDependencies['objects'],
  options: {
    modelType: TrainableModelType;
    modelDetails: ModelDetails;
    trainingDataset: DatasetDetails;
    testStrategy?: TestStrategy;
  },
): TrainingOutcome {
  try {
    const examples = parseTrainingData(
      options.modelType,
      readDataset(objects, options.trainingDataset, 'trainingDataset'),
    );
    const testing = options.testStrategy;
    const testExamples = testing
      ? parseTrainingData(
          options.modelType,
          readDataset(objects, testing.testingDataset, 'testStrategy.testingDataset'),
        )
      : undefined;
    // The validation dataset is checked like the others, but the emulator's models have no
    // hyper-parameters to tune with it.
    if (testing?.validationDataset) {
      parseTrainingData(
        options.modelType,
        readDataset(objects, testing.validationDataset, 'testStrategy.validationDataset'),
      );
    }
    return {
      trained: trainModel({
        modelType: options.modelType,
        classificationMode: options.modelDetails.classificationMode,
        examples,
        testExamples,
      }),
    };
  } catch (error) {
    if (error instanceof DatasetError) return { failure: { code: error.code, message: error.message } };
    if (error instanceof TrainingDataError) return { failure: { code: 'InvalidTrainingData', message: error.message } };
    throw error;
  }
}

/** The files of a dataset, from the emulator's object store. */
function readDataset(
  objects: AiLanguageDependencies['objects'],
  dataset: DatasetDetails,
  field: string,
): TrainingFile[] {
  if (dataset.datasetType === 'DATA_SCIENCE_LABELING') {
    throw new DatasetError(
      'DatasetNotSupported',
      `${field}: the ocikit emulator has no Data Labeling service, so dataset ${dataset.datasetId} cannot be read. ` +
        'Use an OBJECT_STORAGE dataset whose objects are uploaded with PUT /_ocikit/objects/<namespace>/<bucket>/<object>.',
    );
  }
  const { namespaceName, bucketName, objectNames } = dataset.locationDetails;
  const files: TrainingFile[] = [];
  const missing: string[] = [];
  for (const name of objectNames) {
    const content = objects.get(namespaceName, bucketName, name);
    if (content === undefined) missing.push(name);
    else files.push({ name, content });
  }
  if (missing.length) {
    throw new DatasetError(
      'TrainingDataNotFound',
      `${field}: object${missing.length > 1 ? 's' : ''} ${missing.map((n) => `'${n}'`).join(', ')} not found in bucket '${bucketName}' of namespace '${namespaceName}'.`,
    );
  }
  return files;
}

/**
 * AI Language models. Pre-trained types are served as they are; custom NAMED_ENTITY_RECOGNITION
 * and TEXT_CLASSIFICATION models are trained from their dataset when created (training is fast
 * here, so it runs at once and the result is kept private), stay CREATING for the configured
 * training time, and then are ACTIVE with `evaluationResults` and a `version` — or FAILED,
 * with `lifecycleDetails` saying why, when the data cannot be read or used.
 */
export class Models {
  private readonly lifecycle: LifecycleOperations<ModelBody>;

  constructor(private readonly c: AiLanguageDependencies) {
    this.lifecycle = new LifecycleOperations(c, 'Model', c.models);
  }

  create(ctx: RequestContext, details: CreateModelDetails): Started<ModelBody> {
    this.usableProject(ctx, details.projectId);
    const { modelType } = details.modelDetails;
    const trainable = isOneOf(TRAINABLE_MODEL_TYPES, modelType) ? modelType : undefined;
    if (trainable && !details.trainingDataset) {
      // Custom models learn from labelled data; pre-trained ones need none (and ignore one).
      throw errors.missingParameter('trainingDataset');
    }
    const now = this.c.clock.now();
    const id = newOcid('ailanguagemodel', ctx.region);
    const outcome =
      trainable && details.trainingDataset
        ? trainFromDatasets(this.c.objects, {
            modelType: trainable,
            modelDetails: details.modelDetails,
            trainingDataset: details.trainingDataset,
            testStrategy: details.testStrategy,
          })
        : undefined;
    const failure = outcome && 'failure' in outcome ? outcome.failure : undefined;
    const trained = outcome && 'trained' in outcome ? outcome.trained : undefined;
    const work = this.lifecycle.startWork(ctx, 'CREATED', id, details.compartmentId, {
      failure,
      // Training takes the configured training time; a model that cannot be trained fails as
      // soon as its data has been read.
      durationMs: trained ? this.c.settings.trainingDurationMs : undefined,
    });
    const done = rfc3339(work.finishesAt);
    let ending: Transition;
    if (failure) {
      ending = {
        at: work.finishesAt,
        set: { lifecycleState: 'FAILED', lifecycleDetails: failure.message, timeUpdated: done },
      };
    } else if (trained) {
      ending = {
        at: work.finishesAt,
        set: {
          lifecycleState: 'ACTIVE',
          evaluationResults: trained.evaluationResults,
          version: modelVersionFor(modelType),
          timeUpdated: done,
        },
        unset: ['lifecycleDetails'],
      };
    } else {
      ending = {
        at: work.finishesAt,
        set: { lifecycleState: 'ACTIVE', version: modelVersionFor(modelType), timeUpdated: done },
      };
    }
    const body: ModelBody = compact({
      id,
      displayName: details.displayName ?? generatedDisplayName('model', now),
      compartmentId: details.compartmentId,
      projectId: details.projectId,
      description: details.description,
      modelDetails: details.modelDetails,
      timeCreated: rfc3339(now),
      lifecycleState: 'CREATING' as const,
      lifecycleDetails: trained ? trainingProgress(trained) : undefined,
      trainingDataset: details.trainingDataset,
      testStrategy: details.testStrategy,
      freeformTags: details.freeformTags ?? {},
      definedTags: details.definedTags ?? {},
      systemTags: {},
    });
    const internal: ModelInternal = trained ? { artifact: trained.artifact } : {};
    this.c.models.save({
      id,
      region: ctx.region,
      body,
      internal,
      transitions: [{ ...ending, workRequestId: work.id }],
    });
    return { resource: body, workRequestId: work.id };
  }

  /** The model in the request's region, or 404. */
  get(ctx: RequestContext, modelId: string): ModelBody {
    const { body } = this.lifecycle.find(ctx, modelId);
    return body;
  }

  list(ctx: RequestContext, query: ListModelsQuery) {
    return listPage(this.c.models, ctx, query, { id: query.modelId, projectId: query.projectId });
  }

  /** Name, description and tags only: what a model is and what it learnt cannot change. */
  update(
    ctx: RequestContext,
    modelId: string,
    details: UpdateModelDetails,
    ifMatch?: string,
  ): { workRequestId?: string } {
    return this.lifecycle.update(ctx, modelId, details, ifMatch);
  }

  /** Refused (409) while endpoints serving the model are not DELETED. A FAILED model can be deleted. */
  delete(ctx: RequestContext, modelId: string, ifMatch?: string): { workRequestId?: string } {
    return this.lifecycle.delete(ctx, modelId, ifMatch, [
      { what: 'endpoint(s)', repository: this.c.endpoints, where: { region: ctx.region, modelId } },
    ]);
  }

  /** Immediate, with no work request (the API declares none); the model stays ACTIVE. */
  changeCompartment(ctx: RequestContext, modelId: string, compartmentId: string, ifMatch?: string): void {
    this.lifecycle.changeCompartment(ctx, modelId, compartmentId, ifMatch);
  }

  /**
   * The project a new model goes into: unknown → 400 RelatedResourceNotAuthorizedOrNotFound;
   * CREATING/UPDATING → 409 IncorrectState (it becomes ACTIVE by itself); DELETING, DELETED or
   * FAILED → 409 Conflict (it never will).
   */
  private usableProject(ctx: RequestContext, projectId: string): void {
    const project = this.c.projects.find(projectId, ctx.region)?.body;
    if (!project) throw errors.relatedResourceNotFound('projectId', projectId);
    assertUsable(project.lifecycleState, (state) =>
      isTransient(state)
        ? `Project ${projectId} is ${state}; models can be created in it once it is ACTIVE.`
        : `Project ${projectId} is ${state}; models can only be created in an ACTIVE project.`,
    );
  }
}

/** `lifecycleDetails` of a model in training. */
function trainingProgress(trained: TrainedModel): string {
  const { trainingExampleCount, evaluationExampleCount, evaluatedOn } = trained.details;
  const on = { TEST_DATASET: 'test dataset', HELD_OUT_SPLIT: 'held-out', TRAINING_DATA: 'training' }[evaluatedOn];
  return `Training on ${trainingExampleCount} examples; evaluating on ${evaluationExampleCount} ${on} examples.`;
}

import { defineOperation, type OperationDefinition, type ServiceRoutes } from '../../http/operation';
import { accepted, content, created, page, resource, summaryPage } from '../../http/responses';
import {
  definedTagsSchema,
  displayNameSchema,
  freeformTagsSchema,
  listQuerySchema,
  ocidSchema,
} from '../common/resources';
import { BASE_PATH, entityUri } from './resources';
import type { Endpoints } from './endpoints';
import {
  CLASSIFICATION_MODES,
  DATASET_TYPES,
  LIFECYCLE_STATES,
  LOCATION_TYPES,
  MODEL_TYPES,
  TEST_STRATEGY_TYPES,
} from './enums';
import type { InferenceActions } from './inference-actions';
import type { CreateModelDetails, Models } from './models';
import type { Projects } from './projects';
import type { LanguageWorkRequests } from './work-requests';

export interface AiLanguageServices {
  projects: Projects;
  models: Models;
  endpoints: Endpoints;
  workRequests: LanguageWorkRequests;
  inference: InferenceActions;
  isGone: ServiceRoutes['isGone'];
}

// ---------------------------------------------------------------------------------------------
// Request schemas (shapes and types only; the rules are the services')
// ---------------------------------------------------------------------------------------------

const tags = { freeformTags: freeformTagsSchema, definedTags: definedTagsSchema };
const text = { type: 'string' } as const;
// The console's limit of 400 characters (as displayName has the console's 255).
const description = { type: 'string', maxLength: 400 } as const;
const nonEmpty = { type: 'string', minLength: 1 } as const;
const lifecycleState = { type: 'string', enum: LIFECYCLE_STATES } as const;

const changeCompartmentBody = {
  type: 'object',
  required: ['compartmentId'],
  properties: { compartmentId: ocidSchema },
} as const;

const datasetSchema = {
  type: 'object',
  required: ['datasetType'],
  properties: {
    datasetType: { type: 'string', enum: DATASET_TYPES },
    datasetId: nonEmpty,
    locationDetails: {
      type: 'object',
      required: ['locationType', 'namespaceName', 'bucketName', 'objectNames'],
      properties: {
        locationType: { type: 'string', enum: LOCATION_TYPES },
        namespaceName: nonEmpty,
        bucketName: nonEmpty,
        objectNames: { type: 'array', minItems: 1, items: nonEmpty },
      },
    },
  },
  allOf: [
    { if: { properties: { datasetType: { const: 'DATA_SCIENCE_LABELING' } } }, then: { required: ['datasetId'] } },
    { if: { properties: { datasetType: { const: 'OBJECT_STORAGE' } } }, then: { required: ['locationDetails'] } },
  ],
} as const;

const createProjectBody = {
  type: 'object',
  required: ['compartmentId'],
  properties: { compartmentId: ocidSchema, displayName: displayNameSchema, description, ...tags },
} as const;

const updateProjectBody = {
  type: 'object',
  properties: { displayName: displayNameSchema, description, ...tags },
} as const;

const createModelBody = {
  type: 'object',
  required: ['compartmentId', 'projectId', 'modelDetails'],
  properties: {
    compartmentId: ocidSchema,
    projectId: ocidSchema,
    displayName: displayNameSchema,
    description,
    modelDetails: {
      type: 'object',
      required: ['modelType'],
      properties: {
        modelType: { type: 'string', enum: MODEL_TYPES },
        languageCode: nonEmpty,
        version: nonEmpty,
        classificationMode: {
          type: 'object',
          required: ['classificationMode'],
          properties: { classificationMode: { type: 'string', enum: CLASSIFICATION_MODES }, version: nonEmpty },
        },
      },
    },
    trainingDataset: datasetSchema,
    testStrategy: {
      type: 'object',
      required: ['strategyType', 'testingDataset'],
      properties: {
        strategyType: { type: 'string', enum: TEST_STRATEGY_TYPES },
        testingDataset: datasetSchema,
        validationDataset: datasetSchema,
      },
    },
    ...tags,
  },
} as const;

const updateModelBody = updateProjectBody;

/** `inferenceUnits` is only typed here; its bounds are the service's, with a message naming them. */
const endpointFields = {
  displayName: displayNameSchema,
  alias: { type: 'string', minLength: 1, maxLength: 255 },
  description,
  modelId: ocidSchema,
  inferenceUnits: { type: 'integer' },
  ...tags,
} as const;
const createEndpointBody = {
  type: 'object',
  required: ['compartmentId', 'modelId'],
  properties: { compartmentId: ocidSchema, ...endpointFields },
} as const;
const updateEndpointBody = { type: 'object', properties: endpointFields } as const;

/** Document limits (count, length) are checked by inference with OCI's messages, not here. */
const documentFields = { key: text, text } as const;
const routingFields = { endpointId: nonEmpty, alias: nonEmpty, compartmentId: nonEmpty } as const;
const inferenceBody = {
  type: 'object',
  required: ['documents'],
  properties: {
    ...routingFields,
    documents: {
      type: 'array',
      items: { type: 'object', required: ['key', 'text'], properties: { ...documentFields, languageCode: text } },
    },
  },
} as const;
/** DetectDominantLanguage: documents carry no languageCode; two options of its own. */
const dominantLanguageBody = {
  type: 'object',
  required: ['documents'],
  properties: {
    ...routingFields,
    documents: { type: 'array', items: { type: 'object', required: ['key', 'text'], properties: documentFields } },
    shouldIgnoreTransliteration: { type: 'boolean' },
    charsToConsider: { type: 'integer' },
  },
} as const;

const listProjectsQuery = listQuerySchema(
  { compartmentId: nonEmpty, projectId: nonEmpty, lifecycleState, displayName: text },
  ['compartmentId'],
);
const listModelsQuery = listQuerySchema(
  { compartmentId: nonEmpty, modelId: nonEmpty, projectId: nonEmpty, lifecycleState, displayName: text },
  ['compartmentId'],
);
const listEndpointsQuery = listQuerySchema(
  {
    compartmentId: nonEmpty,
    endpointId: nonEmpty,
    projectId: nonEmpty,
    modelId: nonEmpty,
    lifecycleState,
    displayName: text,
  },
  ['compartmentId'],
);
const listWorkRequestsQuery = listQuerySchema(
  { compartmentId: nonEmpty, workRequestId: nonEmpty, resourceId: nonEmpty },
  ['compartmentId'],
);
const listWorkRequestDetailsQuery = listQuerySchema({});

// ---------------------------------------------------------------------------------------------
// Operations (bodies and queries are cast to the services' types: the schemas above guarantee them)
// ---------------------------------------------------------------------------------------------

/** OCI operations of this API the emulator does not serve: they answer 501 MethodNotImplemented. */
const NOT_IMPLEMENTED: OperationDefinition[] = [
  { name: 'BatchDetectLanguagePiiEntities', method: 'POST', path: '/actions/batchDetectLanguagePiiEntities' },
  { name: 'BatchDetectHealthEntity', method: 'POST', path: '/actions/batchDetectHealthEntities' },
  { name: 'BatchLanguageTranslation', method: 'POST', path: '/actions/batchLanguageTranslation' },
  // Deprecated single-document calls (they carry a `sunset` header in OCI).
  { name: 'DetectDominantLanguage', method: 'POST', path: '/actions/detectDominantLanguage' },
  { name: 'DetectLanguageEntities', method: 'POST', path: '/actions/detectLanguageEntities' },
  { name: 'DetectLanguageKeyPhrases', method: 'POST', path: '/actions/detectLanguageKeyPhrases' },
  { name: 'DetectLanguageSentiments', method: 'POST', path: '/actions/detectLanguageSentiments' },
  { name: 'DetectLanguageTextClassification', method: 'POST', path: '/actions/detectLanguageTextClassification' },
  { name: 'ListEvaluationResults', method: 'GET', path: '/models/:modelId/evaluationResults' },
  { name: 'GetModelType', method: 'GET', path: '/modelTypes/:modelType' },
  { name: 'CreateJob', method: 'POST', path: '/jobs' },
  { name: 'ListJobs', method: 'GET', path: '/jobs' },
  { name: 'GetJob', method: 'GET', path: '/jobs/:jobId' },
  { name: 'UpdateJob', method: 'PUT', path: '/jobs/:jobId' },
  { name: 'DeleteJob', method: 'DELETE', path: '/jobs/:jobId' },
  { name: 'CancelJob', method: 'POST', path: '/jobs/:jobId/actions/cancel' },
  { name: 'ChangeJobCompartment', method: 'POST', path: '/jobs/:jobId/actions/changeCompartment' },
];

/**
 * The AI Language API (20221001). Status codes follow OCI's convention: 200 with the body for
 * Create/Get/List and inference, 202 for Update, Delete and ChangeCompartment. Headers are the
 * ones the SDK reads for each operation (`etag`, `location`, `opc-work-request-id`,
 * `opc-next-page`); `opc-request-id` is added to every response by the HTTP layer.
 */
export function aiLanguageRoutes(s: AiLanguageServices): ServiceRoutes {
  const operations: OperationDefinition[] = [
    // Projects
    defineOperation({
      name: 'CreateProject',
      method: 'POST',
      path: '/projects',
      schema: { body: createProjectBody },
      retryToken: true,
      handler: ({ ctx, body }) => {
        return created(ctx, s.projects.create(ctx, body));
      },
    }),
    defineOperation({
      name: 'ListProjects',
      method: 'GET',
      path: '/projects',
      schema: { querystring: listProjectsQuery },
      handler: ({ ctx, query }) => summaryPage(s.projects.list(ctx, query)),
    }),
    defineOperation({
      name: 'GetProject',
      method: 'GET',
      path: '/projects/:projectId',
      handler: ({ ctx, params }) => resource(s.projects.get(ctx, params.projectId)),
    }),
    defineOperation({
      name: 'UpdateProject',
      method: 'PUT',
      path: '/projects/:projectId',
      schema: { body: updateProjectBody },
      handler: ({ ctx, params, body, ifMatch }) => accepted(s.projects.update(ctx, params.projectId, body, ifMatch)),
    }),
    defineOperation({
      name: 'DeleteProject',
      method: 'DELETE',
      path: '/projects/:projectId',
      handler: ({ ctx, params, ifMatch }) => accepted(s.projects.delete(ctx, params.projectId, ifMatch)),
    }),
    defineOperation({
      name: 'ChangeProjectCompartment',
      method: 'POST',
      path: '/projects/:projectId/actions/changeCompartment',
      schema: { body: changeCompartmentBody },
      retryToken: true,
      handler: ({ ctx, params, body, ifMatch }) => {
        s.projects.changeCompartment(ctx, params.projectId, body.compartmentId, ifMatch);
        return accepted();
      },
    }),

    // Models
    defineOperation({
      name: 'CreateModel',
      method: 'POST',
      path: '/models',
      schema: { body: createModelBody },
      retryToken: true,
      handler: ({ ctx, body }) => {
        // The schema's if/then rules make `trainingDataset` and `testStrategy` datasets one of
        // DatasetDetails' two shapes; FromSchema keeps if/then out of the type, so say it here.
        const started = s.models.create(ctx, body as CreateModelDetails);
        return created(ctx, started, entityUri('models', started.resource.id));
      },
    }),
    defineOperation({
      name: 'ListModels',
      method: 'GET',
      path: '/models',
      schema: { querystring: listModelsQuery },
      handler: ({ ctx, query }) => summaryPage(s.models.list(ctx, query)),
    }),
    defineOperation({
      name: 'GetModel',
      method: 'GET',
      path: '/models/:modelId',
      handler: ({ ctx, params }) => resource(s.models.get(ctx, params.modelId)),
    }),
    defineOperation({
      name: 'UpdateModel',
      method: 'PUT',
      path: '/models/:modelId',
      schema: { body: updateModelBody },
      handler: ({ ctx, params, body, ifMatch }) => accepted(s.models.update(ctx, params.modelId, body, ifMatch)),
    }),
    defineOperation({
      name: 'DeleteModel',
      method: 'DELETE',
      path: '/models/:modelId',
      handler: ({ ctx, params, ifMatch }) => accepted(s.models.delete(ctx, params.modelId, ifMatch)),
    }),
    defineOperation({
      name: 'ChangeModelCompartment',
      method: 'POST',
      path: '/models/:modelId/actions/changeCompartment',
      schema: { body: changeCompartmentBody },
      retryToken: true,
      handler: ({ ctx, params, body, ifMatch }) => {
        s.models.changeCompartment(ctx, params.modelId, body.compartmentId, ifMatch);
        return accepted();
      },
    }),

    // Endpoints
    defineOperation({
      name: 'CreateEndpoint',
      method: 'POST',
      path: '/endpoints',
      schema: { body: createEndpointBody },
      retryToken: true,
      handler: ({ ctx, body }) => {
        const started = s.endpoints.create(ctx, body);
        return created(ctx, started, entityUri('endpoints', started.resource.id));
      },
    }),
    defineOperation({
      name: 'ListEndpoints',
      method: 'GET',
      path: '/endpoints',
      schema: { querystring: listEndpointsQuery },
      handler: ({ ctx, query }) => summaryPage(s.endpoints.list(ctx, query)),
    }),
    defineOperation({
      name: 'GetEndpoint',
      method: 'GET',
      path: '/endpoints/:endpointId',
      handler: ({ ctx, params }) => resource(s.endpoints.get(ctx, params.endpointId)),
    }),
    defineOperation({
      name: 'UpdateEndpoint',
      method: 'PUT',
      path: '/endpoints/:endpointId',
      schema: { body: updateEndpointBody },
      handler: ({ ctx, params, body, ifMatch }) => accepted(s.endpoints.update(ctx, params.endpointId, body, ifMatch)),
    }),
    defineOperation({
      name: 'DeleteEndpoint',
      method: 'DELETE',
      path: '/endpoints/:endpointId',
      handler: ({ ctx, params, ifMatch }) => accepted(s.endpoints.delete(ctx, params.endpointId, ifMatch)),
    }),
    defineOperation({
      name: 'ChangeEndpointCompartment',
      method: 'POST',
      path: '/endpoints/:endpointId/actions/changeCompartment',
      schema: { body: changeCompartmentBody },
      retryToken: true,
      handler: ({ ctx, params, body, ifMatch }) => {
        s.endpoints.changeCompartment(ctx, params.endpointId, body.compartmentId, ifMatch);
        return accepted();
      },
    }),

    // Work requests
    defineOperation({
      name: 'ListWorkRequests',
      method: 'GET',
      path: '/workRequests',
      schema: { querystring: listWorkRequestsQuery },
      handler: ({ ctx, query }) => page(s.workRequests.list(ctx, query)),
    }),
    defineOperation({
      name: 'GetWorkRequest',
      method: 'GET',
      path: '/workRequests/:workRequestId',
      handler: ({ ctx, params }) => resource(s.workRequests.get(ctx, params.workRequestId)),
    }),
    defineOperation({
      name: 'ListWorkRequestErrors',
      method: 'GET',
      path: '/workRequests/:workRequestId/errors',
      schema: { querystring: listWorkRequestDetailsQuery },
      handler: ({ ctx, params, query }) => page(s.workRequests.errors(ctx, params.workRequestId, query)),
    }),
    defineOperation({
      name: 'ListWorkRequestLogs',
      method: 'GET',
      path: '/workRequests/:workRequestId/logs',
      schema: { querystring: listWorkRequestDetailsQuery },
      handler: ({ ctx, params, query }) => page(s.workRequests.logs(ctx, params.workRequestId, query)),
    }),

    // Inference (data plane)
    defineOperation({
      name: 'BatchDetectLanguageEntities',
      method: 'POST',
      path: '/actions/batchDetectLanguageEntities',
      schema: { body: inferenceBody },
      handler: ({ ctx, body }) => content(s.inference.run(ctx, 'batchDetectLanguageEntities', body)),
    }),
    defineOperation({
      name: 'BatchDetectLanguageTextClassification',
      method: 'POST',
      path: '/actions/batchDetectLanguageTextClassification',
      schema: { body: inferenceBody },
      handler: ({ ctx, body }) => content(s.inference.run(ctx, 'batchDetectLanguageTextClassification', body)),
    }),
    defineOperation({
      name: 'BatchDetectLanguageSentiments',
      method: 'POST',
      path: '/actions/batchDetectLanguageSentiments',
      schema: {
        body: inferenceBody,
        // Repeated (`level=ASPECT&level=SENTENCE`, as the SDKs send it) or comma-separated;
        // inference checks each value (ASPECT, SENTENCE).
        querystring: { type: 'object', properties: { level: { type: 'array', items: { type: 'string' } } } },
      },
      handler: ({ ctx, body, query }) => content(s.inference.run(ctx, 'batchDetectLanguageSentiments', body, query)),
    }),
    defineOperation({
      name: 'BatchDetectDominantLanguage',
      method: 'POST',
      path: '/actions/batchDetectDominantLanguage',
      schema: {
        body: dominantLanguageBody,
      },
      handler: ({ ctx, body }) => content(s.inference.run(ctx, 'batchDetectDominantLanguage', body)),
    }),
    defineOperation({
      name: 'BatchDetectLanguageKeyPhrases',
      method: 'POST',
      path: '/actions/batchDetectLanguageKeyPhrases',
      schema: { body: inferenceBody },
      handler: ({ ctx, body }) => content(s.inference.run(ctx, 'batchDetectLanguageKeyPhrases', body)),
    }),

    ...NOT_IMPLEMENTED,
  ];
  return { basePath: BASE_PATH, operations, isGone: s.isGone };
}

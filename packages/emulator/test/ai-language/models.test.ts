import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { models } from 'oci-ailanguage';
import { MODEL_TYPES } from '../../src/services/ai-language/enums';
import { fastWaiter, ociError } from '../support/emulator';
import {
  createModel,
  createProject,
  languageSuite,
  newCompartmentId,
  objectStorageDataset,
  pretrained,
  sdkModelTypes,
  SUPPORT_TICKETS_CSV,
  uploadObject,
  uploadTrainingData,
} from './support';

/** The pre-trained types as the SDK names them, so a type it gains shows up here. */
const PRETRAINED_TYPES = sdkModelTypes().filter((type) => type.startsWith('PRE_TRAINED_'));

describe('AI Language model types', () => {
  it('are exactly the ModelDetails discriminators of the official SDK', () => {
    assert.deepEqual([...MODEL_TYPES].sort(), sdkModelTypes());
  });
});

describe('AI Language models through the official SDK', () => {
  const env = languageSuite();
  let compartmentId: string;
  let projectId: string;
  before(async () => {
    compartmentId = await newCompartmentId();
    projectId = (await createProject(env.client, compartmentId)).id;
    await uploadTrainingData(env.t, 'ns', 'training');
  });

  /** A custom text classifier trained from `objectName` in the suite's bucket, returned once settled. */
  const trainClassifier = (objectName: string, details: Partial<models.CreateModelDetails> = {}) =>
    createModel(env.client, {
      compartmentId,
      projectId,
      modelDetails: pretrained('TEXT_CLASSIFICATION'),
      trainingDataset: objectStorageDataset('ns', 'training', objectName),
      ...details,
    });

  it('creates a model of every pre-trained type without a dataset; each becomes ACTIVE with a version', async () => {
    for (const modelType of PRETRAINED_TYPES) {
      const created = await env.client.createModel({
        createModelDetails: { compartmentId, projectId, modelDetails: pretrained(modelType) },
      });
      assert.equal(created.model.lifecycleState, 'CREATING', modelType);
      assert.equal(created.model.projectId, projectId);
      assert.equal(created.model.modelDetails.modelType, modelType);
      assert.ok(created.etag);
      assert.equal(created.location, `/20221001/models/${created.model.id}`);
      assert.match(created.opcWorkRequestId, /^ocid1\.ailanguageworkrequest\./);
      const { model } = await env.client.getModel({ modelId: created.model.id });
      assert.equal(model.lifecycleState, 'ACTIVE', modelType);
      assert.ok(model.version, `${modelType} has a version`);
      assert.equal(model.evaluationResults, undefined);
    }
  });

  it('accepts the custom PII and HEALTH_NLU types, which need no dataset', async () => {
    for (const modelType of ['PII', 'HEALTH_NLU']) {
      const model = await createModel(env.client, { compartmentId, projectId, modelDetails: pretrained(modelType) });
      assert.equal(model.lifecycleState, 'ACTIVE', modelType);
      assert.ok(model.version);
    }
  });

  it('trains a custom text classifier from uploaded objects: ACTIVE with evaluationResults and a version', async () => {
    const details: models.CreateModelDetails = {
      compartmentId,
      projectId,
      displayName: 'tickets',
      modelDetails: {
        modelType: 'TEXT_CLASSIFICATION',
        classificationMode: { classificationMode: 'MULTI_CLASS' },
      } as models.TextClassificationModelDetails,
      trainingDataset: objectStorageDataset('ns', 'training', 'tickets.csv'),
    };
    const created = await env.client.createModel({ createModelDetails: details });
    assert.deepEqual(created.model.trainingDataset, details.trainingDataset);
    const model = (await env.client
      .createWaiters(fastWaiter())
      .forModel({ modelId: created.model.id }, models.Model.LifecycleState.Active))!.model;
    assert.equal(model.version, 'ai-lang::TXT_CLS_V1::CUSTOM-V0');
    const results = model.evaluationResults as models.TextClassificationEvaluationResults;
    assert.equal(results.modelType, 'TEXT_CLASSIFICATION');
    assert.deepEqual([...results.labels!].sort(), ['account', 'billing', 'technical']);
    assert.ok(results.metrics!.accuracy! >= 0 && results.metrics!.accuracy! <= 1);
    assert.ok(results.classMetrics!.length === 3);
    const wr = await env.client.getWorkRequest({ workRequestId: created.opcWorkRequestId });
    assert.equal(wr.workRequest.operationType, 'CREATE_MODEL');
    assert.equal(wr.workRequest.status, 'SUCCEEDED');
  });

  it('trains a custom NER model evaluated on a test dataset (TEST_AND_VALIDATION_DATASET)', async () => {
    const model = await createModel(env.client, {
      compartmentId,
      projectId,
      modelDetails: { modelType: 'NAMED_ENTITY_RECOGNITION' } as models.NamedEntityRecognitionModelDetails,
      trainingDataset: objectStorageDataset('ns', 'training', 'products.jsonl'),
      testStrategy: {
        strategyType: 'TEST_AND_VALIDATION_DATASET',
        testingDataset: objectStorageDataset('ns', 'training', 'products.jsonl'),
      } as models.TestAndValidationDatasetStrategy,
    });
    assert.equal(model.lifecycleState, 'ACTIVE');
    assert.equal(model.version, 'ai-lang::NER_V1::CUSTOM-V0');
    const results = model.evaluationResults as models.NamedEntityRecognitionEvaluationResults;
    assert.equal(results.modelType, 'NAMED_ENTITY_RECOGNITION');
    assert.deepEqual([...results.labels!].sort(), ['COMPONENT', 'PRODUCT']);
    assert.equal(results.metrics!.microF1, 1, 'evaluated on the data it learnt, every entity is found');
  });

  it('requires a training dataset for custom NER and TEXT_CLASSIFICATION (400 MissingParameter)', async () => {
    for (const modelType of ['NAMED_ENTITY_RECOGNITION', 'TEXT_CLASSIFICATION']) {
      const error = await ociError(() =>
        env.client.createModel({
          createModelDetails: { compartmentId, projectId, modelDetails: pretrained(modelType) },
        }),
      );
      assert.equal(error.statusCode, 400, modelType);
      assert.equal(error.serviceCode, 'MissingParameter');
      assert.match(error.message, /trainingDataset/);
    }
  });

  it('rejects an unknown model type and an unknown project with 400', async () => {
    const badType = await ociError(() =>
      env.client.createModel({
        createModelDetails: { compartmentId, projectId, modelDetails: pretrained('PRE_TRAINED_MAGIC') },
      }),
    );
    assert.equal(badType.statusCode, 400);
    assert.equal(badType.serviceCode, 'InvalidParameter');
    assert.match(badType.message, /modelType/);
    const noProject = await ociError(() =>
      env.client.createModel({
        createModelDetails: {
          compartmentId,
          projectId: 'ocid1.ailanguageproject.oc1.iad.amaaaaaanope',
          modelDetails: pretrained('PRE_TRAINED_SENTIMENT_ANALYSIS'),
        },
      }),
    );
    assert.equal(noProject.statusCode, 400);
    assert.equal(noProject.serviceCode, 'RelatedResourceNotAuthorizedOrNotFound');
    const incomplete = await ociError(() =>
      env.client.createModel({
        createModelDetails: {
          compartmentId,
          projectId,
          modelDetails: pretrained('TEXT_CLASSIFICATION'),
          trainingDataset: { datasetType: 'OBJECT_STORAGE' } as never,
        },
      }),
    );
    assert.equal(incomplete.statusCode, 400);
    assert.equal(incomplete.serviceCode, 'MissingParameter');
    assert.match(incomplete.message, /trainingDataset\.locationDetails/);
  });

  it('fails a model whose training objects are missing: model FAILED, work request FAILED with errors and a CREATED entry', async () => {
    const created = await env.client.createModel({
      createModelDetails: {
        compartmentId,
        projectId,
        modelDetails: pretrained('TEXT_CLASSIFICATION'),
        trainingDataset: objectStorageDataset('ns', 'training', 'tickets.csv', 'nowhere.csv'),
      },
    });
    const { model } = await env.client.getModel({ modelId: created.model.id });
    assert.equal(model.lifecycleState, 'FAILED');
    assert.match(model.lifecycleDetails!, /nowhere\.csv/);
    assert.equal(model.evaluationResults, undefined);

    const wr = (
      await env.client.createWaiters(fastWaiter()).forWorkRequest({ workRequestId: created.opcWorkRequestId })
    ).workRequest;
    assert.equal(wr.status, 'FAILED');
    assert.ok(wr.timeFinished);
    const entry = wr.resources!.find((r) => r.entityType.toLowerCase().includes('model'));
    assert.equal(entry?.actionType, 'CREATED');
    assert.equal(entry?.identifier, model.id);
    const errors = (await env.client.listWorkRequestErrors({ workRequestId: wr.id })).workRequestErrorCollection.items;
    assert.equal(errors.length, 1);
    assert.equal(errors[0].code, 'TrainingDataNotFound');
    assert.match(errors[0].message, /nowhere\.csv/);

    const deploy = await ociError(() =>
      env.client.createEndpoint({ createEndpointDetails: { compartmentId, modelId: model.id } }),
    );
    assert.equal(deploy.statusCode, 409);
    assert.equal(deploy.serviceCode, 'Conflict', 'a FAILED model never becomes ACTIVE: no retry helps');

    await env.client.deleteModel({ modelId: model.id });
    assert.equal((await env.client.getModel({ modelId: model.id })).model.lifecycleState, 'DELETED');
  });

  it('fails a model whose training data is invalid, explaining the problem', async () => {
    await uploadObject(env.t, 'ns', 'training', 'one-label.csv', 'text,labels\nfirst text,only\nsecond text,only\n');
    await uploadObject(env.t, 'ns', 'training', 'no-header.csv', 'just some text\n');
    const oneLabel = await trainClassifier('one-label.csv');
    assert.equal(oneLabel.lifecycleState, 'FAILED');
    assert.match(oneLabel.lifecycleDetails!, /at least 2 distinct labels/);
    const noHeader = await trainClassifier('no-header.csv');
    assert.equal(noHeader.lifecycleState, 'FAILED');
    assert.match(noHeader.lifecycleDetails!, /no-header\.csv/);
    const wrs = (await env.client.listWorkRequests({ compartmentId, resourceId: noHeader.id }))
      .workRequestSummaryCollection.items;
    const errors = (await env.client.listWorkRequestErrors({ workRequestId: wrs[0].id })).workRequestErrorCollection
      .items;
    assert.equal(errors[0].code, 'InvalidTrainingData');
  });

  it('fails a model trained from a Data Labeling dataset, which the emulator cannot read', async () => {
    const model = await createModel(env.client, {
      compartmentId,
      projectId,
      modelDetails: pretrained('NAMED_ENTITY_RECOGNITION'),
      trainingDataset: {
        datasetType: 'DATA_SCIENCE_LABELING',
        datasetId: 'ocid1.datalabelingdataset.oc1.iad.amaaaaaax',
      } as models.DataScienceLabelingDataset,
    });
    assert.equal(model.lifecycleState, 'FAILED');
    assert.match(model.lifecycleDetails!, /Data Labeling/);
  });

  it('updates name, description and tags (UPDATING → ACTIVE), keeping what the model learnt', async () => {
    const model = await trainClassifier('tickets.csv');
    const updated = await env.client.updateModel({
      modelId: model.id,
      updateModelDetails: {
        displayName: 'renamed',
        description: 'd',
        freeformTags: { k: 'v' },
        definedTags: { ns: { key: 'v' } },
      },
    });
    assert.ok(updated.opcWorkRequestId);
    const { model: now } = await env.client.getModel({ modelId: model.id });
    assert.equal(now.displayName, 'renamed');
    assert.equal(now.description, 'd');
    assert.deepEqual(now.freeformTags, { k: 'v' });
    assert.deepEqual(now.definedTags, { ns: { key: 'v' } });
    assert.equal(now.lifecycleState, 'ACTIVE');
    assert.deepEqual(now.evaluationResults, model.evaluationResults);
    assert.equal(now.version, model.version);
  });

  it('lists model summaries (without datasets, evaluation results or timeUpdated) with filters', async () => {
    const other = await createProject(env.client, compartmentId, 'other');
    const named = await trainClassifier('tickets.csv', { projectId: other.id, displayName: 'only-one' });
    const inProject = await env.client.listModels({ compartmentId, projectId: other.id });
    assert.deepEqual(
      inProject.modelCollection.items.map((m) => m.id),
      [named.id],
    );
    const summary = inProject.modelCollection.items[0] as unknown as Record<string, unknown>;
    for (const field of ['evaluationResults', 'trainingDataset', 'testStrategy', 'timeUpdated'])
      assert.equal(field in summary, false, field);
    assert.equal(summary.version, named.version);
    assert.equal(
      (await env.client.listModels({ compartmentId, displayName: 'only-one' })).modelCollection.items.length,
      1,
    );
    assert.equal((await env.client.listModels({ compartmentId, modelId: named.id })).modelCollection.items.length, 1);
    const failed = await env.client.listModels({ compartmentId, lifecycleState: 'FAILED' });
    assert.ok(failed.modelCollection.items.every((m) => m.lifecycleState === 'FAILED'));
    const missing = await ociError(() => env.client.listModels({ projectId: other.id } as never));
    assert.equal(missing.serviceCode, 'MissingParameter');
  });

  it('moves a model to another compartment without a work request', async () => {
    const model = await createModel(env.client, {
      compartmentId,
      projectId,
      modelDetails: pretrained('PRE_TRAINED_SENTIMENT_ANALYSIS'),
    });
    const to = await newCompartmentId();
    await env.client.changeModelCompartment({
      modelId: model.id,
      changeModelCompartmentDetails: { compartmentId: to },
    });
    const { model: moved } = await env.client.getModel({ modelId: model.id });
    assert.equal(moved.compartmentId, to);
    assert.equal(moved.projectId, projectId);
    assert.equal((await env.client.listModels({ compartmentId: to })).modelCollection.items.length, 1);
  });
});

describe('AI Language custom model training time', () => {
  const env = languageSuite({ trainingDurationSeconds: 60 });

  it('stays CREATING while it trains, refuses endpoints until ACTIVE, then carries evaluationResults and a version', async () => {
    const compartmentId = await newCompartmentId();
    const project = await createProject(env.client, compartmentId);
    await uploadObject(env.t, 'ns', 'b', 'tickets.csv', SUPPORT_TICKETS_CSV);
    const created = await env.client.createModel({
      createModelDetails: {
        compartmentId,
        projectId: project.id,
        modelDetails: pretrained('TEXT_CLASSIFICATION'),
        trainingDataset: objectStorageDataset('ns', 'b', 'tickets.csv'),
      },
    });
    const training = (await env.client.getModel({ modelId: created.model.id })).model;
    assert.equal(training.lifecycleState, 'CREATING');
    assert.equal(training.evaluationResults, undefined);
    assert.equal(training.version, undefined);
    assert.match(training.lifecycleDetails!, /Training on \d+ examples/);

    const early = await ociError(() =>
      env.client.createEndpoint({ createEndpointDetails: { compartmentId, modelId: training.id } }),
    );
    assert.equal(early.statusCode, 409);
    assert.equal(early.serviceCode, 'IncorrectState', 'a training model becomes ACTIVE by itself, so SDKs retry');
    const busy = await ociError(() =>
      env.client.updateModel({ modelId: training.id, updateModelDetails: { displayName: 'x' } }),
    );
    assert.equal(busy.serviceCode, 'IncorrectState');
    const wr = (await env.client.getWorkRequest({ workRequestId: created.opcWorkRequestId })).workRequest;
    assert.equal(wr.timeFinished, undefined);

    await env.t.advance(30);
    assert.equal((await env.client.getModel({ modelId: training.id })).model.lifecycleState, 'CREATING');
    await env.t.advance(30);
    const trained = (await env.client.getModel({ modelId: training.id })).model;
    assert.equal(trained.lifecycleState, 'ACTIVE');
    assert.equal(trained.lifecycleDetails, undefined);
    assert.ok(trained.version);
    assert.equal(trained.evaluationResults!.modelType, 'TEXT_CLASSIFICATION');
    assert.equal(
      (await env.client.getWorkRequest({ workRequestId: created.opcWorkRequestId })).workRequest.status,
      'SUCCEEDED',
    );

    const { endpoint } = await env.client.createEndpoint({
      createEndpointDetails: { compartmentId, modelId: trained.id },
    });
    assert.equal(endpoint.modelId, trained.id);
  });

  it('does not wait for the training time when the data cannot be used', async () => {
    const compartmentId = await newCompartmentId();
    const project = await createProject(env.client, compartmentId);
    const model = await createModel(env.client, {
      compartmentId,
      projectId: project.id,
      modelDetails: pretrained('NAMED_ENTITY_RECOGNITION'),
      trainingDataset: objectStorageDataset('ns', 'b', 'missing.jsonl'),
    });
    assert.equal(model.lifecycleState, 'FAILED');
  });

  it('serves pre-trained models without the training time', async () => {
    const compartmentId = await newCompartmentId();
    const project = await createProject(env.client, compartmentId);
    const model = await createModel(env.client, {
      compartmentId,
      projectId: project.id,
      modelDetails: pretrained('PRE_TRAINED_LANGUAGE_DETECTION'),
    });
    assert.equal(model.lifecycleState, 'ACTIVE');
  });
});

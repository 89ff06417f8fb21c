import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { models } from 'oci-ailanguage';
import type { SandboxIds } from '../../src';
import { fastWaiter } from '../support/emulator';
import { languageSuite } from './support';

describe('AI Language sandbox seed', () => {
  const env = languageSuite({ seed: 'sandbox', trainingDurationSeconds: 60 });
  let sandbox: SandboxIds;
  before(async () => {
    sandbox = await env.t.admin<SandboxIds>('GET', '/sandbox');
  });

  it('lists the AI Language ids under aiLanguage at GET /_ocikit/sandbox', async () => {
    const ai = sandbox.aiLanguage;
    assert.match(ai.projectId, /^ocid1\.ailanguageproject\.oc1\.iad\./);
    for (const id of [...Object.values(ai.pretrainedModelIds), ...Object.values(ai.customModelIds)]) {
      assert.match(id as string, /^ocid1\.ailanguagemodel\.oc1\.iad\./);
    }
    assert.deepEqual(Object.keys(ai.pretrainedModelIds).sort(), [
      'keyPhraseExtraction',
      'languageDetection',
      'namedEntityRecognition',
      'sentimentAnalysis',
      'textClassification',
    ]);
    assert.deepEqual(env.t.emulator.sandbox?.aiLanguage, ai);
  });

  it('seeds an ACTIVE project and ACTIVE models at once, custom ones trained with evaluation results', async () => {
    const ai = sandbox.aiLanguage;
    const { project } = await env.client.getProject({ projectId: ai.projectId });
    assert.equal(project.lifecycleState, 'ACTIVE');
    assert.equal(project.compartmentId, sandbox.compartmentId);
    const listed = await env.client.listModels({ compartmentId: sandbox.compartmentId, projectId: ai.projectId });
    assert.equal(listed.modelCollection.items.length, 7);
    assert.ok(listed.modelCollection.items.every((m) => m.lifecycleState === 'ACTIVE'));

    const classifier = (await env.client.getModel({ modelId: ai.customModelIds.textClassification })).model;
    assert.equal(classifier.modelDetails.modelType, 'TEXT_CLASSIFICATION');
    assert.deepEqual([...(classifier.evaluationResults as models.TextClassificationEvaluationResults).labels!].sort(), [
      'account',
      'billing',
      'technical',
    ]);
    assert.ok(classifier.version);
    const ner = (await env.client.getModel({ modelId: ai.customModelIds.namedEntityRecognition })).model;
    assert.equal(ner.modelDetails.modelType, 'NAMED_ENTITY_RECOGNITION');
    assert.equal(ner.evaluationResults!.modelType, 'NAMED_ENTITY_RECOGNITION');
    const sentiment = (await env.client.getModel({ modelId: ai.pretrainedModelIds.sentimentAnalysis })).model;
    assert.equal(sentiment.modelDetails.modelType, 'PRE_TRAINED_SENTIMENT_ANALYSIS');
  });

  it('deploys the custom classifier to an endpoint that classifies support tickets', async () => {
    const ai = sandbox.aiLanguage;
    const { endpoint } = await env.client.createEndpoint({
      createEndpointDetails: {
        compartmentId: sandbox.compartmentId,
        modelId: ai.customModelIds.textClassification,
        alias: 'sandbox-tickets',
      },
    });
    assert.equal(endpoint.projectId, ai.projectId);
    await env.client
      .createWaiters(fastWaiter())
      .forEndpoint({ endpointId: endpoint.id }, models.Endpoint.LifecycleState.Active);
    const { batchDetectLanguageTextClassificationResult: result } =
      await env.client.batchDetectLanguageTextClassification({
        batchDetectLanguageTextClassificationDetails: {
          alias: 'sandbox-tickets',
          documents: [
            { key: 'a', text: 'I was charged twice for my subscription, please refund the extra payment.' },
            { key: 'b', text: 'The app crashes every time I open the settings page.' },
            { key: 'c', text: 'I forgot my password and cannot log in to my account.' },
          ],
        },
      });
    assert.deepEqual(
      result.documents.map((d) => d.textClassification[0].label),
      ['billing', 'technical', 'account'],
    );
  });

  it('deploys the custom NER model, which finds the products it was trained on', async () => {
    const ai = sandbox.aiLanguage;
    const { endpoint } = await env.client.createEndpoint({
      createEndpointDetails: {
        compartmentId: sandbox.compartmentId,
        modelId: ai.customModelIds.namedEntityRecognition,
      },
    });
    await env.client
      .createWaiters(fastWaiter())
      .forEndpoint({ endpointId: endpoint.id }, models.Endpoint.LifecycleState.Active);
    const { batchDetectLanguageEntitiesResult: result } = await env.client.batchDetectLanguageEntities({
      batchDetectLanguageEntitiesDetails: {
        endpointId: endpoint.id,
        documents: [{ key: 'a', text: 'The battery of my Nimbus X2 is swollen.' }],
      },
    });
    const product = result.documents[0].entities.find((e) => e.type === 'PRODUCT');
    assert.equal(product?.text, 'Nimbus X2');
  });

  it('leaves the training data in the object store, reusable to train a new model', async () => {
    const ai = sandbox.aiLanguage;
    const { namespaceName, bucketName, objectNames } = ai.trainingData;
    const { model } = await env.client.createModel({
      createModelDetails: {
        compartmentId: sandbox.compartmentId,
        projectId: ai.projectId,
        modelDetails: { modelType: 'TEXT_CLASSIFICATION' } as models.TextClassificationModelDetails,
        trainingDataset: {
          datasetType: 'OBJECT_STORAGE',
          locationDetails: {
            locationType: 'OBJECT_LIST',
            namespaceName,
            bucketName,
            objectNames: [objectNames.textClassification],
          },
        } as models.ObjectStorageDataset,
      },
    });
    assert.equal(
      (await env.client.getModel({ modelId: model.id })).model.lifecycleState,
      'CREATING',
      'it trains for the configured time',
    );
    await env.t.advance(60);
    const trained = (await env.client.getModel({ modelId: model.id })).model;
    assert.equal(trained.lifecycleState, 'ACTIVE');
    assert.ok(trained.evaluationResults);
  });
});

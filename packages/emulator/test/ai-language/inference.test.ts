import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { requests, type models } from 'oci-ailanguage';
import { ociError } from '../support/emulator';
import {
  createModel,
  createProject,
  languageSuite,
  newCompartmentId,
  objectStorageDataset,
  pretrained,
  uploadTrainingData,
} from './support';

type Routing = { endpointId: string } | { alias: string };
const docs = (...texts: string[]): models.TextDocument[] => texts.map((text, i) => ({ key: `doc-${i + 1}`, text }));

describe('AI Language inference through endpoints', () => {
  const env = languageSuite();
  let compartmentId: string;
  /** Endpoint per capability, each reachable by id and by alias. */
  const endpoints: Record<string, { id: string; alias: string }> = {};

  before(async () => {
    compartmentId = await newCompartmentId();
    const project = await createProject(env.client, compartmentId);
    await uploadTrainingData(env.t, 'acme', 'language');
    const deploy = async (name: string, details: Omit<models.CreateModelDetails, 'compartmentId' | 'projectId'>) => {
      const model = await createModel(env.client, { compartmentId, projectId: project.id, ...details });
      assert.equal(model.lifecycleState, 'ACTIVE', `${name} model`);
      const { endpoint } = await env.client.createEndpoint({
        createEndpointDetails: { compartmentId, modelId: model.id, alias: `acme-${name}` },
      });
      endpoints[name] = { id: endpoint.id, alias: `acme-${name}` };
    };
    await deploy('tickets', {
      modelDetails: pretrained('TEXT_CLASSIFICATION'),
      trainingDataset: objectStorageDataset('acme', 'language', 'tickets.csv'),
    });
    await deploy('products', {
      modelDetails: pretrained('NAMED_ENTITY_RECOGNITION'),
      trainingDataset: objectStorageDataset('acme', 'language', 'products.jsonl'),
    });
    await deploy('sentiment', { modelDetails: pretrained('PRE_TRAINED_SENTIMENT_ANALYSIS') });
    await deploy('language', { modelDetails: pretrained('PRE_TRAINED_LANGUAGE_DETECTION') });
    await deploy('phrases', { modelDetails: pretrained('PRE_TRAINED_KEYPHRASE_EXTRACTION') });
  });

  const routes = (name: string): Array<[string, Routing]> => [
    ['endpointId', { endpointId: endpoints[name].id }],
    ['alias', { alias: endpoints[name].alias }],
  ];

  it('classifies text with the custom classifier, by endpoint id and by alias', async () => {
    for (const [how, routing] of routes('tickets')) {
      const { batchDetectLanguageTextClassificationResult: result } =
        await env.client.batchDetectLanguageTextClassification({
          batchDetectLanguageTextClassificationDetails: {
            ...routing,
            documents: docs(
              'I was charged twice on my credit card, please refund me.',
              'The app crashes with an error after the update.',
              'I cannot log in, my password reset email never arrives.',
            ),
          },
        });
      assert.deepEqual(
        result.documents.map((d) => d.key),
        ['doc-1', 'doc-2', 'doc-3'],
        how,
      );
      assert.deepEqual(
        result.documents.map((d) => d.textClassification[0].label),
        ['billing', 'technical', 'account'],
        how,
      );
      assert.ok(result.documents.every((d) => d.textClassification[0].score > 0 && d.textClassification[0].score <= 1));
      assert.deepEqual(result.errors ?? [], []);
    }
  });

  it('finds the product names the custom NER model was trained on, by endpoint id and by alias', async () => {
    for (const [how, routing] of routes('products')) {
      const text = 'The speaker of my new Zephyr Phone stopped working.';
      const { batchDetectLanguageEntitiesResult: result } = await env.client.batchDetectLanguageEntities({
        batchDetectLanguageEntitiesDetails: { ...routing, documents: docs(text) },
      });
      const entities = result.documents[0].entities;
      const product = entities.find((e) => e.type === 'PRODUCT');
      assert.ok(product, `${how}: a PRODUCT is found`);
      assert.equal(product.text, 'Zephyr Phone');
      assert.equal(
        text.slice(product.offset!, product.offset! + product.length!),
        'Zephyr Phone',
        'offsets point into the text',
      );
      assert.ok(
        entities.some((e) => e.type === 'COMPONENT' && e.text === 'speaker'),
        how,
      );
    }
  });

  it('analyses sentiment per sentence and aspect, by endpoint id and by alias', async () => {
    for (const [how, routing] of routes('sentiment')) {
      const { batchDetectLanguageSentimentsResult: result } = await env.client.batchDetectLanguageSentiments({
        batchDetectLanguageSentimentsDetails: {
          ...routing,
          documents: docs(
            'I love this phone. The battery is great.',
            'The food was excellent but the service was terribly slow.',
          ),
        },
        level: [
          requests.BatchDetectLanguageSentimentsRequest.Level.Sentence,
          requests.BatchDetectLanguageSentimentsRequest.Level.Aspect,
        ],
      });
      const [happy, mixed] = result.documents;
      assert.equal(happy.documentSentiment, 'Positive', how);
      assert.equal(happy.sentences!.length, 2);
      assert.equal(happy.sentences![0].sentiment, 'Positive');
      const aspects = Object.fromEntries(mixed.aspects.map((a) => [a.text, a.sentiment]));
      assert.equal(aspects.food, 'Positive', how);
      assert.equal(aspects.service, 'Negative', how);
    }
  });

  it('detects the dominant language, by endpoint id and by alias', async () => {
    for (const [how, routing] of routes('language')) {
      const { batchDetectDominantLanguageResult: result } = await env.client.batchDetectDominantLanguage({
        batchDetectDominantLanguageDetails: {
          ...routing,
          documents: [
            { key: 'fr', text: 'Le chat est sur la table et il dort tranquillement.' },
            { key: 'en', text: 'The weather is lovely today and we are going to the beach.' },
          ],
        },
      });
      assert.equal(result.documents[0].languages[0].code, 'fr', how);
      assert.equal(result.documents[0].languages[0].name, 'French');
      assert.equal(result.documents[1].languages[0].code, 'en', how);
    }
  });

  it('extracts key phrases taken from the text, by endpoint id and by alias', async () => {
    const text = 'The new battery technology doubles the range of electric cars.';
    for (const [how, routing] of routes('phrases')) {
      const { batchDetectLanguageKeyPhrasesResult: result } = await env.client.batchDetectLanguageKeyPhrases({
        batchDetectLanguageKeyPhrasesDetails: { ...routing, documents: docs(text) },
      });
      const phrases = result.documents[0].keyPhrases.map((p) => p.text);
      assert.ok(phrases.includes('electric cars'), `${how}: ${phrases.join(' | ')}`);
      assert.ok(phrases.every((p) => text.includes(p)));
    }
  });

  it('answers deterministically: the same text gives the same result', async () => {
    const call = () =>
      env.client.batchDetectLanguageTextClassification({
        batchDetectLanguageTextClassificationDetails: {
          alias: endpoints.tickets.alias,
          documents: docs('Where is my refund for the double charge?'),
        },
      });
    assert.deepEqual(
      (await call()).batchDetectLanguageTextClassificationResult,
      (await call()).batchDetectLanguageTextClassificationResult,
    );
  });

  it('uses the pre-trained model when the call names no endpoint', async () => {
    const { batchDetectLanguageEntitiesResult: result } = await env.client.batchDetectLanguageEntities({
      batchDetectLanguageEntitiesDetails: {
        compartmentId,
        documents: docs('Contact Jane Doe at jane.doe@example.com about the meeting in London.'),
      },
    });
    const types = Object.fromEntries(result.documents[0].entities.map((e) => [e.text, e.type]));
    assert.equal(types['Jane Doe'], 'PERSON');
    assert.equal(types['jane.doe@example.com'], 'EMAIL');
    assert.equal(types.London, 'LOCATION');
    const { batchDetectLanguageTextClassificationResult: topics } =
      await env.client.batchDetectLanguageTextClassification({
        batchDetectLanguageTextClassificationDetails: {
          compartmentId,
          documents: docs('The striker scored a goal in the final minute of the match.'),
        },
      });
    assert.equal(topics.documents[0].textClassification[0].label, 'Sports');
  });

  it('refuses an operation the endpoint model cannot serve (400) and unknown endpoints or aliases (404)', async () => {
    const wrongType = await ociError(() =>
      env.client.batchDetectLanguageSentiments({
        batchDetectLanguageSentimentsDetails: { endpointId: endpoints.tickets.id, documents: docs('Great!') },
      }),
    );
    assert.equal(wrongType.statusCode, 400);
    assert.equal(wrongType.serviceCode, 'InvalidParameter');
    const unknownId = await ociError(() =>
      env.client.batchDetectLanguageEntities({
        batchDetectLanguageEntitiesDetails: {
          endpointId: 'ocid1.ailanguageendpoint.oc1.iad.amaaaaaanope',
          documents: docs('x'),
        },
      }),
    );
    assert.equal(unknownId.statusCode, 404);
    assert.equal(unknownId.serviceCode, 'NotAuthorizedOrNotFound');
    const unknownAlias = await ociError(() =>
      env.client.batchDetectLanguageEntities({
        batchDetectLanguageEntitiesDetails: { alias: 'no-such-alias', documents: docs('x') },
      }),
    );
    assert.equal(unknownAlias.statusCode, 404);
    const mismatch = await ociError(() =>
      env.client.batchDetectLanguageEntities({
        batchDetectLanguageEntitiesDetails: {
          endpointId: endpoints.products.id,
          alias: endpoints.tickets.alias,
          documents: docs('x'),
        },
      }),
    );
    assert.equal(mismatch.statusCode, 400);
    const otherRegion = await ociError(() =>
      env.t.language('us-phoenix-1').batchDetectLanguageEntities({
        batchDetectLanguageEntitiesDetails: { alias: endpoints.products.alias, documents: docs('x') },
      }),
    );
    assert.equal(otherRegion.statusCode, 404, 'aliases are per region');
  });

  it('enforces the document limits with 400: 100 documents, 5,000 characters each', async () => {
    const tooMany = await ociError(() =>
      env.client.batchDetectLanguageTextClassification({
        batchDetectLanguageTextClassificationDetails: {
          alias: endpoints.tickets.alias,
          documents: Array.from({ length: 101 }, (_, i) => ({ key: `k${i}`, text: 'refund' })),
        },
      }),
    );
    assert.equal(tooMany.statusCode, 400);
    assert.equal(tooMany.serviceCode, 'InvalidParameter');
    assert.match(tooMany.message, /100/);
    const tooLong = await ociError(() =>
      env.client.batchDetectLanguageKeyPhrases({
        batchDetectLanguageKeyPhrasesDetails: {
          alias: endpoints.phrases.alias,
          documents: [{ key: 'long', text: 'a'.repeat(5001) }],
        },
      }),
    );
    assert.equal(tooLong.statusCode, 400);
    assert.equal(tooLong.serviceCode, 'InvalidParameter');
    assert.match(tooLong.message, /5000/);

    const atLimits = await env.client.batchDetectLanguageTextClassification({
      batchDetectLanguageTextClassificationDetails: {
        alias: endpoints.tickets.alias,
        documents: Array.from({ length: 100 }, (_, i) => ({ key: `k${i}`, text: 'refund' })),
      },
    });
    assert.equal(atLimits.batchDetectLanguageTextClassificationResult.documents.length, 100);
    const longest = await env.client.batchDetectLanguageKeyPhrases({
      batchDetectLanguageKeyPhrasesDetails: {
        alias: endpoints.phrases.alias,
        documents: [{ key: 'long', text: 'battery '.repeat(625) }],
      },
    });
    assert.equal(longest.batchDetectLanguageKeyPhrasesResult.documents.length, 1);

    const noDocuments = await ociError(() =>
      env.client.batchDetectLanguageKeyPhrases({
        batchDetectLanguageKeyPhrasesDetails: { alias: endpoints.phrases.alias } as never,
      }),
    );
    assert.equal(noDocuments.statusCode, 400);
    assert.equal(noDocuments.serviceCode, 'MissingParameter');
  });

  it('answers 501 MethodNotImplemented for the operations the emulator does not serve', async () => {
    const calls: Array<[string, () => Promise<unknown>]> = [
      [
        'BatchDetectLanguagePiiEntities',
        () =>
          env.client.batchDetectLanguagePiiEntities({
            batchDetectLanguagePiiEntitiesDetails: { documents: docs('x') },
          }),
      ],
      [
        'BatchLanguageTranslation',
        () =>
          env.client.batchLanguageTranslation({
            batchLanguageTranslationDetails: { documents: docs('x'), targetLanguageCode: 'fr' },
          }),
      ],
      [
        'BatchDetectHealthEntity',
        () =>
          env.client.batchDetectHealthEntity({
            batchDetectHealthEntityDetails: { endpointId: endpoints.tickets.id, documents: docs('x') },
          }),
      ],
      [
        'DetectDominantLanguage',
        () => env.client.detectDominantLanguage({ detectDominantLanguageDetails: { text: 'x' } }),
      ],
      ['GetModelType', () => env.client.getModelType({ modelType: 'NAMED_ENTITY_RECOGNITION' })],
      ['ListJobs', () => env.client.listJobs({ compartmentId })],
    ];
    for (const [name, call] of calls) {
      const error = await ociError(call);
      assert.equal(error.statusCode, 501, name);
      assert.equal(error.serviceCode, 'MethodNotImplemented');
      assert.match(error.message, new RegExp(name));
    }
  });
});

describe('AI Language inference only while the endpoint is ACTIVE', () => {
  const env = languageSuite({ transitionDelaySeconds: 10 });

  it('refuses inference while CREATING or UPDATING (409 IncorrectState) and once DELETING or DELETED (409 Conflict)', async () => {
    const compartmentId = await newCompartmentId();
    const { project } = await env.client.createProject({ createProjectDetails: { compartmentId } });
    await env.t.advance(10);
    const { model } = await env.client.createModel({
      createModelDetails: {
        compartmentId,
        projectId: project.id,
        modelDetails: pretrained('PRE_TRAINED_SENTIMENT_ANALYSIS'),
      },
    });
    await env.t.advance(10);
    const { endpoint } = await env.client.createEndpoint({
      createEndpointDetails: { compartmentId, modelId: model.id, alias: 'moods' },
    });
    const infer = (routing: Routing) =>
      env.client.batchDetectLanguageSentiments({
        batchDetectLanguageSentimentsDetails: { ...routing, documents: docs('What a wonderful day.') },
        level: [requests.BatchDetectLanguageSentimentsRequest.Level.Sentence],
      });

    const creating = await ociError(() => infer({ endpointId: endpoint.id }));
    assert.equal(creating.statusCode, 409);
    assert.equal(creating.serviceCode, 'IncorrectState');
    await env.t.advance(10);
    assert.equal(
      (await infer({ alias: 'moods' })).batchDetectLanguageSentimentsResult.documents[0].documentSentiment,
      'Positive',
    );

    await env.client.updateEndpoint({ endpointId: endpoint.id, updateEndpointDetails: { inferenceUnits: 2 } });
    const updating = await ociError(() => infer({ alias: 'moods' }));
    assert.equal(updating.serviceCode, 'IncorrectState');
    await env.t.advance(10);
    await infer({ endpointId: endpoint.id });

    await env.client.deleteEndpoint({ endpointId: endpoint.id });
    const deleting = await ociError(() => infer({ endpointId: endpoint.id }));
    assert.equal(deleting.statusCode, 409);
    assert.equal(deleting.serviceCode, 'Conflict');
    await env.t.advance(10);
    const deleted = await ociError(() => infer({ endpointId: endpoint.id }));
    assert.equal(deleted.statusCode, 409);
    assert.equal(deleted.serviceCode, 'Conflict');
    const byAlias = await ociError(() => infer({ alias: 'moods' }));
    assert.equal(byAlias.statusCode, 404, 'a DELETED endpoint has given its alias up');
  });
});

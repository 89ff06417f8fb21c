import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { OciServiceError } from '../../../core/errors';
import {
  CUSTOM_MODEL_TYPES,
  DATA_FILES,
  INFERENCE_LIMITS,
  modelVersionFor,
  operationsFor,
  parseTrainingData,
  PRETRAINED_MODEL_TYPES,
  readDataFile,
  requiresTrainingDataset,
  runInference,
  trainModel,
} from './index';
import type { models } from 'oci-ailanguage';

function rejectsWith(fn: () => unknown, status: number, code: string, message?: RegExp): void {
  assert.throws(fn, (error: unknown) => {
    assert.ok(error instanceof OciServiceError, String(error));
    assert.equal(error.status, status);
    assert.equal(error.code, code);
    if (message) assert.match(error.message, message);
    return true;
  });
}

const SENTIMENT = { modelType: 'PRE_TRAINED_SENTIMENT_ANALYSIS' };
const docs = (...texts: string[]) => ({ documents: texts.map((text, index) => ({ key: `doc${index + 1}`, text })) });

describe('runInference: request validation', () => {
  it('requires documents', () => {
    rejectsWith(
      () => runInference('batchDetectLanguageSentiments', SENTIMENT, {}),
      400,
      'MissingParameter',
      /'documents'/,
    );
    rejectsWith(() => runInference('batchDetectLanguageSentiments', SENTIMENT, undefined), 400, 'MissingParameter');
    rejectsWith(
      () => runInference('batchDetectLanguageSentiments', SENTIMENT, { documents: 'text' }),
      400,
      'InvalidParameter',
      /must be an array/,
    );
  });

  it('allows at most 100 documents', () => {
    const hundred = { documents: Array.from({ length: 100 }, (_, i) => ({ key: `k${i}`, text: 'Fine.' })) };
    assert.equal(
      (runInference('batchDetectLanguageSentiments', SENTIMENT, hundred) as models.BatchDetectLanguageSentimentsResult)
        .documents.length,
      100,
    );
    const tooMany = { documents: Array.from({ length: 101 }, (_, i) => ({ key: `k${i}`, text: 'Fine.' })) };
    rejectsWith(
      () => runInference('batchDetectLanguageSentiments', SENTIMENT, tooMany),
      400,
      'InvalidParameter',
      /at most 100 documents; this request has 101/,
    );
  });

  it('allows at most 5000 characters per document, naming the document', () => {
    const ok = { documents: [{ key: 'max', text: 'a'.repeat(5000) }] };
    assert.ok(runInference('batchDetectLanguageKeyPhrases', { modelType: 'PRE_TRAINED_KEYPHRASE_EXTRACTION' }, ok));
    const long = {
      documents: [
        { key: 'short', text: 'hi' },
        { key: 'too-long', text: 'a'.repeat(5001) },
      ],
    };
    rejectsWith(
      () => runInference('batchDetectLanguageKeyPhrases', { modelType: 'PRE_TRAINED_KEYPHRASE_EXTRACTION' }, long),
      400,
      'InvalidParameter',
      /'too-long' has 5001 characters; a document may have at most 5000/,
    );
    // Characters are code points: 5000 emoji are 10000 UTF-16 units but still allowed.
    assert.ok(
      runInference(
        'batchDetectLanguageKeyPhrases',
        { modelType: 'PRE_TRAINED_KEYPHRASE_EXTRACTION' },
        { documents: [{ key: 'e', text: '😀'.repeat(5000) }] },
      ),
    );
  });

  it(`allows at most ${INFERENCE_LIMITS.maxCharactersPerRequest} characters per request`, () => {
    const documents = Array.from({ length: 5 }, (_, i) => ({ key: `k${i}`, text: 'a'.repeat(4001) }));
    rejectsWith(
      () =>
        runInference('batchDetectLanguageKeyPhrases', { modelType: 'PRE_TRAINED_KEYPHRASE_EXTRACTION' }, { documents }),
      400,
      'InvalidParameter',
      /more than 20000 characters in total \(limit reached at document 'k4'\)/,
    );
  });

  it('checks each document and rejects duplicate keys', () => {
    rejectsWith(
      () => runInference('batchDetectLanguageSentiments', SENTIMENT, { documents: [{ text: 'x' }] }),
      400,
      'MissingParameter',
      /documents\[0\]\.key/,
    );
    rejectsWith(
      () => runInference('batchDetectLanguageSentiments', SENTIMENT, { documents: [{ key: 'a', text: 5 }] }),
      400,
      'InvalidParameter',
      /documents\[0\]\.text \(key 'a'\) must be a string/,
    );
    rejectsWith(
      () =>
        runInference('batchDetectLanguageSentiments', SENTIMENT, {
          documents: [
            { key: 'a', text: 'x' },
            { key: 'a', text: 'y' },
          ],
        }),
      400,
      'InvalidParameter',
      /'a' appears more than once/,
    );
    rejectsWith(
      () => runInference('batchDetectLanguageSentiments', SENTIMENT, { documents: [] }),
      400,
      'InvalidParameter',
      /at least 1 document/,
    );
  });

  it('rejects a model type that cannot serve the operation', () => {
    rejectsWith(
      () =>
        runInference('batchDetectLanguageSentiments', { modelType: 'TEXT_CLASSIFICATION', artifact: {} }, docs('hi')),
      400,
      'InvalidParameter',
      /TEXT_CLASSIFICATION cannot serve batchDetectLanguageSentiments; it needs a model of type PRE_TRAINED_SENTIMENT_ANALYSIS, PRE_TRAINED_UNIVERSAL/,
    );
    rejectsWith(
      () => runInference('batchDetectLanguageEntities', { modelType: 'PRE_TRAINED_LANGUAGE_DETECTION' }, docs('hi')),
      400,
      'InvalidParameter',
    );
  });

  it('rejects an unknown sentiment level', () => {
    rejectsWith(
      () => runInference('batchDetectLanguageSentiments', SENTIMENT, docs('hi'), { level: ['DOCUMENT'] }),
      400,
      'InvalidParameter',
      /Invalid level 'DOCUMENT'/,
    );
  });

  it('fails loudly for a custom model without its artifact', () => {
    rejectsWith(
      () => runInference('batchDetectLanguageEntities', { modelType: 'NAMED_ENTITY_RECOGNITION' }, docs('hi')),
      500,
      'InternalServerError',
    );
  });
});

describe('runInference: results in the SDK shapes', () => {
  it('batchDetectLanguageSentiments: aspects only without a level, as the live service', () => {
    const result = runInference(
      'batchDetectLanguageSentiments',
      SENTIMENT,
      docs('I had a good day at work today'),
    ) as models.BatchDetectLanguageSentimentsResult;
    assert.deepEqual(result.errors, []);
    const [document] = result.documents;
    assert.equal(document.key, 'doc1');
    assert.equal(document.documentSentiment, '');
    assert.deepEqual(document.documentScores, {});
    assert.deepEqual(document.sentences, []);
    assert.equal(document.languageCode, 'en');
    assert.equal(document.aspects.length, 1);
    assert.deepEqual(Object.keys(document.aspects[0]), ['offset', 'length', 'text', 'sentiment', 'scores']);
    assert.equal(document.aspects[0].text, 'day');
    assert.equal(document.aspects[0].sentiment, 'Positive');
    assert.deepEqual(Object.keys(document.aspects[0].scores ?? {}), ['Positive', 'Negative', 'Neutral', 'Mixed']);
  });

  it('batchDetectLanguageSentiments: SENTENCE adds sentences and document sentiment', () => {
    const text = 'The screen is gorgeous. The speakers are terrible and the battery died twice.';
    const result = runInference(
      'batchDetectLanguageSentiments',
      SENTIMENT,
      { documents: [{ key: 'r', text, languageCode: 'en' }] },
      { level: ['SENTENCE'] },
    ) as models.BatchDetectLanguageSentimentsResult;
    const [document] = result.documents;
    assert.deepEqual(document.aspects, []);
    assert.deepEqual(
      document.sentences?.map((sentence) => sentence.sentiment),
      ['Positive', 'Negative'],
    );
    assert.ok(['Negative', 'Mixed'].includes(document.documentSentiment ?? ''));
    const both = (
      runInference(
        'batchDetectLanguageSentiments',
        SENTIMENT,
        { documents: [{ key: 'r', text }] },
        { level: ['ASPECT', 'SENTENCE'] },
      ) as models.BatchDetectLanguageSentimentsResult
    ).documents[0];
    assert.ok(both.aspects.length > 0 && both.sentences?.length === 2);
  });

  it('batchDetectLanguageEntities: pre-trained entities with code point offsets', () => {
    const text = 'Ping 😀 jane@example.com on 2024-05-01.';
    const result = runInference(
      'batchDetectLanguageEntities',
      { modelType: 'PRE_TRAINED_NAMED_ENTITY_RECOGNITION' },
      { documents: [{ key: 'e', text }] },
    ) as models.BatchDetectLanguageEntitiesResult;
    const [document] = result.documents;
    assert.deepEqual(document.entities[0], {
      offset: 7,
      length: 16,
      text: 'jane@example.com',
      type: 'EMAIL',
      subType: null,
      score: 0.99,
      metaInfo: null,
    });
    assert.equal(text.indexOf('jane'), 8); // JS index differs: the emoji is two UTF-16 units
    assert.equal(document.entities[1].type, 'DATE');
    assert.deepEqual(result.errors, []);
  });

  it('batchDetectLanguageEntities and TextClassification: custom models trained from the shipped data', () => {
    const ner = trainModel({
      modelType: 'NAMED_ENTITY_RECOGNITION',
      examples: parseTrainingData('NAMED_ENTITY_RECOGNITION', [
        { name: 'ner', content: readDataFile(DATA_FILES.sandboxProductsNer) },
      ]),
    });
    const entities = (
      runInference(
        'batchDetectLanguageEntities',
        { modelType: 'NAMED_ENTITY_RECOGNITION', artifact: JSON.parse(JSON.stringify(ner.artifact)) },
        docs('The hinge of my AeroBook 14 broke.'),
      ) as models.BatchDetectLanguageEntitiesResult
    ).documents[0].entities;
    assert.deepEqual(
      entities.map((entity) => [entity.text, entity.type, entity.offset]),
      [
        ['hinge', 'COMPONENT', 4],
        ['AeroBook 14', 'PRODUCT', 16],
      ],
    );

    const classifier = trainModel({
      modelType: 'TEXT_CLASSIFICATION',
      examples: parseTrainingData('TEXT_CLASSIFICATION', [
        { name: 'tickets', content: readDataFile(DATA_FILES.sandboxSupportTickets) },
      ]),
    });
    const result = runInference(
      'batchDetectLanguageTextClassification',
      { modelType: 'TEXT_CLASSIFICATION', artifact: classifier.artifact, languageCode: 'en' },
      docs('I was charged twice, please refund me'),
    ) as models.BatchDetectLanguageTextClassificationResult;
    assert.equal(result.documents[0].textClassification[0].label, 'billing');
    assert.deepEqual(Object.keys(result.documents[0]), ['key', 'textClassification', 'languageCode']);
  });

  it('batchDetectLanguageTextClassification: pre-trained taxonomy', () => {
    const result = runInference(
      'batchDetectLanguageTextClassification',
      { modelType: 'PRE_TRAINED_TEXT_CLASSIFICATION' },
      docs('The striker scored a goal in the final minute of the match.'),
    ) as models.BatchDetectLanguageTextClassificationResult;
    assert.deepEqual(
      result.documents[0].textClassification.map((entry) => entry.label),
      ['Sports'],
    );
  });

  it('batchDetectDominantLanguage: languages with name, code and score', () => {
    const result = runInference(
      'batchDetectDominantLanguage',
      { modelType: 'PRE_TRAINED_LANGUAGE_DETECTION' },
      docs(
        'Bonjour, je voudrais réserver une table pour deux personnes ce soir.',
        'Hello there, how are you doing today?',
      ),
    ) as models.BatchDetectDominantLanguageResult;
    assert.deepEqual(Object.keys(result.documents[0]), ['key', 'languages']);
    assert.deepEqual(Object.keys(result.documents[0].languages[0]), ['name', 'code', 'score']);
    assert.equal(result.documents[0].languages[0].code, 'fr');
    assert.equal(result.documents[1].languages[0].name, 'English');
  });

  it('batchDetectDominantLanguage: charsToConsider limits the text read', () => {
    const text = 'Hello, this is English. Ceci est une phrase en français, avec beaucoup de mots français dedans.';
    const result = runInference(
      'batchDetectDominantLanguage',
      { modelType: 'PRE_TRAINED_UNIVERSAL' },
      { documents: [{ key: 'x', text }], charsToConsider: 23 },
    ) as models.BatchDetectDominantLanguageResult;
    assert.equal(result.documents[0].languages[0].code, 'en');
  });

  it('batchDetectLanguageKeyPhrases: phrases in the document language; "auto" is detected', () => {
    const result = runInference(
      'batchDetectLanguageKeyPhrases',
      { modelType: 'PRE_TRAINED_UNIVERSAL' },
      {
        documents: [
          {
            key: 'k',
            text: 'La batería del teléfono nuevo dura muy poco y la pantalla táctil falla.',
            languageCode: 'auto',
          },
        ],
      },
    ) as models.BatchDetectLanguageKeyPhrasesResult;
    assert.equal(result.documents[0].languageCode, 'es');
    assert.ok(result.documents[0].keyPhrases.length > 0);
    for (const phrase of result.documents[0].keyPhrases)
      assert.ok(!/\b(del|la|y|muy)\b/.test(phrase.text), phrase.text);
  });

  it('PRE_TRAINED_UNIVERSAL serves every operation', () => {
    for (const operation of operationsFor('PRE_TRAINED_UNIVERSAL')) {
      assert.ok(
        runInference(operation, { modelType: 'PRE_TRAINED_UNIVERSAL' }, docs('Oracle opened a new office in Austin.')),
      );
    }
    assert.equal(operationsFor('PRE_TRAINED_UNIVERSAL').length, 5);
  });

  it('is deterministic', () => {
    const request = docs(
      'Acme Corp. hired Dr. Jane Smith in London on May 3, 2024. The onboarding was great but slow.',
    );
    for (const operation of operationsFor('PRE_TRAINED_UNIVERSAL')) {
      assert.deepEqual(
        runInference(operation, { modelType: 'PRE_TRAINED_UNIVERSAL' }, request, { level: ['ASPECT', 'SENTENCE'] }),
        runInference(operation, { modelType: 'PRE_TRAINED_UNIVERSAL' }, request, { level: ['ASPECT', 'SENTENCE'] }),
      );
    }
  });
});

describe('model types', () => {
  it('tells which types need a dataset and which operations they serve', () => {
    assert.deepEqual([...CUSTOM_MODEL_TYPES], ['NAMED_ENTITY_RECOGNITION', 'TEXT_CLASSIFICATION']);
    assert.ok(requiresTrainingDataset('TEXT_CLASSIFICATION'));
    assert.ok(!requiresTrainingDataset('PII'));
    assert.ok(!requiresTrainingDataset('PRE_TRAINED_SENTIMENT_ANALYSIS'));
    assert.equal(PRETRAINED_MODEL_TYPES.length, 10);
    assert.deepEqual(operationsFor('NAMED_ENTITY_RECOGNITION'), ['batchDetectLanguageEntities']);
    assert.deepEqual(operationsFor('PII'), []);
  });

  it('gives OCI-style version strings', () => {
    assert.equal(modelVersionFor('NAMED_ENTITY_RECOGNITION'), 'ai-lang::NER_V1::CUSTOM-V0');
    assert.match(modelVersionFor('TEXT_CLASSIFICATION'), /^ai-lang::[A-Z_]+_V\d+::[A-Z-]+V\d/);
    for (const type of PRETRAINED_MODEL_TYPES)
      assert.match(modelVersionFor(type), /^ai-lang::[A-Z_]+_V\d+::PRE-TRAINED-V[\d.]+$/);
    assert.equal(modelVersionFor('PRE_TRAINED_SENTIMENT_ANALYSIS', 'V2.0'), 'V2.0');
    rejectsWith(() => modelVersionFor('MAGIC'), 400, 'InvalidParameter', /Unknown modelType 'MAGIC'/);
  });
});

/**
 * AI Language inference: the one entry the service calls for the data-plane batch operations,
 * plus the model-type facts the control plane needs and the training API.
 *
 * Everything here is a pure function of its arguments (the pre-trained classifier is trained
 * once from a shipped corpus and memoised): no HTTP, no storage, no clock, no randomness.
 * Results are computed from the text by small, explainable algorithms; see each module.
 *
 * Wire conventions followed (from oci-ailanguage's models and observed responses):
 * - every result has `documents` in request order and `errors: []`;
 * - entity, sentence and aspect offsets and lengths count Unicode code points;
 * - entities carry `subType` (null when none) and `metaInfo: null`;
 * - sentiment score keys are `Positive`, `Negative`, `Neutral`, `Mixed`; without a `level`
 *   query parameter only aspects are computed and `documentSentiment` is "" with
 *   `documentScores` {} and `sentences` [], as the live service answers; `level=SENTENCE` adds
 *   sentence and document sentiment, `level=ASPECT` asks for aspects explicitly;
 * - `languageCode` in a result is the document's, else the model's, else "en"; "auto" is
 *   replaced by the detected language.
 */
import { errors } from '../../../core/errors';
import {
  createEntityMatcher,
  detectPretrainedEntities,
  isEntityDictionaryArtifact,
  type DetectedEntity,
} from './entities';
import { extractKeyPhrases } from './key-phrases';
import { detectLanguages, dominantLanguageCode } from './language-detection';
import { pretrainedClassifier } from './pretrained-classifier';
import { analyzeSentiment, type SentimentSpan } from './sentiment';
import { codePointLength, toCodePointOffsets } from './text';
import { classifyText, isNaiveBayesArtifact } from './text-classification';

export { DATA_FILES, dataFilePath, readDataFile } from './data-files';
export type {
  EvaluationResults,
  ModelArtifact,
  TrainedModel,
  TrainingExample,
  TrainingFile,
  TrainModelOptions,
} from './training';
export { parseTrainingData, trainModel, TrainingDataError } from './training';
export type { ClassificationExample, ClassificationMode } from './text-classification';
export type { NerExample } from './entities';

export const INFERENCE_OPERATIONS = [
  'batchDetectLanguageEntities',
  'batchDetectLanguageTextClassification',
  'batchDetectLanguageSentiments',
  'batchDetectDominantLanguage',
  'batchDetectLanguageKeyPhrases',
] as const;
export type InferenceOperation = (typeof INFERENCE_OPERATIONS)[number];

/** OCI's documented batch limits (characters are Unicode code points). */
export const INFERENCE_LIMITS = {
  maxDocuments: 100,
  maxCharactersPerDocument: 5000,
  maxCharactersPerRequest: 20000,
} as const;

/** Pre-trained model types: created without a training dataset, ACTIVE at once. */
export const PRETRAINED_MODEL_TYPES = [
  'PRE_TRAINED_NAMED_ENTITY_RECOGNITION',
  'PRE_TRAINED_TEXT_CLASSIFICATION',
  'PRE_TRAINED_SENTIMENT_ANALYSIS',
  'PRE_TRAINED_KEYPHRASE_EXTRACTION',
  'PRE_TRAINED_LANGUAGE_DETECTION',
  'PRE_TRAINED_PII',
  'PRE_TRAINED_TRANSLATION',
  'PRE_TRAINED_HEALTH_NLU',
  'PRE_TRAINED_SUMMARIZATION',
  'PRE_TRAINED_UNIVERSAL',
] as const;

/** Custom model types trained from a dataset: `trainingDataset` is required, `trainModel` trains them. */
export const CUSTOM_MODEL_TYPES = ['NAMED_ENTITY_RECOGNITION', 'TEXT_CLASSIFICATION'] as const;

/**
 * Custom model types that do not need a dataset. The SDK describes PII and HEALTH_NLU model
 * details only by an optional "pre trained model version" to start from, so they are treated
 * as configurations of a pre-trained model: a `trainingDataset` is accepted but not required,
 * nothing is trained, and they serve none of the five operations here (they belong to
 * batchDetectLanguagePiiEntities and batchDetectHealthEntities).
 */
export const CUSTOM_MODEL_TYPES_WITHOUT_DATASET = ['PII', 'HEALTH_NLU'] as const;

/**
 * Every `ModelDetails.modelType`, as the SDK's `ModelDetails` subclasses name them (oci-ailanguage
 * 2.139.1). `PRE_TRAINED_PHI` existed once and was removed (Go SDK 65.59.0), so it is not accepted.
 */
export const MODEL_TYPES = [
  ...CUSTOM_MODEL_TYPES,
  ...CUSTOM_MODEL_TYPES_WITHOUT_DATASET,
  ...PRETRAINED_MODEL_TYPES,
] as const;
export type ModelType = (typeof MODEL_TYPES)[number];

export function isModelType(value: unknown): value is ModelType {
  return typeof value === 'string' && (MODEL_TYPES as readonly string[]).includes(value);
}

/** True for model types whose CreateModel needs a `trainingDataset`. */
export function requiresTrainingDataset(modelType: string): boolean {
  return (CUSTOM_MODEL_TYPES as readonly string[]).includes(modelType);
}

const SERVED_BY: Record<InferenceOperation, readonly string[]> = {
  batchDetectLanguageEntities: [
    'NAMED_ENTITY_RECOGNITION',
    'PRE_TRAINED_NAMED_ENTITY_RECOGNITION',
    'PRE_TRAINED_UNIVERSAL',
  ],
  batchDetectLanguageTextClassification: [
    'TEXT_CLASSIFICATION',
    'PRE_TRAINED_TEXT_CLASSIFICATION',
    'PRE_TRAINED_UNIVERSAL',
  ],
  batchDetectLanguageSentiments: ['PRE_TRAINED_SENTIMENT_ANALYSIS', 'PRE_TRAINED_UNIVERSAL'],
  batchDetectDominantLanguage: ['PRE_TRAINED_LANGUAGE_DETECTION', 'PRE_TRAINED_UNIVERSAL'],
  batchDetectLanguageKeyPhrases: ['PRE_TRAINED_KEYPHRASE_EXTRACTION', 'PRE_TRAINED_UNIVERSAL'],
};

/** The operations a model of this type can serve through an endpoint. */
export function operationsFor(modelType: string): InferenceOperation[] {
  return INFERENCE_OPERATIONS.filter((operation) => SERVED_BY[operation].includes(modelType));
}

/*
 * Model version strings. OCI documents the format `<service>::<type>_<version>::<base model>`
 * with the single example `ai-lang::NER_V1::CUSTOM-V0`; the other strings follow that pattern
 * and are not confirmed against the live service.
 */
const VERSIONS: Record<ModelType, string> = {
  NAMED_ENTITY_RECOGNITION: 'ai-lang::NER_V1::CUSTOM-V0',
  TEXT_CLASSIFICATION: 'ai-lang::TXT_CLS_V1::CUSTOM-V0',
  PII: 'ai-lang::PII_V1::CUSTOM-V0',
  HEALTH_NLU: 'ai-lang::HEALTH_NLU_V1::CUSTOM-V0',
  PRE_TRAINED_NAMED_ENTITY_RECOGNITION: 'ai-lang::NER_V2::PRE-TRAINED-V2.1',
  PRE_TRAINED_TEXT_CLASSIFICATION: 'ai-lang::TXT_CLS_V1::PRE-TRAINED-V1.0',
  PRE_TRAINED_SENTIMENT_ANALYSIS: 'ai-lang::SENTIMENT_V2::PRE-TRAINED-V2.0',
  PRE_TRAINED_KEYPHRASE_EXTRACTION: 'ai-lang::KPE_V1::PRE-TRAINED-V1.0',
  PRE_TRAINED_LANGUAGE_DETECTION: 'ai-lang::LANG_DETECT_V1::PRE-TRAINED-V1.0',
  PRE_TRAINED_PII: 'ai-lang::PII_V1::PRE-TRAINED-V1.0',
  PRE_TRAINED_TRANSLATION: 'ai-lang::TRANSLATION_V1::PRE-TRAINED-V1.0',
  PRE_TRAINED_HEALTH_NLU: 'ai-lang::HEALTH_NLU_V1::PRE-TRAINED-V1.0',
  PRE_TRAINED_SUMMARIZATION: 'ai-lang::SUMMARIZATION_V1::PRE-TRAINED-V1.0',
  PRE_TRAINED_UNIVERSAL: 'ai-lang::UNIVERSAL_V1::PRE-TRAINED-V1.0',
};

/**
 * The `version` reported on a Model. A version the caller asked for in `modelDetails.version`
 * is kept as given; otherwise the default for the type. Unknown types are an InvalidParameter.
 */
export function modelVersionFor(modelType: string, requestedVersion?: string): string {
  if (!isModelType(modelType))
    throw errors.invalidParameter(`Unknown modelType '${modelType}'. Valid values: ${MODEL_TYPES.join(', ')}.`);
  return requestedVersion && requestedVersion.trim() ? requestedVersion : VERSIONS[modelType];
}

// ---------------------------------------------------------------------------------------------
// runInference
// ---------------------------------------------------------------------------------------------

export interface InferenceModel {
  modelType: string;
  /** The artifact `trainModel` produced (custom models only). */
  artifact?: unknown;
  /** `modelDetails.languageCode`; the default language of results. */
  languageCode?: string;
}

export interface InferenceQuery {
  /** batchDetectLanguageSentiments: `ASPECT` and/or `SENTENCE` (a repeated query parameter). */
  level?: string[] | string;
}

interface InputDocument {
  key: string;
  text: string;
  languageCode?: string;
}

/** Validates `details.documents` against OCI's shape and batch limits. */
function validateDocuments(details: unknown, operation: InferenceOperation): InputDocument[] {
  if (details === undefined || details === null) throw errors.missingParameter('documents');
  if (typeof details !== 'object' || Array.isArray(details))
    throw errors.invalidParameter("The request body must be a JSON object with a 'documents' array.");
  const documents = (details as { documents?: unknown }).documents;
  if (documents === undefined || documents === null) throw errors.missingParameter('documents');
  if (!Array.isArray(documents)) throw errors.invalidParameter("'documents' must be an array of documents.");
  if (documents.length === 0) throw errors.invalidParameter("'documents' must contain at least 1 document.");
  if (documents.length > INFERENCE_LIMITS.maxDocuments) {
    throw errors.invalidParameter(
      `A batch may have at most ${INFERENCE_LIMITS.maxDocuments} documents; this request has ${documents.length}.`,
    );
  }
  const seen = new Set<string>();
  let total = 0;
  return documents.map((value: unknown, index) => {
    if (!value || typeof value !== 'object' || Array.isArray(value))
      throw errors.invalidParameter(`documents[${index}] must be an object with 'key' and 'text'.`);
    const { key, text, languageCode } = value as { key?: unknown; text?: unknown; languageCode?: unknown };
    if (key === undefined || key === null) throw errors.missingParameter(`documents[${index}].key`);
    if (typeof key !== 'string' || key === '')
      throw errors.invalidParameter(`documents[${index}].key must be a non-empty string.`);
    if (text === undefined || text === null) throw errors.missingParameter(`documents[${index}].text`);
    if (typeof text !== 'string')
      throw errors.invalidParameter(`documents[${index}].text (key '${key}') must be a string.`);
    if (languageCode !== undefined && languageCode !== null && typeof languageCode !== 'string') {
      throw errors.invalidParameter(`documents[${index}].languageCode (key '${key}') must be a string.`);
    }
    if (seen.has(key))
      throw errors.invalidParameter(
        `Document key '${key}' appears more than once; keys must be unique within a batch.`,
      );
    seen.add(key);
    const length = codePointLength(text);
    if (length > INFERENCE_LIMITS.maxCharactersPerDocument) {
      throw errors.invalidParameter(
        `Document '${key}' has ${length} characters; a document may have at most ${INFERENCE_LIMITS.maxCharactersPerDocument} characters.`,
      );
    }
    total += length;
    if (total > INFERENCE_LIMITS.maxCharactersPerRequest) {
      throw errors.invalidParameter(
        `The documents of this ${operation} request have more than ${INFERENCE_LIMITS.maxCharactersPerRequest} characters in total (limit reached at document '${key}').`,
      );
    }
    return typeof languageCode === 'string' && languageCode !== '' ? { key, text, languageCode } : { key, text };
  });
}

function languageOf(document: InputDocument, model: InferenceModel): string {
  const code = document.languageCode ?? model.languageCode ?? 'en';
  return code.toLowerCase() === 'auto' ? dominantLanguageCode(document.text) : code;
}

function wireEntity(text: string, entity: DetectedEntity) {
  const { offset, length } = toCodePointOffsets(text, entity.offset, entity.length);
  return {
    offset,
    length,
    text: entity.text,
    type: entity.type,
    subType: entity.subType ?? null,
    score: entity.score,
    metaInfo: null,
  };
}

function wireSpan(text: string, span: SentimentSpan) {
  const { offset, length } = toCodePointOffsets(text, span.offset, span.length);
  return { offset, length, text: span.text, sentiment: span.sentiment, scores: span.scores };
}

function levelsOf(query: InferenceQuery | undefined): Set<string> {
  const raw = query?.level;
  const levels = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).flatMap((value) =>
    String(value).split(','),
  );
  for (const level of levels) {
    if (level !== 'ASPECT' && level !== 'SENTENCE')
      throw errors.invalidParameter(`Invalid level '${level}'. Valid values: ASPECT, SENTENCE.`);
  }
  return new Set(levels);
}

/**
 * Runs one batch operation for a model and returns the response body in the SDK's result
 * shape. Throws OciServiceError: MissingParameter/InvalidParameter for a bad request or a model
 * type that cannot serve the operation, InternalServerError for a custom model with no usable
 * artifact (the caller should only route to ACTIVE, trained models).
 */
export function runInference(
  operation: InferenceOperation,
  model: InferenceModel,
  details: unknown,
  query?: InferenceQuery,
): object {
  if (!(INFERENCE_OPERATIONS as readonly string[]).includes(operation))
    throw errors.invalidParameter(`Unknown inference operation '${operation}'.`);
  if (!SERVED_BY[operation].includes(model.modelType)) {
    const served = SERVED_BY[operation].join(', ');
    throw errors.invalidParameter(
      `A model of type ${model.modelType} cannot serve ${operation}; it needs a model of type ${served}.`,
    );
  }
  const levels = operation === 'batchDetectLanguageSentiments' ? levelsOf(query) : new Set<string>();
  const documents = validateDocuments(details, operation);

  switch (operation) {
    case 'batchDetectLanguageEntities': {
      let detect: (text: string) => DetectedEntity[] = detectPretrainedEntities;
      if (model.modelType === 'NAMED_ENTITY_RECOGNITION') {
        if (!isEntityDictionaryArtifact(model.artifact))
          throw errors.internal('The custom named entity recognition model has no trained artifact.');
        detect = createEntityMatcher(model.artifact);
      }
      return {
        documents: documents.map((document) => ({
          key: document.key,
          entities: detect(document.text).map((entity) => wireEntity(document.text, entity)),
          languageCode: languageOf(document, model),
        })),
        errors: [],
      };
    }
    case 'batchDetectLanguageTextClassification': {
      let artifact = model.artifact;
      if (model.modelType === 'TEXT_CLASSIFICATION') {
        if (!isNaiveBayesArtifact(artifact))
          throw errors.internal('The custom text classification model has no trained artifact.');
      } else {
        artifact = pretrainedClassifier();
      }
      const classifier = artifact as Parameters<typeof classifyText>[0];
      return {
        documents: documents.map((document) => ({
          key: document.key,
          textClassification: classifyText(classifier, document.text),
          languageCode: languageOf(document, model),
        })),
        errors: [],
      };
    }
    case 'batchDetectLanguageSentiments': {
      const sentence = levels.has('SENTENCE');
      const aspect = levels.size === 0 || levels.has('ASPECT');
      return {
        documents: documents.map((document) => {
          const analysis = analyzeSentiment(document.text);
          return {
            key: document.key,
            documentSentiment: sentence ? analysis.documentSentiment : '',
            documentScores: sentence ? analysis.documentScores : {},
            aspects: aspect ? analysis.aspects.map((span) => wireSpan(document.text, span)) : [],
            sentences: sentence ? analysis.sentences.map((span) => wireSpan(document.text, span)) : [],
            languageCode: languageOf(document, model),
          };
        }),
        errors: [],
      };
    }
    case 'batchDetectDominantLanguage': {
      const charsToConsider = (details as { charsToConsider?: unknown }).charsToConsider;
      const limit =
        typeof charsToConsider === 'number' && charsToConsider > 0 ? Math.floor(charsToConsider) : undefined;
      return {
        documents: documents.map((document) => ({
          key: document.key,
          languages: detectLanguages(limit === undefined ? document.text : [...document.text].slice(0, limit).join('')),
        })),
        errors: [],
      };
    }
    case 'batchDetectLanguageKeyPhrases': {
      return {
        documents: documents.map((document) => {
          const languageCode = languageOf(document, model);
          return { key: document.key, keyPhrases: extractKeyPhrases(document.text, languageCode), languageCode };
        }),
        errors: [],
      };
    }
  }
}

import { rfc3339 } from '../../core/clock';
import { newOcid } from '../../core/ids';
import type { SandboxContext } from '../service';
import type { AiLanguageDependencies } from './dependencies';
import type { ModelType, TrainableModelType } from './enums';
import { DATA_FILES, modelVersionFor, readDataFile } from './inference';
import { trainFromDatasets, type DatasetDetails, type ModelBody, type ModelInternal } from './models';
import type { ProjectBody } from './projects';

/** What the sandbox seed creates in AI Language, as `GET /_ocikit/sandbox` lists it under `aiLanguage`. */
export interface AiLanguageSandboxIds {
  projectId: string;
  /** One ACTIVE pre-trained model per capability the emulator serves, ready to deploy. */
  pretrainedModelIds: {
    sentimentAnalysis: string;
    languageDetection: string;
    keyPhraseExtraction: string;
    namedEntityRecognition: string;
    textClassification: string;
  };
  /** ACTIVE custom models trained from the shipped datasets. */
  customModelIds: {
    /** Support tickets labelled `billing`, `technical` or `account` (MULTI_CLASS). */
    textClassification: string;
    /** `PRODUCT` and `COMPONENT` entities in hardware support requests. */
    namedEntityRecognition: string;
  };
  /** Where the training data sits in the emulator's object store (reusable in CreateModel). */
  trainingData: {
    namespaceName: string;
    bucketName: string;
    objectNames: { textClassification: string; namedEntityRecognition: string };
  };
}

const NAMESPACE = 'ocikit';
const BUCKET = 'ai-language-training-data';
const OBJECTS = { textClassification: 'support-tickets.csv', namedEntityRecognition: 'products-ner.jsonl' } as const;

/**
 * Seeds a project with ready-to-use models in the home region: every resource is ACTIVE at once
 * (no transitions, no work requests). The custom models are trained here, from the datasets in
 * the package's `data/` folder, which are also uploaded to the object store so they can be
 * reused in a CreateModel call.
 */
export function seedAiLanguageSandbox(c: AiLanguageDependencies, sandbox: SandboxContext): AiLanguageSandboxIds {
  const region = sandbox.homeRegion;
  const now = rfc3339(c.clock.now());
  const common = {
    compartmentId: sandbox.compartmentId,
    timeCreated: now,
    timeUpdated: now,
    lifecycleState: 'ACTIVE' as const,
    freeformTags: { 'ocikit-sandbox': 'true' },
    definedTags: {},
    systemTags: {},
  };

  const projectId = newOcid('ailanguageproject', region);
  const project: ProjectBody = {
    id: projectId,
    displayName: 'sandbox-language-project',
    description: 'AI Language sandbox: pre-trained and custom models ready to deploy to an endpoint.',
    ...common,
  };
  c.projects.save({ id: projectId, region, body: project, transitions: [] });

  const saveModel = (
    displayName: string,
    description: string,
    modelType: ModelType,
    extra: Partial<ModelBody> = {},
    internal: ModelInternal = {},
  ) => {
    const id = newOcid('ailanguagemodel', region);
    const body: ModelBody = {
      id,
      displayName,
      description,
      projectId,
      modelDetails: { modelType, languageCode: 'en' },
      version: modelVersionFor(modelType),
      ...common,
      ...extra,
    };
    c.models.save({ id, region, body, internal, transitions: [] });
    return id;
  };

  const trainCustom = (
    modelType: TrainableModelType,
    objectName: string,
    content: string,
    displayName: string,
    description: string,
  ) => {
    c.objects.put(NAMESPACE, BUCKET, objectName, content);
    const trainingDataset: DatasetDetails = {
      datasetType: 'OBJECT_STORAGE',
      locationDetails: {
        locationType: 'OBJECT_LIST',
        namespaceName: NAMESPACE,
        bucketName: BUCKET,
        objectNames: [objectName],
      },
    };
    const modelDetails =
      modelType === 'TEXT_CLASSIFICATION'
        ? { modelType, languageCode: 'en', classificationMode: { classificationMode: 'MULTI_CLASS' as const } }
        : { modelType, languageCode: 'en' };
    const outcome = trainFromDatasets(c.objects, { modelType, modelDetails, trainingDataset });
    if ('failure' in outcome)
      throw new Error(`ocikit: the sandbox ${modelType} dataset does not train: ${outcome.failure.message}`);
    return saveModel(
      displayName,
      description,
      modelType,
      { modelDetails, trainingDataset, evaluationResults: outcome.trained.evaluationResults },
      { artifact: outcome.trained.artifact },
    );
  };

  return {
    projectId,
    pretrainedModelIds: {
      sentimentAnalysis: saveModel(
        'sandbox-sentiment',
        'Pre-trained sentiment analysis.',
        'PRE_TRAINED_SENTIMENT_ANALYSIS',
      ),
      languageDetection: saveModel(
        'sandbox-language-detection',
        'Pre-trained language detection.',
        'PRE_TRAINED_LANGUAGE_DETECTION',
      ),
      keyPhraseExtraction: saveModel(
        'sandbox-key-phrases',
        'Pre-trained key phrase extraction.',
        'PRE_TRAINED_KEYPHRASE_EXTRACTION',
      ),
      namedEntityRecognition: saveModel(
        'sandbox-entities',
        'Pre-trained named entity recognition.',
        'PRE_TRAINED_NAMED_ENTITY_RECOGNITION',
      ),
      textClassification: saveModel(
        'sandbox-text-classification',
        'Pre-trained text classification.',
        'PRE_TRAINED_TEXT_CLASSIFICATION',
      ),
    },
    customModelIds: {
      textClassification: trainCustom(
        'TEXT_CLASSIFICATION',
        OBJECTS.textClassification,
        readDataFile(DATA_FILES.sandboxSupportTickets),
        'sandbox-support-tickets',
        'Custom text classification of support tickets: billing, technical or account.',
      ),
      namedEntityRecognition: trainCustom(
        'NAMED_ENTITY_RECOGNITION',
        OBJECTS.namedEntityRecognition,
        readDataFile(DATA_FILES.sandboxProductsNer),
        'sandbox-products-ner',
        'Custom named entity recognition of PRODUCT and COMPONENT names in support requests.',
      ),
    },
    trainingData: { namespaceName: NAMESPACE, bucketName: BUCKET, objectNames: { ...OBJECTS } },
  };
}

import type { ModelType } from './enums';
import type { TrainedModel } from './inference';
import type { ResourceBody } from './resources';

/**
 * The bodies of AI Language resources exactly as the API serves them, in a leaf module so the
 * service context can name them without importing the modules that implement each resource.
 */

/** `Project`; `ProjectSummary` has the same fields. */
export type ProjectBody = ResourceBody;

/** `ModelDetails`, discriminated by `modelType`. */
export interface ModelDetails {
  modelType: ModelType;
  languageCode?: string;
  version?: string;
  /** TEXT_CLASSIFICATION only. */
  classificationMode?: { classificationMode: 'MULTI_CLASS' | 'MULTI_LABEL'; version?: string };
}

/** `ObjectListDataset`. */
export interface ObjectListLocation {
  locationType: 'OBJECT_LIST';
  namespaceName: string;
  bucketName: string;
  objectNames: string[];
}

/** `DatasetDetails`: `DataScienceLabelingDataset` or `ObjectStorageDataset`. */
export type DatasetDetails =
  | { datasetType: 'DATA_SCIENCE_LABELING'; datasetId: string }
  | { datasetType: 'OBJECT_STORAGE'; locationDetails: ObjectListLocation };

/** `TestAndValidationDatasetStrategy`. */
export interface TestStrategy {
  strategyType: 'TEST_AND_VALIDATION_DATASET';
  testingDataset: DatasetDetails;
  validationDataset?: DatasetDetails;
}

/** `Model`. */
export interface ModelBody extends ResourceBody {
  projectId: string;
  modelDetails: ModelDetails;
  trainingDataset?: DatasetDetails;
  testStrategy?: TestStrategy;
  evaluationResults?: TrainedModel['evaluationResults'];
  version?: string;
}

/** `Endpoint`. */
export interface EndpointBody extends ResourceBody {
  projectId: string;
  modelId: string;
  alias?: string;
  inferenceUnits: number;
}

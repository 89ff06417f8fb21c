/**
 * Wire values of the AI Language (API 20221001) enums the emulator validates or serves.
 *
 * Each list was checked value by value against the official SDK's generated models
 * (`oci-ailanguage` 2.139.1, `lib/model/*.js`). The SDK-only `UNKNOWN_VALUE` sentinel is left
 * out: it never appears on the wire.
 */
import { CUSTOM_MODEL_TYPES } from './inference';

export { isOneOf } from '../../core/enum';

/**
 * `ModelDetails.modelType` discriminator values (`model-details.js`, one subclass each). The list
 * lives with inference, which groups the types by how they are trained and served; the types
 * trained from the caller's labelled data, which need a `trainingDataset`, are its custom ones.
 */
export { MODEL_TYPES, type ModelType } from './inference';
export const TRAINABLE_MODEL_TYPES = CUSTOM_MODEL_TYPES;
export type TrainableModelType = (typeof TRAINABLE_MODEL_TYPES)[number];

/** Lifecycle states of Project, Model and Endpoint (`project.js`, `model.js`, `endpoint.js`: the same six). */
export const LIFECYCLE_STATES = ['CREATING', 'ACTIVE', 'UPDATING', 'DELETING', 'DELETED', 'FAILED'] as const;
export type LifecycleState = (typeof LIFECYCLE_STATES)[number];

/** `OperationType` (`operation-type.js`): no compartment-move or job values exist. */
export const OPERATION_TYPES = [
  'CREATE_MODEL',
  'UPDATE_MODEL',
  'DELETE_MODEL',
  'CREATE_PROJECT',
  'UPDATE_PROJECT',
  'DELETE_PROJECT',
  'CREATE_ENDPOINT',
  'UPDATE_ENDPOINT',
  'DELETE_ENDPOINT',
] as const;
export type OperationType = (typeof OPERATION_TYPES)[number];

/** `DatasetDetails.datasetType` (`dataset-details.js`). */
export const DATASET_TYPES = ['DATA_SCIENCE_LABELING', 'OBJECT_STORAGE'] as const;

/** `LocationDetails.locationType` (`location-details.js`): only an explicit object list. */
export const LOCATION_TYPES = ['OBJECT_LIST'] as const;

/** `TestStrategy.strategyType` (`test-strategy.js`). */
export const TEST_STRATEGY_TYPES = ['TEST_AND_VALIDATION_DATASET'] as const;

/** `ClassificationType.classificationMode` (`classification-type.js`). */
export const CLASSIFICATION_MODES = ['MULTI_CLASS', 'MULTI_LABEL'] as const;
export type ClassificationMode = (typeof CLASSIFICATION_MODES)[number];

/** Entity type names in work request resources (Terraform looks for these words in them). */
export const ENTITY_TYPES = { project: 'project', model: 'model', endpoint: 'endpoint' } as const;

import { after, before } from 'node:test';
import { models, type AIServiceLanguageClient } from 'oci-ailanguage';
import type { EmulatorOptions } from '../../src';
import { startTestEmulator, type TestEmulator } from '../support/emulator';

/** An emulator and its home-region AI Language client, shared by the tests of one `describe`. */
export interface LanguageSuite {
  t: TestEmulator;
  client: AIServiceLanguageClient;
}

/**
 * Starts an emulator before the enclosing `describe`'s tests and closes it after them. The
 * fields are set once the suite starts, so read them inside hooks and tests.
 */
export function languageSuite(options: EmulatorOptions = {}): LanguageSuite {
  const suite = {} as LanguageSuite;
  before(async () => {
    suite.t = await startTestEmulator(options);
    suite.client = suite.t.language();
  });
  after(() => suite.t.close());
  return suite;
}

/**
 * Every `ModelDetails.modelType` the SDK knows, sorted. The SDK has no enum for them: each
 * `ModelDetails` subclass (and each evaluation result, which reuses the custom ones) carries its
 * discriminator as a static `modelType`.
 */
export function sdkModelTypes(): string[] {
  const types = Object.values(models).flatMap((m: unknown) => {
    const modelType = (m as { modelType?: unknown } | undefined)?.modelType;
    return typeof modelType === 'string' ? [modelType] : [];
  });
  return [...new Set(types)].sort();
}

/** A fresh compartment, so each test lists only what it created. */
export { newCompartmentId } from '../support/emulator';

/** Follows `opc-next-page` from the first page to the last: every item in order, and how many pages it took. */
export async function allPages<T>(
  listPage: (page: string | undefined) => Promise<{ items: T[]; opcNextPage?: string }>,
): Promise<{ items: T[]; pages: number }> {
  const items: T[] = [];
  let page: string | undefined;
  let pages = 0;
  do {
    const response = await listPage(page);
    items.push(...response.items);
    page = response.opcNextPage;
    pages++;
  } while (page);
  return { items, pages };
}

/** Uploads a text object through the admin API, as a user stages training data. */
export async function uploadObject(
  t: TestEmulator,
  namespace: string,
  bucket: string,
  name: string,
  content: string,
): Promise<void> {
  await t.emulator.admin.putObject(namespace, bucket, name, content);
}

/** Uploads SUPPORT_TICKETS_CSV as `tickets.csv` and PRODUCTS_NER_JSONL as `products.jsonl`. */
export async function uploadTrainingData(t: TestEmulator, namespace: string, bucket: string): Promise<void> {
  await uploadObject(t, namespace, bucket, 'tickets.csv', SUPPORT_TICKETS_CSV);
  await uploadObject(t, namespace, bucket, 'products.jsonl', PRODUCTS_NER_JSONL);
}

export const objectStorageDataset = (
  namespaceName: string,
  bucketName: string,
  ...objectNames: string[]
): models.ObjectStorageDataset => ({
  datasetType: 'OBJECT_STORAGE',
  locationDetails: { locationType: 'OBJECT_LIST', namespaceName, bucketName, objectNames } as models.ObjectListDataset,
});

export const SUPPORT_TICKETS_CSV = [
  'text,labels',
  '"I was charged twice this month, please refund the duplicate payment.",billing',
  'My invoice total is higher than the advertised price.,billing',
  'Please send me a receipt for my last payment.,billing',
  'The refund for my cancelled order has not arrived on my credit card.,billing',
  'Why was my card charged a late fee on the invoice?,billing',
  'The app crashes when I open the settings screen.,technical',
  'The page shows an error 500 after the latest update.,technical',
  'Uploads fail with a timeout error on slow networks.,technical',
  'The mobile app freezes and crashes on startup.,technical',
  'Sync stopped working after the software update.,technical',
  'I forgot my password and the reset email never arrives.,account',
  'How do I change the email address of my account?,account',
  'My account is locked after too many login attempts.,account',
  'Please delete my account and my profile data.,account',
  'I cannot log in to my account with my username.,account',
].join('\n');

export const PRODUCTS_NER_JSONL = [
  {
    text: 'The battery of my Zephyr Phone drains fast.',
    entities: [
      { offset: 4, length: 7, type: 'COMPONENT' },
      { offset: 18, length: 12, type: 'PRODUCT' },
    ],
  },
  {
    text: 'My Orbit Watch screen is cracked.',
    entities: [
      { offset: 3, length: 11, type: 'PRODUCT' },
      { offset: 15, length: 6, type: 'COMPONENT' },
    ],
  },
  {
    text: 'The Zephyr Phone speaker crackles.',
    entities: [
      { offset: 4, length: 12, type: 'PRODUCT' },
      { offset: 17, length: 7, type: 'COMPONENT' },
    ],
  },
  {
    text: 'I dropped the Orbit Watch and the battery swelled.',
    entities: [
      { offset: 14, length: 11, type: 'PRODUCT' },
      { offset: 34, length: 7, type: 'COMPONENT' },
    ],
  },
  { text: 'Nothing else to report today.', entities: [] },
]
  .map((line) => JSON.stringify(line))
  .join('\n');

/** Creates a project and returns it once ACTIVE (the harness's transition delay is 0). */
export async function createProject(
  client: AIServiceLanguageClient,
  compartmentId: string,
  displayName?: string,
): Promise<models.Project> {
  const { project } = await client.createProject({ createProjectDetails: { compartmentId, displayName } });
  return (await client.getProject({ projectId: project.id })).project;
}

export async function createModel(
  client: AIServiceLanguageClient,
  details: models.CreateModelDetails,
): Promise<models.Model> {
  const { model } = await client.createModel({ createModelDetails: details });
  return (await client.getModel({ modelId: model.id })).model;
}

export const pretrained = (modelType: string, languageCode?: string) =>
  ({ modelType, ...(languageCode ? { languageCode } : {}) }) as models.ModelDetails as never;

/**
 * Locates the files shipped in the emulator package's `data/` folder (training corpora and
 * sandbox datasets). The folder sits at the package root, next to `src/` when run with tsx and
 * next to `dist/` when built, so it is found by walking up from this module.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** File names in `data/`. */
export const DATA_FILES = {
  /** Labelled corpus behind the pre-trained text classifier (`text,labels` CSV). */
  pretrainedTextClassification: 'pretrained-text-classification.csv',
  /** Sandbox custom TEXT_CLASSIFICATION dataset: support tickets labelled billing/technical/account. */
  sandboxSupportTickets: 'sandbox-support-tickets.csv',
  /** Sandbox custom NAMED_ENTITY_RECOGNITION dataset: PRODUCT and COMPONENT entities (JSONL). */
  sandboxProductsNer: 'sandbox-products-ner.jsonl',
} as const;

/** Absolute path of a file in the package's `data/` folder. */
export function dataFilePath(fileName: string): string {
  let directory = __dirname;
  for (let depth = 0; depth < 8; depth++) {
    const candidate = join(directory, 'data', fileName);
    if (existsSync(candidate)) return candidate;
    const parent = dirname(directory);
    if (parent === directory) break;
    directory = parent;
  }
  throw new Error(`ocikit: data file ${fileName} not found above ${__dirname}`);
}

export function readDataFile(fileName: string): string {
  return readFileSync(dataFilePath(fileName), 'utf8');
}

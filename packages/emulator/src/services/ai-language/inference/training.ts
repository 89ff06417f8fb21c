/**
 * Custom model training: parsing training files and producing a model artifact with its
 * evaluation results.
 *
 * Training data formats (one or more files per dataset, all in the same format):
 *
 * TEXT_CLASSIFICATION: CSV (RFC 4180) with a header row naming the columns `text` and `labels`
 * (case-insensitive, in any order; other columns are ignored). Fields may be quoted with `"`,
 * a quote inside a quoted field is written `""`, and quoted fields may span lines. `labels`
 * holds one label, or for MULTI_LABEL models several separated by `;`. A UTF-8 byte order
 * mark and CRLF line ends are accepted; blank lines are skipped.
 *
 *     text,labels
 *     "I was charged twice, please refund",billing
 *     Cannot log in after the update,technical;account
 *
 * NAMED_ENTITY_RECOGNITION: JSON Lines, one example per line:
 *
 *     {"text": "The Nimbus X2 battery is swollen", "entities": [{"offset": 4, "length": 9, "type": "PRODUCT"}]}
 *
 * `offset` and `length` count Unicode code points (as OCI's APIs do; the same as JS string
 * indices for text without emoji or other astral characters). Entities must lie inside the
 * text and must not overlap; `entities` may be empty (a sentence with no entity). Blank lines
 * are skipped.
 *
 * Any problem raises `TrainingDataError` naming the file, the line and the rule broken; the
 * service turns it into a FAILED model whose `lifecycleDetails` is the message.
 *
 * Evaluation: on the test examples when the model has a test dataset; otherwise every 5th
 * training example (the 5th, 10th, …) is held out and the model is trained on the rest, as
 * OCI trains on a split when given no test data. With fewer than 5 examples nothing can be
 * held out, and the model is evaluated on its own training data (`evaluatedOn` says which).
 */
import { buildEntityDictionary, createEntityMatcher, type EntityDictionaryArtifact, type NerExample } from './entities';
import {
  evaluateClassification,
  evaluateEntities,
  type NamedEntityRecognitionEvaluationResults,
  type TextClassificationEvaluationResults,
} from './evaluation';
import {
  classifyText,
  trainNaiveBayes,
  type ClassificationExample,
  type ClassificationMode,
  type NaiveBayesArtifact,
} from './text-classification';
import { fromCodePointOffset } from './text';

export type { ClassificationExample, ClassificationMode, NerExample };

/** Invalid training data or training request; the message is meant for `lifecycleDetails`. */
export class TrainingDataError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TrainingDataError';
  }
}

export interface TrainingFile {
  name: string;
  content: string;
}

export type TrainingExample = ClassificationExample | NerExample;
export type ModelArtifact = NaiveBayesArtifact | EntityDictionaryArtifact;
export type EvaluationResults = NamedEntityRecognitionEvaluationResults | TextClassificationEvaluationResults;

/** At most this many problems are listed in one error message. */
const MAX_REPORTED = 5;

// ---------------------------------------------------------------------------------------------
// Parsing
// ---------------------------------------------------------------------------------------------

interface CsvRecord {
  line: number;
  fields: string[];
}

/** RFC 4180 records with the line each starts on. */
export function parseCsv(content: string, fileName: string): CsvRecord[] {
  const text = content.startsWith('\uFEFF') ? content.slice(1) : content;
  const records: CsvRecord[] = [];
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  let fieldWasQuoted = false;
  let line = 1;
  let recordLine = 1;
  const endRecord = () => {
    fields.push(field);
    if (!(fields.length === 1 && fields[0] === '' && !fieldWasQuoted)) records.push({ line: recordLine, fields });
    fields = [];
    field = '';
    fieldWasQuoted = false;
  };
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (quoted) {
      if (char === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else {
          quoted = false;
          // Spaces between the closing quote and the separator are tolerated.
          let j = i + 1;
          while (text[j] === ' ' || text[j] === '\t') j++;
          const next = text[j];
          if (next !== undefined && next !== ',' && next !== '\n' && next !== '\r') {
            throw new TrainingDataError(
              `${fileName}, line ${line}: unexpected character '${next}' after a closing quote (a quote inside a quoted field must be doubled: "").`,
            );
          }
          i = j - 1;
        }
      } else {
        if (char === '\n') line++;
        field += char;
      }
      continue;
    }
    if (char === '"') {
      if (field.trim() !== '') {
        throw new TrainingDataError(
          `${fileName}, line ${line}: a quote in the middle of an unquoted field; quote the whole field and double the inner quote.`,
        );
      }
      field = ''; // spaces before an opening quote are tolerated
      quoted = true;
      fieldWasQuoted = true;
    } else if (char === ',') {
      fields.push(field);
      field = '';
      fieldWasQuoted = false;
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[i + 1] === '\n') i++;
      endRecord();
      line++;
      recordLine = line;
    } else {
      field += char;
    }
  }
  if (quoted) throw new TrainingDataError(`${fileName}, line ${recordLine}: a quoted field is never closed.`);
  if (field !== '' || fields.length > 0 || fieldWasQuoted) endRecord();
  return records;
}

function parseClassificationFile(file: TrainingFile): ClassificationExample[] {
  const records = parseCsv(file.content, file.name);
  if (records.length === 0)
    throw new TrainingDataError(
      `${file.name}: the file is empty; expected a CSV header "text,labels" and at least one row.`,
    );
  const header = records[0]!.fields.map((name) => name.trim().toLowerCase());
  const textColumn = header.indexOf('text');
  const labelsColumn = header.indexOf('labels');
  if (textColumn < 0 || labelsColumn < 0) {
    throw new TrainingDataError(
      `${file.name}, line ${records[0]!.line}: the header must name the columns "text" and "labels"; found "${records[0]!.fields.join(',')}".`,
    );
  }
  const problems: string[] = [];
  const examples: ClassificationExample[] = [];
  for (const record of records.slice(1)) {
    if (record.fields.length !== header.length) {
      problems.push(
        `line ${record.line}: expected ${header.length} fields, found ${record.fields.length} (quote fields that contain commas)`,
      );
      continue;
    }
    const text = record.fields[textColumn]!.trim();
    const labels = [
      ...new Set(
        record.fields[labelsColumn]!.split(';')
          .map((label) => label.trim())
          .filter(Boolean),
      ),
    ];
    if (!text) problems.push(`line ${record.line}: the text is empty`);
    else if (labels.length === 0) problems.push(`line ${record.line}: no label`);
    else examples.push({ text, labels });
  }
  if (problems.length > 0) throw new TrainingDataError(problemMessage(file.name, problems));
  return examples;
}

function isNonNegativeInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

function parseEntityFile(file: TrainingFile): NerExample[] {
  const problems: string[] = [];
  const examples: NerExample[] = [];
  const lines = (file.content.startsWith('\uFEFF') ? file.content.slice(1) : file.content).split(/\r?\n/);
  lines.forEach((raw, index) => {
    const lineNo = index + 1;
    if (raw.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (error) {
      problems.push(`line ${lineNo}: not valid JSON (${(error as Error).message})`);
      return;
    }
    const record = value as { text?: unknown; entities?: unknown };
    if (!record || typeof record !== 'object' || Array.isArray(record))
      return void problems.push(`line ${lineNo}: expected a JSON object {"text", "entities"}`);
    if (typeof record.text !== 'string' || record.text.trim() === '')
      return void problems.push(`line ${lineNo}: "text" must be a non-empty string`);
    if (!Array.isArray(record.entities)) return void problems.push(`line ${lineNo}: "entities" must be an array`);
    const text = record.text;
    const entities: NerExample['entities'] = [];
    for (const [position, item] of (record.entities as unknown[]).entries()) {
      const entity = item as { offset?: unknown; length?: unknown; type?: unknown };
      const where = `line ${lineNo}, entity ${position + 1}`;
      if (!entity || typeof entity !== 'object')
        return void problems.push(`${where}: expected an object {"offset", "length", "type"}`);
      if (!isNonNegativeInteger(entity.offset) || !isNonNegativeInteger(entity.length) || entity.length === 0) {
        return void problems.push(`${where}: "offset" must be an integer ≥ 0 and "length" an integer ≥ 1`);
      }
      if (typeof entity.type !== 'string' || entity.type.trim() === '')
        return void problems.push(`${where}: "type" must be a non-empty string`);
      const start = fromCodePointOffset(text, entity.offset);
      const end = start < 0 ? -1 : fromCodePointOffset(text, entity.offset + entity.length);
      if (start < 0 || end < 0)
        return void problems.push(`${where}: offset ${entity.offset} + length ${entity.length} lies beyond the text`);
      entities.push({ offset: start, length: end - start, type: entity.type.trim() });
    }
    const sorted = [...entities].sort((a, b) => a.offset - b.offset);
    for (let i = 1; i < sorted.length; i++) {
      const previous = sorted[i - 1]!;
      if (sorted[i]!.offset < previous.offset + previous.length)
        return void problems.push(`line ${lineNo}: entities overlap at offset ${sorted[i]!.offset}`);
    }
    examples.push({ text, entities: sorted });
  });
  if (problems.length > 0) throw new TrainingDataError(problemMessage(file.name, problems));
  return examples;
}

function problemMessage(fileName: string, problems: string[]): string {
  const shown = problems.slice(0, MAX_REPORTED).join('; ');
  const more = problems.length > MAX_REPORTED ? `; and ${problems.length - MAX_REPORTED} more` : '';
  return `${fileName}: invalid training data: ${shown}${more}.`;
}

/** Parses a dataset's files into examples (see the formats above); throws `TrainingDataError`. */
export function parseTrainingData(modelType: 'TEXT_CLASSIFICATION', files: TrainingFile[]): ClassificationExample[];
export function parseTrainingData(modelType: 'NAMED_ENTITY_RECOGNITION', files: TrainingFile[]): NerExample[];
export function parseTrainingData(modelType: string, files: TrainingFile[]): TrainingExample[];
export function parseTrainingData(modelType: string, files: TrainingFile[]): TrainingExample[] {
  const parse =
    modelType === 'TEXT_CLASSIFICATION'
      ? parseClassificationFile
      : modelType === 'NAMED_ENTITY_RECOGNITION'
        ? parseEntityFile
        : undefined;
  if (!parse)
    throw new TrainingDataError(
      `Model type ${modelType} is not trained from a dataset; only NAMED_ENTITY_RECOGNITION and TEXT_CLASSIFICATION are.`,
    );
  if (files.length === 0) throw new TrainingDataError('The dataset has no files.');
  const examples: TrainingExample[] = [];
  for (const file of files) examples.push(...parse(file));
  if (examples.length === 0)
    throw new TrainingDataError(`The dataset (${files.map((file) => file.name).join(', ')}) contains no examples.`);
  return examples;
}

// ---------------------------------------------------------------------------------------------
// Training
// ---------------------------------------------------------------------------------------------

export interface TrainModelOptions {
  modelType: string;
  /** `MULTI_CLASS` (default) or `MULTI_LABEL`, as a string or as OCI's `classificationMode` object. */
  classificationMode?: ClassificationMode | { classificationMode?: string } | string;
  examples: TrainingExample[];
  testExamples?: TrainingExample[];
}

export interface TrainedModel {
  artifact: ModelArtifact;
  evaluationResults: EvaluationResults;
  /** What the model was trained and evaluated on (for logs and lifecycle details). */
  details: {
    trainingExampleCount: number;
    evaluationExampleCount: number;
    evaluatedOn: 'TEST_DATASET' | 'HELD_OUT_SPLIT' | 'TRAINING_DATA';
  };
}

function modeOf(option: TrainModelOptions['classificationMode']): ClassificationMode {
  const value = typeof option === 'string' ? option : (option?.classificationMode ?? 'MULTI_CLASS');
  if (value !== 'MULTI_CLASS' && value !== 'MULTI_LABEL') {
    throw new TrainingDataError(`Unknown classificationMode "${value}"; expected MULTI_CLASS or MULTI_LABEL.`);
  }
  return value;
}

function split<T>(
  examples: T[],
  testExamples: T[] | undefined,
): { train: T[]; test: T[]; evaluatedOn: TrainedModel['details']['evaluatedOn'] } {
  if (testExamples && testExamples.length > 0)
    return { train: examples, test: testExamples, evaluatedOn: 'TEST_DATASET' };
  if (examples.length < 5) return { train: examples, test: examples, evaluatedOn: 'TRAINING_DATA' };
  return {
    train: examples.filter((_, index) => index % 5 !== 4),
    test: examples.filter((_, index) => index % 5 === 4),
    evaluatedOn: 'HELD_OUT_SPLIT',
  };
}

function preview(text: string): string {
  return JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);
}

function checkClassificationExamples(
  examples: TrainingExample[],
  mode: ClassificationMode,
  what: string,
): ClassificationExample[] {
  return examples.map((example, index) => {
    const candidate = example as Partial<ClassificationExample>;
    if (
      typeof candidate.text !== 'string' ||
      !Array.isArray(candidate.labels) ||
      candidate.labels.some((label) => typeof label !== 'string' || !label)
    ) {
      throw new TrainingDataError(
        `${what} example ${index + 1} is not a text classification example {text, labels[]}.`,
      );
    }
    if (candidate.labels.length === 0)
      throw new TrainingDataError(`${what} example ${index + 1} ${preview(candidate.text)} has no label.`);
    if (mode === 'MULTI_CLASS' && candidate.labels.length > 1) {
      throw new TrainingDataError(
        `${what} example ${index + 1} ${preview(candidate.text)} has ${candidate.labels.length} labels (${candidate.labels.join(';')}), but the model is MULTI_CLASS; use MULTI_LABEL or give one label per text.`,
      );
    }
    return { text: candidate.text, labels: candidate.labels };
  });
}

function checkEntityExamples(examples: TrainingExample[], what: string): NerExample[] {
  return examples.map((example, index) => {
    const candidate = example as Partial<NerExample>;
    if (typeof candidate.text !== 'string' || !Array.isArray(candidate.entities)) {
      throw new TrainingDataError(`${what} example ${index + 1} is not a named entity example {text, entities[]}.`);
    }
    for (const entity of candidate.entities) {
      if (
        !isNonNegativeInteger(entity.offset) ||
        !isNonNegativeInteger(entity.length) ||
        entity.offset + entity.length > candidate.text.length ||
        !entity.type
      ) {
        throw new TrainingDataError(
          `${what} example ${index + 1} ${preview(candidate.text)} has an entity outside the text or without a type.`,
        );
      }
    }
    return { text: candidate.text, entities: candidate.entities };
  });
}

/** Trains a custom model; throws `TrainingDataError` when the examples cannot make one. */
export function trainModel(options: TrainModelOptions): TrainedModel {
  if (options.examples.length === 0) throw new TrainingDataError('There are no training examples.');

  if (options.modelType === 'TEXT_CLASSIFICATION') {
    const mode = modeOf(options.classificationMode);
    const examples = checkClassificationExamples(options.examples, mode, 'Training');
    const testExamples = options.testExamples
      ? checkClassificationExamples(options.testExamples, mode, 'Test')
      : undefined;
    const labels = [...new Set(examples.flatMap((example) => example.labels))];
    if (labels.length < 2) {
      throw new TrainingDataError(
        `Text classification needs at least 2 distinct labels; the training data has ${labels.length} (${labels.join(', ') || 'none'}).`,
      );
    }
    const { train, test, evaluatedOn } = split(examples, testExamples);
    const artifact = trainNaiveBayes(train, mode);
    const evaluationResults = evaluateClassification({
      labels: [...new Set([...labels, ...test.flatMap((example) => example.labels)])].sort(),
      multiLabel: mode === 'MULTI_LABEL',
      gold: test.map((example) => example.labels),
      predicted: test.map((example) => classifyText(artifact, example.text).map((entry) => entry.label)),
    });
    return {
      artifact,
      evaluationResults,
      details: { trainingExampleCount: train.length, evaluationExampleCount: test.length, evaluatedOn },
    };
  }

  if (options.modelType === 'NAMED_ENTITY_RECOGNITION') {
    const examples = checkEntityExamples(options.examples, 'Training');
    const testExamples = options.testExamples ? checkEntityExamples(options.testExamples, 'Test') : undefined;
    if (examples.every((example) => example.entities.length === 0)) {
      throw new TrainingDataError(
        'The training data labels no entity; a named entity recognition model needs at least one.',
      );
    }
    const { train, test, evaluatedOn } = split(examples, testExamples);
    const artifact = buildEntityDictionary(train);
    const match = createEntityMatcher(artifact);
    const evaluationResults = evaluateEntities({
      labels: [
        ...new Set([...examples, ...test].flatMap((example) => example.entities.map((entity) => entity.type))),
      ].sort(),
      gold: test.map((example) => example.entities),
      predicted: test.map((example) => match(example.text)),
    });
    return {
      artifact,
      evaluationResults,
      details: { trainingExampleCount: train.length, evaluationExampleCount: test.length, evaluatedOn },
    };
  }

  throw new TrainingDataError(
    `Model type ${options.modelType} is not trained from a dataset; only NAMED_ENTITY_RECOGNITION and TEXT_CLASSIFICATION are.`,
  );
}

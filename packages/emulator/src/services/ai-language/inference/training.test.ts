import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DATA_FILES, readDataFile } from './data-files';
import type {
  ConfusionMatrix,
  NamedEntityRecognitionEvaluationResults,
  TextClassificationEvaluationResults,
} from './evaluation';
import { parseCsv, parseTrainingData, trainModel, TrainingDataError, type NerExample } from './training';

const ticketsFile = { name: DATA_FILES.sandboxSupportTickets, content: readDataFile(DATA_FILES.sandboxSupportTickets) };
const nerFile = { name: DATA_FILES.sandboxProductsNer, content: readDataFile(DATA_FILES.sandboxProductsNer) };

function rejects(fn: () => unknown, pattern: RegExp): void {
  assert.throws(fn, (error: unknown) => {
    assert.ok(error instanceof TrainingDataError, String(error));
    assert.match(error.message, pattern);
    return true;
  });
}

describe('parseCsv', () => {
  it('follows RFC 4180: quotes, doubled quotes, embedded commas and newlines, CRLF, BOM', () => {
    const csv = '\uFEFFtext,labels\r\n"Hello, ""world""",a\r\n"two\nlines",b;c\r\nplain,d\r\n';
    assert.deepEqual(parseCsv(csv, 'x.csv'), [
      { line: 1, fields: ['text', 'labels'] },
      { line: 2, fields: ['Hello, "world"', 'a'] },
      { line: 3, fields: ['two\nlines', 'b;c'] },
      { line: 5, fields: ['plain', 'd'] },
    ]);
  });
});

describe('parseTrainingData', () => {
  it('reads the shipped datasets', () => {
    const tickets = parseTrainingData('TEXT_CLASSIFICATION', [ticketsFile]);
    assert.ok(tickets.length >= 60);
    assert.deepEqual([...new Set(tickets.flatMap((example) => example.labels))].sort(), [
      'account',
      'billing',
      'technical',
    ]);
    const ner = parseTrainingData('NAMED_ENTITY_RECOGNITION', [nerFile]);
    assert.ok(ner.length >= 30);
    for (const example of ner) {
      assert.ok(example.entities.length > 0);
      for (const entity of example.entities) assert.ok(['PRODUCT', 'COMPONENT'].includes(entity.type));
    }
  });

  it('splits multi-label cells on ";"', () => {
    const examples = parseTrainingData('TEXT_CLASSIFICATION', [
      { name: 'm.csv', content: 'labels,text\n" billing ; account ",Charged after closing my account\n' },
    ]);
    assert.deepEqual(examples, [{ text: 'Charged after closing my account', labels: ['billing', 'account'] }]);
  });

  it('converts code point offsets to JS indices', () => {
    const line = JSON.stringify({ text: '😀 Nimbus X2 rocks', entities: [{ offset: 2, length: 9, type: 'PRODUCT' }] });
    const [example] = parseTrainingData('NAMED_ENTITY_RECOGNITION', [{ name: 'e.jsonl', content: line }]);
    const entity = example!.entities[0]!;
    assert.equal(example!.text.slice(entity.offset, entity.offset + entity.length), 'Nimbus X2');
  });

  it('rejects bad CSV with the file, line and rule', () => {
    rejects(
      () => parseTrainingData('TEXT_CLASSIFICATION', [{ name: 'a.csv', content: 'sentence,category\nhi,x\n' }]),
      /a\.csv, line 1: the header must name the columns "text" and "labels"/,
    );
    rejects(
      () =>
        parseTrainingData('TEXT_CLASSIFICATION', [{ name: 'b.csv', content: 'text,labels\nhello, world,billing\n' }]),
      /b\.csv: invalid training data: line 2: expected 2 fields, found 3/,
    );
    rejects(
      () =>
        parseTrainingData('TEXT_CLASSIFICATION', [{ name: 'c.csv', content: 'text,labels\n"never closed,billing\n' }]),
      /c\.csv, line 2: a quoted field is never closed/,
    );
    rejects(
      () =>
        parseTrainingData('TEXT_CLASSIFICATION', [{ name: 'd.csv', content: 'text,labels\nsome text,\n,billing\n' }]),
      /line 2: no label; line 3: the text is empty/,
    );
    rejects(
      () => parseTrainingData('TEXT_CLASSIFICATION', [{ name: 'e.csv', content: '' }]),
      /e\.csv: the file is empty/,
    );
    rejects(
      () => parseTrainingData('TEXT_CLASSIFICATION', [{ name: 'f.csv', content: 'text,labels\n' }]),
      /contains no examples/,
    );
    rejects(
      () => parseTrainingData('TEXT_CLASSIFICATION', [{ name: 'g.csv', content: 'text,labels\nsay "hi",x\n' }]),
      /g\.csv, line 2: a quote in the middle of an unquoted field/,
    );
  });

  it('rejects bad JSONL with the file, line and rule', () => {
    const bad = (content: string) => () =>
      parseTrainingData('NAMED_ENTITY_RECOGNITION', [{ name: 'n.jsonl', content }]);
    rejects(
      bad('{"text": "x", "entities": []}\n{not json}\n'),
      /n\.jsonl: invalid training data: line 2: not valid JSON/,
    );
    rejects(bad('{"text": "", "entities": []}'), /line 1: "text" must be a non-empty string/);
    rejects(bad('{"text": "abc", "entities": {}}'), /line 1: "entities" must be an array/);
    rejects(
      bad('{"text": "abc", "entities": [{"offset": 1, "length": 5, "type": "X"}]}'),
      /line 1, entity 1: offset 1 \+ length 5 lies beyond the text/,
    );
    rejects(
      bad('{"text": "abc", "entities": [{"offset": -1, "length": 1, "type": "X"}]}'),
      /"offset" must be an integer ≥ 0/,
    );
    rejects(bad('{"text": "abc", "entities": [{"offset": 0, "length": 1}]}'), /"type" must be a non-empty string/);
    rejects(
      bad(
        '{"text": "abcdef", "entities": [{"offset": 0, "length": 3, "type": "X"}, {"offset": 2, "length": 2, "type": "Y"}]}',
      ),
      /entities overlap at offset 2/,
    );
  });

  it('refuses model types that are not trained from data', () => {
    rejects(() => parseTrainingData('PRE_TRAINED_SENTIMENT_ANALYSIS', [ticketsFile]), /not trained from a dataset/);
    rejects(() => parseTrainingData('TEXT_CLASSIFICATION', []), /no files/);
  });
});

/** Checks that per-label metrics agree with the confusion matrix rows (gold) and columns (predicted). */
function assertConsistent(
  matrix: ConfusionMatrix,
  perLabel: { label: string; precision: number; recall: number; f1: number }[],
): void {
  for (const { label, precision, recall, f1 } of perLabel) {
    const tp = matrix[label]?.matrix[label] ?? 0;
    const rowSum = Object.values(matrix[label]?.matrix ?? {}).reduce((a, b) => a + b, 0);
    const columnSum = Object.values(matrix).reduce((sum, row) => sum + (row.matrix[label] ?? 0), 0);
    assert.ok(Math.abs(recall - (rowSum ? tp / rowSum : 0)) < 1e-4, `${label} recall`);
    assert.ok(Math.abs(precision - (columnSum ? tp / columnSum : 0)) < 1e-4, `${label} precision`);
    const expectedF1 = precision + recall ? (2 * precision * recall) / (precision + recall) : 0;
    assert.ok(Math.abs(f1 - expectedF1) < 1e-3, `${label} f1`);
  }
}

function assertInRange(metrics: object): void {
  for (const [name, value] of Object.entries(metrics))
    assert.ok(typeof value === 'number' && value >= 0 && value <= 1, `${name}=${value}`);
}

describe('trainModel: TEXT_CLASSIFICATION', () => {
  const examples = parseTrainingData('TEXT_CLASSIFICATION', [ticketsFile]);

  it('holds out every 5th example and reports OCI evaluation results', () => {
    const trained = trainModel({
      modelType: 'TEXT_CLASSIFICATION',
      classificationMode: { classificationMode: 'MULTI_CLASS' },
      examples,
    });
    assert.deepEqual(trained.details, {
      trainingExampleCount: 53,
      evaluationExampleCount: 13,
      evaluatedOn: 'HELD_OUT_SPLIT',
    });
    const results = trained.evaluationResults as TextClassificationEvaluationResults;
    assert.equal(results.modelType, 'TEXT_CLASSIFICATION');
    assert.deepEqual(results.labels, ['account', 'billing', 'technical']);
    assert.deepEqual(Object.keys(results.metrics).sort(), [
      'accuracy',
      'macroF1',
      'macroPrecision',
      'macroRecall',
      'microF1',
      'microPrecision',
      'microRecall',
      'weightedF1',
      'weightedPrecision',
      'weightedRecall',
    ]);
    assertInRange(results.metrics);
    assert.ok(results.metrics.accuracy >= 0.6, `accuracy ${results.metrics.accuracy}`);
    // Single-label: micro precision = micro recall = accuracy.
    assert.equal(results.metrics.microPrecision, results.metrics.accuracy);
    assertConsistent(results.confusionMatrix, results.classMetrics);
    const total = Object.values(results.confusionMatrix).reduce(
      (sum, row) => sum + Object.values(row.matrix).reduce((a, b) => a + b, 0),
      0,
    );
    assert.equal(total, 13);
    for (const metric of results.classMetrics) {
      assert.equal(
        metric.support,
        Object.values(results.confusionMatrix[metric.label]!.matrix).reduce((a, b) => a + b, 0),
      );
    }
    const correct = results.labels.reduce((sum, label) => sum + results.confusionMatrix[label]!.matrix[label]!, 0);
    assert.ok(Math.abs(results.metrics.accuracy - correct / 13) < 1e-4);
  });

  it('evaluates on the test examples when given, training on all the rest', () => {
    const trained = trainModel({
      modelType: 'TEXT_CLASSIFICATION',
      examples,
      testExamples: [
        { text: 'Please refund the extra charge on my invoice', labels: ['billing'] },
        { text: 'The app crashes on startup with an error', labels: ['technical'] },
        { text: 'I forgot my password and cannot log in', labels: ['account'] },
      ],
    });
    assert.deepEqual(trained.details, {
      trainingExampleCount: examples.length,
      evaluationExampleCount: 3,
      evaluatedOn: 'TEST_DATASET',
    });
    assert.equal((trained.evaluationResults as TextClassificationEvaluationResults).metrics.accuracy, 1);
  });

  it('evaluates MULTI_LABEL models per label', () => {
    const multi = [
      ...examples,
      { text: 'Charged again after my account was closed', labels: ['billing', 'account'] },
      { text: 'Payment page crashes so I cannot pay', labels: ['billing', 'technical'] },
    ];
    const trained = trainModel({
      modelType: 'TEXT_CLASSIFICATION',
      classificationMode: 'MULTI_LABEL',
      examples: multi,
    });
    const results = trained.evaluationResults as TextClassificationEvaluationResults;
    assertInRange(results.metrics);
    assert.equal((trained.artifact as { mode: string }).mode, 'MULTI_LABEL');
  });

  it('is deterministic', () => {
    const a = trainModel({ modelType: 'TEXT_CLASSIFICATION', examples });
    const b = trainModel({ modelType: 'TEXT_CLASSIFICATION', examples });
    assert.equal(JSON.stringify(a), JSON.stringify(b));
  });

  it('rejects data that cannot make a model', () => {
    rejects(
      () =>
        trainModel({
          modelType: 'TEXT_CLASSIFICATION',
          examples: [
            { text: 'a', labels: ['x'] },
            { text: 'b', labels: ['x'] },
          ],
        }),
      /at least 2 distinct labels; the training data has 1 \(x\)/,
    );
    rejects(
      () =>
        trainModel({
          modelType: 'TEXT_CLASSIFICATION',
          examples: [
            { text: 'a b', labels: ['x', 'y'] },
            { text: 'c', labels: ['y'] },
          ],
        }),
      /example 1 "a b" has 2 labels \(x;y\), but the model is MULTI_CLASS/,
    );
    rejects(
      () => trainModel({ modelType: 'TEXT_CLASSIFICATION', classificationMode: 'BOTH', examples }),
      /Unknown classificationMode "BOTH"/,
    );
    rejects(() => trainModel({ modelType: 'TEXT_CLASSIFICATION', examples: [] }), /no training examples/);
    rejects(() => trainModel({ modelType: 'PII', examples }), /not trained from a dataset/);
  });

  it('evaluates tiny datasets on their training data', () => {
    const trained = trainModel({
      modelType: 'TEXT_CLASSIFICATION',
      examples: [
        { text: 'refund charge', labels: ['billing'] },
        { text: 'password login', labels: ['account'] },
      ],
    });
    assert.equal(trained.details.evaluatedOn, 'TRAINING_DATA');
  });
});

describe('trainModel: NAMED_ENTITY_RECOGNITION', () => {
  const examples = parseTrainingData('NAMED_ENTITY_RECOGNITION', [nerFile]);

  it('reports OCI evaluation results consistent with the confusion matrix', () => {
    const trained = trainModel({ modelType: 'NAMED_ENTITY_RECOGNITION', examples });
    assert.equal(trained.details.evaluatedOn, 'HELD_OUT_SPLIT');
    assert.equal(trained.details.evaluationExampleCount, Math.floor(examples.length / 5));
    const results = trained.evaluationResults as NamedEntityRecognitionEvaluationResults;
    assert.equal(results.modelType, 'NAMED_ENTITY_RECOGNITION');
    assert.deepEqual(results.labels, ['COMPONENT', 'PRODUCT']);
    assert.deepEqual(Object.keys(results.metrics).sort(), [
      'macroF1',
      'macroPrecision',
      'macroRecall',
      'microF1',
      'microPrecision',
      'microRecall',
      'weightedF1',
      'weightedPrecision',
      'weightedRecall',
    ]);
    assertInRange(results.metrics);
    assert.ok(results.metrics.microF1 > 0.8, `microF1 ${results.metrics.microF1}`);
    assertConsistent(results.confusionMatrix, results.entityMetrics);
    const gold = examples
      .filter((_, index) => index % 5 === 4)
      .reduce((sum, example) => sum + example.entities.length, 0);
    const goldInMatrix = results.labels.reduce(
      (sum, label) => sum + Object.values(results.confusionMatrix[label]!.matrix).reduce((a, b) => a + b, 0),
      0,
    );
    assert.equal(goldInMatrix, gold);
  });

  it('counts wrong types and spurious spans against precision', () => {
    const train: NerExample[] = [
      {
        text: 'Paris is in France',
        entities: [
          { offset: 0, length: 5, type: 'CITY' },
          { offset: 12, length: 6, type: 'COUNTRY' },
        ],
      },
      { text: 'Rome is lovely', entities: [{ offset: 0, length: 4, type: 'CITY' }] },
    ];
    const test: NerExample[] = [
      {
        text: 'France and Rome and Paris',
        entities: [
          { offset: 0, length: 6, type: 'CITY' },
          { offset: 11, length: 4, type: 'CITY' },
        ],
      },
    ];
    const results = trainModel({ modelType: 'NAMED_ENTITY_RECOGNITION', examples: train, testExamples: test })
      .evaluationResults as NamedEntityRecognitionEvaluationResults;
    // Gold: France(CITY) Rome(CITY). Predicted: France(COUNTRY) Rome(CITY) Paris(CITY).
    assert.deepEqual(results.confusionMatrix, {
      CITY: { matrix: { CITY: 1, COUNTRY: 1, O: 0 } },
      COUNTRY: { matrix: { CITY: 0, COUNTRY: 0, O: 0 } },
      O: { matrix: { CITY: 1, COUNTRY: 0, O: 0 } },
    });
    const city = results.entityMetrics.find((metric) => metric.label === 'CITY')!;
    assert.deepEqual([city.precision, city.recall], [0.5, 0.5]);
    assert.equal(results.metrics.microPrecision, 0.3333);
    assertConsistent(results.confusionMatrix, results.entityMetrics);
  });

  it('rejects data with no entity at all', () => {
    rejects(
      () => trainModel({ modelType: 'NAMED_ENTITY_RECOGNITION', examples: [{ text: 'nothing here', entities: [] }] }),
      /labels no entity/,
    );
  });
});

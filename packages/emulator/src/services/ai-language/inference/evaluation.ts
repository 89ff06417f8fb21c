/**
 * Evaluation metrics in OCI's wire shapes (`NamedEntityRecognitionEvaluationResults`,
 * `TextClassificationEvaluationResults` in oci-ailanguage), computed from gold and predicted
 * answers on held-out examples.
 *
 * Per label: precision = TP/(TP+FP), recall = TP/(TP+FN), F1 their harmonic mean (0 when
 * undefined). Micro averages pool the counts of all labels; macro averages are the plain mean
 * over labels; weighted averages weight each label by its support (gold count).
 *
 * Confusion matrices are `{ [gold]: { matrix: { [predicted]: count } } }` over every label:
 * - text classification, MULTI_CLASS: one cell per example (rows sum to the support).
 * - text classification, MULTI_LABEL: a gold label that was predicted counts on the diagonal;
 *   a missed gold label counts once against each wrongly predicted label, or against the
 *   `NONE` column when nothing wrong was predicted; a wrongly predicted label with no missed
 *   gold label counts in the `NONE` row.
 * - NER (span level: an entity counts as found only with the same offset, length and type):
 *   a gold entity whose exact span was predicted counts under the predicted type; a missed
 *   one in the `O` ("outside any entity") column; a spurious prediction in the `O` row.
 * The extra `NONE`/`O` row and column appear only when used; `labels` lists the real labels.
 */
import { round } from './text';

export interface LabelMetrics {
  label: string;
  f1: number;
  precision: number;
  recall: number;
}

export interface AveragedMetrics {
  microF1: number;
  microPrecision: number;
  microRecall: number;
  macroF1: number;
  macroPrecision: number;
  macroRecall: number;
  weightedF1: number;
  weightedPrecision: number;
  weightedRecall: number;
}

export type ConfusionMatrix = Record<string, { matrix: Record<string, number> }>;

export interface NamedEntityRecognitionEvaluationResults {
  modelType: 'NAMED_ENTITY_RECOGNITION';
  metrics: AveragedMetrics;
  entityMetrics: LabelMetrics[];
  confusionMatrix: ConfusionMatrix;
  labels: string[];
}

export interface TextClassificationEvaluationResults {
  modelType: 'TEXT_CLASSIFICATION';
  metrics: AveragedMetrics & { accuracy: number };
  classMetrics: (LabelMetrics & { support: number })[];
  confusionMatrix: ConfusionMatrix;
  labels: string[];
}

interface Tally {
  tp: number;
  fp: number;
  fn: number;
}

function ratio(numerator: number, denominator: number): number {
  return denominator === 0 ? 0 : numerator / denominator;
}

function prf({ tp, fp, fn }: Tally): { precision: number; recall: number; f1: number } {
  const precision = ratio(tp, tp + fp);
  const recall = ratio(tp, tp + fn);
  return { precision, recall, f1: ratio(2 * precision * recall, precision + recall) };
}

function averages(
  labels: string[],
  tallies: Map<string, Tally>,
): { perLabel: (LabelMetrics & { support: number })[]; metrics: AveragedMetrics } {
  const perLabel = labels.map((label) => {
    const tally = tallies.get(label)!;
    const { precision, recall, f1 } = prf(tally);
    return { label, precision, recall, f1, support: tally.tp + tally.fn };
  });
  const pooled = [...tallies.values()].reduce(
    (sum, t) => ({ tp: sum.tp + t.tp, fp: sum.fp + t.fp, fn: sum.fn + t.fn }),
    { tp: 0, fp: 0, fn: 0 },
  );
  const micro = prf(pooled);
  const mean = (pick: (m: LabelMetrics) => number) =>
    ratio(
      perLabel.reduce((sum, m) => sum + pick(m), 0),
      perLabel.length,
    );
  const supportSum = perLabel.reduce((sum, m) => sum + m.support, 0);
  const weighted = (pick: (m: LabelMetrics) => number) =>
    ratio(
      perLabel.reduce((sum, m) => sum + pick(m) * m.support, 0),
      supportSum,
    );
  return {
    perLabel: perLabel.map((m) => ({
      label: m.label,
      f1: round(m.f1),
      precision: round(m.precision),
      recall: round(m.recall),
      support: m.support,
    })),
    metrics: {
      microF1: round(micro.f1),
      microPrecision: round(micro.precision),
      microRecall: round(micro.recall),
      macroF1: round(mean((m) => m.f1)),
      macroPrecision: round(mean((m) => m.precision)),
      macroRecall: round(mean((m) => m.recall)),
      weightedF1: round(weighted((m) => m.f1)),
      weightedPrecision: round(weighted((m) => m.precision)),
      weightedRecall: round(weighted((m) => m.recall)),
    },
  };
}

function emptyMatrix(keys: string[]): ConfusionMatrix {
  return Object.fromEntries(
    keys.map((gold) => [gold, { matrix: Object.fromEntries(keys.map((predicted) => [predicted, 0])) }]),
  );
}

function bump(matrix: ConfusionMatrix, gold: string, predicted: string): void {
  matrix[gold]!.matrix[predicted] = (matrix[gold]!.matrix[predicted] ?? 0) + 1;
}

/** Drops the extra row/column when it stayed empty. */
function withoutUnused(matrix: ConfusionMatrix, extra: string): ConfusionMatrix {
  const used =
    Object.values(matrix[extra]!.matrix).some((n) => n > 0) ||
    Object.values(matrix).some((row) => (row.matrix[extra] ?? 0) > 0);
  if (used) return matrix;
  return Object.fromEntries(
    Object.entries(matrix)
      .filter(([gold]) => gold !== extra)
      .map(([gold, row]) => [
        gold,
        { matrix: Object.fromEntries(Object.entries(row.matrix).filter(([predicted]) => predicted !== extra)) },
      ]),
  );
}

export function evaluateClassification(options: {
  labels: string[];
  multiLabel: boolean;
  gold: string[][];
  predicted: string[][];
}): TextClassificationEvaluationResults {
  const { labels, multiLabel, gold, predicted } = options;
  const NONE = 'NONE';
  const tallies = new Map<string, Tally>(labels.map((label) => [label, { tp: 0, fp: 0, fn: 0 }]));
  const matrix = emptyMatrix([...labels, NONE]);
  let exact = 0;
  gold.forEach((goldLabels, index) => {
    const goldSet = new Set(goldLabels);
    const predictedSet = new Set(predicted[index] ?? []);
    if (goldSet.size === predictedSet.size && [...goldSet].every((label) => predictedSet.has(label))) exact++;
    for (const label of labels) {
      const tally = tallies.get(label)!;
      if (goldSet.has(label) && predictedSet.has(label)) tally.tp++;
      else if (predictedSet.has(label)) tally.fp++;
      else if (goldSet.has(label)) tally.fn++;
    }
    const wrong = [...predictedSet].filter((label) => !goldSet.has(label));
    const missed = [...goldSet].filter((label) => !predictedSet.has(label));
    for (const label of goldSet) if (predictedSet.has(label)) bump(matrix, label, label);
    if (!multiLabel) {
      // One gold and at most one predicted label: a single cell per example.
      for (const label of missed) bump(matrix, label, wrong[0] ?? NONE);
      return;
    }
    for (const label of missed) {
      if (wrong.length === 0) bump(matrix, label, NONE);
      else for (const other of wrong) bump(matrix, label, other);
    }
    if (missed.length === 0) for (const other of wrong) bump(matrix, NONE, other);
  });
  const { perLabel, metrics } = averages(labels, tallies);
  return {
    modelType: 'TEXT_CLASSIFICATION',
    metrics: { accuracy: round(ratio(exact, gold.length)), ...metrics },
    classMetrics: perLabel,
    confusionMatrix: withoutUnused(matrix, NONE),
    labels,
  };
}

export interface SpanLabel {
  offset: number;
  length: number;
  type: string;
}

export function evaluateEntities(options: {
  labels: string[];
  gold: SpanLabel[][];
  predicted: SpanLabel[][];
}): NamedEntityRecognitionEvaluationResults {
  const { labels, gold, predicted } = options;
  const OUTSIDE = 'O';
  const tallies = new Map<string, Tally>(labels.map((label) => [label, { tp: 0, fp: 0, fn: 0 }]));
  const tally = (label: string) => {
    if (!tallies.has(label)) tallies.set(label, { tp: 0, fp: 0, fn: 0 });
    return tallies.get(label)!;
  };
  const allLabels = [...new Set([...labels, ...predicted.flat().map((entity) => entity.type)])].sort();
  const matrix = emptyMatrix([...allLabels, OUTSIDE]);
  gold.forEach((goldEntities, index) => {
    const predictedBySpan = new Map(
      (predicted[index] ?? []).map((entity) => [`${entity.offset}:${entity.length}`, entity]),
    );
    const goldSpans = new Set<string>();
    for (const entity of goldEntities) {
      const key = `${entity.offset}:${entity.length}`;
      goldSpans.add(key);
      const match = predictedBySpan.get(key);
      if (match && match.type === entity.type) {
        tally(entity.type).tp++;
      } else {
        tally(entity.type).fn++;
        if (match) tally(match.type).fp++;
      }
      bump(matrix, entity.type, match ? match.type : OUTSIDE);
    }
    for (const [key, entity] of predictedBySpan) {
      if (goldSpans.has(key)) continue;
      tally(entity.type).fp++;
      bump(matrix, OUTSIDE, entity.type);
    }
  });
  const { perLabel, metrics } = averages(labels, new Map(labels.map((label) => [label, tally(label)])));
  // Micro averages pool every predicted type, including any outside `labels`.
  const pooled = prf(
    [...tallies.values()].reduce((sum, t) => ({ tp: sum.tp + t.tp, fp: sum.fp + t.fp, fn: sum.fn + t.fn }), {
      tp: 0,
      fp: 0,
      fn: 0,
    }),
  );
  return {
    modelType: 'NAMED_ENTITY_RECOGNITION',
    metrics: {
      ...metrics,
      microF1: round(pooled.f1),
      microPrecision: round(pooled.precision),
      microRecall: round(pooled.recall),
    },
    entityMetrics: perLabel.map(({ support: _support, ...rest }) => rest),
    confusionMatrix: withoutUnused(matrix, OUTSIDE),
    labels,
  };
}

/**
 * Multinomial naive Bayes with Laplace (add-one) smoothing, for custom and pre-trained text
 * classification.
 *
 * Features are the stemmed content words of a text plus the bigrams of adjacent content words
 * ("credit card", "password reset"), which carry much of the meaning in short support texts.
 * Words never seen in training are ignored, as usual for naive Bayes.
 *
 * - MULTI_CLASS: one model over all labels; the answer is the most probable label with its
 *   posterior probability.
 * - MULTI_LABEL: one-vs-rest; for each label, the label's documents against all the others
 *   (derived from the same counts), and every label whose posterior reaches 0.5 is returned,
 *   best first. When none does, the single best label is returned so that a text is never left
 *   unlabelled.
 *
 * The trained model is plain JSON (`NaiveBayesArtifact`), stored with the OCI model.
 */
import { byScoreThen, ENGLISH_STOP_WORDS, round, stem, tokenize } from './text';

export type ClassificationMode = 'MULTI_CLASS' | 'MULTI_LABEL';

export interface ClassificationExample {
  text: string;
  labels: string[];
}

export interface Classification {
  label: string;
  score: number;
}

interface Counts {
  documentCount: number;
  tokenCount: number;
  tokenCounts: Record<string, number>;
}

/** The JSON-serialisable artifact of a text classification model. */
export interface NaiveBayesArtifact {
  kind: 'naive-bayes';
  version: 1;
  mode: ClassificationMode;
  /** Sorted. */
  labels: string[];
  /** Size of the feature vocabulary, the Laplace denominator term. */
  vocabularySize: number;
  /** Counts over every training document once (for one-vs-rest complements). */
  total: Counts;
  classes: Record<string, Counts>;
  /** MULTI_LABEL: minimum posterior for a label to be returned. */
  threshold: number;
}

const MULTI_LABEL_THRESHOLD = 0.5;

/** Stemmed content words and adjacent-pair bigrams. */
export function featuresOf(text: string): string[] {
  const words = tokenize(text)
    .filter(
      (token) =>
        token.kind === 'word' && token.text.length > 1 && !ENGLISH_STOP_WORDS.has(token.lower.replace(/’/g, "'")),
    )
    .map((token) => stem(token.lower));
  const features = [...words];
  for (let i = 0; i + 1 < words.length; i++) features.push(`${words[i]} ${words[i + 1]}`);
  return features;
}

function emptyCounts(): Counts {
  return { documentCount: 0, tokenCount: 0, tokenCounts: {} };
}

function add(counts: Counts, features: string[]): void {
  counts.documentCount++;
  counts.tokenCount += features.length;
  for (const feature of features) counts.tokenCounts[feature] = (counts.tokenCounts[feature] ?? 0) + 1;
}

export function trainNaiveBayes(examples: ClassificationExample[], mode: ClassificationMode): NaiveBayesArtifact {
  const labels = [...new Set(examples.flatMap((example) => example.labels))].sort();
  const classes: Record<string, Counts> = Object.fromEntries(labels.map((label) => [label, emptyCounts()]));
  const total = emptyCounts();
  for (const example of examples) {
    const features = featuresOf(example.text);
    add(total, features);
    for (const label of new Set(example.labels)) add(classes[label]!, features);
  }
  // Sorted keys: the artifact's JSON is identical for identical training data.
  const sortKeys = (counts: Counts): Counts => ({
    ...counts,
    tokenCounts: Object.fromEntries(Object.entries(counts.tokenCounts).sort(([a], [b]) => (a < b ? -1 : 1))),
  });
  return {
    kind: 'naive-bayes',
    version: 1,
    mode,
    labels,
    vocabularySize: Object.keys(total.tokenCounts).length,
    total: sortKeys(total),
    classes: Object.fromEntries(labels.map((label) => [label, sortKeys(classes[label]!)])),
    threshold: MULTI_LABEL_THRESHOLD,
  };
}

export function isNaiveBayesArtifact(value: unknown): value is NaiveBayesArtifact {
  const artifact = value as NaiveBayesArtifact | undefined;
  return (
    !!artifact &&
    artifact.kind === 'naive-bayes' &&
    Array.isArray(artifact.labels) &&
    typeof artifact.classes === 'object'
  );
}

/** log P(class) + Σ log P(feature | class) over known features. */
function logLikelihood(
  counts: Counts,
  prior: number,
  features: string[],
  vocabularySize: number,
  known: Record<string, number>,
): number {
  let score = Math.log(prior);
  const denominator = counts.tokenCount + vocabularySize;
  for (const feature of features) {
    if (known[feature] === undefined) continue;
    score += Math.log(((counts.tokenCounts[feature] ?? 0) + 1) / denominator);
  }
  return score;
}

/** Posterior probabilities from log scores (log-sum-exp for stability). */
function softmax(logScores: number[]): number[] {
  const max = Math.max(...logScores);
  const exps = logScores.map((score) => Math.exp(score - max));
  const sum = exps.reduce((a, b) => a + b, 0);
  return exps.map((value) => value / sum);
}

/** Posterior of every label, best first. MULTI_LABEL posteriors are independent (one-vs-rest). */
export function labelPosteriors(artifact: NaiveBayesArtifact, text: string): Classification[] {
  const features = featuresOf(text);
  const known = artifact.total.tokenCounts;
  const n = artifact.total.documentCount;
  let scored: Classification[];
  if (artifact.mode === 'MULTI_LABEL') {
    scored = artifact.labels.map((label) => {
      const positive = artifact.classes[label]!;
      const negativeCounts: Record<string, number> = {};
      for (const [feature, count] of Object.entries(known))
        negativeCounts[feature] = count - (positive.tokenCounts[feature] ?? 0);
      const negative: Counts = {
        documentCount: n - positive.documentCount,
        tokenCount: artifact.total.tokenCount - positive.tokenCount,
        tokenCounts: negativeCounts,
      };
      // Priors smoothed too: a label present in every document must not zero its complement.
      const yes = logLikelihood(
        positive,
        (positive.documentCount + 1) / (n + 2),
        features,
        artifact.vocabularySize,
        known,
      );
      const no = logLikelihood(
        negative,
        (negative.documentCount + 1) / (n + 2),
        features,
        artifact.vocabularySize,
        known,
      );
      return { label, score: softmax([yes, no])[0]! };
    });
  } else {
    const logs = artifact.labels.map((label) => {
      const counts = artifact.classes[label]!;
      return logLikelihood(
        counts,
        (counts.documentCount + 1) / (n + artifact.labels.length),
        features,
        artifact.vocabularySize,
        known,
      );
    });
    const posteriors = softmax(logs);
    scored = artifact.labels.map((label, index) => ({ label, score: posteriors[index]! }));
  }
  return scored.sort(
    byScoreThen(
      (entry) => entry.score,
      (entry) => entry.label,
    ),
  );
}

/** The model's answer: the top label (MULTI_CLASS) or every label over the threshold (MULTI_LABEL). */
export function classifyText(artifact: NaiveBayesArtifact, text: string): Classification[] {
  const ranked = labelPosteriors(artifact, text);
  if (ranked.length === 0) return [];
  const chosen = artifact.mode === 'MULTI_LABEL' ? ranked.filter((entry) => entry.score >= artifact.threshold) : [];
  return (chosen.length > 0 ? chosen : ranked.slice(0, 1)).map((entry) => ({
    label: entry.label,
    score: round(entry.score),
  }));
}

/**
 * Lexicon-based sentiment, at document, sentence and aspect level.
 *
 * Each opinion word carries a valence (sentiment-lexicon.ts). Within a sentence an intensifier
 * scales the next opinion word, a negator flips (and softens, ×-0.75) opinion words in the
 * three words after it, words after a contrast ("but", "however") weigh 1.5× and words before
 * it 0.5×, and each "!" (up to three) adds 10 %. The positive and negative mass of a span is
 * turned into OCI's four class scores (Positive, Negative, Neutral, Mixed; they sum to 1):
 * Neutral is what the evidence does not cover, Mixed is the share where both polarities are
 * present, the rest goes to the stronger polarity.
 *
 * Aspects: every opinion word is attached to a target noun phrase found by three patterns, in
 * order: "<opinion> (det) NOUN…" ("great battery life", "love the camera"), "NOUN… is/was
 * (adv) <opinion>" ("the food was cold"), else the nearest content words before the opinion.
 * Opinions on the same target add up.
 *
 * The lexicon is English; text in other languages mostly comes out Neutral with no aspects.
 */
import { CONTRAST_WORDS, INTENSIFIERS, NEGATORS, SENTIMENT_LEXICON } from './sentiment-lexicon';
import { ENGLISH_STOP_WORDS, round, splitSentences, stem, tokenize, type Token } from './text';

export type SentimentLabel = 'Positive' | 'Negative' | 'Neutral' | 'Mixed';

/** Key names and order as OCI sends them. */
export interface SentimentScores {
  Positive: number;
  Negative: number;
  Neutral: number;
  Mixed: number;
}

export interface SentimentSpan {
  /** JS index into the document text. */
  offset: number;
  length: number;
  text: string;
  sentiment: SentimentLabel;
  scores: SentimentScores;
}

export interface SentimentAnalysis {
  documentSentiment: SentimentLabel;
  documentScores: SentimentScores;
  sentences: SentimentSpan[];
  aspects: SentimentSpan[];
}

const COPULAS = new Set([
  'is',
  'was',
  'are',
  'were',
  'be',
  'been',
  'being',
  "isn't",
  "wasn't",
  "aren't",
  "weren't",
  'seems',
  'seem',
  'seemed',
  'looks',
  'look',
  'looked',
  'feels',
  'feel',
  'felt',
  'sounds',
  'sounded',
  'tastes',
  'tasted',
  'became',
  'becomes',
  'remains',
  'remained',
  'stays',
  'stayed',
  'gets',
  'got',
  "'s",
  'appears',
  'appeared',
]);
const AUXILIARIES = new Set([
  'has',
  'have',
  'had',
  'will',
  'would',
  'can',
  'could',
  'should',
  'must',
  'been',
  'being',
  'be',
  'always',
  'still',
  'just',
]);
const DETERMINERS = new Set([
  'the',
  'a',
  'an',
  'this',
  'that',
  'these',
  'those',
  'my',
  'our',
  'your',
  'their',
  'his',
  'her',
  'its',
  'some',
  'any',
  'every',
]);
/* Frequent verbs that would otherwise be mistaken for aspect nouns ("the app works great"). */
const COMMON_VERBS = new Set([
  'works',
  'worked',
  'work',
  'runs',
  'ran',
  'run',
  'arrived',
  'came',
  'comes',
  'went',
  'goes',
  'made',
  'makes',
  'did',
  'does',
  'do',
  'done',
  'said',
  'says',
  'told',
  'tried',
  'try',
  'bought',
  'buy',
  'ordered',
  'received',
  'used',
  'use',
  'using',
  'find',
  'found',
  'think',
  'thought',
  'know',
  'knew',
  'want',
  'wanted',
  'need',
  'needed',
  'feel',
  'keeps',
  'kept',
  'keep',
  'took',
  'take',
  'takes',
  'had',
  'has',
  'have',
  'get',
  'gets',
  'got',
  'performs',
  'performed',
  'handled',
  'handles',
  'fixed',
  'i',
  "i'm",
  "i've",
  'we',
  'they',
  'it',
]);

function valenceOf(lower: string): number | undefined {
  const word = lower.replace(/’/g, "'");
  return SENTIMENT_LEXICON.get(word) ?? SENTIMENT_LEXICON.get(stem(word));
}

function isNegator(lower: string): boolean {
  const word = lower.replace(/’/g, "'");
  return NEGATORS.has(word) || word.endsWith("n't");
}

interface Opinion {
  index: number;
  /** Valence after negation and intensifiers, before sentence-level weighting. */
  value: number;
  /** Value after contrast and exclamation weighting, used for sentence and document scores. */
  weighted: number;
}

/** Opinion words of one sentence with their adjusted values. */
function opinionsOf(tokens: Token[], sentenceText: string): Opinion[] {
  const opinions: Opinion[] = [];
  const letters = sentenceText.replace(/[^\p{L}]/gu, '');
  const shouting = letters.length > 0 && letters === letters.toUpperCase();
  let negationLeft = 0;
  let multiplier = 1;
  let contrastAt = -1;
  tokens.forEach((token, index) => {
    if (token.kind !== 'word') {
      if (token.kind === 'punct' && token.text !== '!') {
        negationLeft = 0;
        multiplier = 1;
      }
      return;
    }
    const lower = token.lower;
    if (CONTRAST_WORDS.has(lower)) {
      contrastAt = index;
      negationLeft = 0;
      multiplier = 1;
      return;
    }
    if (isNegator(lower)) {
      negationLeft = 3;
      return;
    }
    const boost = INTENSIFIERS.get(lower);
    if (boost !== undefined) {
      multiplier *= boost;
      return;
    }
    // "as well" means "too", not "in a good way".
    const valence = lower === 'well' && tokens[index - 1]?.lower === 'as' ? undefined : valenceOf(lower);
    if (valence !== undefined) {
      let value = valence * multiplier;
      if (!shouting && token.text.length > 1 && token.text === token.text.toUpperCase()) value *= 1.25;
      if (negationLeft > 0) value *= -0.75;
      opinions.push({ index, value, weighted: value });
    }
    multiplier = 1;
    if (negationLeft > 0) negationLeft--;
  });
  if (contrastAt >= 0) {
    for (const opinion of opinions) opinion.weighted *= opinion.index < contrastAt ? 0.5 : 1.5;
  }
  const exclamations = Math.min(3, (sentenceText.match(/!/g) ?? []).length);
  if (exclamations > 0) for (const opinion of opinions) opinion.weighted *= 1 + 0.1 * exclamations;
  return opinions;
}

/** Four class scores from positive and negative evidence (each ≥ 0). */
export function scoresFrom(positive: number, negative: number): SentimentScores {
  const total = positive + negative;
  if (total === 0) return { Positive: 0, Negative: 0, Neutral: 1, Mixed: 0 };
  const strength = total / (total + 1);
  const mixedShare = Math.min(positive, negative) / Math.max(positive, negative);
  const polar = strength * (1 - mixedShare);
  return {
    Positive: round(positive > negative ? polar : 0),
    Negative: round(negative > positive ? polar : 0),
    Neutral: round(1 - strength),
    Mixed: round(strength * mixedShare),
  };
}

/** The class with the highest score; ties resolve Positive, Negative, Mixed, Neutral. */
export function labelOf(scores: SentimentScores): SentimentLabel {
  const order: SentimentLabel[] = ['Positive', 'Negative', 'Mixed', 'Neutral'];
  return order.reduce((best, label) => (scores[label] > scores[best] ? label : best));
}

function massOf(values: number[]): { positive: number; negative: number } {
  let positive = 0;
  let negative = 0;
  for (const value of values) {
    if (value > 0) positive += value;
    else negative -= value;
  }
  return { positive, negative };
}

function isContent(token: Token | undefined): boolean {
  if (!token || token.kind !== 'word' || token.text.length < 2) return false;
  const lower = token.lower.replace(/’/g, "'");
  return !(
    ENGLISH_STOP_WORDS.has(lower) ||
    valenceOf(lower) !== undefined ||
    isNegator(lower) ||
    INTENSIFIERS.has(lower) ||
    CONTRAST_WORDS.has(lower) ||
    COPULAS.has(lower) ||
    AUXILIARIES.has(lower) ||
    COMMON_VERBS.has(lower) ||
    (lower.endsWith('ly') && lower.length > 4)
  );
}

function isCopula(token: Token): boolean {
  return COPULAS.has(token.lower.replace(/’/g, "'"));
}

/** Index of the copula just before an opinion ("is", "wasn't", "looks"), skipping adverbs and negators. */
function copulaBefore(tokens: Token[], index: number): number | undefined {
  for (let k = index - 1; k >= 0; k--) {
    const token = tokens[k]!;
    if (isCopula(token)) return k;
    if (!(INTENSIFIERS.has(token.lower) || isNegator(token.lower) || /ly$/.test(token.lower))) return undefined;
  }
  return undefined;
}

/** Token range [from, to] of the aspect an opinion at `index` talks about, if any. */
function targetOf(tokens: Token[], index: number): [number, number] | undefined {
  const forward = (): [number, number] | undefined => {
    let j = index + 1;
    if (tokens[j] && DETERMINERS.has(tokens[j]!.lower)) j++;
    let end = j;
    while (end < tokens.length && end - j < 3 && isContent(tokens[end])) end++;
    return end > j ? [j, end - 1] : undefined;
  };
  const afterCopula = (): [number, number] | undefined => {
    const k0 = copulaBefore(tokens, index);
    if (k0 === undefined) return undefined;
    let k = k0;
    k--;
    while (k >= 0 && AUXILIARIES.has(tokens[k]!.lower)) k--;
    let start = k;
    while (start >= 0 && k - start < 3 && isContent(tokens[start])) start--;
    return start < k ? [start + 1, k] : undefined;
  };
  const nearestBefore = (): [number, number] | undefined => {
    for (let k = index - 1; k >= Math.max(0, index - 3); k--) {
      if (tokens[k]!.kind === 'punct') return undefined;
      if (isContent(tokens[k])) {
        let start = k;
        while (start - 1 >= 0 && k - start < 2 && isContent(tokens[start - 1])) start--;
        return [start, k];
      }
    }
    return undefined;
  };
  return copulaBefore(tokens, index) !== undefined
    ? (afterCopula() ?? forward() ?? nearestBefore())
    : (forward() ?? afterCopula() ?? nearestBefore());
}

function span(text: string, start: number, end: number, values: number[]): SentimentSpan {
  const { positive, negative } = massOf(values);
  const scores = scoresFrom(positive, negative);
  return { offset: start, length: end - start, text: text.slice(start, end), sentiment: labelOf(scores), scores };
}

/** Sentiment of a document, its sentences and its aspects. Offsets are JS indices into `text`. */
export function analyzeSentiment(text: string): SentimentAnalysis {
  const sentences: SentimentSpan[] = [];
  const aspectValues = new Map<string, { start: number; end: number; values: number[] }>();
  const documentValues: number[] = [];

  for (const sentence of splitSentences(text)) {
    const tokens = tokenize(sentence.text).map((token) => ({
      ...token,
      start: token.start + sentence.start,
      end: token.end + sentence.start,
    }));
    const opinions = opinionsOf(tokens, sentence.text);
    const weighted = opinions.map((opinion) => opinion.weighted);
    documentValues.push(...weighted);
    sentences.push(span(text, sentence.start, sentence.end, weighted));

    for (const opinion of opinions) {
      const target = targetOf(tokens, opinion.index);
      if (!target) continue;
      const start = tokens[target[0]]!.start;
      const end = tokens[target[1]]!.end;
      const key = `${start}:${end}`;
      const entry = aspectValues.get(key) ?? { start, end, values: [] };
      entry.values.push(opinion.value);
      aspectValues.set(key, entry);
    }
  }

  const aspects = [...aspectValues.values()]
    .sort((a, b) => a.start - b.start || a.end - b.end)
    .map((entry) => span(text, entry.start, entry.end, entry.values));
  const { positive, negative } = massOf(documentValues);
  const documentScores = scoresFrom(positive, negative);
  return { documentSentiment: labelOf(documentScores), documentScores, sentences, aspects };
}

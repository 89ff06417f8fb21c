/**
 * Text primitives shared by every inference algorithm: tokens and sentences with their
 * offsets, stop words, a light stemmer, rounding, and the UTF-16 ⇄ code point conversion.
 *
 * Offsets here are JS string indices (UTF-16 code units), so `text.slice(start, end)` is the
 * token. OCI's wire offsets count Unicode code points; `toCodePointOffsets` converts at the
 * boundary (see index.ts), which only matters for text outside the Basic Multilingual Plane.
 */

export interface Token {
  /** The token as written. */
  text: string;
  /** Lower-cased form, used for every dictionary look-up. */
  lower: string;
  /** JS index of the first character. */
  start: number;
  /** JS index one past the last character. */
  end: number;
  /** `word` contains a letter; `number` is digits only (with inner separators); `punct` is one symbol. */
  kind: 'word' | 'number' | 'punct';
}

export interface Span {
  text: string;
  start: number;
  end: number;
}

/*
 * A word keeps inner hyphens, apostrophes and dots ("Wi-Fi", "don't", "v2.1", "U.S"), so
 * product names and contractions stay whole; any other non-space character is its own token.
 */
const TOKEN_RE = /[\p{L}\p{M}\p{N}]+(?:[-'’.][\p{L}\p{M}\p{N}]+)*|[^\s\p{L}\p{M}\p{N}]/gu;
const HAS_LETTER_RE = /\p{L}/u;
const DIGITS_RE = /^[\p{N}.,'’-]+$/u;

/** Splits text into word, number and punctuation tokens with their offsets. */
export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  for (const match of text.matchAll(TOKEN_RE)) {
    const value = match[0];
    const start = match.index;
    const kind = HAS_LETTER_RE.test(value) ? 'word' : DIGITS_RE.test(value) ? 'number' : 'punct';
    tokens.push({ text: value, lower: value.toLowerCase(), start, end: start + value.length, kind });
  }
  return tokens;
}

/** Words that end in a dot without ending a sentence. */
const ABBREVIATIONS = new Set([
  'mr',
  'mrs',
  'ms',
  'dr',
  'prof',
  'sr',
  'jr',
  'st',
  'mt',
  'inc',
  'corp',
  'ltd',
  'co',
  'vs',
  'etc',
  'e.g',
  'i.e',
  'no',
  'fig',
  'approx',
  'dept',
  'est',
  'jan',
  'feb',
  'mar',
  'apr',
  'jun',
  'jul',
  'aug',
  'sep',
  'sept',
  'oct',
  'nov',
  'dec',
  'u.s',
  'u.k',
  'a.m',
  'p.m',
  'gen',
  'gov',
  'sen',
  'rep',
  'ave',
]);

/**
 * Sentence spans. A sentence ends at `.`, `!`, `?` or `…` followed by white space (a dot after
 * an abbreviation or a single initial does not count), and at every line break. Spans are
 * trimmed and never empty.
 */
export function splitSentences(text: string): Span[] {
  const spans: Span[] = [];
  const push = (start: number, end: number) => {
    while (start < end && /\s/.test(text[start]!)) start++;
    while (end > start && /\s/.test(text[end - 1]!)) end--;
    if (end > start) spans.push({ text: text.slice(start, end), start, end });
  };
  let sentenceStart = 0;
  const boundary = /([.!?…]+)(["'”’)\]]*)(?=\s|$)|\n+/g;
  for (const match of text.matchAll(boundary)) {
    const at = match.index;
    if (match[0].startsWith('\n')) {
      push(sentenceStart, at);
      sentenceStart = at + match[0].length;
      continue;
    }
    if (match[1] === '.') {
      const before = /([\p{L}.]+)$/u.exec(text.slice(Math.max(sentenceStart, at - 12), at));
      const word = before?.[1]?.toLowerCase() ?? '';
      if (ABBREVIATIONS.has(word) || /^\p{L}$/u.test(word)) continue;
    }
    const end = at + match[0].length;
    push(sentenceStart, end);
    sentenceStart = end;
  }
  push(sentenceStart, text.length);
  return spans;
}

/* English stop words (the usual SMART/NLTK core), used by RAKE, NER and the classifiers. */
export const ENGLISH_STOP_WORDS: ReadonlySet<string> = new Set(
  (
    "a about above after again against all am an and any are aren't as at be because been before being below " +
    "between both but by can can't cannot could couldn't did didn't do does doesn't doing don't down during each " +
    "few for from further had hadn't has hasn't have haven't having he he'd he'll he's her here here's hers " +
    "herself him himself his how how's i i'd i'll i'm i've if in into is isn't it it's its itself let's me " +
    "more most mustn't my myself no nor not of off on once only or other ought our ours ourselves out over own " +
    "same shan't she she'd she'll she's should shouldn't so some such than that that's the their theirs them " +
    "themselves then there there's these they they'd they'll they're they've this those through to too under " +
    "until up very was wasn't we we'd we'll we're we've were weren't what what's when when's where where's " +
    "which while who who's whom why why's with won't would wouldn't you you'd you'll you're you've your yours " +
    'yourself yourselves also just will may might must shall us get got since yet still even ever every many much ' +
    'via per within without across along among around upon whether either neither'
  ).split(' '),
);

/** Lower-cases and folds the typographic apostrophe so "don’t" and "don't" look alike. */
export function normalizeWord(word: string): string {
  return word.toLowerCase().replace(/’/g, "'");
}

/**
 * A deliberately small suffix stripper (plural, -ing, -ed, -ly): enough to let "charged",
 * "charges" and "charge" share statistics in a classifier trained on a few dozen examples.
 */
export function stem(word: string): string {
  let w = normalizeWord(word);
  if (w.length <= 3) return w;
  if (w.endsWith("'s")) w = w.slice(0, -2);
  if (w.endsWith('ies') && w.length > 4) return w.slice(0, -3) + 'y';
  if (w.endsWith('sses')) return w.slice(0, -2);
  if (w.endsWith('ing') && w.length > 5) return trimDouble(w.slice(0, -3));
  if (w.endsWith('ed') && w.length > 4) return trimDouble(w.slice(0, -2));
  if (w.endsWith('ly') && w.length > 5) return w.slice(0, -2);
  if (w.endsWith('es') && /(?:ch|sh|x|z)es$/.test(w)) return w.slice(0, -2);
  if (w.endsWith('s') && !w.endsWith('ss') && !w.endsWith('us') && !w.endsWith('is')) return w.slice(0, -1);
  return w;
}

function trimDouble(w: string): string {
  // "stopp" → "stop", but keep "fall", "bill", "pass".
  return /([b-df-hj-np-tv-z])\1$/.test(w) && !/(?:ll|ss|zz)$/.test(w) ? w.slice(0, -1) : w;
}

/** Rounds a score for the wire: stable output, no float noise in the last digits. */
export function round(value: number, digits = 4): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

/** Number of Unicode code points, which is how OCI counts characters. */
export function codePointLength(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    count++;
  }
  return count;
}

/** JS (UTF-16) offset/length → code point offset/length. Identical for BMP-only text. */
export function toCodePointOffsets(text: string, offset: number, length: number): { offset: number; length: number } {
  const cpOffset = codePointLength(text.slice(0, offset));
  return { offset: cpOffset, length: codePointLength(text.slice(offset, offset + length)) };
}

/** Code point offset → JS (UTF-16) index, or -1 when the offset lies beyond the text. */
export function fromCodePointOffset(text: string, codePointOffset: number): number {
  let index = 0;
  for (let cp = 0; cp < codePointOffset; cp++) {
    if (index >= text.length) return -1;
    const code = text.charCodeAt(index);
    index += code >= 0xd800 && code <= 0xdbff && index + 1 < text.length ? 2 : 1;
  }
  return index;
}

/** Stable descending sort helper: by score, then by a tie-break key, so equal scores never reorder. */
export function byScoreThen<T>(score: (item: T) => number, tieBreak: (item: T) => string | number) {
  return (a: T, b: T): number => {
    const diff = score(b) - score(a);
    if (diff !== 0) return diff;
    const ta = tieBreak(a);
    const tb = tieBreak(b);
    return ta < tb ? -1 : ta > tb ? 1 : 0;
  };
}

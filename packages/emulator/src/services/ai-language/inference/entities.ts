/**
 * Named entity recognition: the pre-trained recogniser (patterns and heuristics) and the
 * custom one (a dictionary learnt from labelled examples).
 *
 * Pre-trained: regular expressions find EMAIL, URL, PHONE_NUMBER, DATE and QUANTITY with a
 * subType of CURRENCY, PERCENTAGE, UNIT or NUMBER. (A live OCI response shows QUANTITY with a
 * UNIT subtype and LOCATION with GPE/NON_GPE; reporting money as QUANTITY/CURRENCY rather than
 * a MONEY type is this emulator's reading, not confirmed.) Then each run of capitalised words (allowing "of", "and", "&", "de"
 * inside: "Bank of America") is typed by gazetteers and cue words, in this order: known
 * organisation, known place, nationality (NORP), a title before it (PERSON), an organisation
 * keyword in it ("Inc", "University", "Authority"), a place keyword ("River", "City"), a known
 * first name (PERSON), a known organisation followed by more words (PRODUCT: "Oracle Cloud
 * Infrastructure"), a speech verb after it (PERSON), a place preposition before it (LOCATION),
 * an acronym (ORGANIZATION), and finally ORGANIZATION with low confidence for other multi-word
 * names. Unknown single capitalised words are left alone, and a capitalised word that only
 * starts a sentence is not a name. Each rule has a fixed confidence, reported as `score`.
 *
 * Custom: see `buildEntityDictionary` and `createEntityMatcher`.
 *
 * All offsets are JS indices into the text.
 */
import {
  FIRST_NAMES,
  GPE_KEYWORDS,
  GPE_LOCATIONS,
  MONTHS,
  NON_GPE_KEYWORDS,
  NON_GPE_LOCATIONS,
  NORP,
  ORGANIZATION_KEYWORDS,
  ORGANIZATIONS,
  PERSON_TITLES,
  PLACE_PREPOSITIONS,
  SPEECH_VERBS,
  WEEKDAYS,
} from './gazetteers';
import { SENTIMENT_LEXICON } from './sentiment-lexicon';
import { ENGLISH_STOP_WORDS, round, splitSentences, tokenize, type Token } from './text';

export interface DetectedEntity {
  offset: number;
  length: number;
  text: string;
  type: string;
  subType?: string;
  score: number;
}

// ---------------------------------------------------------------------------------------------
// Pre-trained recogniser: patterns
// ---------------------------------------------------------------------------------------------

interface Pattern {
  re: RegExp;
  type: string;
  subType?: string;
  score: number;
  /** Higher wins when two matches overlap. */
  priority: number;
  /** Minimum number of digits in the match (phone numbers). */
  minDigits?: number;
}

const MONTH =
  '(?:January|February|March|April|May|June|July|August|September|October|November|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept|Sep|Oct|Nov|Dec)\\.?';
const DAY = '\\d{1,2}(?:st|nd|rd|th)?';
const WEEKDAY = '(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)';
const NUM = '\\d{1,3}(?:,\\d{3})+(?:\\.\\d+)?|\\d+(?:\\.\\d+)?';
/* No letter, digit or hyphen right before/after: keeps "Formula-1" and "X200" out of NUMBER. */
const B = '(?<![\\p{L}\\p{N}_-])';
const E = '(?![\\p{L}\\p{N}_]|-\\p{L}|[.,]\\d)';

const PATTERNS: Pattern[] = [
  {
    re: /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g,
    type: 'EMAIL',
    score: 0.99,
    priority: 10,
  },
  { re: /\b(?:https?:\/\/|www\.)[^\s<>"'`]+/gi, type: 'URL', score: 0.98, priority: 9 },
  {
    re: new RegExp(
      `(?<![\\w+])(?:\\+\\d{1,3}[\\s.-]?)?(?:\\(\\d{2,4}\\)\\s?|\\d{2,4}[\\s.-])\\d{3,4}[\\s.-]\\d{3,4}${E}`,
      'gu',
    ),
    type: 'PHONE_NUMBER',
    score: 0.95,
    priority: 8,
    minDigits: 7,
  },
  // Dates: "March 5, 2024", "5th of March 2024", "March 2024", ISO, numeric, weekdays, relative words.
  {
    re: new RegExp(`${B}(?:${WEEKDAY},?\\s+)?${MONTH}\\s+${DAY}(?:,?\\s+\\d{4})?${E}`, 'gu'),
    type: 'DATE',
    score: 0.97,
    priority: 7,
  },
  {
    re: new RegExp(`${B}(?:${WEEKDAY},?\\s+)?${DAY}\\s+(?:of\\s+)?${MONTH}(?:,?\\s+\\d{4})?${E}`, 'gu'),
    type: 'DATE',
    score: 0.97,
    priority: 7,
  },
  { re: new RegExp(`${B}${MONTH}\\s+\\d{4}${E}`, 'gu'), type: 'DATE', score: 0.95, priority: 7 },
  {
    re: new RegExp(
      `${B}\\d{4}-\\d{2}-\\d{2}(?:[T ]\\d{2}:\\d{2}(?::\\d{2})?(?:\\.\\d+)?(?:Z|[+-]\\d{2}:?\\d{2})?)?${E}`,
      'gu',
    ),
    type: 'DATE',
    score: 0.97,
    priority: 7,
  },
  { re: new RegExp(`${B}\\d{1,2}[/.]\\d{1,2}[/.](?:\\d{4}|\\d{2})${E}`, 'gu'), type: 'DATE', score: 0.9, priority: 7 },
  { re: new RegExp(`${B}${WEEKDAY}${E}`, 'gu'), type: 'DATE', score: 0.9, priority: 6 },
  {
    re: /\b(?:today|tomorrow|yesterday|tonight|(?:next|last|this|every)\s+(?:week|weekend|month|quarter|year|morning|evening|night|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday))\b/gi,
    type: 'DATE',
    score: 0.85,
    priority: 6,
  },
  {
    re: /(?<=\b(?:[Ii]n|[Ss]ince|[Bb]y|[Dd]uring|[Uu]ntil|[Tt]ill|[Ff]rom|[Bb]efore|[Aa]fter)\s+)(?:January|February|March|April|June|July|August|September|October|November|December|(?:19|20)\d{2})\b/g,
    type: 'DATE',
    score: 0.85,
    priority: 6,
  },
  // Quantities.
  {
    re: new RegExp(
      `(?:[$€£¥₹]\\s?(?:${NUM})(?:\\s?(?:million|billion|trillion|thousand|bn|[kKmMbB])\\b)?|${B}(?:USD|EUR|GBP|JPY|INR|CAD|AUD|CHF)\\s?(?:${NUM})${E}|${B}(?:${NUM})(?:\\s?(?:million|billion|trillion|thousand))?\\s?(?:USD|EUR|GBP|JPY|INR|CAD|AUD|CHF|dollars?|euros?|pounds?|cents?|yen|rupees?)${E})`,
      'gu',
    ),
    type: 'QUANTITY',
    subType: 'CURRENCY',
    score: 0.95,
    priority: 5,
  },
  {
    re: new RegExp(`${B}(?:${NUM})\\s?(?:%|percent${E}|per cent${E})`, 'gu'),
    type: 'QUANTITY',
    subType: 'PERCENTAGE',
    score: 0.95,
    priority: 5,
  },
  {
    re: new RegExp(
      `${B}(?:${NUM})\\s?(?:kg|mg|g|lbs?|km|cm|mm|m|mi|miles?|ft|feet|inch(?:es)?|TB|GB|MB|KB|GHz|MHz|kW|W|V|mAh|°C|°F|hours?|hrs?|minutes?|mins?|seconds?|secs?|ms|days?|weeks?|months?|years?|liters?|litres?|ml|users?|cores?|OCPUs?|CPUs?|nodes?|servers?|instances?|requests?|items?|units?|pages?|times?)${E}`,
      'gu',
    ),
    type: 'QUANTITY',
    subType: 'UNIT',
    score: 0.9,
    priority: 4,
  },
  { re: new RegExp(`${B}(?:${NUM})${E}`, 'gu'), type: 'QUANTITY', subType: 'NUMBER', score: 0.9, priority: 3 },
  {
    re: /\b(?:two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|hundred|thousand|million|billion|dozen|once|twice)(?:-time)?\b/gi,
    type: 'QUANTITY',
    subType: 'NUMBER',
    score: 0.75,
    priority: 2,
  },
];

function countDigits(text: string): number {
  return text.replace(/\D/g, '').length;
}

function patternMatches(text: string): (DetectedEntity & { priority: number })[] {
  const found: (DetectedEntity & { priority: number })[] = [];
  for (const pattern of PATTERNS) {
    for (const match of text.matchAll(pattern.re)) {
      let value = match[0];
      if (pattern.type === 'URL') value = value.replace(/[.,;:!?)\]}]+$/, '');
      if (pattern.minDigits && countDigits(value) < pattern.minDigits) continue;
      if (value.length === 0) continue;
      found.push({
        offset: match.index,
        length: value.length,
        text: value,
        type: pattern.type,
        ...(pattern.subType ? { subType: pattern.subType } : {}),
        score: pattern.score,
        priority: pattern.priority,
      });
    }
  }
  return found;
}

/** Greedy overlap resolution: higher priority, then longer, then earlier wins. */
function resolveOverlaps<T extends { offset: number; length: number; priority: number }>(candidates: T[]): T[] {
  const ordered = [...candidates].sort((a, b) => b.priority - a.priority || b.length - a.length || a.offset - b.offset);
  const kept: T[] = [];
  for (const candidate of ordered) {
    const end = candidate.offset + candidate.length;
    if (kept.every((other) => end <= other.offset || candidate.offset >= other.offset + other.length))
      kept.push(candidate);
  }
  return kept.sort((a, b) => a.offset - b.offset);
}

// ---------------------------------------------------------------------------------------------
// Pre-trained recogniser: capitalised sequences
// ---------------------------------------------------------------------------------------------

const CONNECTORS = new Set(['of', 'and', '&', 'de', 'del', 'la', 'van', 'von', 'der', 'da', 'du', 'for', 'the', 'am']);

function isCapitalised(token: Token): boolean {
  return token.kind === 'word' && /^\p{Lu}/u.test(token.text);
}

function isAcronym(text: string): boolean {
  return /^[\p{Lu}][\p{Lu}\p{N}&.]{1,5}$/u.test(text) && /\p{Lu}.*\p{Lu}/u.test(text);
}

/** True when a capitalised word is probably just an ordinary word that starts a sentence. */
function isOrdinaryWord(lower: string): boolean {
  return (
    ENGLISH_STOP_WORDS.has(lower.replace(/’/g, "'")) || SENTIMENT_LEXICON.has(lower) || ORDINARY_STARTERS.has(lower)
  );
}

const ORDINARY_STARTERS = new Set([
  'please',
  'thanks',
  'thank',
  'hello',
  'hi',
  'dear',
  'yes',
  'yesterday',
  'today',
  'tomorrow',
  'however',
  'also',
  'customers',
  'customer',
  'users',
  'user',
  'everyone',
  'someone',
  'nobody',
  'recently',
  'finally',
  'unfortunately',
  'additionally',
  'meanwhile',
  'overall',
  'after',
  'before',
  'when',
  'since',
  'although',
  'many',
  'several',
  'new',
  'our',
  'my',
  'your',
  'their',
  'this',
  'these',
  'those',
  'there',
  'here',
  'it',
  'we',
  'they',
  'i',
  'can',
  'could',
  'would',
  'should',
  'will',
  'is',
  'are',
  'was',
  'were',
  'do',
  'does',
  'did',
  'have',
  'has',
]);

interface NameCandidate {
  tokens: Token[];
  before: Token | undefined;
  beforeBefore: Token | undefined;
  after: Token | undefined;
}

function nameCandidates(text: string, taken: (start: number, end: number) => boolean): NameCandidate[] {
  const candidates: NameCandidate[] = [];
  for (const sentence of splitSentences(text)) {
    const tokens = tokenize(sentence.text).map((token) => ({
      ...token,
      start: token.start + sentence.start,
      end: token.end + sentence.start,
    }));
    const letters = sentence.text.replace(/[^\p{L}]/gu, '');
    if (letters.length > 3 && letters === letters.toUpperCase()) continue; // shouting: case says nothing
    let i = 0;
    while (i < tokens.length) {
      const token = tokens[i]!;
      if (!isCapitalised(token) || taken(token.start, token.end)) {
        i++;
        continue;
      }
      let j = i;
      // Extend over capitalised words, and over connectors that are followed by one.
      while (j + 1 < tokens.length) {
        const next = tokens[j + 1]!;
        if (
          isCapitalised(next) &&
          !taken(next.start, next.end) &&
          text.slice(tokens[j]!.end, next.start).trim() === ''
        ) {
          j++;
          continue;
        }
        const after = tokens[j + 2];
        if (
          CONNECTORS.has(next.lower) &&
          !/^\p{Lu}/u.test(next.text) &&
          after &&
          isCapitalised(after) &&
          !taken(after.start, after.end) &&
          text.slice(tokens[j]!.end, after.start).trim() === next.text
        ) {
          j += 2;
          continue;
        }
        break;
      }
      let run = tokens.slice(i, j + 1);
      // A sentence-initial ordinary word ("The", "Customers") is not part of a name.
      if (i === 0) while (run.length > 0 && isOrdinaryWord(run[0]!.lower)) run = run.slice(1);
      while (run.length > 0 && CONNECTORS.has(run[run.length - 1]!.lower)) run = run.slice(0, -1);
      while (run.length > 0 && CONNECTORS.has(run[0]!.lower)) run = run.slice(1);
      if (run.length > 0) {
        const startIndex = tokens.indexOf(run[0]!);
        const endIndex = tokens.indexOf(run[run.length - 1]!);
        candidates.push({
          tokens: run,
          before: tokens[startIndex - 1],
          beforeBefore: tokens[startIndex - 2],
          after: tokens[endIndex + 1],
        });
      }
      i = j + 1;
    }
  }
  return candidates;
}

interface Typed {
  type: string;
  subType?: string;
  score: number;
  /** Tokens to drop from the start (a title such as "President" inside the run). */
  skip?: number;
}

function classifyName(candidate: NameCandidate, sentenceInitial: boolean): Typed | undefined {
  const words = candidate.tokens.map((token) => token.text);
  const lowerWords = words.map((word) => word.toLowerCase().replace(/’/g, "'"));
  const phrase = lowerWords.join(' ');
  const single = words.length === 1;

  if (single && (MONTHS.has(phrase) || WEEKDAYS.has(phrase) || phrase === 'i')) return undefined;
  if (ORGANIZATIONS.has(phrase)) return { type: 'ORGANIZATION', score: 0.93 };
  if (GPE_LOCATIONS.has(phrase)) return { type: 'LOCATION', subType: 'GPE', score: 0.93 };
  if (NON_GPE_LOCATIONS.has(phrase)) return { type: 'LOCATION', subType: 'NON_GPE', score: 0.9 };
  if (NORP.has(phrase)) return { type: 'NORP', score: 0.88 };

  // "Dr. Jane Doe", "President Smith": a title just before, or as the first word of the run.
  const titleBefore =
    (candidate.before && PERSON_TITLES.has(candidate.before.lower)) ||
    (candidate.before?.text === '.' && candidate.beforeBefore && PERSON_TITLES.has(candidate.beforeBefore.lower));
  if (titleBefore) return { type: 'PERSON', score: 0.92 };
  if (
    !single &&
    PERSON_TITLES.has(lowerWords[0]!) &&
    !lowerWords.slice(1).some((word) => ORGANIZATION_KEYWORDS.has(word))
  ) {
    return { type: 'PERSON', score: 0.9, skip: 1 };
  }

  if (lowerWords.some((word) => ORGANIZATION_KEYWORDS.has(word)) && !(single && sentenceInitial)) {
    return { type: 'ORGANIZATION', score: 0.88 };
  }
  if (!single && lowerWords.some((word) => NON_GPE_KEYWORDS.has(word)))
    return { type: 'LOCATION', subType: 'NON_GPE', score: 0.85 };
  if (!single && GPE_KEYWORDS.has(lowerWords[lowerWords.length - 1]!))
    return { type: 'LOCATION', subType: 'GPE', score: 0.85 };
  if (FIRST_NAMES.has(lowerWords[0]!) && words.length <= 3) return { type: 'PERSON', score: single ? 0.7 : 0.88 };
  if (!single && ORGANIZATIONS.has(lowerWords[0]!)) return { type: 'PRODUCT', score: 0.7 };
  if (
    !single &&
    lowerWords.length >= 2 &&
    ORGANIZATIONS.has(lowerWords.slice(0, 2).join(' ')) &&
    lowerWords.length > 2
  ) {
    return { type: 'PRODUCT', score: 0.7 };
  }
  if (candidate.after && SPEECH_VERBS.has(candidate.after.lower) && words.length <= 3)
    return { type: 'PERSON', score: 0.75 };
  if (
    candidate.before &&
    PLACE_PREPOSITIONS.has(candidate.before.lower) &&
    words.length <= 3 &&
    !isAcronym(words[0]!)
  ) {
    return { type: 'LOCATION', subType: 'GPE', score: 0.6 };
  }
  if (single && isAcronym(words[0]!)) return { type: 'ORGANIZATION', score: 0.6 };
  if (!single) return { type: 'ORGANIZATION', score: 0.5 };
  return undefined;
}

/** Entities found by the pre-trained recogniser, sorted by offset, never overlapping. */
export function detectPretrainedEntities(text: string): DetectedEntity[] {
  const patterns = resolveOverlaps(patternMatches(text));
  const taken = (start: number, end: number) =>
    patterns.some((entity) => start < entity.offset + entity.length && end > entity.offset);
  const sentenceStarts = new Set(splitSentences(text).map((sentence) => sentence.start));

  const names: (DetectedEntity & { priority: number })[] = [];
  for (let candidate of nameCandidates(text, taken)) {
    let typed = classifyName(candidate, sentenceStarts.has(candidate.tokens[0]!.start));
    // "Contact Jane Doe": a sentence-initial word may be an ordinary verb or noun; drop it when
    // the rest of the run makes a more confident name on its own.
    if (sentenceStarts.has(candidate.tokens[0]!.start) && candidate.tokens.length > 1) {
      const rest: NameCandidate = {
        ...candidate,
        tokens: candidate.tokens.slice(1),
        before: candidate.tokens[0],
        beforeBefore: candidate.before,
      };
      const restTyped = classifyName(rest, false);
      if (restTyped && restTyped.score > (typed?.score ?? 0)) {
        candidate = rest;
        typed = restTyped;
      }
    }
    if (!typed) continue;
    const tokens = candidate.tokens.slice(typed.skip ?? 0);
    const start = tokens[0]!.start;
    const end = tokens[tokens.length - 1]!.end;
    names.push({
      offset: start,
      length: end - start,
      text: text.slice(start, end),
      type: typed.type,
      ...(typed.subType ? { subType: typed.subType } : {}),
      score: typed.score,
      priority: 0,
    });
  }
  return [...patterns, ...names]
    .sort((a, b) => a.offset - b.offset || b.length - a.length)
    .map(({ priority: _priority, ...entity }) => entity);
}

// ---------------------------------------------------------------------------------------------
// Custom recogniser: a dictionary learnt from labelled examples
// ---------------------------------------------------------------------------------------------

/** A training example; entity offsets are JS indices into `text`. */
export interface NerExample {
  text: string;
  entities: { offset: number; length: number; type: string }[];
}

export interface EntityDictionaryEntry {
  /** Lower-cased surface form with single spaces. */
  surface: string;
  type: string;
  /** Label purity × labelled share of occurrences, 0..1. */
  score: number;
  /** How often each type labelled this surface form. */
  counts: Record<string, number>;
  /** Whole-word occurrences of the surface form in the training texts, labelled or not. */
  occurrences: number;
}

/** The JSON-serialisable artifact of a custom NER model. */
export interface EntityDictionaryArtifact {
  kind: 'entity-dictionary';
  version: 1;
  labels: string[];
  entries: EntityDictionaryEntry[];
}

/** Entries scoring below this are dropped: the phrase is mostly seen without a label. */
const MIN_ENTRY_SCORE = 0.25;

export function normalizeSurface(text: string): string {
  return text.trim().replace(/\s+/g, ' ').toLowerCase();
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** One regex that finds any surface form as whole words, preferring the longest at each position. */
function surfaceRegExp(surfaces: string[]): RegExp | undefined {
  if (surfaces.length === 0) return undefined;
  const alternatives = [...surfaces]
    .sort((a, b) => b.length - a.length || (a < b ? -1 : a > b ? 1 : 0))
    .map((surface) => surface.split(' ').map(escapeRegExp).join('\\s+'));
  return new RegExp(`(?<![\\p{L}\\p{N}_])(?:${alternatives.join('|')})(?![\\p{L}\\p{N}_])`, 'giu');
}

/**
 * Learns surface form → entity type. A form's type is its most frequent label (ties: the
 * alphabetically first); its score is the share of its labels that agree (purity) times the
 * share of its whole-word occurrences in the training texts that were labelled at all.
 */
export function buildEntityDictionary(examples: NerExample[]): EntityDictionaryArtifact {
  const counts = new Map<string, Map<string, number>>();
  for (const example of examples) {
    for (const entity of example.entities) {
      const surface = normalizeSurface(example.text.slice(entity.offset, entity.offset + entity.length));
      if (!surface) continue;
      const byType = counts.get(surface) ?? new Map<string, number>();
      byType.set(entity.type, (byType.get(entity.type) ?? 0) + 1);
      counts.set(surface, byType);
    }
  }
  const surfaces = [...counts.keys()].sort();
  const occurrences = new Map<string, number>(surfaces.map((surface) => [surface, 0]));
  // Every whole-word occurrence of each form, scanned separately so overlapping forms all count.
  for (const surface of surfaces) {
    const single = surfaceRegExp([surface])!;
    let found = 0;
    for (const example of examples) found += [...example.text.matchAll(single)].length;
    occurrences.set(surface, found);
  }

  const entries: EntityDictionaryEntry[] = [];
  for (const surface of surfaces) {
    const byType = counts.get(surface)!;
    const labelled = [...byType.values()].reduce((sum, count) => sum + count, 0);
    const [type, top] = [...byType.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]!;
    const seen = Math.max(labelled, occurrences.get(surface) ?? 0);
    const score = round((top / labelled) * (labelled / seen));
    if (score < MIN_ENTRY_SCORE) continue;
    entries.push({ surface, type, score, counts: Object.fromEntries([...byType.entries()].sort()), occurrences: seen });
  }
  const labels = [...new Set(examples.flatMap((example) => example.entities.map((entity) => entity.type)))].sort();
  return { kind: 'entity-dictionary', version: 1, labels, entries };
}

export function isEntityDictionaryArtifact(value: unknown): value is EntityDictionaryArtifact {
  const artifact = value as EntityDictionaryArtifact | undefined;
  return (
    !!artifact &&
    artifact.kind === 'entity-dictionary' &&
    Array.isArray(artifact.entries) &&
    Array.isArray(artifact.labels)
  );
}

/**
 * Compiles a dictionary once (per request) into a matcher: leftmost, then longest,
 * case-insensitive whole-word matches, never overlapping.
 */
export function createEntityMatcher(artifact: EntityDictionaryArtifact): (text: string) => DetectedEntity[] {
  const bySurface = new Map(artifact.entries.map((entry) => [entry.surface, entry]));
  const re = surfaceRegExp(artifact.entries.map((entry) => entry.surface));
  return (text: string) => {
    if (!re) return [];
    const found: DetectedEntity[] = [];
    for (const match of text.matchAll(re)) {
      const entry = bySurface.get(normalizeSurface(match[0]));
      if (!entry) continue;
      found.push({
        offset: match.index,
        length: match[0].length,
        text: match[0],
        type: entry.type,
        score: entry.score,
      });
    }
    return found;
  };
}

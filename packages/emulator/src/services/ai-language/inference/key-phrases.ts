/**
 * Key-phrase extraction with RAKE (Rose et al., 2010, "Automatic keyword extraction from
 * individual documents").
 *
 * Candidate phrases are the runs of words between stop words and punctuation. For English the
 * stop list also holds common verbs and adverbs ("offers", "recently"), as RAKE's own stop
 * lists do, so that "Oracle offers managed clusters" splits into two phrases. Each word scores
 * degree/frequency, where degree counts the words it co-occurs with inside candidates (itself
 * included); a phrase scores the sum of its words. Numbers and single letters never join a
 * phrase, and a run longer than four words is cut into pieces of at most four. Scores are
 * divided by the best phrase's score, so they lie in (0, 1] and the top phrase scores 1.
 *
 * The stop-word list follows the document language when this module knows it (en, es, fr, de,
 * it, pt, nl), else English.
 */
import { stopWordsFor } from './language-detection';
import { byScoreThen, ENGLISH_STOP_WORDS, round, tokenize } from './text';

export interface KeyPhrase {
  text: string;
  score: number;
}

const MAX_WORDS = 4;
const MAX_PHRASES = 20;

/* Verbs and adverbs that rarely belong in a key phrase, in the spirit of RAKE's stop lists. */
const PHRASE_BREAKERS = new Set(
  (
    'offer offers offered provide provides provided include includes included including use uses used using ' +
    'make makes made allow allows allowed enable enables enabled help helps helped simplify simplifies ' +
    'simplified give gives gave given take takes took taken need needs needed want wants wanted show shows ' +
    'showed shown see sees saw seen find finds found add adds added become becomes became get gets got say ' +
    'says said know knows knew think thinks thought go goes went come comes came keep keeps kept try tries ' +
    'tried start starts started seem seems seemed let lets put puts call calls called consider considered ' +
    'released announced launched related based according recently already often usually really quite ' +
    'rather almost always sometimes never now well however therefore thus hence instead perhaps maybe ' +
    'like unlike able etc'
  ).split(' '),
);

export function extractKeyPhrases(text: string, languageCode = 'en'): KeyPhrase[] {
  const english = languageCode.toLowerCase().startsWith('en') || !stopWordsFor(languageCode);
  const stopWords = english ? ENGLISH_STOP_WORDS : stopWordsFor(languageCode)!;
  const isStop = (word: string) => stopWords.has(word) || (english && PHRASE_BREAKERS.has(word));

  // 1. Candidate phrases: maximal runs of content words.
  const candidates: { words: string[]; text: string }[] = [];
  let run: { lower: string; start: number; end: number }[] = [];
  const flush = () => {
    for (let from = 0; from < run.length; from += MAX_WORDS) {
      const piece = run.slice(from, from + MAX_WORDS);
      candidates.push({
        words: piece.map((word) => word.lower),
        text: text.slice(piece[0]!.start, piece[piece.length - 1]!.end),
      });
    }
    run = [];
  };
  for (const token of tokenize(text)) {
    const lower = token.lower.replace(/’/g, "'");
    const usable = token.kind === 'word' && token.text.length > 1 && !isStop(lower);
    if (usable) run.push({ lower, start: token.start, end: token.end });
    else flush();
  }
  flush();
  if (candidates.length === 0) return [];

  // 2. Word scores: degree / frequency over all candidate occurrences.
  const frequency = new Map<string, number>();
  const degree = new Map<string, number>();
  for (const candidate of candidates) {
    for (const word of candidate.words) {
      frequency.set(word, (frequency.get(word) ?? 0) + 1);
      degree.set(word, (degree.get(word) ?? 0) + candidate.words.length);
    }
  }

  // 3. Phrase scores; repeated phrases keep their first spelling and are scored once.
  const phrases = new Map<string, { text: string; score: number; first: number }>();
  candidates.forEach((candidate, index) => {
    const key = candidate.words.join(' ');
    if (phrases.has(key)) return;
    const score = candidate.words.reduce((sum, word) => sum + degree.get(word)! / frequency.get(word)!, 0);
    phrases.set(key, { text: candidate.text, score, first: index });
  });

  const ranked = [...phrases.values()].sort(
    byScoreThen(
      (phrase) => phrase.score,
      (phrase) => phrase.first,
    ),
  );
  const best = ranked[0]!.score;
  // RAKE keeps the top third of candidates; short texts keep up to five so they are not starved.
  const keep = Math.min(ranked.length, MAX_PHRASES, Math.max(5, Math.ceil(ranked.length / 3)));
  return ranked.slice(0, keep).map((phrase) => ({ text: phrase.text, score: round(phrase.score / best) }));
}

/**
 * English opinion lexicon for the sentiment analyser: word → valence from -4 (very negative)
 * to +4 (very positive), in the spirit of AFINN/VADER but written for this emulator and kept
 * to a few hundred common review and support-ticket words. Inflected forms the stemmer cannot
 * recover (irregular or meaning-changing ones) are listed explicitly.
 */

function entries(weight: number, words: string): [string, number][] {
  return words
    .trim()
    .split(/\s+/)
    .map((word) => [word, weight]);
}

export const SENTIMENT_LEXICON: ReadonlyMap<string, number> = new Map([
  ...entries(
    4,
    'outstanding superb excellent exceptional phenomenal magnificent flawless perfect perfectly brilliant ' +
      'amazing amazingly awesome fantastic fabulous wonderful wonderfully marvelous marvellous incredible ' +
      'extraordinary breathtaking masterpiece best love loved loves adore adored',
  ),
  ...entries(
    3,
    'great greatly delightful delighted impressive impressed beautiful beautifully gorgeous terrific ' +
      'remarkable excited exciting thrilled enjoy enjoyed enjoyable happy happily glad lovely ' +
      'recommend recommended reliable reliably elegant stunning win winner wins won favorite favourite ' +
      'grateful thankful thanks thank appreciate appreciated satisfied satisfying pleased pleasure ' +
      'success successful successfully seamless seamlessly effortless',
  ),
  ...entries(
    2,
    'good nice fine better fast quick quickly easy easily helpful useful friendly kind polite ' +
      'responsive smooth smoothly clean clear comfortable convenient efficient effective affordable ' +
      'cheap fair fun interesting solid sturdy stable secure safe accurate fresh tasty delicious ' +
      'intuitive powerful generous patient professional knowledgeable courteous prompt promptly ' +
      'resolved fixed improved improvement upgrade worth valuable benefit benefits positive liked ' +
      'likes pleasant calm cool sharp bright quiet lightweight handy neat',
  ),
  ...entries(
    1,
    'ok okay decent adequate acceptable reasonable sufficient alright simple works working ' +
      'hope hopeful capable correct correctly proper properly well help helps helped',
  ),
  ...entries(
    -1,
    'slow slowly confusing confused complicated difficult hard odd strange unclear expensive pricey ' +
      'noisy loud late delay delayed delays wait waiting waited issue issues problem problems concern ' +
      'concerned mediocre average meh lacking lacks limited missing bug bugs glitch glitches cold ' +
      'outdated tedious inconvenient unable unfortunately',
  ),
  ...entries(
    -2,
    'bad poor poorly worse disappointing disappointed disappoint disappoints unhappy sad annoying annoyed ' +
      'annoy frustrating frustrated frustrate broken fail fails failed failing failure error errors crash ' +
      'crashes crashed crashing wrong rude unhelpful unreliable useless overpriced faulty defective ' +
      'damaged dirty ugly weak boring problematic unstable insecure leak leaking leaks stuck freeze ' +
      'freezes freezing froze frozen lag lagging laggy unresponsive inaccurate complaint complain complained ' +
      'regret refused deny denied reject rejected dislike disliked',
  ),
  ...entries(
    -3,
    'terrible horrible awful dreadful atrocious pathetic disgusting disgusted furious angry outraged ' +
      'unacceptable ridiculous nightmare disaster disastrous hate hated hates hateful worst scam fraud ' +
      'fraudulent incompetent lousy miserable appalling abysmal garbage junk trash',
  ),
  ...entries(-4, 'catastrophic horrendous abominable'),
]);

/** Words that flip the valence of what follows (within a short window). */
export const NEGATORS: ReadonlySet<string> = new Set([
  'not',
  'no',
  'never',
  'none',
  'nobody',
  'nothing',
  'neither',
  'nor',
  'nowhere',
  'cannot',
  'without',
  'hardly',
  'scarcely',
  'lack',
  'lacked',
  "ain't",
]);

/** Multipliers for the next opinion word: boosters (>1) and dampeners (<1). */
export const INTENSIFIERS: ReadonlyMap<string, number> = new Map([
  ['very', 1.4],
  ['really', 1.3],
  ['so', 1.3],
  ['too', 1.25],
  ['extremely', 1.7],
  ['incredibly', 1.7],
  ['absolutely', 1.6],
  ['totally', 1.5],
  ['completely', 1.5],
  ['utterly', 1.6],
  ['highly', 1.5],
  ['truly', 1.4],
  ['super', 1.5],
  ['most', 1.3],
  ['particularly', 1.3],
  ['especially', 1.3],
  ['exceptionally', 1.6],
  ['remarkably', 1.5],
  ['deeply', 1.4],
  ['quite', 1.15],
  ['pretty', 1.1],
  ['seriously', 1.4],
  ['insanely', 1.6],
  ['unbelievably', 1.6],
  ['thoroughly', 1.4],
  ['slightly', 0.5],
  ['somewhat', 0.6],
  ['barely', 0.4],
  ['marginally', 0.5],
  ['fairly', 0.8],
  ['rather', 0.85],
  ['little', 0.6],
  ['mildly', 0.6],
  ['partly', 0.6],
  ['kinda', 0.6],
]);

/** Contrast words: what comes after them outweighs what came before. */
export const CONTRAST_WORDS: ReadonlySet<string> = new Set([
  'but',
  'however',
  'although',
  'though',
  'yet',
  'nevertheless',
]);

// A word that names no command, at the root or after any command with subcommands, as the newest
// Pulumi refuses it: rattler.Install (pkg/cmd/pulumi/rattler/rattler.go) gives each an Args check whose
// error is unknownCommandError's, with suggestCommands' suggestions: full command paths, the
// group's own subcommands first, else any command of the tree.
import type { Command } from 'commander';

/** rattler's maxSuggestions. */
const MAX_SUGGESTIONS = 3;

/**
 * unknownCommandError's words, `unknown command "<word>" for "<path>"`, its "Did you mean this?"
 * block and its "Run '<path> --help' for usage." on the one line of ocikit's errors.
 */
export function unknownCommandMessage(cmd: Command, args: string[]): string {
  const path = commandPath(cmd);
  const suggestions = suggestCommands(cmd, args);
  const mean = suggestions.length ? ` (Did you mean this? ${suggestions.join(', ')})` : '';
  return `unknown command "${args[0]}" for "${path}"${mean}. Run '${path} --help' for usage.`;
}

/** cobra's CommandPath: the names from the root down, the root's included. */
function commandPath(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/** pathFromRoot: the commands from just below the root down to `cmd`; none for the root. */
function pathFromRoot(cmd: Command): Command[] {
  const chain: Command[] = [];
  for (let c: Command = cmd; c.parent; c = c.parent) chain.unshift(c);
  return chain;
}

interface Typed {
  word: string;
  fromFailing: boolean;
}

interface Candidate {
  path: string;
  depth: number;
  slots: string[][];
}

/** suggestCommands: the words typed, matched under the group first, then over the whole tree. */
function suggestCommands(cmd: Command, args: string[]): string[] {
  const typed: Typed[] = [
    ...pathFromRoot(cmd).flatMap((c) => normalize(c.name()).map((word) => ({ word, fromFailing: false }))),
    ...args.flatMap((a, i) => normalize(a).map((word) => ({ word, fromFailing: i === 0 }))),
  ];
  if (typed.length === 0) return [];
  if (cmd.parent) {
    const near = rankCandidates(typed, collectCandidates(cmd));
    if (near.length) return near;
  }
  let root = cmd;
  while (root.parent) root = root.parent;
  return rankCandidates(typed, collectCandidates(root));
}

/** collectCandidates: every visible command under `c`, not `help`. */
function collectCandidates(c: Command): Candidate[] {
  return c.commands
    .filter((child) => !(child as unknown as { _hidden?: boolean })._hidden && child.name() !== 'help')
    .flatMap((child) => [makeCandidate(child), ...collectCandidates(child)]);
}

/** makeCandidate: a slot per word of the path; a one-word name also answers to its aliases. */
function makeCandidate(c: Command): Candidate {
  const chain = pathFromRoot(c);
  const slots = chain.flatMap((x) => {
    const parts = normalize(x.name());
    if (parts.length !== 1) return parts.map((p) => [p]);
    const names = [...parts];
    for (const alias of x.aliases()) {
      const a = normalize(alias);
      if (a.length === 1 && !names.includes(a[0])) names.push(a[0]);
    }
    return [names];
  });
  return { path: commandPath(c), depth: chain.length, slots };
}

/** rankCandidates: by score, then matches, then depth, then path; up to 3, within 2 of the best. */
function rankCandidates(typed: Typed[], candidates: Candidate[]): string[] {
  const eligible = candidates
    .map((cand) => ({ cand, ...scoreCandidate(typed, cand) }))
    .filter((e) => e.failingMatched && e.score >= 2)
    .sort(
      (a, b) =>
        b.score - a.score ||
        b.matchSum - a.matchSum ||
        a.cand.depth - b.cand.depth ||
        (a.cand.path < b.cand.path ? -1 : a.cand.path > b.cand.path ? 1 : 0),
    );
  const out: string[] = [];
  for (const e of eligible) {
    if (out.length === MAX_SUGGESTIONS || e.score < eligible[0].score - 2) break;
    out.push(e.cand.path);
  }
  return out;
}

/** scoreCandidate: each typed word takes its best unused slot; unmatched slots count against. */
function scoreCandidate(typed: Typed[], cand: Candidate): { score: number; matchSum: number; failingMatched: boolean } {
  const used = cand.slots.map(() => false);
  let matchSum = 0;
  let failingMatched = false;
  for (const t of typed) {
    let best = 0;
    let bestIdx = -1;
    cand.slots.forEach((slot, i) => {
      const v = used[i] ? 0 : matchValue(t.word, slot);
      if (v > best) [best, bestIdx] = [v, i];
    });
    if (bestIdx < 0) continue;
    used[bestIdx] = true;
    matchSum += best;
    if (t.fromFailing) failingMatched = true;
  }
  return { score: matchSum - used.filter((u) => !u).length, matchSum, failingMatched };
}

/** matchValue: 3 the same word, 2 close enough, 1 a prefix of at least three letters either way. */
function matchValue(word: string, slot: string[]): number {
  return Math.max(
    0,
    ...slot.map((name) =>
      word === name
        ? 3
        : closeEnough(word, name)
          ? 2
          : (word.length >= 3 && name.startsWith(word)) || (name.length >= 3 && word.startsWith(name))
            ? 1
            : 0,
    ),
  );
}

/** rattler's synonyms, many to one, applied to typed words and command names alike. */
const SYNONYMS: Record<string, string> = {
  ls: 'list',
  rm: 'remove',
  del: 'remove',
  delete: 'remove',
  create: 'new',
  add: 'new',
  show: 'get',
  display: 'get',
  upgrade: 'update',
};

/** normalize: lower case, split at hyphens, synonyms mapped, a plural `s` dropped (words over three letters). */
function normalize(token: string): string[] {
  return token
    .toLowerCase()
    .split('-')
    .filter(Boolean)
    .map((p) => {
      if (Object.hasOwn(SYNONYMS, p)) return SYNONYMS[p];
      const singular = p.length > 3 && p.endsWith('s') ? p.slice(0, -1) : p;
      return Object.hasOwn(SYNONYMS, singular) ? SYNONYMS[singular] : singular;
    });
}

/** closeEnough: within one edit under six letters, else two. */
function closeEnough(a: string, b: string): boolean {
  return editDistance(a, b) <= (Math.max(a.length, b.length) < 6 ? 1 : 2);
}

/** editDistance: optimal string alignment (a swap of two adjacent letters is one edit), case ignored. */
function editDistance(x: string, y: string): number {
  const a = [...x.toLowerCase()];
  const b = [...y.toLowerCase()];
  const d = a.map(() => [] as number[]).concat([[]]);
  for (let i = 0; i <= a.length; i++) d[i][0] = i;
  for (let j = 0; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.length][b.length];
}

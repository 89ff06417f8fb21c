// Stack tags, kept as Pulumi's DIY backend keeps them (pkg/backend/diy/stack_tags.go): a file
// beside the stack's state, `.ocikit/stacks/<stack>.pulumi-tags` where the DIY backend writes
// `.pulumi/stacks/<project>/<stack>.pulumi-tags` (stackTagsPath: the stack's base path and
// `.pulumi-tags`, so stack discovery, which looks for `.json`, never takes it for a stack).
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { goPathError, oneLine, UserError } from '../errors';
import { goJson } from '../go-json';
import { isObject } from './values';

/** stack_tags.go's stackTagsVersion: the only `version` loadStackTags reads. */
const STACK_TAGS_VERSION = 1;

export type StackTags = Record<string, string>;

export function stackTagsPath(programDir: string, stack: string): string {
  return join(programDir, '.ocikit', 'stacks', `${stack}.pulumi-tags`);
}

/**
 * The stack's tags, as loadStackTags reads them: none when there is no file (a stack from before
 * tags were kept), and its errors, in its words, for a file it cannot read.
 */
export function loadStackTags(programDir: string, stack: string): StackTags {
  const path = stackTagsPath(programDir, stack);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new UserError(`failed to read stack tags file: ${goPathError(error, path)}`);
  }
  let file: unknown;
  try {
    file = JSON.parse(text);
  } catch (error) {
    throw new UserError(`failed to unmarshal stack tags: ${oneLine(error)}`);
  }
  // json.Unmarshal into stackTagsFile: a missing version is 0, a missing or null `tags` none, and
  // anything but an object of strings does not fit map[StackTagName]string.
  const shape = `failed to unmarshal stack tags: ${path} does not hold {"version": <n>, "tags": {…}}`;
  if (!isObject(file)) throw new UserError(shape);
  const version = file.version ?? 0;
  const tags = file.tags ?? null;
  if (typeof version !== 'number' || !(tags === null || isObject(tags))) throw new UserError(shape);
  if (version !== STACK_TAGS_VERSION)
    throw new UserError(`unsupported stack tags version: ${version} (expected ${STACK_TAGS_VERSION})`);
  const entries = Object.entries(tags ?? {});
  const bad = entries.find(([, value]) => typeof value !== 'string');
  if (bad) throw new UserError(`failed to unmarshal stack tags: the value of tag '${bad[0]}' is not a string`);
  return Object.fromEntries(entries) as StackTags;
}

/**
 * The check of Pulumi's DIY backend getTarget (pkg/backend/diy/state.go), which every run of a
 * program or of the engine (preview, up, refresh, destroy, import) goes through: a tags file it
 * cannot read fails the run, `failed to load stack tags: <loadStackTags' error>`. No file, no cost
 * but the one stat (the usual case).
 */
export function checkStackTags(programDir: string, stack: string): void {
  if (!existsSync(stackTagsPath(programDir, stack))) return;
  try {
    loadStackTags(programDir, stack);
  } catch (error) {
    throw new UserError(`failed to load stack tags: ${(error as Error).message}`);
  }
}

/**
 * saveStackTags: the whole set replaces the file (UpdateStackTags replaces all of a stack's tags),
 * as json.MarshalIndent writes stackTagsFile: four spaces, map keys sorted, `<`, `>` and `&`
 * escaped, no newline at the end. An empty set deletes the file (deleteStackTags), as the newest
 * saveStackTags does (pulumi/pulumi#23702; before it, a `stack tag rm` of the last tag was lost).
 */
export function saveStackTags(programDir: string, stack: string, tags: StackTags): void {
  if (Object.keys(tags).length === 0) return deleteStackTags(programDir, stack);
  const path = stackTagsPath(programDir, stack);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, goJson({ version: STACK_TAGS_VERSION, tags }, { indent: '    ', maps: TAGS, escapeHTML: true }));
}

/** The `tags` field of stackTagsFile is a Go map: its keys are written sorted. */
const TAGS: ReadonlySet<string> = new Set(['tags']);

/** deleteStackTags, as removeStack calls it: the file goes, if there is one. */
export function deleteStackTags(programDir: string, stack: string): void {
  const path = stackTagsPath(programDir, stack);
  if (existsSync(path)) rmSync(path, { force: true });
}

/**
 * The stack's tags as the DIY stack's Tags() gives them to `stack tag ls` and `get`
 * (pkg/cmd/pulumi/stack/stack_tag.go, which has no error to report): those loadStackTags reads,
 * none when it cannot read the file (pulumi/pulumi#19882: "an empty map is returned").
 */
export function stackTagsOrNone(programDir: string, stack: string): StackTags {
  try {
    return loadStackTags(programDir, stack);
  } catch {
    return {};
  }
}

/**
 * `stack ls --tag <name>[=<value>]` (stack_ls.go parseTagFilter, split at the first `=`) as the
 * DIY backend's ListStacks applies it: the stack must have the tag, with that value when one is
 * given; a stack whose tags cannot be read is left out.
 */
export function matchesTagFilter(programDir: string, stack: string, filter: string): boolean {
  const at = filter.indexOf('=');
  const name = at < 0 ? filter : filter.slice(0, at);
  const tags = stackTagsOrNone(programDir, stack);
  if (!Object.hasOwn(tags, name)) return false;
  return at < 0 || tags[name] === filter.slice(at + 1);
}

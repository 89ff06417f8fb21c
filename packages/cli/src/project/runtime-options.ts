// Pulumi.yaml's `runtime.options` for nodejs, read as Pulumi's Node.js language host reads them
// (sdk/nodejs/cmd/pulumi-language-nodejs/main.go: parseOptions, and execRuntime's shlex.Split of
// `nodeargs`).
import { ProjectError } from './project-error';

const PACKAGE_MANAGERS = ['auto', 'npm', 'yarn', 'pnpm', 'bun'];

/**
 * Refuses the options the language host refuses, in its words: `typescript` not a boolean,
 * `tsconfig` or `nodeargs` not a string, `packagemanager` not one it knows, `nodeargs` that do not
 * split (an unclosed quote).
 */
export function checkRuntimeOptions(options: Record<string, unknown> | undefined): void {
  if (!options) return;
  if ('typescript' in options && typeof options.typescript !== 'boolean')
    throw new ProjectError('typescript option must be a boolean');
  if ('tsconfig' in options && typeof options.tsconfig !== 'string')
    throw new ProjectError('tsconfigpath option must be a string');
  if ('nodeargs' in options) {
    if (typeof options.nodeargs !== 'string') throw new ProjectError('nodeargs option must be a string');
    splitNodeArgs(options.nodeargs);
  }
  if ('packagemanager' in options) {
    const pm = options.packagemanager;
    if (typeof pm !== 'string') throw new ProjectError('packagemanager option must be a string');
    if (!PACKAGE_MANAGERS.includes(pm))
      throw new ProjectError(
        `packagemanager option must be one of auto, npm, yarn, pnpm or bun, got ${JSON.stringify(pm)}`,
      );
  }
}

/**
 * `nodeargs` split into arguments as the language host splits them (github.com/google/shlex):
 * words separated by blanks; `'…'` keeps everything literally; `"…"` keeps everything but a
 * backslash, which takes the next character literally, as it does outside quotes; `#` at the
 * start of a word comments out the rest of the line.
 */
export function splitNodeArgs(text: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (/\s/.test(c)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (c === '#' && word === undefined) {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (c === '\\') {
      if (++i >= text.length) throw new ProjectError('EOF found after escape character');
      word = (word ?? '') + text[i];
    } else if (c === "'" || c === '"') {
      word ??= '';
      for (i++; ; i++) {
        if (i >= text.length) throw new ProjectError('EOF found when expecting closing quote');
        if (text[i] === c) break;
        if (c === '"' && text[i] === '\\') {
          if (++i >= text.length) throw new ProjectError('EOF found after escape character');
        }
        word += text[i];
      }
    } else word = (word ?? '') + c;
  }
  if (word !== undefined) words.push(word);
  return words;
}

import { UserError } from '../errors';
import type { GlobalOptions } from './options';
import { configText, projectValues } from '../project/project-config';
import { StackConfigFile } from '../project/stack-config';
import { stackCrypter } from '../secrets/stack-crypter';
import { looksLikeSecret } from '../project/looks-like-secret';
import { canPrompt, commandContext, openStack, requireExistingStack, stackName } from './context';
import { existsSync, renameSync } from 'node:fs';
import { readHistory } from '../engine/history';
import { passphraseSalt } from '../engine/state';
import { ask, readStdin } from './prompt';
import {
  adjustValue,
  containsSecure,
  getAt,
  mapSecure,
  removeAt,
  setAt,
  splitConfigPath,
} from '../project/config-path';
import { configJson, sortedKeys } from '../project/config-json';
import { decryptSecure, DECRYPT_WORDS, type DecryptWords } from '../project/config';

type PathOption = { path?: boolean };

/** Pulumi's prettyKey: the project's own keys without their namespace (`units`, `oci:region`). */
function prettyKey(file: StackConfigFile, key: string): string {
  const prefix = `${file.project.name}:`;
  return key.startsWith(prefix) ? key.slice(prefix.length) : key;
}

/** Pulumi's words for a key the stack does not have (config get, config cp). */
function keyNotFound(file: StackConfigFile, key: string, stack: string): UserError {
  return new UserError(`configuration key '${prettyKey(file, file.qualify(key))}' not found for stack '${stack}'`);
}

/**
 * The stack's config file. `existing`: refuse a stack that does not exist, as Pulumi's `config`,
 * `config get`, `config rm` and `config cp` do without a terminal (RequireStack: `no stack named
 * 'x' found`); `config set` creates it instead (above).
 */
function open(options: GlobalOptions, { existing = true } = {}) {
  const context = commandContext(options);
  if (existing) requireExistingStack(context);
  const { project, stack } = context;
  return { project, stack, file: StackConfigFile.open(project, stack) };
}

/**
 * The stack file's values (plain JS, secure values as `{ secure }`), with the project's defaults
 * and values (Pulumi.yaml) for the keys the stack file does not set, as `pulumi config` and `config
 * get` show them (Pulumi applies the project config before listing or getting).
 */
function rawValue(file: StackConfigFile, key: string): unknown {
  const entry = file.get(key);
  if (entry) return file.object(key) ?? (entry.secure ? { secure: entry.value } : entry.value);
  return projectValues(file.project.name, file.project.config).get(file.qualify(key));
}

/** `config`: every key, secrets as [secret] unless --show-secrets, as `pulumi config` lists them. */
export function configList(options: GlobalOptions & { showSecrets?: boolean }): void {
  const { file } = open(options);
  const set = file.entries();
  const defaults = new Map([...projectValues(file.project.name, file.project.config)].filter(([k]) => !set.has(k)));
  // Objects show their secure values as [secret], as `pulumi config` does.
  const entries = [...set]
    .map(([k, e]): [string, typeof e & { masked?: boolean }] => {
      const object = file.object(k);
      return object !== undefined && containsSecure(object)
        ? [k, { value: configJson(mapSecure(object, () => '[secret]')), secure: true, masked: true }]
        : [k, e];
    })
    .concat([...defaults].map(([k, v]) => [k, { value: configText(v), secure: false }]))
    .sort(([a], [b]) => a.localeCompare(b));
  // --show-secrets: the secure values decrypted (with the passphrase), as Pulumi shows them. One
  // crypter for them all: it derives the key (about a second) once, on first use.
  const crypter = stackCrypter(file);
  const shown = (k: string) => reveal(crypter, rawValue(file, k), DECRYPT_WORDS.list);
  if (options.json) {
    // Pulumi's configValueJSON: `value` (and `objectValue` for an object), elided for a secret
    // unless --show-secrets.
    const json = Object.fromEntries(
      entries.map(([k, e]) => {
        if (e.secure) return [k, options.showSecrets ? { ...shown(k), secret: true } : { secret: true }];
        const given = defaults.get(k);
        const object = file.object(k) ?? (typeof given === 'object' && given !== null ? given : undefined);
        return [
          k,
          { value: e.value, ...(object !== undefined ? { objectValue: sortedKeys(object) } : {}), secret: false },
        ];
      }),
    );
    process.stdout.write(JSON.stringify(json, null, 2) + '\n');
    return;
  }
  const rows = entries.map(([k, e]) => [
    prettyKey(file, k),
    e.secure && options.showSecrets ? shown(k).value : e.secure && !e.masked ? '[secret]' : e.value,
  ]);
  const width = Math.max(3, ...rows.map(([k]) => k.length));
  process.stdout.write(`${'KEY'.padEnd(width)}  VALUE\n`);
  for (const [k, v] of rows) process.stdout.write(`${k.padEnd(width)}  ${v}\n`);
}

export async function configSet(
  options: GlobalOptions & { secret?: boolean; plaintext?: boolean } & PathOption,
  key: string,
  value: string | undefined,
): Promise<void> {
  const { file } = open(options, { existing: false });
  if (value === undefined) value = canPrompt(options) ? await ask(`${key}: `) : await readStdin();
  const named = file.qualify(options.path ? splitConfigPath(key).key : key);
  if (!options.secret && !options.plaintext && looksLikeSecret(named.slice(named.indexOf(':') + 1), value))
    throw new UserError(
      `config value for '${named}' looks like a secret; ` +
        'rerun with --secret to encrypt it, or --plaintext if you meant to store in plaintext',
    );
  setValue(file, stackCrypter(file), key, value, options);
  file.save();
}

/**
 * Sets a key as Pulumi's Map.Set does. With `path`, the value goes at the path inside the key's
 * object (created as needed); --secret encrypts just that value; otherwise "true"/"false" and
 * integers are stored typed (Pulumi's adjustObjectValue), but a path of the key alone sets the
 * key's text, as without --path (setPlainAtPath).
 */
function setValue(
  file: StackConfigFile,
  crypter: ReturnType<typeof stackCrypter>,
  key: string,
  value: string,
  options: { secret?: boolean } & PathOption,
): void {
  if (!options.path) file.set(key, options.secret ? crypter.encrypt(value) : value, Boolean(options.secret));
  else if (options.secret) setAtPath(file, key, { secure: crypter.encrypt(value) });
  else setPlainAtPath(file, key, value);
}

/**
 * Pulumi's parseKeyValuePair (`config set-all`): the key ends at the first `=`, or, for a key
 * given in quotes (`'"a=b"=c'`), at the `=` after its closing quote.
 */
function keyValuePair(pair: string): [string, string] {
  const quote = pair.startsWith('"') || pair.startsWith("'") ? pair[0] : '';
  const rest = pair.slice(quote.length);
  const at = rest.indexOf(`${quote}=`);
  if (at < 0) throw new UserError('config value must be in the form [key]=[value]');
  return [rest.slice(0, at), rest.slice(at + quote.length + 1)];
}

/**
 * `config set-all --plaintext k=v --secret k=v [--path]`, as Pulumi's: the plain values, then the
 * secrets (a key given both ways ends secret), saved once; a pair that does not parse sets none.
 * Unlike `config set`, no value is refused for looking like a secret (Pulumi checks none here).
 */
export function configSetAll(options: GlobalOptions & PathOption, plaintexts: string[], secrets: string[]): void {
  const { file } = open(options, { existing: false });
  const pairs = [
    ...plaintexts.map((p) => ({ pair: keyValuePair(p), secret: false })),
    ...secrets.map((p) => ({ pair: keyValuePair(p), secret: true })),
  ];
  // One crypter for all the secrets: its key is derived once (about a second).
  const crypter = stackCrypter(file);
  for (const { pair, secret } of pairs) setValue(file, crypter, pair[0], pair[1], { secret, path: options.path });
  file.save();
}

/** A value at a config path (`a.b[0].c`): the key's object is created as needed. */
function setAtPath(file: StackConfigFile, key: string, stored: unknown): void {
  const { key: top, path } = splitConfigPath(key);
  file.setRaw(top, setAt(file.raw(top), path, stored));
}

/**
 * A plain value at a config path, typed as Pulumi types it (`true`/`false`, integers); a path of
 * the key alone sets the key's text (Map.Set: a single path segment is set as given).
 */
export function setPlainAtPath(file: StackConfigFile, key: string, value: string): void {
  setAtPath(file, key, splitConfigPath(key).path.length ? adjustValue(value) : value);
}

export function configGet(options: GlobalOptions & PathOption, key: string): void {
  const { stack, file } = open(options);
  const notFound = () => keyNotFound(file, key, stack);
  let raw: unknown;
  if (options.path) {
    const { key: top, path } = splitConfigPath(key);
    const found = getAt(rawValue(file, top), path);
    if (!found.found || found.value === undefined) throw notFound();
    raw = found.value;
  } else {
    raw = rawValue(file, key);
    if (raw === undefined) throw notFound();
  }
  const secret = containsSecure(raw);
  const { value, objectValue } = reveal(stackCrypter(file), raw, DECRYPT_WORDS.get);
  // --json as Pulumi prints it: `{value, objectValue (an object's), secret}`, indented.
  const json = { value, ...(objectValue !== undefined ? { objectValue } : {}), secret };
  process.stdout.write((options.json ? JSON.stringify(json, null, 2) : value) + '\n');
}

/** A value in plain text, its secure parts decrypted; objects and lists as JSON, as Pulumi prints them. */
export function reveal(
  crypter: ReturnType<typeof stackCrypter>,
  raw: unknown,
  words: DecryptWords,
): { value: string; objectValue?: unknown } {
  const plain = containsSecure(raw) ? decryptSecure(raw, crypter, words) : raw;
  if (typeof plain === 'string') return { value: plain };
  return {
    value: configJson(plain),
    ...(typeof plain === 'object' && plain !== null ? { objectValue: sortedKeys(plain) } : {}),
  };
}

/** `config rm`: a key (or path) that is not there is nothing to remove, not an error (Pulumi's Map.Remove). */
export function configRm(options: GlobalOptions & PathOption, key: string): void {
  configRmAll(options, [key]);
}

/** `config rm-all <key>…`, as Pulumi's: each key (or path) removed as `config rm` removes it, saved once. */
export function configRmAll(options: GlobalOptions & PathOption, keys: string[]): void {
  const { file } = open(options);
  let removed = false;
  for (const key of keys) removed = removeValue(file, key, options.path) || removed;
  if (removed) file.save();
}

/** Removes a key, or with `path` the value at its path; true when something was removed. */
function removeValue(file: StackConfigFile, key: string, byPath?: boolean): boolean {
  const { key: top, path } = byPath ? splitConfigPath(key) : { key, path: [] };
  if (!path.length) return file.remove(top);
  const removed = removeAt(file.raw(top), path);
  if (removed) file.setRaw(top, removed.root);
  return removed !== undefined;
}

/**
 * `config cp [key] --dest <stack> [--path]`, as Pulumi's: the key (or, without one, every key of
 * this stack's file) set in the destination stack's file, its secure values decrypted with this
 * stack's salt and encrypted with the destination's (the same passphrase; copySingleConfigKey,
 * CopyEntireConfigMap). The project's defaults are not copied: they apply to every stack.
 */
export function configCopy(options: GlobalOptions & PathOption & { dest?: string }, key: string | undefined): void {
  const { project, stack, file } = open(options);
  if (options.dest === stack) throw new UserError('current stack and destination stack are the same');
  const dest = { project, stack: stackName(project, options.dest ?? '') };
  requireExistingStack(dest);
  const target = StackConfigFile.open(project, dest.stack);
  // One crypter each way: a key is derived once per salt (about a second), not once per value.
  const decrypting = stackCrypter(file);
  const encrypting = stackCrypter(target);
  const copy = (raw: unknown, words: DecryptWords) =>
    containsSecure(raw)
      ? decryptSecure(raw, decrypting, words, (plaintext) => ({ secure: encrypting.encrypt(plaintext) }))
      : raw;
  if (key === undefined) {
    const keys = [...file.entries().keys()];
    for (const k of keys) target.setRaw(k, copy(file.raw(k), DECRYPT_WORDS.list));
    if (keys.length) target.save();
    return;
  }
  const { key: top, path } = options.path ? splitConfigPath(key) : { key, path: [] };
  const found = getAt(file.raw(top), path);
  if (file.raw(top) === undefined || !found.found) throw keyNotFound(file, key, stack);
  target.setRaw(top, setAt(target.raw(top), path, copy(found.value, DECRYPT_WORDS.copy)));
  target.save();
}

/**
 * `config refresh [-f|--force]`, as Pulumi's (pkg/cmd/pulumi/config newConfigRefreshCmd): the
 * stack's config becomes the config of its last update (GetLatestConfiguration: the newest entry
 * of its history), its secrets provider the state's (passphrase.EditProjectStack: the salt the
 * state names, when it names the passphrase provider). The file it
 * replaces is kept as `<file>.bak` (`.bak.bak`… when taken) unless --force or there was none.
 */
export function configRefresh(options: GlobalOptions & { force?: boolean }): void {
  const { project, stack, file, state } = openStack(options);
  const [latest] = readHistory(project.dir, stack, 1, 1);
  if (!latest) throw new UserError('no previous deployment');
  file.replaceConfig(latest.config ?? {});
  const salt = state.exists()
    ? passphraseSalt((state.exportDeployment() as { deployment: object }).deployment)
    : undefined;
  if (typeof salt === 'string') file.usePassphrase(salt);
  if (!existsSync(file.path) || options.force) return file.save();
  let backup = `${file.path}.bak`;
  while (existsSync(backup)) backup += '.bak';
  renameSync(file.path, backup);
  process.stdout.write(`backed up existing configuration file to ${backup}\n`);
  file.save();
  process.stdout.write(`refreshed configuration for stack '${stack}'\n`);
}

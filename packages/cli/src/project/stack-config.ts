import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { Document, isMap, isScalar, parseDocument, stringify, type YAMLMap } from 'yaml';
import { isJsonFile, stackConfigPath, type Project } from './project';
import { isRecord, ProjectError, yamlErrorLine } from './project-error';
import { configJson } from './config-json';

/**
 * `Pulumi.<stack>.yaml`: `config:` values keyed `<namespace>:<key>` (a key without a namespace
 * belongs to the project, as Pulumi reads it), `{secure: v1:…}` for secrets, and the
 * `encryptionsalt` of the passphrase provider. Edits go through the YAML document so comments and
 * the order of keys survive `config set|rm` (a JSON file is written as Pulumi writes one:
 * projectStackJson).
 */
export interface ConfigEntry {
  /** Plain value, or the ciphertext when `secure`. Objects and lists are JSON-encoded, as Pulumi passes them. */
  value: string;
  secure: boolean;
}

/** A config key config.ParseKey refuses: `reason` in its words, the message after the commands' prefix. */
export class ConfigKeyError extends ProjectError {
  constructor(readonly reason: string) {
    super(`invalid configuration key: ${reason}`);
  }
}

export class StackConfigFile {
  private constructor(
    readonly path: string,
    readonly project: Project,
    private doc: Document,
  ) {}

  static open(project: Project, stack: string): StackConfigFile {
    const path = stackConfigPath(project, stack);
    if (!existsSync(path)) return new StackConfigFile(path, project, new Document({}));
    const text = readFileSync(path, 'utf8').replace(/^\uFEFF/, '');
    const doc = isJsonFile(path) ? jsonDocument(path, text) : parseDocument(text);
    if (doc.errors.length > 0) throw new ProjectError(`${path}: ${yamlErrorLine(doc.errors[0].message)}`);
    if (doc.contents === null) doc.contents = doc.createNode({}) as never;
    if (!isMap(doc.contents))
      throw new ProjectError(`${path}: expected a ${isJsonFile(path) ? 'JSON object' : 'YAML mapping'}`);
    const config = doc.get('config');
    if (config !== undefined && config !== null && !isMap(config))
      throw new ProjectError(`${path}: 'config' must be a mapping`);
    return new StackConfigFile(path, project, doc);
  }

  /**
   * `key` as Pulumi stores it: `<project>:key` unless it names a namespace (`<namespace>:config:<name>`
   * is `<namespace>:<name>`). Refused in the words of Pulumi's config.ParseKey
   * (sdk/go/common/resource/config/key.go), after the commands' "invalid configuration key: %w".
   * As there, a namespace or name may be empty: `:x` is the name x of the empty namespace, `x:` the
   * empty name of namespace x.
   */
  qualify(key: string): string {
    const parts = key.split(':');
    if (parts.length === 3 && parts[1] === 'config' && parts[0] && parts[2]) return `${parts[0]}:${parts[2]}`;
    if (parts.length > 2)
      throw new ConfigKeyError(
        `could not parse ${key} as a configuration key (configuration keys should be of the form \`<namespace>:<name>\`)`,
      );
    return parts.length === 1 ? `${this.project.name}:${key}` : key;
  }

  get encryptionSalt(): string | undefined {
    const salt = this.doc.get('encryptionsalt');
    return typeof salt === 'string' && salt ? salt : undefined;
  }

  set encryptionSalt(salt: string | undefined) {
    if (salt === undefined) this.doc.delete('encryptionsalt');
    else if (this.doc.has('encryptionsalt')) this.doc.set('encryptionsalt', salt);
    else {
      // First in the file, where `pulumi stack init` writes it.
      const map = this.doc.contents as unknown as { items: unknown[] };
      map.items.unshift(this.doc.createPair('encryptionsalt', salt));
    }
  }

  /** `secretsprovider:`, the secrets provider the file's secure values were made with, when it names one. */
  get secretsProvider(): string | undefined {
    const provider = this.doc.get('secretsprovider');
    return typeof provider === 'string' && provider ? provider : undefined;
  }

  /**
   * The ESC environments the file imports (`environment:`, a list or `{imports: […]}`), as Pulumi's
   * ProjectStack.EnvironmentBytes sees them: undefined when the key is absent or null.
   */
  get environment(): unknown {
    const environment = this.doc.toJS()?.environment as unknown;
    return environment === null ? undefined : environment;
  }

  entries(): Map<string, ConfigEntry> {
    const out = new Map<string, ConfigEntry>();
    const config = this.doc.toJS()?.config as unknown;
    if (!isRecord(config)) return out;
    for (const [rawKey, raw] of Object.entries(config)) {
      const key = this.qualify(rawKey);
      if (isRecord(raw) && Object.keys(raw).length === 1 && typeof raw.secure === 'string')
        out.set(key, { value: raw.secure, secure: true });
      else if (raw === null || raw === undefined) out.set(key, { value: '', secure: false });
      else out.set(key, { value: typeof raw === 'string' ? raw : configJson(raw), secure: false });
    }
    return out;
  }

  get(key: string): ConfigEntry | undefined {
    return this.entries().get(this.qualify(key));
  }

  set(key: string, value: string, secure: boolean): void {
    this.setRaw(key, secure ? { secure: value } : value);
  }

  /** An object or list value as the file holds it (nested secure values as `{ secure: … }`), else undefined. */
  object(key: string): unknown {
    const raw = this.raw(key);
    return typeof raw === 'object' && raw !== null && !(isRecord(raw) && typeof raw.secure === 'string')
      ? raw
      : undefined;
  }

  /** The value of a key as plain JS (objects with nested `{ secure }` values), or undefined. */
  raw(key: string): unknown {
    const config = this.doc.toJS()?.config as unknown;
    if (!isRecord(config)) return undefined;
    const qualified = this.qualify(key);
    const found = Object.entries(config).find(([k]) => this.qualify(k) === qualified);
    return found?.[1];
  }

  /** Sets a key to a JS value, in place when the key exists (in whichever spelling), else at the end. */
  setRaw(key: string, value: unknown): void {
    const qualified = this.qualify(key);
    let config = this.doc.get('config');
    if (!isMap(config)) {
      config = this.doc.createNode({});
      this.doc.set('config', config);
    }
    const map = config as YAMLMap;
    // An emptied map is written `config: {}`; keys added to it go in block style again (a map
    // the user wrote in flow style with keys in it stays so).
    if (map.items.length === 0) map.flow = false;
    const node = this.doc.createNode(value);
    const pair = map.items.find(
      (p) => this.qualify(isScalar(p.key) ? String(p.key.value) : String(p.key)) === qualified,
    );
    if (pair) pair.value = node;
    else map.set(qualified, node);
  }

  /**
   * The passphrase provider with this salt, as passphrase.EditProjectStack sets it (`config
   * refresh`): `encryptionsalt`, and no `secretsprovider` nor `encryptedkey`.
   */
  usePassphrase(salt: string): void {
    this.doc.delete('secretsprovider');
    this.doc.delete('encryptedkey');
    this.encryptionSalt = salt;
  }

  /** Replaces every config value (`config refresh`); no `config:` at all when there is none, as Pulumi writes it. */
  replaceConfig(config: Record<string, unknown>): void {
    if (Object.keys(config).length === 0) this.doc.delete('config');
    else this.doc.set('config', this.doc.createNode(config));
  }

  /** Removes the key in whichever spelling the file uses; true when something was removed. */
  remove(key: string): boolean {
    const qualified = this.qualify(key);
    const config = this.doc.get('config');
    if (!isMap(config)) return false;
    const before = config.items.length;
    config.items = config.items.filter((pair) => {
      const raw = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
      return this.qualify(raw) !== qualified;
    });
    return config.items.length !== before;
  }

  save(): void {
    // A stackConfigDir that is not there yet is created, as Pulumi's ProjectStack.Save does.
    mkdirSync(dirname(this.path), { recursive: true });
    if (isJsonFile(this.path)) writeFileSync(this.path, projectStackJson(this.doc.toJS()));
    else writeFileSync(this.path, this.doc.contents === null ? stringify({}) : this.doc.toString());
  }
}

/** workspace.ProjectStack's JSON fields, in the order of the struct's fields. */
const PROJECT_STACK_FIELDS = ['secretsprovider', 'encryptedkey', 'encryptionsalt', 'config', 'environment'];
const INDENT = '    ';

/**
 * A `Pulumi.<stack>.json` as Pulumi's ProjectStack.Save writes it (encoding.JSON: indented four
 * spaces): the struct's fields in their order, empty ones left out (omitempty), other keys not
 * kept; config.Map's keys, and an object value's, in Go's map order (configJson); a null value
 * written "" (config.Value reads it so); `environment` as written (a json.RawMessage).
 */
function projectStackJson(doc: unknown): string {
  const file = isRecord(doc) ? doc : {};
  const fields = PROJECT_STACK_FIELDS.flatMap((key) => {
    const value = file[key];
    if (value === undefined || value === null || value === '') return [];
    if (key === 'environment') return [[key, JSON.stringify(value, null, 4).replace(/\n/g, `\n${INDENT}`)]];
    if (key !== 'config' || !isRecord(value)) return [[key, configJson(value, INDENT, INDENT)]];
    if (Object.keys(value).length === 0) return [];
    const config = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, v ?? '']));
    return [[key, configJson(config, INDENT, INDENT)]];
  });
  if (fields.length === 0) return '{}\n';
  return `{\n${fields.map(([key, text]) => `${INDENT}${JSON.stringify(key)}: ${text}`).join(',\n')}\n}\n`;
}

/** A `Pulumi.<stack>.json` as a document to edit like the YAML ones (JSON, as Pulumi reads it). */
function jsonDocument(path: string, text: string): Document {
  try {
    return new Document(JSON.parse(text));
  } catch (error) {
    throw new ProjectError(`${path}: ${(error as Error).message}`);
  }
}

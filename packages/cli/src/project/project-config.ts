// Project-level configuration: the `config:` block of Pulumi.yaml, as Pulumi reads it
// (pkg/workspace project.go and config.go): keys of the project declare a type, a default and
// whether they must be secret; keys of other namespaces (`oci:region`) give a value. Stack values
// win; a project key with neither a stack value nor a default stops the run, and typed keys are
// checked, with Pulumi's own messages.
import { isRecord, ProjectError } from './project-error';
import { configJson } from './config-json';

interface ItemsType {
  type: string;
  items?: ItemsType;
}

export interface ProjectConfigType {
  type?: string;
  description?: string;
  items?: ItemsType;
  default?: unknown;
  value?: unknown;
  secret?: boolean;
}

const ATTRIBUTES = new Set(['type', 'description', 'items', 'default', 'value', 'secret']);
const TYPES = new Set(['string', 'integer', 'boolean', 'array']);

const isNamespacedByProject = (project: string, key: string) => !key.includes(':') || key.startsWith(`${project}:`);
/** `size` → `proj:size`; a namespaced key stays as it is. */
const fullKey = (project: string, key: string) => (key.includes(':') ? key : `${project}:${key}`);

/** Reads and checks Pulumi.yaml's `config:` block (Pulumi's Project.Validate). */
export function parseProjectConfig(
  file: string,
  project: string,
  raw: unknown,
): Record<string, ProjectConfigType> | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (!isRecord(raw)) throw new ProjectError(`${file}: 'config' must be a mapping of configuration keys`);
  const config: Record<string, ProjectConfigType> = {};
  for (const [key, entry] of Object.entries(raw)) {
    // The short form: a project key's value is its default, another namespace's is its value.
    const type: ProjectConfigType = isRecord(entry)
      ? readType(file, key, entry)
      : isNamespacedByProject(project, key)
        ? { default: entry }
        : { value: entry };
    if (type.default !== undefined && type.value !== undefined)
      throw new ProjectError(`project config '${key}' cannot have both a 'default' and 'value' attribute`);
    if (isNamespacedByProject(project, key)) {
      if (type.type === 'array' && !type.items)
        throw new ProjectError(
          `The configuration key '${key}' declares an array but does not specify the underlying type via the 'items' attribute`,
        );
      if (type.type && type.default !== undefined && !matchesType(type.type, type.items, type.default))
        throw new ProjectError(
          `The default value specified for configuration key '${key}' is not of the expected type '${typeName(type.type, type.items)}'`,
        );
    } else {
      if (type.type)
        throw new ProjectError(
          `Configuration key '${key}' is not namespaced by the project and should not define a type`,
        );
      if (type.default !== undefined)
        throw new ProjectError(
          `Configuration key '${key}' is not namespaced by the project and should not define a default value. Did you mean to use the 'value' attribute instead of 'default'?`,
        );
      if (type.value === undefined)
        throw new ProjectError(`Configuration key '${key}' is namespaced and must provide an attribute 'value'`);
    }
    config[key] = type;
  }
  return config;
}

function readType(file: string, key: string, entry: Record<string, unknown>): ProjectConfigType {
  for (const attribute of Object.keys(entry))
    if (!ATTRIBUTES.has(attribute))
      throw new ProjectError(
        `${file}: config '${key}': unknown attribute '${attribute}' (expected type, description, items, default, value, secret)`,
      );
  if (entry.type !== undefined && !TYPES.has(entry.type as string))
    throw new ProjectError(
      `${file}: config '${key}': type must be one of string, integer, boolean, array (got ${JSON.stringify(entry.type)})`,
    );
  if (entry.secret !== undefined && typeof entry.secret !== 'boolean')
    throw new ProjectError(`${file}: config '${key}': secret must be true or false`);
  return {
    ...(entry.type !== undefined ? { type: entry.type as string } : {}),
    ...(typeof entry.description === 'string' ? { description: entry.description } : {}),
    ...(entry.items !== undefined ? { items: readItems(file, key, entry.items) } : {}),
    ...(entry.default !== undefined && entry.default !== null ? { default: entry.default } : {}),
    ...(entry.value !== undefined && entry.value !== null ? { value: entry.value } : {}),
    ...(entry.secret ? { secret: true } : {}),
  };
}

function readItems(file: string, key: string, raw: unknown): ItemsType {
  if (!isRecord(raw) || !TYPES.has(raw.type as string))
    throw new ProjectError(`${file}: config '${key}': items must have a type (string, integer, boolean or array)`);
  return { type: raw.type as string, ...(raw.items !== undefined ? { items: readItems(file, key, raw.items) } : {}) };
}

/** `array<integer>` for an array of integers, as Pulumi names types in its messages. */
function typeName(type: string, items: ItemsType | undefined): string {
  return items ? `array<${typeName(items.type, items.items)}>` : type;
}

/** Pulumi's ValidateConfigValue: strings that parse as integers and booleans count as such. */
function matchesType(type: string, items: ItemsType | undefined, value: unknown): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'integer':
      return (
        (typeof value === 'number' && Number.isInteger(value)) ||
        (typeof value === 'string' && /^[+-]?\d+$/.test(value))
      );
    case 'boolean':
      return typeof value === 'boolean' || value === 'true' || value === 'false';
    default:
      return Array.isArray(value) && items !== undefined && value.every((v) => matchesType(items.type, items.items, v));
  }
}

/** A default or value as the program reads it: primitives as text, arrays and objects as JSON. */
export const configText = (value: unknown) =>
  typeof value === 'object' && value !== null ? configJson(value) : String(value);

/** `'a'`, `'a' and 'b'`, `'a', 'b' and 'c'` (Pulumi's formatMissingKeys). */
function formatKeys(keys: string[]): string {
  const quoted = [...keys].sort().map((k) => `'${k}'`);
  return quoted.length === 1 ? quoted[0] : `${quoted.slice(0, -1).join(', ')} and ${quoted[quoted.length - 1]}`;
}

/**
 * The project's defaults (its own keys) and values (other namespaces'), keyed `<namespace>:<key>`
 * (Pulumi's ApplyProjectConfig, which `pulumi config` and `config get` show too).
 */
export function projectValues(
  project: string,
  projectConfig: Record<string, ProjectConfigType> | undefined,
): Map<string, unknown> {
  const values = new Map<string, unknown>();
  for (const key of Object.keys(projectConfig ?? {}).sort()) {
    const given = projectConfig![key].default ?? projectConfig![key].value;
    if (given !== undefined) values.set(fullKey(project, key), given);
  }
  return values;
}

/**
 * The stack's configuration with the project's defaults and values merged in (stack values win),
 * after Pulumi's checks: every project key without a default is set, secret keys are encrypted,
 * typed keys hold their type. `objects` are the keys whose stack value is an object (JSON text).
 */
export function applyProjectConfig(
  project: string,
  projectConfig: Record<string, ProjectConfigType> | undefined,
  stack: string,
  stackConfig: { values: Record<string, string>; secretKeys: string[]; objects: Set<string> },
): Record<string, string> {
  const values = { ...stackConfig.values };
  if (!projectConfig) return values;
  const objects = new Set(stackConfig.objects);
  for (const [full, given] of projectValues(project, projectConfig)) {
    if (full in values) continue;
    values[full] = configText(given);
    if (typeof given === 'object') objects.add(full);
  }
  const missing = Object.keys(projectConfig)
    .filter((key) => isNamespacedByProject(project, key) && !(fullKey(project, key) in values))
    .sort();
  if (missing.length)
    throw new ProjectError(
      `Stack '${stack}' is missing configuration value${missing.length > 1 ? 's' : ''} ${formatKeys(missing)}`,
    );
  for (const key of Object.keys(projectConfig).sort()) {
    const type = projectConfig[key];
    const full = fullKey(project, key);
    if (!type.type || !(full in values)) continue;
    if (type.secret && !stackConfig.secretKeys.includes(full))
      throw new ProjectError(`Stack '${stack}' with configuration key '${key}' must be encrypted as it's secret`);
    const content: unknown = objects.has(full) ? JSON.parse(values[full]) : values[full];
    if (!matchesType(type.type, type.items, content))
      throw new ProjectError(
        `Stack '${stack}' with configuration key '${key}' must be of type '${typeName(type.type, type.items)}'`,
      );
  }
  return values;
}

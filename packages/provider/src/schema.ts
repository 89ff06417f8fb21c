// schema.json is the single source of truth: resource declarations take their input types,
// required inputs and replacement fields from it, and OCI responses are shaped by its types.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { clean, isSecret, isUnknown, secret, type Props } from './wire';

export interface PropSpec {
  type?: string;
  $ref?: string;
  items?: PropSpec;
  additionalProperties?: PropSpec;
  description?: string;
  willReplaceOnChanges?: boolean;
  secret?: boolean;
}
interface ObjectSpec {
  properties: Record<string, PropSpec>;
  required?: string[];
}
interface ResourceSpec {
  properties: Record<string, PropSpec>;
  inputProperties: Record<string, PropSpec>;
  requiredInputs?: string[];
}
export interface PackageSchema {
  version: string;
  resources: Record<string, ResourceSpec>;
  functions: Record<string, { inputs: ObjectSpec; outputs: ObjectSpec }>;
  types: Record<string, ObjectSpec>;
  config: { variables: Record<string, PropSpec> };
}

export const schemaFile = path.join(__dirname, '..', 'schema.json');
let cached: { text: string; schema: PackageSchema } | undefined;

export function schemaText(): string {
  return load().text;
}
export function packageSchema(): PackageSchema {
  return load().schema;
}
function load(): { text: string; schema: PackageSchema } {
  if (!cached) {
    const text = fs.readFileSync(schemaFile, 'utf8');
    cached = { text, schema: JSON.parse(text) as PackageSchema };
  }
  return cached;
}

const refs = new Map<string, ObjectSpec>();
function refType(ref: string): ObjectSpec {
  let t = refs.get(ref);
  if (!t) {
    t = packageSchema().types[ref.replace('#/types/', '')];
    if (!t) throw new Error(`schema has no type ${ref}`);
    refs.set(ref, t);
  }
  return t;
}

/** `definedTags`/`systemTags` come from OCI as {namespace: {key: value}}; Pulumi flattens them. */
export function flattenTags(v: unknown): Record<string, string> | undefined {
  if (!v || typeof v !== 'object') return undefined;
  const out: Record<string, string> = {};
  for (const [ns, inner] of Object.entries(v as Props)) {
    if (inner && typeof inner === 'object') {
      for (const [k, x] of Object.entries(inner as Props)) out[`${ns}.${k}`] = String(x);
    } else out[ns] = String(inner);
  }
  return out;
}

export function nestTags(flat: Record<string, string>): Record<string, Record<string, string>> {
  const out: Record<string, Record<string, string>> = {};
  for (const [key, value] of Object.entries(flat)) {
    const dot = key.indexOf('.');
    const ns = key.slice(0, dot);
    (out[ns] ??= {})[key.slice(dot + 1)] = value;
  }
  return out;
}

const TAG_KEYS = new Set(['definedTags', 'systemTags']);

/**
 * Shapes an OCI SDK value by a schema property: picks the schema's fields, turns OCI's single
 * nested objects into pulumi-oci's one-element lists (`userDefinedStep` → `userDefinedSteps`),
 * flattens tags, writes dates as strings, and drops what is absent.
 */
export function shape(value: unknown, spec: PropSpec, name = ''): unknown {
  if (value === undefined || value === null) return undefined;
  if (TAG_KEYS.has(name)) return flattenTags(value);
  if (spec.$ref?.startsWith('#/types/')) return shapeObject(value, refType(spec.$ref));
  if (spec.type === 'array') {
    const list = Array.isArray(value) ? value : [value];
    return list.map((x) => shape(x, spec.items ?? {})).filter((x) => x !== undefined);
  }
  if (spec.type === 'object' && value && typeof value === 'object') {
    const out: Props = {};
    for (const [k, v] of Object.entries(value as Props)) out[k] = shape(v, spec.additionalProperties ?? {});
    return clean(out);
  }
  if (value instanceof Date) return value.toISOString();
  if (spec.type === 'string' && typeof value !== 'string')
    return typeof value === 'object' ? JSON.stringify(value) : String(value);
  return clean(value);
}

/**
 * What pulumi-oci reports for an attribute the service left out: Terraform's plugin SDK cannot
 * tell unset from zero, so the bridged outputs hold "", 0, false, [] or {} (and pulumi-oci's
 * output types are not optional: `step.userDefinedSteps.length` works on a step without one).
 * A single nested object stays absent.
 */
function zeroValue(spec: PropSpec): unknown {
  switch (spec.$ref ? undefined : spec.type) {
    case 'string':
      return '';
    case 'integer':
    case 'number':
      return 0;
    case 'boolean':
      return false;
    case 'array':
      return [];
    case 'object':
      return {};
    default:
      return undefined;
  }
}

/**
 * `outputs` with every property of `spec` they lack given its zero value (see zeroValue), as
 * pulumi-oci reports it, except `keepAbsent`'s. The server applies it last to a resource's outputs,
 * after the provider's own rules have read "absent" as "not reported"; there a DrPlan trigger with no
 * recorded counter stays absent, which is what makes an imported plan's first value only a baseline.
 */
export function withZeroValues(outputs: Props, spec: ObjectSpec, keepAbsent: readonly string[] = []): Props {
  const out: Props = { ...outputs };
  for (const [name, p] of Object.entries(spec.properties)) {
    if (out[name] !== undefined || keepAbsent.includes(name)) continue;
    const zero = zeroValue(p);
    if (zero !== undefined) out[name] = zero;
  }
  return out;
}

/**
 * Shapes an OCI object by an object type. A property the service left out gets its zero value
 * (see withZeroValues), except those in `keepAbsent`: a function's arguments, which stay as given,
 * and a resource's inputs, which stay absent while the provider's rules read them (import, refresh,
 * the unreported inputs) and get their zero values last.
 */
export function shapeObject(value: unknown, spec: ObjectSpec, keepAbsent: readonly string[] = []): Props | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const src = value as Props;
  const out: Props = {};
  for (const [name, p] of Object.entries(spec.properties)) {
    let v = src[name];
    // pulumi-oci pluralises Terraform's single nested blocks: OCI's `userDefinedStep` object
    // is `userDefinedSteps: [..]` here.
    if (v === undefined && p.type === 'array' && name.endsWith('s'))
      v = src[name.endsWith('ies') ? `${name.slice(0, -3)}y` : name.slice(0, -1)]; // testStrategies ← testStrategy
    // OCI's lifecycleState is Terraform's (and pulumi-oci's) `state`.
    if (v === undefined && name === 'state') v = src.lifecycleState;
    const s = shape(v, p, name);
    if (s !== undefined) out[name] = s;
  }
  return withZeroValues(out, spec, keepAbsent);
}

/**
 * A value converted to its declared type as Terraform's bridge (pulumi-oci) converts it: a numeric
 * string for a number (config values are strings: `inferenceUnits: config.get('units')`),
 * `"true"`/`"false"` for a boolean, and in a map of strings a number or boolean (a tag map filled
 * by `config set --path` holds them). Anything else, unknowns included, stays as it is for
 * typeError to name; a secret keeps its wrapper.
 */
export function coerce(value: unknown, spec: PropSpec, inMap = false): unknown {
  if (isSecret(value)) return secret(coerce(value.value, spec, inMap));
  if (value === undefined || value === null || isUnknown(value) || spec.$ref) return value;
  switch (spec.type) {
    case 'string':
      return inMap && (typeof value === 'number' || typeof value === 'boolean') ? String(value) : value;
    case 'integer':
    case 'number':
      return typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value;
    case 'boolean':
      return value === 'true' ? true : value === 'false' ? false : value;
    case 'array':
      return Array.isArray(value) ? value.map((x) => coerce(x, spec.items ?? {})) : value;
    case 'object':
      return value && typeof value === 'object' && !Array.isArray(value)
        ? Object.fromEntries(
            Object.entries(value).map(([k, x]) => [k, coerce(x, spec.additionalProperties ?? {}, true)]),
          )
        : value;
  }
  return value;
}

/** Why a value does not match its declared type, or undefined. Unknowns always match. */
export function typeError(value: unknown, spec: PropSpec): string | undefined {
  if (value === undefined || value === null || isUnknown(value)) return undefined;
  if (spec.$ref) return value && typeof value === 'object' && !Array.isArray(value) ? undefined : 'must be an object';
  switch (spec.type) {
    case 'string':
      return typeof value === 'string' ? undefined : 'must be a string';
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'must be a boolean';
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value) ? undefined : 'must be an integer';
    case 'number':
      return typeof value === 'number' ? undefined : 'must be a number';
    case 'array': {
      if (!Array.isArray(value)) return 'must be a list';
      const bad = value.map((x) => typeError(x, spec.items ?? {})).find(Boolean);
      return bad ? `every item ${bad}` : undefined;
    }
    case 'object': {
      if (!value || typeof value !== 'object' || Array.isArray(value)) return 'must be a map';
      const bad = Object.values(value)
        .map((x) => typeError(x, spec.additionalProperties ?? {}))
        .find(Boolean);
      return bad ? `every value ${bad}` : undefined;
    }
  }
  return undefined;
}

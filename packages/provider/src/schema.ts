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
  return shaperOf(spec, name)(value);
}

/** shape() for one property, its decisions taken once per schema property rather than per value. */
type Shaper = (value: unknown) => unknown;
const NO_SPEC: PropSpec = {};
const shapers = new WeakMap<PropSpec, Shaper>();
const shapeTags: Shaper = (v) => (v === undefined || v === null ? undefined : flattenTags(v));

function shaperOf(spec: PropSpec, name: string): Shaper {
  if (TAG_KEYS.has(name)) return shapeTags;
  let s = shapers.get(spec);
  if (!s) shapers.set(spec, (s = compileShaper(spec)));
  return s;
}

function compileShaper(spec: PropSpec): Shaper {
  const ref = spec.$ref;
  if (ref?.startsWith('#/types/'))
    return (v) => (v === undefined || v === null ? undefined : shapeObject(v, refType(ref)));
  if (spec.type === 'array') {
    const item = shaperOf(spec.items ?? NO_SPEC, '');
    return (v) => {
      if (v === undefined || v === null) return undefined;
      const out: unknown[] = [];
      for (const x of Array.isArray(v) ? v : [v]) {
        const s = item(x);
        if (s !== undefined) out.push(s);
      }
      return out;
    };
  }
  if (spec.type === 'object') {
    const value = shaperOf(spec.additionalProperties ?? NO_SPEC, '');
    return (v) => {
      if (v === undefined || v === null) return undefined;
      if (typeof v !== 'object') return clean(v);
      const out: Props = {};
      for (const [k, x] of Object.entries(v as Props)) {
        const s = value(x);
        if (s !== undefined) out[k] = s;
      }
      return out;
    };
  }
  if (spec.type === 'string')
    return (v) =>
      v === undefined || v === null
        ? undefined
        : typeof v === 'string'
          ? v
          : v instanceof Date
            ? v.toISOString()
            : typeof v === 'object'
              ? JSON.stringify(v)
              : String(v);
  return (v) => (v === undefined || v === null ? undefined : v instanceof Date ? v.toISOString() : clean(v));
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
  return fillZeroValues({ ...outputs }, spec, keepAbsent);
}

function fillZeroValues(out: Props, spec: ObjectSpec, keepAbsent: readonly string[]): Props {
  for (const [name, p] of compiled(spec).zeroable) {
    if (out[name] !== undefined || keepAbsent.includes(name)) continue;
    out[name] = zeroValue(p);
  }
  return out;
}

/** An object type's properties as shapeObject reads them, worked out once per type. */
interface CompiledObject {
  /** Each property, the OCI field it may come from when absent (`userDefinedStep`, `lifecycleState`), its shaper. */
  fields: Array<{ name: string; alt?: string; shape: Shaper }>;
  /** The properties that have a zero value (see zeroValue), in the schema's order. */
  zeroable: Array<[string, PropSpec]>;
}
const compiledObjects = new WeakMap<ObjectSpec, CompiledObject>();

function compiled(spec: ObjectSpec): CompiledObject {
  let c = compiledObjects.get(spec);
  if (!c) {
    c = { fields: [], zeroable: [] };
    for (const [name, p] of Object.entries(spec.properties)) {
      // pulumi-oci pluralises Terraform's single nested blocks: OCI's `userDefinedStep` object
      // is `userDefinedSteps: [..]` here; OCI's lifecycleState is Terraform's (and pulumi-oci's) `state`.
      const alt =
        p.type === 'array' && name.endsWith('s')
          ? name.endsWith('ies')
            ? `${name.slice(0, -3)}y` // testStrategies ← testStrategy
            : name.slice(0, -1)
          : name === 'state'
            ? 'lifecycleState'
            : undefined;
      c.fields.push({ name, alt, shape: shaperOf(p, name) });
      if (zeroValue(p) !== undefined) c.zeroable.push([name, p]);
    }
    compiledObjects.set(spec, c);
  }
  return c;
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
  for (const f of compiled(spec).fields) {
    let v = src[f.name];
    if (v === undefined && f.alt !== undefined) v = src[f.alt];
    const s = f.shape(v);
    if (s !== undefined) out[f.name] = s;
  }
  return fillZeroValues(out, spec, keepAbsent);
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

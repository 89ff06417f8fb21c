// What a resource module declares, and the generic Check and Diff computed from that declaration
// (types, required inputs and replacement fields come from schema.json).
import type { Clients } from '../clients';
import type { ProviderConfig } from '../config';
import { coerce, packageSchema, typeError, type PropSpec } from '../schema';
import { containsSecret, containsUnknown, isUnknown, reveal, type Props } from '../wire';

export interface Failure {
  property: string;
  reason: string;
}

export interface OpContext {
  clients: Clients;
  config: ProviderConfig;
  signal: AbortSignal;
  timeoutMs: number;
  /** `DrPlan "name"`, for messages. */
  subject: string;
  /** The resource's URN (names the resource across engine runs). */
  urn: string;
  /**
   * A create's key from ocikit's engine (gRPC metadata `ocikit-create-key`), the same when it
   * sends a create again after an interrupted run: the create's retry token derives from it.
   */
  createKey?: string;
  progress(message: string): void;
}

export interface UpdatePlan {
  id: string;
  olds: Props; // previous outputs
  oldInputs: Props;
  news: Props; // checked inputs, secrets revealed
  changed: string[];
}

export interface ResourceModule {
  token: string;
  kind: string;
  defaultTimeoutMs: number;
  /**
   * Optional inputs that keep OCI's value when the program leaves them out (pulumi-oci's
   * Optional+Computed: values the service fills in, and tags, which others may set too). Set to
   * an empty value (`{}`) to clear one.
   */
  computedInputs: string[];
  /** Counters whose increase runs an action (never sent to OCI as fields). */
  triggers: string[];
  defaults(inputs: Props): Props;
  validate(inputs: Props): Failure[];
  create(ctx: OpContext, inputs: Props): Promise<{ id: string; outputs: Props }>;
  /** Outputs, or undefined when the resource is gone (404 or DELETED). */
  read(ctx: OpContext, id: string): Promise<Props | undefined>;
  update(ctx: OpContext, plan: UpdatePlan): Promise<Props>;
  delete(ctx: OpContext, id: string): Promise<void>;
  /** The inputs that reproduce these outputs (import and refresh). */
  inputsFromOutputs(outputs: Props): Props;
  /** Inputs OCI does not report back (kept from the state on Read). */
  unreported: string[];
  /** Outputs that never change in an in-place update. */
  stables: string[];
  /** Outputs known before creation (preview): the inputs plus what the service will compute, unknown. */
  computedOutputs: string[];
}

export function inputSpecs(token: string): {
  props: Record<string, PropSpec>;
  required: string[];
  replaces: Set<string>;
} {
  const r = packageSchema().resources[token];
  const replaces = new Set(
    Object.entries(r.inputProperties)
      .filter(([, p]) => p.willReplaceOnChanges)
      .map(([k]) => k),
  );
  return { props: r.inputProperties, required: r.requiredInputs ?? [], replaces };
}

/** Generic Check: required inputs, declared types, then the module's own rules. Unknowns pass. */
export function checkInputs(mod: ResourceModule, news: Props): Failure[] {
  const { props, required } = inputSpecs(mod.token);
  const failures: Failure[] = [];
  const plain = reveal(news) as Props;
  for (const key of required) {
    const v = plain[key];
    if (v === undefined || v === null) failures.push({ property: key, reason: `missing required property '${key}'` });
    else if (typeof v === 'string' && v === '' && !isUnknown(v))
      // Terraform's SDK (so pulumi-oci) takes an empty string for unset: said, since one was given.
      failures.push({ property: key, reason: `missing required property '${key}' (an empty string counts as unset)` });
  }
  for (const [key, v] of Object.entries(plain)) {
    const spec = props[key];
    if (!spec) {
      failures.push({ property: key, reason: `'${key}' is not an input of ${mod.kind}` });
      continue;
    }
    const bad = typeError(v, spec);
    if (bad) failures.push({ property: key, reason: `${key} ${bad}` });
  }
  // The module's rules too, as pulumi-oci's bridge reports every attribute's problem at once: a
  // wrong type elsewhere must not hide an out-of-range value; a property already refused is not
  // refused twice.
  const refused = new Set(failures.map((f) => f.property));
  return [...failures, ...mod.validate(plain).filter((f) => !refused.has(f.property))];
}

/** Check's first step: each declared input converted to its type as pulumi-oci converts it (see coerce). */
export function coerceInputs(mod: ResourceModule, news: Props): Props {
  const { props } = inputSpecs(mod.token);
  return Object.fromEntries(Object.entries(news).map(([k, v]) => [k, props[k] ? coerce(v, props[k]) : v]));
}

/**
 * Check's inputs: an optional string input set to "" is left out, as Terraform's SDK (pulumi-oci's
 * base) leaves it out: "" and unset are one value there, so OCI is never sent `alias: ""` (which
 * it refuses) and `description: ""` diffs as no change with a resource that has none.
 */
export function withoutEmptyOptionals(mod: ResourceModule, inputs: Props): Props {
  const { props, required } = inputSpecs(mod.token);
  const out: Props = {};
  for (const [key, value] of Object.entries(inputs))
    if (!(value === '' && props[key]?.type === 'string' && !required.includes(key))) out[key] = value;
  return out;
}

/**
 * Defined-tag keys the service or the user asked us to ignore never make a diff. `ignoreDefinedTags`
 * matches whatever the case, as pulumi-oci's (Terraform's DefinedTagsDiffSuppressFunction compares
 * with strings.EqualFold).
 */
export function tagFilter(config: ProviderConfig): (key: string) => boolean {
  const ignored = new Set(config.ignoreDefinedTags.map((k) => k.toLowerCase()));
  return (key) => !key.startsWith('Oracle-Tags.') && !ignored.has(key.toLowerCase());
}

/**
 * Whether two defined-tag maps differ only in the case of their keys: no change, as in pulumi-oci
 * (Terraform's DefinedTagsDiffSuppressFunction compares the maps with their keys lowercased), since
 * OCI's tag namespaces and keys are case-insensitive and OCI answers with the tag's own case.
 */
function sameIgnoringKeyCase(a: unknown, b: unknown): boolean {
  if (!isMap(a) || !isMap(b)) return false;
  const lower = (m: Props) =>
    JSON.stringify(
      Object.entries(m)
        .map(([k, v]): [string, unknown] => [k.toLowerCase(), v])
        .sort(([x], [y]) => (x < y ? -1 : 1)),
    );
  return lower(a) === lower(b);
}

function normalise(key: string, v: unknown, keepTag: (k: string) => boolean): unknown {
  // "" is unset, as for Terraform (see withoutEmptyOptionals).
  if (v === null || v === '') return undefined;
  if (v && typeof v === 'object' && !Array.isArray(v)) {
    const entries = Object.entries(v as Props).filter(([k]) => key !== 'definedTags' || keepTag(k));
    return entries.length ? Object.fromEntries(entries.sort(([a], [b]) => a.localeCompare(b))) : undefined;
  }
  return v;
}

export type DiffKind = 'ADD' | 'DELETE' | 'UPDATE';
export interface InputDiff {
  changed: string[];
  replaces: string[];
  /** `inputDiff`: the old value compared was the old input (else the old output, as for a trigger). */
  detailed: Record<string, { kind: DiffKind; replace: boolean; inputDiff: boolean }>;
}

export function diffInputs(
  mod: ResourceModule,
  olds: Props,
  oldInputs: Props,
  news: Props,
  config: ProviderConfig,
): InputDiff {
  const { props, replaces } = inputSpecs(mod.token);
  const keepTag = tagFilter(config);
  const out: InputDiff = { changed: [], replaces: [], detailed: {} };
  for (const key of Object.keys(props)) {
    const hasOldInput = Object.keys(oldInputs).length > 0;
    // Non-trigger inputs compare with what the user last asked for (old inputs) when the engine
    // sends them, so a service default (e.g. displayName chosen by OCI) is not a change.
    // Triggers read their applied counter in the outputs first, so a failed action (whose outputs
    // keep the old counter) is retried.
    // A computed input the program left out last time has OCI's value: that is what a value set
    // now is compared with (so `freeformTags: {}` clears tags the program no longer named).
    const computed = mod.computedInputs.includes(key);
    const fromOutputs = mod.triggers.includes(key)
      ? olds[key] !== undefined && olds[key] !== null
      : !hasOldInput || (computed && oldInputs[key] === undefined);
    const o = reveal(fromOutputs ? olds[key] : oldInputs[key]);
    const n = reveal(news[key]);
    if (n === undefined && computed) continue;
    // A trigger with no recorded counter (after import) gets its baseline from the first value:
    // nothing to run. A trigger removed from the program runs nothing either (as lowering it).
    if (mod.triggers.includes(key) && (o === undefined || o === null || n === undefined || n === null)) continue;
    let kind: DiffKind | undefined;
    if (containsUnknown(n)) kind = 'UPDATE';
    else {
      const a = normalise(key, o, keepTag);
      const b = normalise(key, n, keepTag);
      if (JSON.stringify(a) !== JSON.stringify(b) && !(key === 'definedTags' && sameIgnoringKeyCase(a, b)))
        kind = a === undefined ? 'ADD' : b === undefined ? 'DELETE' : 'UPDATE';
    }
    if (!kind) continue;
    const replace = replaces.has(key);
    out.changed.push(key);
    if (replace) out.replaces.push(key);
    // A map (tags), also one added, emptied or cleared with {}, is diffed key by key. A secret map
    // stays one entry: its keys are part of the secret.
    const asMap = (v: unknown) => (v === undefined ? {} : isMap(v) ? v : undefined);
    const a = asMap(normalise(key, o, keepTag));
    const b = asMap(normalise(key, n, keepTag));
    const secretMap = containsSecret(fromOutputs ? olds[key] : oldInputs[key]) || containsSecret(news[key]);
    if (props[key].type === 'object' && a && b && !secretMap && !containsUnknown(n)) {
      // A map changed in place (tags) is diffed key by key, as pulumi-oci's bridge reports it, so
      // `replaceOnChanges: ['freeformTags.env']` and the display see which keys changed.
      for (const sub of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) {
        const was = JSON.stringify(a[sub]);
        const now = JSON.stringify(b[sub]);
        if (was === now) continue;
        const subKind: DiffKind = was === undefined ? 'ADD' : now === undefined ? 'DELETE' : 'UPDATE';
        out.detailed[`${key}${pathSegment(sub)}`] = { kind: subKind, replace, inputDiff: !fromOutputs };
      }
    } else out.detailed[key] = { kind, replace, inputDiff: !fromOutputs };
  }
  return out;
}

function isMap(v: unknown): v is Props {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A map key as a Pulumi property path segment: `.key`, or `["key"]` when it has `.`, `[`, `]` or quotes. */
function pathSegment(key: string): string {
  return /^[^.[\]"\\\s]+$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
}

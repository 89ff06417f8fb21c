// The subset of the Pulumi package schema (pulumi/pulumi pkg/codegen/schema/pulumi.json) that the
// generator reads. Unknown keys are ignored, so a richer schema still loads.

export type PrimitiveType = 'string' | 'integer' | 'number' | 'boolean';

export interface TypeSpec {
  type?: PrimitiveType | 'array' | 'object';
  items?: TypeSpec;
  additionalProperties?: TypeSpec;
  $ref?: string;
  plain?: boolean;
  oneOf?: TypeSpec[];
}

export interface PropertySpec extends TypeSpec {
  description?: string;
  default?: unknown;
  defaultInfo?: { environment?: string[] };
  secret?: boolean;
  const?: unknown;
  deprecationMessage?: string;
  replaceOnChanges?: boolean;
  willReplaceOnChanges?: boolean;
}

export interface ObjectTypeSpec {
  description?: string;
  type?: string;
  properties?: Record<string, PropertySpec>;
  required?: string[];
  enum?: { name?: string; value: unknown; description?: string }[];
  /** Bridged schemas state per-language requiredness: requiredOutputs wins over required in outputs. */
  language?: { nodejs?: { requiredInputs?: string[]; requiredOutputs?: string[] } };
}

/** The properties always present in an output of this object type. */
export function requiredOutputs(type: ObjectTypeSpec): Set<string> {
  return new Set(type.language?.nodejs?.requiredOutputs ?? type.required ?? []);
}

/** The properties a user must give in an input of this object type. */
export function requiredInputs(type: ObjectTypeSpec): Set<string> {
  return new Set(type.language?.nodejs?.requiredInputs ?? type.required ?? []);
}

export interface ResourceSpec extends ObjectTypeSpec {
  inputProperties?: Record<string, PropertySpec>;
  requiredInputs?: string[];
  stateInputs?: ObjectTypeSpec;
  deprecationMessage?: string;
  isComponent?: boolean;
}

export interface FunctionSpec {
  description?: string;
  inputs?: ObjectTypeSpec;
  outputs?: ObjectTypeSpec;
  deprecationMessage?: string;
}

export interface PackageSchema {
  name: string;
  version?: string;
  description?: string;
  meta?: { moduleFormat?: string };
  config?: { variables?: Record<string, PropertySpec>; required?: string[] };
  provider?: ResourceSpec;
  resources?: Record<string, ResourceSpec>;
  types?: Record<string, ObjectTypeSpec>;
  functions?: Record<string, FunctionSpec>;
  language?: { nodejs?: { packageName?: string } };
}

/** A parsed token `pkg:module/member:Name`. */
export interface Token {
  token: string;
  /** The schema module, e.g. `DisasterRecovery` (namespace name in types/input and types/output). */
  module: string;
  /** The Node.js folder of the module, e.g. `disasterrecovery`. */
  folder: string;
  /** The last part, e.g. `DrPlan` or `getDrPlans`. */
  name: string;
  /** The file name without extension, e.g. `drPlan`. */
  file: string;
}

export function parseSchema(text: string, source: string): PackageSchema {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new Error(`${source} is not valid JSON: ${(err as Error).message}`, { cause: err });
  }
  if (typeof value !== 'object' || value === null || typeof (value as { name?: unknown }).name !== 'string') {
    throw new Error(`${source} is not a Pulumi package schema: it has no "name"`);
  }
  return value as PackageSchema;
}

export function parseToken(schema: PackageSchema, token: string): Token {
  const parts = token.split(':');
  if (parts.length !== 3) throw new Error(`invalid token ${token}: expected <package>:<module>:<name>`);
  const [, moduleMember, name] = parts as [string, string, string];
  // Bridged providers use (.*)(?:/[^/]*): the module is everything before the last slash.
  const format = new RegExp(`^(?:${schema.meta?.moduleFormat ?? '(.*)'})$`);
  const match = format.exec(moduleMember);
  const module = match?.[1] ?? moduleMember;
  return { token, module, folder: module.toLowerCase(), name, file: camel(name) };
}

export function camel(name: string): string {
  return name.charAt(0).toLowerCase() + name.slice(1);
}

/** The token a `$ref` names, or undefined for refs outside this schema (`pulumi.json#/Any`, …). */
export function refToken(ref: string): string | undefined {
  const prefix = '#/types/';
  const at = ref.indexOf(prefix);
  return at >= 0 ? decodeURIComponent(ref.slice(at + prefix.length)) : undefined;
}

export function sortedEntries<T>(record: Record<string, T> | undefined): [string, T][] {
  return Object.entries(record ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

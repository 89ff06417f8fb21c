// Turns schema type specs into TypeScript type expressions, the way Pulumi's Node.js code generator
// shapes them for @pulumi/oci: inputs wrapped in pulumi.Input<…> at every level, outputs plain,
// function arguments plain (with an …Args Input-wrapped twin for the …Output form).
import { PackageSchema, PropertySpec, TypeSpec, parseToken, refToken, sortedEntries } from './schema';

/** Where a type is used: resource inputs/state, plain function arguments, or outputs/results. */
export type Usage = 'input' | 'plain' | 'output';

export class TypeMap {
  readonly inputTypes = new Set<string>();
  readonly plainTypes = new Set<string>();
  readonly outputTypes = new Set<string>();

  constructor(readonly schema: PackageSchema) {
    const provider = schema.provider;
    for (const prop of Object.values(provider?.inputProperties ?? {})) this.mark(prop, this.inputTypes);
    for (const [, res] of sortedEntries(schema.resources)) {
      for (const prop of Object.values(res.inputProperties ?? {})) this.mark(prop, this.inputTypes);
      for (const prop of Object.values(res.stateInputs?.properties ?? {})) this.mark(prop, this.inputTypes);
      for (const prop of Object.values(res.properties ?? {})) this.mark(prop, this.outputTypes);
    }
    for (const [, fn] of sortedEntries(schema.functions)) {
      for (const prop of Object.values(fn.inputs?.properties ?? {})) this.mark(prop, this.plainTypes);
      for (const prop of Object.values(fn.outputs?.properties ?? {})) this.mark(prop, this.outputTypes);
    }
  }

  /** Records every object type reachable from a property. */
  private mark(spec: TypeSpec, into: Set<string>): void {
    if (spec.items) this.mark(spec.items, into);
    if (spec.additionalProperties) this.mark(spec.additionalProperties, into);
    for (const alt of spec.oneOf ?? []) this.mark(alt, into);
    const token = spec.$ref ? refToken(spec.$ref) : undefined;
    if (!token || into.has(token)) return;
    const type = this.schema.types?.[token];
    if (!type) throw new Error(`schema refers to type ${token}, which is not in "types"`);
    if (type.enum) return;
    into.add(token);
    for (const prop of Object.values(type.properties ?? {})) this.mark(prop, into);
  }

  /** The interface name of an object type in types/input for the given usage. */
  inputName(token: string, usage: 'input' | 'plain'): string {
    const { name } = parseToken(this.schema, token);
    return usage === 'input' && this.plainTypes.has(token) ? `${name}Args` : name;
  }

  /** The type of a property as declared, before optionality (`pulumi.Input<…>` is added by the caller). */
  inner(spec: TypeSpec, usage: Usage): string {
    const wrap = (t: string) => (usage === 'input' && !spec.plain ? `pulumi.Input<${t}>` : t);
    if (spec.$ref) {
      const token = refToken(spec.$ref);
      if (!token) return 'unknown'; // pulumi.json#/Any and #/Json
      const type = this.schema.types?.[token];
      if (type?.enum) return this.primitive(type.type);
      const { module } = parseToken(this.schema, token);
      return usage === 'output'
        ? `outputs.${module}.${parseToken(this.schema, token).name}`
        : `inputs.${module}.${this.inputName(token, usage)}`;
    }
    if (spec.oneOf) return spec.oneOf.map((alt) => this.inner(alt, usage)).join(' | ');
    switch (spec.type) {
      case 'array':
        return `${this.element(spec.items ?? {}, usage, wrap)}[]`;
      case 'object':
        return `{[key: string]: ${spec.additionalProperties ? this.element(spec.additionalProperties, usage, wrap) : 'unknown'}}`;
      default:
        return this.primitive(spec.type);
    }
  }

  private element(spec: TypeSpec, usage: Usage, wrap: (t: string) => string): string {
    const inner = this.inner(spec, usage);
    return usage === 'input' ? wrap(inner.includes(' | ') ? `(${inner})` : inner) : parenthesize(inner);
  }

  private primitive(type: string | undefined): string {
    switch (type) {
      case 'string':
        return 'string';
      case 'integer':
      case 'number':
        return 'number';
      case 'boolean':
        return 'boolean';
      default:
        return 'unknown';
    }
  }

  /** A property of an Args/State/input interface: `name?: pulumi.Input<T | undefined>` or `name: pulumi.Input<T>`. */
  inputProperty(name: string, spec: PropertySpec, required: boolean, usage: 'input' | 'plain'): string {
    const inner = this.inner(spec, usage);
    if (usage === 'plain' || spec.plain) return required ? `${name}: ${inner}` : `${name}?: ${inner}`;
    return required ? `${name}: pulumi.Input<${inner}>` : `${name}?: pulumi.Input<${inner} | undefined>`;
  }

  /** A property of an output interface or function result. */
  outputProperty(name: string, spec: PropertySpec, required: boolean, readonly: boolean): string {
    return `${readonly ? 'readonly ' : ''}${name}${required ? '' : '?'}: ${this.inner(spec, 'output')}`;
  }
}

function parenthesize(t: string): string {
  return t.includes(' | ') ? `(${t})` : t;
}

/** A JSDoc block from a description and an optional deprecation message; '' when both are empty. */
export function docComment(description: string | undefined, deprecation?: string): string {
  const lines: string[] = [];
  if (description?.trim()) lines.push(...description.trim().split('\n'));
  if (deprecation?.trim()) {
    if (lines.length) lines.push('');
    lines.push(`@deprecated ${deprecation.trim()}`);
  }
  if (!lines.length) return '';
  const body = lines.map((l) => ` * ${l.replace(/\*\//g, '*\\/')}`.trimEnd()).join('\n');
  return `/**\n${body}\n */\n`;
}

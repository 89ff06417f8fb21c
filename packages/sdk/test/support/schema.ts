// The provider's schema.json as the tests read it, and sample values shaped by its types.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { PackageSchema, PropertySpec, TypeSpec, parseSchema, parseToken, refToken } from '../../codegen/schema';

export const schemaPath = resolve(__dirname, '../../../provider/schema.json');
export const schema: PackageSchema = parseSchema(readFileSync(schemaPath, 'utf8'), schemaPath);
export const packageVersion = (require('../../package.json') as { version: string }).version;

export { parseToken };

/** A value of the property's type, distinct per property name. */
export function sample(name: string, spec: TypeSpec, depth = 0): unknown {
  if (spec.$ref) {
    const token = refToken(spec.$ref);
    const type = token ? schema.types?.[token] : undefined;
    if (!type) return {};
    if (type.enum) return type.enum[0]?.value;
    if (depth > 6) return {};
    return Object.fromEntries(Object.entries(type.properties ?? {}).map(([n, p]) => [n, sample(n, p, depth + 1)]));
  }
  switch (spec.type) {
    case 'string':
      return `${name}-value`;
    case 'integer':
      return name.length;
    case 'number':
      return name.length + 0.5;
    case 'boolean':
      return true;
    case 'array':
      return [sample(name, spec.items ?? {}, depth + 1)];
    case 'object':
      return { [`${name}.key`]: sample(name, spec.additionalProperties ?? { type: 'string' }, depth + 1) };
    default:
      return `${name}-value`;
  }
}

export function samples(props: Record<string, PropertySpec> | undefined): Record<string, unknown> {
  return Object.fromEntries(Object.entries(props ?? {}).map(([n, p]) => [n, sample(n, p)]));
}

// types/input.ts, types/output.ts and types/index.ts: nested object types, one namespace per module
// (`inputs.DisasterRecovery.DrPlanPlanGroup`), as @pulumi/oci has them.
import { indent } from './emit-resource';
import { finish } from './header';
import { ObjectTypeSpec, PackageSchema, parseToken, requiredInputs, requiredOutputs, sortedEntries } from './schema';
import { TypeMap, docComment } from './type-map';

interface Emitted {
  module: string;
  name: string;
  code: string;
}

export function emitInputTypes(types: TypeMap): string {
  const out: Emitted[] = [];
  const schema = types.schema;
  for (const token of [...types.inputTypes].sort()) {
    const name = types.inputName(token, 'input');
    out.push({ ...moduleOf(schema, token, name), code: objectInterface(types, name, spec(schema, token), 'input') });
  }
  for (const token of [...types.plainTypes].sort()) {
    const { name } = parseToken(schema, token);
    out.push({ ...moduleOf(schema, token, name), code: objectInterface(types, name, spec(schema, token), 'plain') });
    out.push({
      ...moduleOf(schema, token, `${name}Args`),
      code: objectInterface(types, `${name}Args`, spec(schema, token), 'input'),
    });
  }
  return finish(namespaces(out), '../');
}

export function emitOutputTypes(types: TypeMap): string {
  const schema = types.schema;
  const out = [...types.outputTypes].sort().map((token) => {
    const { name } = parseToken(schema, token);
    const type = spec(schema, token);
    const required = requiredOutputs(type);
    const body = sortedEntries(type.properties)
      .map(
        ([n, p]) =>
          `${indent(docComment(p.description, p.deprecationMessage), 4)}    ${types.outputProperty(n, p, required.has(n), false)};\n`,
      )
      .join('');
    return {
      ...moduleOf(schema, token, name),
      code: `${docComment(type.description)}export interface ${name} {\n${body}}\n`,
    };
  });
  return finish(namespaces(out), '../');
}

export function emitTypesIndex(): string {
  return finish(
    `
import * as input from './input';
import * as output from './output';

export { input, output };
`,
    '../',
  );
}

function objectInterface(types: TypeMap, name: string, type: ObjectTypeSpec, usage: 'input' | 'plain'): string {
  const required = requiredInputs(type);
  const body = sortedEntries(type.properties)
    .map(
      ([n, p]) =>
        `${indent(docComment(p.description, p.deprecationMessage), 4)}    ${types.inputProperty(n, p, required.has(n), usage)};\n`,
    )
    .join('');
  return `${docComment(type.description)}export interface ${name} {\n${body}}\n`;
}

function namespaces(items: Emitted[]): string {
  const byModule = new Map<string, Emitted[]>();
  for (const item of items) byModule.set(item.module, [...(byModule.get(item.module) ?? []), item]);
  const modules = [...byModule.keys()].sort();
  if (!modules.length) return '\nexport {};\n';
  return modules
    .map((m) => {
      const members = byModule
        .get(m)!
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
        .map((i) => indent(i.code, 4))
        .join('\n');
      return `\nexport namespace ${m} {\n${members}}\n`;
    })
    .join('');
}

function moduleOf(schema: PackageSchema, token: string, name: string): { module: string; name: string } {
  return { module: parseToken(schema, token).module, name };
}

function spec(schema: PackageSchema, token: string): ObjectTypeSpec {
  const type = schema.types?.[token];
  if (!type) throw new Error(`type ${token} is not in the schema`);
  return type;
}

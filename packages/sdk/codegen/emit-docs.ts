// Reference pages (docs/reference/) from the same schema as the SDK: per resource its inputs,
// outputs, nested types, replacing inputs, import command and a worked example; per function its
// arguments and result.
import { examples } from './examples';
import { MARKDOWN_HEADER_LINE } from './header';
import {
  requiredOutputs,
  FunctionSpec,
  PackageSchema,
  PropertySpec,
  ResourceSpec,
  Token,
  TypeSpec,
  refToken,
  sortedEntries,
} from './schema';
import { TypeMap } from './type-map';

export interface DocPage {
  path: string;
  content: string;
}

export function docPath(tok: Token): string {
  return `${tok.folder}/${tok.file}.md`;
}

export function emitResourceDoc(types: TypeMap, packageName: string, tok: Token, res: ResourceSpec): string {
  const inputs = sortedEntries(res.inputProperties);
  const requiredInputs = new Set(res.requiredInputs ?? []);
  const inputNames = new Set(inputs.map(([n]) => n));
  const outputOnly = sortedEntries(res.properties).filter(([n]) => !inputNames.has(n));
  const replacing = inputs.filter(([, p]) => p.willReplaceOnChanges || p.replaceOnChanges).map(([n]) => n);
  const nested = nestedTypes(types, [
    ...Object.values(res.properties ?? {}),
    ...Object.values(res.inputProperties ?? {}),
  ]);
  const access = `oci.${tok.folder}.${tok.name}`;
  const example = examples[tok.token] ?? resourceExample(types, packageName, tok, res);
  return `${MARKDOWN_HEADER_LINE}

# ${tok.name}

\`${access}\` — Pulumi type token \`${tok.token}\`.

${prose(res.description)}

## Example

\`\`\`typescript
${example.trimEnd()}
\`\`\`

## Inputs

\`new ${access}(name: string, args: ${tok.name}Args, opts?: pulumi.CustomResourceOptions)\`

| Property | Type | Required | Forces replacement | Description |
| --- | --- | --- | --- | --- |
${inputs
  .map(
    ([n, p]) =>
      `| \`${n}\` | ${docType(types, p)} | ${requiredInputs.has(n) ? 'yes' : 'no'} | ${p.willReplaceOnChanges || p.replaceOnChanges ? 'yes' : 'no'} | ${cell(p)} |`,
  )
  .join('\n')}

## Outputs

Every input is also an output property, plus \`id\` (the provider-assigned id) and \`urn\`, and:

| Property | Type | Description |
| --- | --- | --- |
${outputOnly.map(([n, p]) => `| \`${n}\` | ${docType(types, p)} | ${cell(p)} |`).join('\n')}

## Replacement

${
  replacing.length
    ? `Changing ${replacing.map((n) => `\`${n}\``).join(', ')} replaces the ${tok.name}: a new one is created and the old one deleted. Every other input is updated in place.`
    : `No input forces a replacement: every input is updated in place.`
}
${nested}
## Look up an existing ${tok.name}

\`${tok.name}.get(name, id, state?, opts?)\` reads an existing resource by its id without managing it; \`${tok.name}.isInstance(obj)\` tells whether a value is one.

\`\`\`typescript
import * as oci from '${packageName}';

const existing = ${access}.get('existing', 'ocid1.example');

export const existingState = existing.state;
\`\`\`

## Import

\`\`\`sh
pulumi import ${tok.token} <name> <id>
\`\`\`
`;
}

export function emitFunctionDoc(types: TypeMap, packageName: string, tok: Token, fn: FunctionSpec): string {
  const args = sortedEntries(fn.inputs?.properties);
  const required = new Set(fn.inputs?.required ?? []);
  const results = sortedEntries(fn.outputs?.properties);
  const nested = nestedTypes(types, [...args.map(([, p]) => p), ...results.map(([, p]) => p)]);
  const access = `oci.${tok.folder}.${tok.name}`;
  const iface = tok.name.charAt(0).toUpperCase() + tok.name.slice(1);
  return `${MARKDOWN_HEADER_LINE}

# ${tok.name}

\`${access}\` and \`${access}Output\` — Pulumi function token \`${tok.token}\`.

${prose(fn.description)}

## Example

\`\`\`typescript
${(examples[tok.token] ?? functionExample(types, packageName, tok, fn)).trimEnd()}
\`\`\`

## Arguments

\`${tok.name}(args: ${iface}Args, opts?: pulumi.InvokeOptions): Promise<${iface}Result>\`; \`${tok.name}Output(args: ${iface}OutputArgs, opts?: pulumi.InvokeOutputOptions): pulumi.Output<${iface}Result>\` takes the same arguments as inputs (values or Outputs).

| Argument | Type | Required | Description |
| --- | --- | --- | --- |
${args.map(([n, p]) => `| \`${n}\` | ${docType(types, p)} | ${required.has(n) ? 'yes' : 'no'} | ${cell(p)} |`).join('\n')}

## Result

| Property | Type | Description |
| --- | --- | --- |
${results.map(([n, p]) => `| \`${n}\` | ${docType(types, p)} | ${cell(p)} |`).join('\n')}
${nested}`;
}

export function emitDocsIndex(
  schema: PackageSchema,
  packageName: string,
  resources: Token[],
  functions: Token[],
): string {
  const byFolder = new Map<string, { res: Token[]; fns: Token[] }>();
  for (const r of resources)
    byFolder.set(r.folder, {
      res: [...(byFolder.get(r.folder)?.res ?? []), r],
      fns: byFolder.get(r.folder)?.fns ?? [],
    });
  for (const f of functions)
    byFolder.set(f.folder, {
      res: byFolder.get(f.folder)?.res ?? [],
      fns: [...(byFolder.get(f.folder)?.fns ?? []), f],
    });
  const sections = [...byFolder.keys()]
    .sort()
    .map((folder) => {
      const { res, fns } = byFolder.get(folder)!;
      return `## \`oci.${folder}\`

${res.map((r) => `- resource [${r.name}](${docPath(r)}) — \`${r.token}\``).join('\n')}
${fns.map((f) => `- function [${f.name}](${docPath(f)}) / \`${f.name}Output\` — \`${f.token}\``).join('\n')}
`;
    })
    .join('\n');
  const config = sortedEntries(schema.config?.variables);
  return `${MARKDOWN_HEADER_LINE}

# \`${packageName}\` reference

Generated from \`packages/provider/schema.json\` (package \`${schema.name}\`${schema.version ? ` ${schema.version}` : ''}). \`import * as oci from '${packageName}';\`

${sections}
## Provider configuration

Stack settings \`${schema.name}:<key>\` (\`pulumi config set ${schema.name}:region us-ashburn-1\`), readable in a program through \`oci.config.<key>\`, or the same keys as \`new oci.Provider(name, args)\` arguments.

| Key | Type | Environment default | Secret | Description |
| --- | --- | --- | --- | --- |
${config
  .map(
    ([n, p]) =>
      `| \`${n}\` | ${docType(new TypeMap(schema), p)} | ${(p.defaultInfo?.environment ?? []).map((e) => `\`${e}\``).join(', ') || '—'} | ${p.secret || schema.provider?.inputProperties?.[n]?.secret ? 'yes' : 'no'} | ${cell(p)} |`,
  )
  .join('\n')}
`;
}

function resourceExample(types: TypeMap, packageName: string, tok: Token, res: ResourceSpec): string {
  const required = res.requiredInputs ?? [];
  const args = required.map((n) => `  ${n}: ${sample(types, n, res.inputProperties?.[n] ?? {})},`).join('\n');
  return `import * as pulumi from '@pulumi/pulumi';
import * as oci from '${packageName}';

const config = new pulumi.Config();

const resource = new oci.${tok.folder}.${tok.name}('example', {
${args}
});

export const id = resource.id;
`;
}

function functionExample(types: TypeMap, packageName: string, tok: Token, fn: FunctionSpec): string {
  const required = fn.inputs?.required ?? [];
  const args = required.map((n) => `  ${n}: ${sample(types, n, fn.inputs?.properties?.[n] ?? {})},`).join('\n');
  const result = sortedEntries(fn.outputs?.properties).find(([n]) => n !== 'id');
  return `import * as pulumi from '@pulumi/pulumi';
import * as oci from '${packageName}';

const config = new pulumi.Config();

// The Output form takes values or Outputs and returns an Output of the result.
const result = oci.${tok.folder}.${tok.name}Output({
${args}
});

export const ${result ? result[0] : 'id'} = result.${result ? result[0] : 'id'};
`;
}

function sample(types: TypeMap, name: string, spec: TypeSpec): string {
  if (spec.$ref) {
    const token = refToken(spec.$ref);
    const type = token ? types.schema.types?.[token] : undefined;
    if (type?.enum) return JSON.stringify(type.enum[0]?.value ?? '');
    return '{}';
  }
  switch (spec.type) {
    case 'string':
      return `config.require('${name}')`;
    case 'integer':
    case 'number':
      return '1';
    case 'boolean':
      return 'true';
    case 'array':
      return '[]';
    default:
      return '{}';
  }
}

function nestedTypes(types: TypeMap, roots: PropertySpec[]): string {
  const seen = new Set<string>();
  const visit = (spec: TypeSpec) => {
    if (spec.items) visit(spec.items);
    if (spec.additionalProperties) visit(spec.additionalProperties);
    const token = spec.$ref ? refToken(spec.$ref) : undefined;
    if (!token || seen.has(token)) return;
    const type = types.schema.types?.[token];
    if (!type || type.enum) return;
    seen.add(token);
    for (const p of Object.values(type.properties ?? {})) visit(p);
  };
  roots.forEach(visit);
  if (!seen.size) return '';
  const sections = [...seen]
    .map((token) => [token, token.split(':')[2] ?? token] as const)
    .sort(([, a], [, b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([token, name]) => {
      const type = types.schema.types![token]!;
      const required = requiredOutputs(type);
      return `### ${name}

${type.description ? `${prose(type.description)}\n\n` : ''}${typeNames(types, token)}

| Property | Type | Always set in outputs | Description |
| --- | --- | --- | --- |
${sortedEntries(type.properties)
  .map(([n, p]) => `| \`${n}\` | ${docType(types, p)} | ${required.has(n) ? 'yes' : 'no'} | ${cell(p)} |`)
  .join('\n')}
`;
    })
    .join('\n');
  return `\n## Nested types\n\n${sections}`;
}

/** The SDK names of a nested type, e.g. `oci.types.output.DisasterRecovery.DrPlanPlanGroup`. */
function typeNames(types: TypeMap, token: string): string {
  const module = token.split(':')[1]!.split('/')[0]!;
  const name = token.split(':')[2]!;
  const names: string[] = [];
  if (types.inputTypes.has(token)) names.push(`oci.types.input.${module}.${types.inputName(token, 'input')}`);
  if (types.plainTypes.has(token))
    names.push(`oci.types.input.${module}.${name}`, `oci.types.input.${module}.${name}Args`);
  if (types.outputTypes.has(token)) names.push(`oci.types.output.${module}.${name}`);
  return names.map((n) => `\`${n}\``).join(' · ');
}

function docType(types: TypeMap, spec: TypeSpec): string {
  if (spec.$ref) {
    const token = refToken(spec.$ref);
    if (!token) return 'any';
    const type = types.schema.types?.[token];
    const name = token.split(':')[2] ?? token;
    if (type?.enum) return `${type.type ?? 'string'} (${type.enum.map((e) => `\`${String(e.value)}\``).join(', ')})`;
    return `[${name}](#${name.toLowerCase()})`;
  }
  switch (spec.type) {
    case 'array':
      return `list of ${docType(types, spec.items ?? {})}`;
    case 'object':
      return `map of ${spec.additionalProperties ? docType(types, spec.additionalProperties) : 'any'}`;
    case 'integer':
      return 'integer';
    default:
      return spec.type ?? 'any';
  }
}

function cell(p: PropertySpec): string {
  const text = [
    p.description ?? '',
    p.secret ? '(secret)' : '',
    p.deprecationMessage ? `Deprecated: ${p.deprecationMessage}` : '',
  ]
    .filter(Boolean)
    .join(' ');
  return text
    .replace(/\s*\n\s*/g, ' ')
    .replace(/\|/g, '\\|')
    .trim();
}

/**
 * A schema description as page prose. Its own "## Example Usage" and "## Import" sections are
 * dropped: the page renders both itself, with an example that compiles against this package
 * (bridged descriptions carry Terraform-derived examples that import @pulumi/oci).
 */
function prose(text: string | undefined): string {
  const sections = (text ?? '').split(/^(?=## )/m);
  return sections
    .filter((s) => !/^## (Example Usage|Import)\s*$/m.test(s.split('\n')[0] ?? ''))
    .join('')
    .trim();
}

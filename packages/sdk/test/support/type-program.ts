// Writes a TypeScript program that uses every input and output of schema.json through the SDK's
// public shape, with the expected type of each output stated independently of the generator
// (an exact type-equality check, not just assignability).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { PackageSchema, PropertySpec, TypeSpec, parseToken, refToken } from '../../codegen/schema';

const EQUAL = `type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
function expectType<A, B>(check: Equal<A, B>): void {
  void check;
}
`;

export function everyInputOutputProgram(schema: PackageSchema): string {
  const out: string[] = [`import * as pulumi from '@pulumi/pulumi';`, `import * as oci from '@ocikit/oci';`, '', EQUAL];
  let n = 0;
  for (const [token, res] of Object.entries(schema.resources ?? {})) {
    const tok = parseToken(schema, token);
    const cls = `oci.${tok.folder}.${tok.name}`;
    const v = `r${n++}`;
    const required = new Set(res.requiredInputs ?? []);
    const plainArgs = Object.entries(res.inputProperties ?? {}).map(([p, s]) => `  ${p}: ${literal(schema, p, s)},`);
    const outputArgs = Object.entries(res.inputProperties ?? {}).map(
      ([p, s]) => `  ${p}: pulumi.output(${literal(schema, p, s)}),`,
    );
    out.push(`const ${v}Args: ${cls}Args = {\n${plainArgs.join('\n')}\n};`);
    out.push(`const ${v} = new ${cls}('${v}', ${v}Args, { protect: false });`);
    out.push(`const ${v}FromOutputs = new ${cls}('${v}o', {\n${outputArgs.join('\n')}\n});`);
    const minimal = [...required].map((p) => `${p}: ${literal(schema, p, res.inputProperties![p]!)}`).join(', ');
    out.push(`new ${cls}('${v}m', { ${minimal} });`);
    const state = Object.entries(res.stateInputs?.properties ?? {}).map(
      ([p, s]) => `  ${p}: ${literal(schema, p, s)},`,
    );
    out.push(`const ${v}State: oci.${tok.folder}.${tok.name}State = {\n${state.join('\n')}\n};`);
    out.push(`const ${v}Got: ${cls} = ${cls}.get('${v}g', 'ocid1.example', ${v}State);`);
    out.push(`expectType<typeof ${cls}.__pulumiType, ${JSON.stringify(token)}>(true);`);
    out.push(`const ${v}Is: boolean = ${cls}.isInstance(${v}Got) && ${v}FromOutputs !== undefined;`);
    out.push(`expectType<typeof ${v}.id, pulumi.Output<string>>(true);`);
    out.push(`expectType<typeof ${v}.urn, pulumi.Output<string>>(true);`);
    const requiredOut = new Set(res.required ?? []);
    for (const [p, s] of Object.entries(res.properties ?? {})) {
      const t = expected(schema, s, 'output');
      out.push(`expectType<typeof ${v}.${p}, pulumi.Output<${requiredOut.has(p) ? t : `${t} | undefined`}>>(true);`);
    }
    out.push(`void ${v}Is;`, '');
  }
  for (const [token, fn] of Object.entries(schema.functions ?? {})) {
    const tok = parseToken(schema, token);
    const f = `oci.${tok.folder}.${tok.name}`;
    const v = `f${n++}`;
    const args = Object.entries(fn.inputs?.properties ?? {}).map(([p, s]) => `  ${p}: ${literal(schema, p, s)},`);
    const outputArgs = Object.entries(fn.inputs?.properties ?? {}).map(
      ([p, s]) => `  ${p}: pulumi.output(${literal(schema, p, s)}),`,
    );
    out.push(`const ${v} = ${f}({\n${args.join('\n')}\n}, { async: true });`);
    out.push(`const ${v}Output = ${f}Output({\n${outputArgs.join('\n')}\n});`);
    out.push(`type ${v}Result = Awaited<typeof ${v}>;`);
    out.push(`expectType<typeof ${v}Output, pulumi.Output<${v}Result>>(true);`);
    const requiredOut = new Set(fn.outputs?.required ?? []);
    for (const [p, s] of Object.entries(fn.outputs?.properties ?? {})) {
      const t = expected(schema, s, 'output');
      out.push(`expectType<${v}Result[${JSON.stringify(p)}], ${requiredOut.has(p) ? t : `${t} | undefined`}>(true);`);
    }
    out.push('');
  }
  for (const [p, s] of Object.entries(schema.config?.variables ?? {})) {
    out.push(`expectType<typeof oci.config.${p}, ${expected(schema, s, 'output')} | undefined>(true);`);
  }
  const providerArgs = Object.entries(schema.provider?.inputProperties ?? {}).map(
    ([p, s]) => `  ${p}: ${literal(schema, p, s)},`,
  );
  out.push(`const provider = new oci.Provider('explicit', {\n${providerArgs.join('\n')}\n});`);
  out.push(`expectType<ReturnType<typeof oci.Provider.isInstance>, boolean>(true);`);
  for (const [p, s] of Object.entries(schema.provider?.properties ?? {})) {
    const t = expected(schema, s, 'output');
    const req = new Set(schema.provider?.required ?? []).has(p);
    out.push(`expectType<typeof provider.${p}, pulumi.Output<${req ? t : `${t} | undefined`}>>(true);`);
  }
  return out.join('\n') + '\n';
}

/** The TypeScript type a user expects for a schema type, written independently of the generator. */
function expected(schema: PackageSchema, spec: TypeSpec, side: 'output' | 'input'): string {
  if (spec.$ref) {
    const token = refToken(spec.$ref)!;
    const type = schema.types?.[token];
    if (type?.enum) return type.type === 'string' ? 'string' : 'number';
    const { module, name } = parseToken(schema, token);
    return `oci.types.${side}.${module}.${name}`;
  }
  switch (spec.type) {
    case 'string':
      return 'string';
    case 'integer':
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'array':
      return `${expected(schema, spec.items ?? {}, side)}[]`;
    case 'object':
      return `{ [key: string]: ${expected(schema, spec.additionalProperties ?? { type: 'string' }, side)} }`;
    default:
      return 'unknown';
  }
}

/** A TypeScript literal of the property's type (nested objects with every property). */
function literal(schema: PackageSchema, name: string, spec: PropertySpec | TypeSpec, depth = 0): string {
  if (spec.$ref) {
    const type = schema.types?.[refToken(spec.$ref)!];
    if (type?.enum) return JSON.stringify(type.enum[0]?.value);
    if (depth > 6) return '{}';
    return `{ ${Object.entries(type?.properties ?? {})
      .map(([p, s]) => `${p}: ${literal(schema, p, s, depth + 1)}`)
      .join(', ')} }`;
  }
  switch (spec.type) {
    case 'string':
      return JSON.stringify(`${name}-value`);
    case 'integer':
    case 'number':
      return '1';
    case 'boolean':
      return 'true';
    case 'array':
      return `[${literal(schema, name, spec.items ?? {}, depth + 1)}]`;
    case 'object':
      return `{ 'a.b': ${literal(schema, name, spec.additionalProperties ?? { type: 'string' }, depth + 1)} }`;
    default:
      return '{}';
  }
}

/**
 * A program that holds each public type of the built SDK equal to @pulumi/oci's of the same name
 * (the exact type-equality check above, member by member): every export of the module folders
 * (resource classes and their Args/State, functions in both forms and their Args/Result/
 * OutputArgs), every nested type of `types/input` and `types/output`, the Provider, its args and
 * `config`. Compiled where both packages resolve; one `expectType` a line, so a diagnostic's line
 * names the export that differs. The known differences (README, SDK decisions) are left out:
 * ocikit's extra `endpoint` setting, `__pulumiType` (public here, @internal there), `isInstance`'s
 * `unknown`, and the Provider's Terraform-bridge `terraformConfig()`.
 */
export function sameShapesProgram(distDir: string, folders: string[]): string {
  const out = [`import type * as theirs from '@pulumi/oci';`, `import type * as ours from '@ocikit/oci';`, '', EQUAL];
  const same = (a: string, b = a) =>
    out.push(`expectType<${a.replace(/\$/g, 'theirs')}, ${b.replace(/\$/g, 'ours')}>(true);`);
  const declarations = (file: string) =>
    ts.createSourceFile(file, readFileSync(join(distDir, file), 'utf8'), ts.ScriptTarget.Latest, true);
  for (const folder of folders) {
    for (const statement of declarations(`${folder}/index.d.ts`).statements) {
      if (ts.isExportDeclaration(statement) && statement.exportClause && ts.isNamedExports(statement.exportClause)) {
        for (const e of statement.exportClause.elements) same(`$.${folder}.${e.name.text}`);
      } else if (ts.isVariableStatement(statement)) {
        const name = statement.declarationList.declarations[0]!.name.getText();
        if (/^[a-z]/.test(name)) {
          same(`typeof $.${folder}.${name}`);
          continue;
        }
        // A resource class: its instances, constructor and static `get`.
        same(`$.${folder}.${name}`);
        same(`ConstructorParameters<typeof $.${folder}.${name}>`);
        same(`typeof $.${folder}.${name}.get`);
      }
    }
  }
  for (const kind of ['input', 'output']) {
    const visit = (node: ts.Node, namespace: string) => {
      if (ts.isModuleDeclaration(node) && node.body)
        ts.forEachChild(node.body, (n) => visit(n, `${namespace}${node.name.text}.`));
      else if (ts.isInterfaceDeclaration(node)) same(`$.types.${kind}.${namespace}${node.name.text}`);
      else ts.forEachChild(node, (n) => visit(n, namespace));
    };
    visit(declarations(`types/${kind}.d.ts`), '');
  }
  same(`$.ProviderArgs`, `Omit<$.ProviderArgs, 'endpoint'>`);
  same(`Omit<$.Provider, 'terraformConfig'>`, `Omit<$.Provider, 'endpoint'>`);
  same(`typeof $.config`, `Omit<typeof $.config, 'endpoint'>`);
  return out.join('\n') + '\n';
}

// Every resource, property and function of schema.json appears in the SDK (read from the
// generated sources' syntax tree: class members, Args/State interfaces, function argument and
// result interfaces, nested types) and in the reference pages (a table row per property).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import ts from 'typescript';
import { packageDir } from './support/built';
import { parseToken, schema } from './support/schema';

const srcDir = resolve(packageDir, 'src');
const docsDir = resolve(packageDir, '../../docs/reference');

/** Declared names of a source file: `Class`, `Class.member`, `Interface.member`, `Namespace.Interface.member`. */
function declarations(path: string): Set<string> {
  const file = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
  const names = new Set<string>();
  const visit = (node: ts.Node, prefix: string) => {
    if (ts.isModuleDeclaration(node)) {
      names.add(prefix + node.name.text);
      if (node.body) ts.forEachChild(node.body, (n) => visit(n, `${prefix}${node.name.text}.`));
      return;
    }
    if (ts.isClassDeclaration(node) || ts.isInterfaceDeclaration(node)) {
      const name = prefix + node.name!.text;
      names.add(name);
      for (const member of node.members) {
        if (member.name && (ts.isIdentifier(member.name) || ts.isStringLiteral(member.name))) {
          names.add(`${name}.${member.name.text}`);
        }
      }
      return;
    }
    if (ts.isFunctionDeclaration(node) && node.name) names.add(prefix + node.name.text);
    ts.forEachChild(node, (n) => visit(n, prefix));
  };
  visit(file, '');
  return names;
}

function missing(have: Set<string>, want: string[]): string[] {
  return want.filter((w) => !have.has(w));
}

function upper(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}

/** The cells of the first table row of a property. */
function cells(page: string, name: string): string[] {
  const line = page.split('\n').find((l) => l.startsWith(`| \`${name}\` |`)) ?? '';
  return line
    .split(/(?<!\\)\|/)
    .slice(1, -1)
    .map((c) => c.trim());
}

const rows = (page: string, names: string[]) => names.filter((n) => !page.includes(`| \`${n}\` |`));

describe('every resource and property of schema.json is in the SDK and the reference pages', () => {
  for (const [token, res] of Object.entries(schema.resources ?? {})) {
    it(token, () => {
      const tok = parseToken(schema, token);
      const decl = declarations(join(srcDir, tok.folder, `${tok.file}.ts`));
      const outputs = Object.keys(res.properties ?? {});
      const inputs = Object.keys(res.inputProperties ?? {});
      const state = Object.keys(res.stateInputs?.properties ?? {});
      assert.deepEqual(
        missing(decl, [
          tok.name,
          `${tok.name}.get`,
          `${tok.name}.isInstance`,
          `${tok.name}.__pulumiType`,
          ...outputs.map((p) => `${tok.name}.${p}`),
          ...inputs.map((p) => `${tok.name}Args.${p}`),
          ...state.map((p) => `${tok.name}State.${p}`),
        ]),
        [],
      );
      const index = readFileSync(join(srcDir, tok.folder, 'index.ts'), 'utf8');
      assert.match(index, new RegExp(`lazyLoad\\(exports, \\['${tok.name}'\\]`));
      const page = readFileSync(join(docsDir, tok.folder, `${tok.file}.md`), 'utf8');
      assert.deepEqual(rows(page, [...new Set([...inputs, ...outputs])]), []);
      assert.ok(page.includes(`pulumi import ${token} <name> <id>`), 'the page gives the import command');
      // The Inputs table's fourth column says which inputs force a replacement.
      for (const p of inputs) {
        const forces = res.inputProperties![p]!.willReplaceOnChanges || res.inputProperties![p]!.replaceOnChanges;
        assert.equal(cells(page, p)[3], forces ? 'yes' : 'no', `${p} forces replacement`);
      }
    });
  }
});

describe('every function and its arguments and results are in the SDK and the reference pages', () => {
  for (const [token, fn] of Object.entries(schema.functions ?? {})) {
    it(token, () => {
      const tok = parseToken(schema, token);
      const decl = declarations(join(srcDir, tok.folder, `${tok.file}.ts`));
      const I = upper(tok.name);
      const args = Object.keys(fn.inputs?.properties ?? {});
      const results = Object.keys(fn.outputs?.properties ?? {});
      assert.deepEqual(
        missing(decl, [
          tok.name,
          `${tok.name}Output`,
          ...args.map((p) => `${I}Args.${p}`),
          ...args.map((p) => `${I}OutputArgs.${p}`),
          ...results.map((p) => `${I}Result.${p}`),
        ]),
        [],
      );
      const page = readFileSync(join(docsDir, tok.folder, `${tok.file}.md`), 'utf8');
      assert.deepEqual(rows(page, [...args, ...results]), []);
    });
  }
});

describe('every nested type and its properties are in types/input, types/output and the pages', () => {
  const input = declarations(join(srcDir, 'types/input.ts'));
  const output = declarations(join(srcDir, 'types/output.ts'));
  const pages = [...Object.keys(schema.resources ?? {}), ...Object.keys(schema.functions ?? {})].map((t) => {
    const tok = parseToken(schema, t);
    return readFileSync(join(docsDir, tok.folder, `${tok.file}.md`), 'utf8');
  });
  for (const [token, type] of Object.entries(schema.types ?? {})) {
    if (type.enum) continue;
    it(token, () => {
      const { module, name } = parseToken(schema, token);
      const props = Object.keys(type.properties ?? {});
      const inSdk = [input, output].filter((d) => d.has(`${module}.${name}`) || d.has(`${module}.${name}Args`));
      assert.ok(inSdk.length > 0, `${module}.${name} is declared in types/input or types/output`);
      for (const d of inSdk) {
        const iface = d.has(`${module}.${name}`) ? `${module}.${name}` : `${module}.${name}Args`;
        assert.deepEqual(
          missing(
            d,
            props.map((p) => `${iface}.${p}`),
          ),
          [],
        );
      }
      const page = pages.find((p) => p.includes(`### ${name}\n`));
      assert.ok(page, `a reference page documents ${name}`);
      const section = page.slice(page.indexOf(`### ${name}\n`)).split(/\n### /)[0]!;
      assert.deepEqual(rows(section, props), []);
    });
  }
});

describe('the Provider and config', () => {
  it('every config variable and provider input is in config/vars, ProviderArgs and the reference index', () => {
    const vars = readFileSync(join(srcDir, 'config/vars.ts'), 'utf8');
    const provider = declarations(join(srcDir, 'provider.ts'));
    const index = readFileSync(join(docsDir, 'README.md'), 'utf8');
    const variables = Object.keys(schema.config?.variables ?? {});
    assert.deepEqual(
      variables.filter((v) => !vars.includes(`export declare const ${v}:`)),
      [],
    );
    assert.deepEqual(
      missing(
        provider,
        Object.keys(schema.provider?.inputProperties ?? {}).map((p) => `ProviderArgs.${p}`),
      ),
      [],
    );
    assert.deepEqual(
      missing(
        provider,
        Object.keys(schema.provider?.properties ?? {}).map((p) => `Provider.${p}`),
      ),
      [],
    );
    assert.deepEqual(rows(index, variables), []);
  });
});

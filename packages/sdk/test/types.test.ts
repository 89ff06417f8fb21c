// Type tests: user programs compiled with `tsc --strict` against the BUILT package (dist/ with
// its .d.ts, package.json and pulumi-plugin.json copied into a scratch node_modules with only
// @pulumi/pulumi beside it). One TypeScript program run checks every file; diagnostics are then
// attributed per file: the good programs must have none, the bad ones exactly the expected error.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import ts from 'typescript';
import { distDir, installBuiltSdk, packageDir, repoModules } from './support/built';
import { schema } from './support/schema';
import { everyInputOutputProgram, sameShapesProgram } from './support/type-program';

const repoDir = resolve(packageDir, '../..');
const pulumiOciProgram = readFileSync(resolve(__dirname, 'fixtures/pulumi-oci-program.ts'), 'utf8');
const importPulumiOci = `import * as oci from '@pulumi/oci';`;

let scratch: string;
let diagnostics: Map<string, ts.Diagnostic[]>;
const files: Record<string, string> = {};

function file(name: string, text: string): string {
  const path = join(scratch, 'program', name);
  writeFileSync(path, text);
  files[name] = path;
  return path;
}

function messages(name: string): string[] {
  return (diagnostics.get(files[name]!) ?? []).map(
    (d) => `TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`,
  );
}

/** The ```typescript blocks of every reference page. */
function docExamples(): { name: string; code: string }[] {
  const root = resolve(repoDir, 'docs/reference');
  return readdirSync(root, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.md'))
    .sort()
    .flatMap((f) =>
      [...readFileSync(join(root, f), 'utf8').matchAll(/```typescript\n([\s\S]*?)```/g)].map((m, i) => ({
        name: `doc-${f.replace(/[/.]/g, '-')}-${i}.ts`,
        code: m[1]!,
      })),
    );
}

before(() => {
  scratch = mkdtempSync(join(tmpdir(), 'ocikit-sdk-types-'));
  installBuiltSdk(scratch);
  // The @pulumi/oci program compiles in its own folder, the only one that can see @pulumi/oci.
  mkdirSync(join(scratch, 'program/pulumi-oci/node_modules/@pulumi'), { recursive: true });
  symlinkSync(join(repoModules, '@pulumi/oci'), join(scratch, 'program/pulumi-oci/node_modules/@pulumi/oci'), 'dir');

  const roots = [
    file('every-input-output.ts', everyInputOutputProgram(schema)),
    file('switched-program.ts', pulumiOciProgram.replace(importPulumiOci, `import * as oci from '@ocikit/oci';`)),
    file(
      'wrong-type.ts',
      `import * as oci from '@ocikit/oci';\nnew oci.disasterrecovery.DrPlan('p', { displayName: 42, drProtectionGroupId: 'g', type: 'SWITCHOVER' });\n`,
    ),
    file(
      'missing-required.ts',
      `import * as oci from '@ocikit/oci';\nnew oci.ailanguage.Endpoint('e', { compartmentId: 'c' });\n`,
    ),
    file(
      'wrong-function-argument.ts',
      `import * as oci from '@ocikit/oci';\noci.disasterrecovery.getDrPlans({ drProtectionGroupId: 'g', state: 7 });\n`,
    ),
    ...docExamples().map(({ name, code }) => file(name, code)),
  ];
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2020,
    module: ts.ModuleKind.CommonJS,
    moduleResolution: ts.ModuleResolutionKind.Node10,
    esModuleInterop: true,
    types: ['node'],
    typeRoots: [join(scratch, 'node_modules/@types')],
    // Library .d.ts files are checked too: the SDK's own must be clean.
    skipLibCheck: false,
  };
  // The same program against @pulumi/oci, in a second run with skipLibCheck: checking its 17 MB
  // of .d.ts would dominate the test, and they are not ours to check.
  const reference = [
    file('pulumi-oci/program.ts', pulumiOciProgram),
    file('pulumi-oci/same-shapes.ts', sameShapesProgram(distDir, ['disasterrecovery', 'ailanguage'])),
  ];
  const all = [
    ...ts.getPreEmitDiagnostics(ts.createProgram(roots, options)),
    ...ts.getPreEmitDiagnostics(ts.createProgram(reference, { ...options, skipLibCheck: true })),
  ];
  diagnostics = new Map();
  for (const d of all) {
    const key = d.file?.fileName ?? '<global>';
    diagnostics.set(key, [...(diagnostics.get(key) ?? []), d]);
  }
});

after(() => rmSync(scratch, { recursive: true, force: true }));

describe('type tests (tsc --strict against the built package)', () => {
  it('has no errors in the SDK .d.ts files or @pulumi/pulumi', () => {
    const errors = [...diagnostics.entries()]
      .filter(([path]) => path.includes('node_modules/@ocikit/') || path === '<global>')
      .flatMap(([path, ds]) => ds.map((d) => `${path}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`));
    assert.deepEqual(errors, []);
  });

  it('a program using every input and output of schema.json compiles, with the exact types', () => {
    assert.deepEqual(messages('every-input-output.ts'), []);
  });

  it('a program written for @pulumi/oci compiles against @pulumi/oci and, with only the import switched, against @ocikit/oci', () => {
    assert.deepEqual(messages('pulumi-oci/program.ts'), [], 'against @pulumi/oci');
    assert.deepEqual(messages('switched-program.ts'), [], 'against @ocikit/oci');
  });

  it("every type the SDK exports equals @pulumi/oci 4.20.0's of the same name, but the known differences", () => {
    const lines = readFileSync(files['pulumi-oci/same-shapes.ts']!, 'utf8').split('\n');
    const differing = (diagnostics.get(files['pulumi-oci/same-shapes.ts']!) ?? []).map((d) => {
      const { line } = d.file!.getLineAndCharacterOfPosition(d.start!);
      return lines[line]!;
    });
    assert.ok(lines.filter((l) => l.startsWith('expectType<')).length > 100, 'the program checks every type');
    assert.deepEqual(differing, []);
  });

  it('every worked example of the reference pages compiles', () => {
    const examples = Object.keys(files).filter((f) => f.startsWith('doc-'));
    assert.ok(examples.length >= Object.keys(schema.resources ?? {}).length, 'every resource page has an example');
    for (const name of examples) assert.deepEqual(messages(name), [], name);
  });

  it('a wrong input type does not compile', () => {
    const errors = messages('wrong-type.ts');
    assert.equal(errors.length, 1, errors.join('\n'));
    assert.match(errors[0]!, /^TS2322: Type 'number' is not assignable to type 'Input<string>'/);
  });

  it('a missing required input does not compile', () => {
    const errors = messages('missing-required.ts');
    assert.equal(errors.length, 1, errors.join('\n'));
    assert.match(errors[0]!, /^TS2345: .*Property 'modelId' is missing/s);
  });

  it('a wrong function argument type does not compile', () => {
    const errors = messages('wrong-function-argument.ts');
    assert.equal(errors.length, 1, errors.join('\n'));
    assert.match(errors[0]!, /^TS2322: Type 'number' is not assignable to type 'string'/);
  });
});

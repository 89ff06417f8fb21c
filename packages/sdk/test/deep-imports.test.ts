// Deep imports, as pulumi-oci programs write them (`@pulumi/oci/disasterrecovery`,
// `@pulumi/oci/types/input`, `@pulumi/oci/config`, ...): every file path of @pulumi/oci's layout
// that the SDK has resolves in the built package (installed in a scratch node_modules) to its
// file under dist/, at run time (plain `node`, CommonJS require and ESM import, giving the root's
// own objects) and for TypeScript under moduleResolution node10 (package.json `typesVersions`),
// node16, nodenext and bundler (package.json `exports`).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import ts from 'typescript';
import { distDir, installBuiltSdk, packageDir } from './support/built';

const repoDir = resolve(packageDir, '../..');

/**
 * Every deep import path of the built package, as @pulumi/oci (which has no `exports`) allows
 * them: each module file with and without `.js`, each folder (its index.js), and package.json.
 */
function deepPaths(): string[] {
  const files = readdirSync(distDir, { recursive: true })
    .map((f) => String(f).split('\\').join('/'))
    .filter((f) => f.endsWith('.js'));
  const paths = new Set(['package.json']);
  for (const f of files) {
    paths.add(f).add(f.slice(0, -'.js'.length));
    if (f.endsWith('/index.js')) paths.add(dirname(f));
  }
  return [...paths].sort();
}

/** The file a deep path must load, relative to the package folder (`dist/` for @ocikit/oci). */
function expectedFile(path: string, prefix: string): string {
  if (path === 'package.json') return path;
  const bare = path.replace(/\.js$/, '');
  return existsSync(join(distDir, bare, 'index.js')) ? `${prefix}${bare}/index.js` : `${prefix}${bare}.js`;
}

// Runs in a plain `node` (no tsx hooks): resolves `<package>/<path>` for each path from the given
// folder and, when asked to load, requires it, imports it (ESM) and compares it with the root:
// sameAsRoot is true when the module is the root's own module object (a folder, `types/input`)
// or each of its exports is the root's (`disasterrecovery/drPlan`, `provider`, `config/vars`),
// null when the root does not re-export it (`utilities`, as in @pulumi/oci, and package.json).
const PROBE = `
const { createRequire } = require('node:module');
const { join, relative, sep } = require('node:path');
const [from, name, load, ...paths] = process.argv.slice(2);
const req = createRequire(join(from, 'probe.cjs'));
const pkgDir = join(req.resolve(name + '/package.json'), '..');

function sameAsRoot(root, path, mod) {
  if (path === 'package.json') return null;
  const parts = path.replace(/\\.js$/, '').replace(/(^|\\/)index$/, '').split('/').filter(Boolean);
  if (parts.length === 0) return mod === root;
  const owner = parts.length === 1 ? root : root[parts[0]];
  if (parts.length === 1 && mod === root[parts[0]]) return true;
  if (parts.length === 2 && mod === owner[parts[1]]) return true;
  const keys = Object.keys(mod);
  if (parts.length === 1 && !keys.some((k) => k in root)) return null;
  return keys.length > 0 && keys.every((k) => owner[k] === mod[k]);
}

(async () => {
  const root = load === '1' ? req(name) : undefined;
  const out = {};
  for (const path of paths) {
    const spec = name + '/' + path;
    try {
      out[path] = { file: relative(pkgDir, req.resolve(spec)).split(sep).join('/') };
    } catch (err) {
      out[path] = { error: err.code || String(err) };
      continue;
    }
    if (root) {
      const mod = req(spec);
      out[path].sameAsRoot = sameAsRoot(root, path, mod);
      out[path].esm = (await import(spec, path.endsWith('.json') ? { with: { type: 'json' } } : undefined)).default === mod;
    }
  }
  process.stdout.write(JSON.stringify(out));
})();
`;

interface Probed {
  file?: string;
  error?: string;
  sameAsRoot?: boolean | null;
  esm?: boolean;
}

let scratch: string;
let paths: string[];

function probe(from: string, name: string, load: boolean): Record<string, Probed> {
  const run = spawnSync(process.execPath, [join(scratch, 'probe.cjs'), from, name, load ? '1' : '0', ...paths], {
    cwd: from,
    encoding: 'utf8',
  });
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout) as Record<string, Probed>;
}

before(() => {
  scratch = mkdtempSync(join(tmpdir(), 'ocikit-sdk-deep-'));
  installBuiltSdk(scratch);
  writeFileSync(join(scratch, 'probe.cjs'), PROBE);
  paths = deepPaths();
});

after(() => rmSync(scratch, { recursive: true, force: true }));

describe('deep imports (@ocikit/oci/<path> wherever @pulumi/oci/<path> exists)', () => {
  it('covers the paths pulumi-oci programs use, and each exists in @pulumi/oci as the same file', () => {
    for (const p of ['disasterrecovery', 'ailanguage', 'types', 'types/input', 'types/output', 'config', 'provider']) {
      assert.ok(paths.includes(p), p);
    }
    const pulumiOci = probe(repoDir, '@pulumi/oci', false);
    for (const p of paths) assert.deepEqual(pulumiOci[p], { file: expectedFile(p, '') }, `@pulumi/oci/${p}`);
  });

  it("each resolves at run time (require and import) to its dist/ file, giving the root's objects", () => {
    const ours = probe(scratch, '@ocikit/oci', true);
    const notInRoot: string[] = [];
    for (const p of paths) {
      const got = ours[p]!;
      assert.equal(
        got.file,
        expectedFile(p, 'dist/'),
        `@ocikit/oci/${p}: ${got.error ?? ''} (a new module folder needs its entry in package.json "exports")`,
      );
      assert.equal(got.esm, true, `import('@ocikit/oci/${p}') is require('@ocikit/oci/${p}')`);
      assert.notEqual(got.sameAsRoot, false, `@ocikit/oci/${p} gives the root's objects`);
      if (got.sameAsRoot === null) notInRoot.push(p);
    }
    assert.deepEqual(notInRoot, ['package.json', 'utilities', 'utilities.js']);
  });

  describe('type-check (strict, noEmit) of a program using them', () => {
    const EQUAL = `type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
function expectType<A, B>(check: Equal<A, B>): void {
  void check;
}
`;
    // The deep imports of pulumi-oci programs, each checked to give the root's own declarations;
    // `types/input` types annotate variables. Written once for a CommonJS and an ESM file.
    const program = (esm: boolean) => `import * as pulumi from '@pulumi/pulumi';
import * as oci from '@ocikit/oci';
import * as disasterrecovery from '@ocikit/oci/disasterrecovery';
import * as ailanguage from '@ocikit/oci/ailanguage';
import { input as inputs, output as outputs } from '@ocikit/oci/types';
import * as input from '@ocikit/oci/types/input';
import * as output from '@ocikit/oci/types/output';
import * as config from '@ocikit/oci/config';
import { Provider } from '@ocikit/oci/provider';
import { DrPlan } from '@ocikit/oci/disasterrecovery/drPlan${esm ? '.js' : ''}';

${EQUAL}
const groups: input.DisasterRecovery.DrPlanPlanGroup[] = [{ displayName: 'g', steps: [{ displayName: 's' }] }];
const filters: inputs.DisasterRecovery.GetDrPlansFilter[] = [{ name: 'type', values: ['SWITCHOVER'] }];
const plan = new disasterrecovery.DrPlan('p', { displayName: 'x', drProtectionGroupId: 'g', type: 'SWITCHOVER' });
const planGroups: pulumi.Output<output.DisasterRecovery.DrPlanPlanGroup[]> = plan.planGroups;
const plans = disasterrecovery.getDrPlansOutput({ drProtectionGroupId: 'g', filters });
const endpoint = new ailanguage.Endpoint('e', { compartmentId: 'c', modelId: 'm' }, { provider: new Provider('p', {}) });
const region: string | undefined = config.region;
expectType<typeof disasterrecovery.DrPlan, typeof oci.disasterrecovery.DrPlan>(true);
expectType<typeof DrPlan, typeof oci.disasterrecovery.DrPlan>(true);
expectType<typeof ailanguage.getModelsOutput, typeof oci.ailanguage.getModelsOutput>(true);
expectType<input.DisasterRecovery.DrPlanPlanGroup, oci.types.input.DisasterRecovery.DrPlanPlanGroup>(true);
expectType<outputs.AiLanguage.GetModelsModelCollection, oci.types.output.AiLanguage.GetModelsModelCollection>(true);
expectType<typeof config.region, typeof oci.config.region>(true);
expectType<typeof Provider, typeof oci.Provider>(true);
void [groups, planGroups, plans, endpoint, region];
`;
    const runs: Array<[string, ts.CompilerOptions, string[]]> = [
      ['node10', { module: ts.ModuleKind.CommonJS, moduleResolution: ts.ModuleResolutionKind.Node10 }, ['.ts']],
      ['node16', { module: ts.ModuleKind.Node16, moduleResolution: ts.ModuleResolutionKind.Node16 }, ['.ts', '.mts']],
      [
        'nodenext',
        { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext },
        ['.ts', '.mts'],
      ],
      ['bundler', { module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler }, ['.ts', '.mts']],
    ];
    for (const [name, options, extensions] of runs) {
      it(`under moduleResolution ${name}`, () => {
        const dir = join(scratch, `program-${name}`);
        mkdirSync(dir);
        const compilerOptions: ts.CompilerOptions = {
          ...options,
          strict: true,
          noEmit: true,
          target: ts.ScriptTarget.ES2022,
          esModuleInterop: true,
          resolveJsonModule: true,
          types: ['node'],
          typeRoots: [join(scratch, 'node_modules/@types')],
          // The declarations themselves are checked by types.test.ts; here what the imports give.
          skipLibCheck: true,
        };
        // Every deep path resolves to the declarations of its file, from CommonJS and ESM code.
        const installed = join(scratch, 'node_modules/@ocikit/oci');
        const modes: ts.ResolutionMode[] =
          name === 'node10' ? [ts.ModuleKind.CommonJS] : [ts.ModuleKind.CommonJS, ts.ModuleKind.ESNext];
        for (const mode of modes) {
          const esm = mode === ts.ModuleKind.ESNext;
          for (const p of paths) {
            const from = join(dir, esm ? 'deep.mts' : 'deep.ts');
            const { resolvedModule } = ts.resolveModuleName(
              `@ocikit/oci/${p}`,
              from,
              compilerOptions,
              ts.sys,
              undefined,
              undefined,
              mode,
            );
            assert.equal(
              resolvedModule?.resolvedFileName,
              join(installed, expectedFile(p, 'dist/').replace(/\.js$/, '.d.ts')),
              `@ocikit/oci/${p} (${esm ? 'ESM' : 'CommonJS'})`,
            );
          }
        }
        const roots = extensions.map((ext) => {
          writeFileSync(join(dir, `deep${ext}`), program(ext === '.mts'));
          return join(dir, `deep${ext}`);
        });
        const diagnostics = ts.getPreEmitDiagnostics(ts.createProgram(roots, compilerOptions));
        const messages = diagnostics.map(
          (d) =>
            `${d.file ? `${d.file.fileName.slice(dir.length + 1)}:${d.file.getLineAndCharacterOfPosition(d.start!).line + 1}` : '<global>'}: TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`,
        );
        assert.deepEqual(messages, []);
      });
    }
  });
});

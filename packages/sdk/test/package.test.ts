// What the package promises beyond its types: modules loaded lazily as @pulumi/oci loads them,
// the plugin metadata the Pulumi CLI reads, and a version that is the one resources send.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { it } from 'node:test';
import { distDir, loadBuiltSdk, packageDir } from './support/built';
import { parseToken, schema } from './support/schema';

const loaded = () =>
  Object.keys(require.cache)
    .filter((f) => f.startsWith(distDir))
    .map((f) => f.slice(distDir.length + 1))
    .sort();

it('loads resource and function modules only when first used (lazy loading, as @pulumi/oci)', () => {
  const oci = loadBuiltSdk();
  const members = [...Object.keys(schema.resources ?? {}), ...Object.keys(schema.functions ?? {})].map((t) =>
    parseToken(schema, t),
  );
  const atImport = loaded();
  for (const m of members) assert.ok(!atImport.includes(`${m.folder}/${m.file}.js`), `${m.file} not loaded at import`);
  // Module indexes are loaded at import: they register the resource modules by token.
  for (const folder of new Set(members.map((m) => m.folder))) assert.ok(atImport.includes(`${folder}/index.js`));

  const plan = members.find((m) => m.token === 'oci:DisasterRecovery/drPlan:DrPlan')!;
  assert.equal(typeof (oci.disasterrecovery as unknown as Record<string, unknown>)[plan.name], 'function');
  assert.ok(loaded().includes('disasterrecovery/drPlan.js'));
  assert.ok(!loaded().includes('ailanguage/endpoint.js'), 'other modules stay unloaded');
});

it('ships pulumi-plugin.json (resource plugin "oci" at the package version) and the same in package.json', () => {
  const pkg = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as {
    name: string;
    version: string;
    main: string;
    types: string;
    files: string[];
    pulumi: unknown;
  };
  const plugin = JSON.parse(readFileSync(join(packageDir, 'pulumi-plugin.json'), 'utf8')) as unknown;
  assert.deepEqual(plugin, { resource: true, name: 'oci', version: pkg.version });
  assert.deepEqual(pkg.pulumi, plugin);
  assert.equal(pkg.name, schema.language?.nodejs?.packageName);
  assert.deepEqual([pkg.main, pkg.types], ['dist/index.js', 'dist/index.d.ts']);
  assert.ok(pkg.files.includes('pulumi-plugin.json') && pkg.files.includes('dist'));
  const { getVersion } = require(join(distDir, 'utilities.js')) as { getVersion(): string };
  assert.equal(getVersion(), pkg.version);
});

it('depends on @pulumi/pulumi by range (as @pulumi/oci does) and shares the one copy installed beside it', () => {
  const pkg = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
  };
  assert.equal(pkg.dependencies['@pulumi/pulumi'], '^3.142.0');
  const fromSdk = require.resolve('@pulumi/pulumi', { paths: [distDir] });
  const fromRepo = require.resolve('@pulumi/pulumi', { paths: [join(packageDir, '../..')] });
  assert.equal(fromSdk, fromRepo);
  assert.equal((require(join(fromSdk, '../package.json')) as { version: string }).version, '3.248.0');
});

it('the README shows the @pulumi/oci program the type tests compile, and links the reference pages', () => {
  const readme = readFileSync(join(packageDir, '../../README.md'), 'utf8');
  const program = readFileSync(join(__dirname, 'fixtures/pulumi-oci-program.ts'), 'utf8');
  const body = program.split('\n').slice(2).join('\n').trimEnd();
  assert.ok(readme.includes(body), 'README section "SDK: @ocikit/oci" holds test/fixtures/pulumi-oci-program.ts');
  assert.ok(readme.includes('](docs/reference/README.md)'));
});

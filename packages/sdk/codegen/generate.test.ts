// The generator on a small fixture schema: names and modules from tokens, the Input/plain/output
// shapes of each kind of property, headers, and what happens to files the schema drops.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { generate } from './generate';
import { HEADER_LINE, MARKDOWN_HEADER_LINE } from './header';
import { PackageSchema, parseSchema, parseToken } from './schema';
import { writeTree } from './write';

const fixturePath = resolve(__dirname, '../test/fixtures/schema.json');
const fixture = (): PackageSchema => parseSchema(readFileSync(fixturePath, 'utf8'), fixturePath);
const options = { prettierConfigFile: resolve(__dirname, '../../../.prettierrc.json') };

describe('tokens', () => {
  it('takes the module from meta.moduleFormat and the file from the member name', () => {
    const tok = parseToken(fixture(), 'oci:DisasterRecovery/drPlan:DrPlan');
    assert.deepEqual(tok, {
      token: 'oci:DisasterRecovery/drPlan:DrPlan',
      module: 'DisasterRecovery',
      folder: 'disasterrecovery',
      name: 'DrPlan',
      file: 'drPlan',
    });
    assert.throws(() => parseToken(fixture(), 'oci:DrPlan'), /invalid token oci:DrPlan/);
  });
});

describe('generate', () => {
  it('writes the SDK files and reference pages, each starting with the generated-file header', async () => {
    const { sdk, docs } = await generate(fixture(), options);
    assert.deepEqual(
      [...sdk.keys()],
      [
        'config/index.ts',
        'config/vars.ts',
        'disasterrecovery/drPlan.ts',
        'disasterrecovery/getDrPlans.ts',
        'disasterrecovery/index.ts',
        'index.ts',
        'provider.ts',
        'types/index.ts',
        'types/input.ts',
        'types/output.ts',
        'utilities.ts',
      ],
    );
    assert.deepEqual([...docs.keys()], ['README.md', 'disasterrecovery/drPlan.md', 'disasterrecovery/getDrPlans.md']);
    for (const content of sdk.values()) assert.equal(content.split('\n')[0], HEADER_LINE);
    for (const content of docs.values()) assert.equal(content.split('\n')[0], MARKDOWN_HEADER_LINE);
  });

  it('shapes resource properties as pulumi-oci does', async () => {
    const plan = (await generate(fixture(), options)).sdk.get('disasterrecovery/drPlan.ts')!;
    assert.match(plan, /declare public readonly displayName: pulumi\.Output<string>;/);
    assert.match(
      plan,
      /declare public readonly \/\*out\*\/ planGroups: pulumi\.Output<outputs\.DisasterRecovery\.DrPlanPlanGroup\[\]>;/,
    );
    assert.match(plan, /declare public readonly refreshTrigger: pulumi\.Output<number \| undefined>;/);
    assert.match(plan, /displayName: pulumi\.Input<string>;/);
    assert.match(plan, /refreshTrigger\?: pulumi\.Input<number \| undefined>;/);
    assert.match(
      plan,
      /planGroups\?: pulumi\.Input<pulumi\.Input<inputs\.DisasterRecovery\.DrPlanPlanGroup>\[\] \| undefined>;/,
    );
    assert.match(plan, /throw new Error\("Missing required property 'displayName'"\)/);
    // willReplaceOnChanges is informational (the provider decides); replaceOnChanges would add an option.
    assert.doesNotMatch(plan, /replaceOnChanges/);
  });

  it('gives function types a plain form and an Input-wrapped …Args twin, and results from outputs', async () => {
    const { sdk } = await generate(fixture(), options);
    const input = sdk.get('types/input.ts')!;
    assert.match(
      input,
      /export interface GetDrPlansFilter \{[^}]*name: string;[^}]*regex\?: boolean;[^}]*values: string\[\];/s,
    );
    assert.match(
      input,
      /export interface GetDrPlansFilterArgs \{[^}]*name: pulumi\.Input<string>;[^}]*values: pulumi\.Input<pulumi\.Input<string>\[\]>;/s,
    );
    const output = sdk.get('types/output.ts')!;
    // requiredOutputs (language.nodejs) makes every property of the nested output type present.
    assert.match(output, /export interface DrPlanPlanGroup \{[^}]*id: string;[^}]*isPauseEnabled: boolean;/s);
    const fn = sdk.get('disasterrecovery/getDrPlans.ts')!;
    assert.match(fn, /filters\?: inputs\.DisasterRecovery\.GetDrPlansFilter\[\];/);
    assert.match(
      fn,
      /filters\?: pulumi\.Input<pulumi\.Input<inputs\.DisasterRecovery\.GetDrPlansFilterArgs>\[\] \| undefined>;/,
    );
    assert.match(fn, /readonly id: string;/);
    assert.match(fn, /pulumi\.runtime\.invokeOutput\(\s*'oci:DisasterRecovery\/getDrPlans:getDrPlans'/);
  });

  it('reads config with the schema environment defaults and JSON-encodes non-string provider settings', async () => {
    const { sdk } = await generate(fixture(), options);
    const vars = sdk.get('config/vars.ts')!;
    assert.match(vars, /__config\.get\('region'\) \?\? utilities\.getEnv\('OCI_REGION'\)/);
    assert.match(
      vars,
      /__config\.getObject<number>\('retryDurationSeconds'\) \?\? utilities\.getEnvNumber\('OCI_RETRY_DURATION'\)/,
    );
    const provider = sdk.get('provider.ts')!;
    assert.match(
      provider,
      /resourceInputs\['disableAutoRetries'\] = pulumi\.output\(args\?\.disableAutoRetries\)\.apply\(JSON\.stringify\);/,
    );
    assert.match(provider, /additionalSecretOutputs: \['privateKey'\]/);
  });

  it('documents replacing inputs and the import command', async () => {
    const page = (await generate(fixture(), options)).docs.get('disasterrecovery/drPlan.md')!;
    assert.match(page, /\| `type` \| string \| no \| yes \|/);
    assert.match(page, /pulumi import oci:DisasterRecovery\/drPlan:DrPlan <name> <id>/);
  });

  it('names what is wrong with a schema it cannot generate from', async () => {
    const broken = fixture();
    broken.resources!['oci:DisasterRecovery/drPlan:DrPlan']!.properties!['planGroups'] = {
      type: 'array',
      items: { $ref: '#/types/oci:DisasterRecovery/Nope:Nope' },
    };
    await assert.rejects(
      generate(broken, options),
      /schema refers to type oci:DisasterRecovery\/Nope:Nope, which is not in "types"/,
    );
    assert.throws(
      () => parseSchema('{"resources": {}}', 'x.json'),
      /x\.json is not a Pulumi package schema: it has no "name"/,
    );
  });
});

describe('writeTree', () => {
  it('removes generated files the schema no longer produces and keeps hand-written ones', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ocikit-codegen-'));
    try {
      writeFileSync(join(dir, 'old.ts'), `${HEADER_LINE}\nexport {};\n`);
      writeFileSync(join(dir, 'mine.ts'), 'export const mine = 1;\n');
      const { removed } = await writeTree(dir, new Map([['sub/new.ts', `${HEADER_LINE}\n`]]));
      assert.deepEqual(removed, ['old.ts']);
      assert.ok(existsSync(join(dir, 'mine.ts')));
      assert.ok(existsSync(join(dir, 'sub/new.ts')));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { inlineProgram, ok, program, readCheckpoint, startCloud } from '../support/programs';

// Pulumi's flags of up and destroy that change what a run does (pkg/cmd/pulumi/operations):
// up's --config-path, -d/--debug, destroy's --preview-only (also refresh's) and --remove.

const INDEX = `import * as pulumi from '@pulumi/pulumi';
import * as oci from '@ocikit/oci';
const config = new pulumi.Config();
pulumi.log.debug('a debug message from the program');
export const endpointId = new oci.ailanguage.Endpoint('flagged', {
  compartmentId: config.require('compartmentId'),
  modelId: config.require('modelId'),
}).id;
`;

test('up, refresh and destroy --config-path; preview --debug; destroy --preview-only deletes nothing; destroy --remove removes the stack', async () => {
  const cloud = await startCloud();
  try {
    const p = program(inlineProgram('flags', INDEX), { PULUMI_NODEJS_TRANSPILE_ONLY: 'true', ...cloud.env });
    p.setConfig({ ...cloud.ociConfig, compartmentId: cloud.sandbox.compartmentId, modelId: cloud.sandbox.textModelId });
    const stackFile = join(p.dir, 'Pulumi.dev.yaml');

    // --config-path: the --config key is a path, its value typed, as `config set --path` writes it.
    ok(await p.run(['up', '--yes', '-c', 'shape.units[0]=2', '--config-path']));
    assert.deepEqual(parseYaml(readFileSync(stackFile, 'utf8')).config['flags:shape'], { units: [2] });
    // refresh and destroy take them too, as Pulumi's (saved before the run, even a --preview-only one).
    ok(await p.run(['refresh', '--preview-only', '-c', 'note=hello']));
    ok(await p.run(['destroy', '--preview-only', '-c', 'shape.units[1]=3', '--config-path']));
    const saved = parseYaml(readFileSync(stackFile, 'utf8')).config;
    assert.equal(saved['flags:note'], 'hello');
    assert.deepEqual(saved['flags:shape'], { units: [2, 3] });

    // --debug: the program's debug messages are shown (Pulumi's engine drops them without it).
    assert.doesNotMatch(ok(await p.run(['preview'])).stdout, /a debug message from the program/);
    assert.match(ok(await p.run(['preview', '--debug'])).stdout, /a debug message from the program/);

    const only = ok(await p.run(['destroy', '--preview-only']));
    assert.match(only.stdout, /Previewing destroy/);
    assert.doesNotMatch(only.stdout, /Destroying/);
    assert.equal(readCheckpoint(p).resources?.filter((r) => r.custom).length, 2, 'the endpoint and its provider');

    const expecting = await p.run(['destroy', '--preview-only', '--expect-no-changes']);
    assert.equal(expecting.stderr, 'error: no changes were expected but changes occurred\n', 'checked on the preview');
    assert.equal(expecting.code, 7, 'ExitNoChanges');

    // --remove after a destroy that left resources (--exclude): the DIY backend's RemoveStack refuses,
    // in its words, and the stack and its config stay.
    const endpointUrn = 'urn:pulumi:dev::flags::oci:AiLanguage/endpoint:Endpoint::flagged';
    const kept = await p.run(['destroy', '--yes', '--remove', '--exclude', endpointUrn]);
    assert.equal(kept.code, 1);
    assert.equal(kept.stderr, 'error: refusing to remove stack because it still contains resources\n');
    assert.ok(existsSync(stackFile), 'Pulumi.dev.yaml stays');

    const removed = ok(await p.run(['destroy', '--yes', '--remove']));
    assert.match(
      removed.stdout,
      /^The resources in the stack have been deleted, and the history and configuration removed\.$/m,
    );
    assert.ok(!existsSync(stackFile), 'Pulumi.dev.yaml is removed');
    assert.ok(!existsSync(join(p.dir, '.ocikit', 'stacks', 'dev.json')), 'the state is removed');
    assert.deepEqual(JSON.parse(ok(await p.run(['stack', 'ls', '--json'])).stdout), []);
  } finally {
    await cloud.close();
  }
});

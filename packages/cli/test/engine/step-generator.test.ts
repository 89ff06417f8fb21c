// Step-generator tests against a small provider plugin (support/fake-provider.ts) for behaviour the
// real plugin cannot be made to show on demand. Real programs, real cmd/run, real gRPC.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { makeProgram, steps, diagnostics, type TestProgram } from './support/harness';

const fake = [resolve(__dirname, 'support/fake-provider.ts')];

const header = `import * as pulumi from '@pulumi/pulumi';
class Thing extends pulumi.CustomResource {
  declare readonly state: pulumi.Output<string>;
  declare readonly replaceMe: pulumi.Output<string>;
  constructor(name: string, args: Record<string, unknown>, opts?: pulumi.CustomResourceOptions) {
    super('oci:Test/thing:Thing', name, { ...args, state: undefined }, opts);
  }
}
`;

describe('step generator (fake provider)', () => {
  let prog: TestProgram;
  let log: string;
  const calls = () => readFileSync(log, 'utf8').trim().split('\n').filter(Boolean);
  const reset = () => writeFileSync(log, '');
  before(() => {
    prog = makeProgram(header, { pluginCommand: fake });
    log = join(prog.dir, 'calls.log');
    process.env.FAKE_PROVIDER_STORE = join(prog.dir, 'cloud.json');
    process.env.FAKE_PROVIDER_LOG = log;
    reset();
  });
  after(() => prog.remove());

  it('creates, then is unchanged, then updates in place', async () => {
    prog.write(header + `const a = new Thing('a', { size: 1 });\nexport const aState = a.state;\n`);
    let r = await prog.run();
    assert.equal(r.ok, true, r.error);
    assert.deepEqual(steps(r.events), ['create a']);
    assert.deepEqual(r.outputs, { aState: 'ACTIVE' });
    r = await prog.run();
    assert.equal(r.ok, true, r.error);
    assert.deepEqual(steps(r.events), ['same a']);
    prog.write(header + `const a = new Thing('a', { size: 2 });\nexport const aState = a.state;\n`);
    reset();
    r = await prog.run();
    assert.equal(r.ok, true, r.error);
    assert.deepEqual(steps(r.events), ['update a']);
    assert.deepEqual(
      calls().filter((c) => !c.startsWith('read')),
      ['check a olds=1', 'diff a', 'update a'],
    );
    void diagnostics;
  });
});

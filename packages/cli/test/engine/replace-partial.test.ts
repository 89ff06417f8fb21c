// A create-before-delete replacement whose create fails partially (made, not initialised: a
// cancelled wait, a timeout, a FAILED work request) leaves the new copy on record with its init
// errors and the original marked for deletion, as Pulumi's CreateStep.Apply marks it whatever the
// create's outcome (pkg/resource/deploy/step.go): one live copy per URN, and the next run
// deletes the original.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fakeProviderSuite } from './support/harness';

const header = `import * as pulumi from '@pulumi/pulumi';
class Thing extends pulumi.CustomResource {
  constructor(name: string, args: Record<string, unknown>, opts?: pulumi.CustomResourceOptions) {
    super('oci:Test/thing:Thing', name, args, opts);
  }
}
`;

interface Entry {
  urn: string;
  id: string;
  delete?: boolean;
  initErrors?: string[];
}

describe('a replacement whose create fails partially (fake provider)', () => {
  const suite = fakeProviderSuite(header);
  const things = (): Entry[] =>
    (
      JSON.parse(readFileSync(join(suite.prog.dir, '.ocikit/stacks/dev.json'), 'utf8')).checkpoint.latest
        .resources as Entry[]
    ).filter((r) => r.urn.endsWith('::r'));

  it('marks the original for deletion, and the next run deletes it', async () => {
    assert.equal((await suite.run(`new Thing('r', { replaceMe: 'x' });\n`)).ok, true);
    const [original] = things();
    const failed = await suite.run(`new Thing('r', { replaceMe: 'y', failInit: true });\n`);
    assert.equal(failed.ok, false);
    assert.match(failed.error!, /failed to initialise/);
    const recorded = things();
    assert.equal(recorded.length, 2, JSON.stringify(recorded));
    const old = recorded.find((r) => r.id === original.id)!;
    const made = recorded.find((r) => r.id !== original.id)!;
    assert.equal(old.delete, true, 'the original is marked for deletion');
    assert.deepEqual(made.initErrors, ['failed to initialise']);
    assert.equal(recorded.filter((r) => !r.delete).length, 1, 'one live copy of the URN');

    const next = await suite.run(`new Thing('r', { replaceMe: 'y' });\n`);
    assert.equal(next.ok, true, next.error);
    assert.ok(suite.files.calls().includes('delete r'), suite.files.calls().join(','));
    const ids = Object.keys(suite.files.cloudState()).filter((id) => id.startsWith('fake-r-'));
    assert.deepEqual(ids, [made.id], 'the original is gone, its replacement kept');
    assert.deepEqual(
      things().map((r) => [r.id, r.delete, r.initErrors]),
      [[made.id, undefined, undefined]],
    );
  });
});

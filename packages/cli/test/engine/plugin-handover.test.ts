// A preview's plugin processes handed to the run that follows it (PluginHandover): the run adopts
// them (Handshake again, configured again) and starts a new process only for one that is gone.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { PluginHandover } from '../../src/engine';
import { fakeProviderSuite, steps } from './support/harness';

const header = `import * as pulumi from '@pulumi/pulumi';
class Thing extends pulumi.CustomResource {
  constructor(name: string, args: Record<string, unknown>, opts?: pulumi.CustomResourceOptions) {
    super('oci:Test/thing:Thing', name, args, opts);
  }
}
new Thing('a', { size: 1 });
`;

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('plugin handover between the runs of one command (fake provider)', () => {
  const suite = fakeProviderSuite(header);

  it("the update runs on the preview's plugins, configured again; nothing is left running", async () => {
    const handover = new PluginHandover();
    const preview = await suite.prog.run({ preview: true, plugins: handover, keepPlugins: true });
    assert.equal(preview.ok, true, preview.error);
    const kept = handover.take();
    assert.ok(kept.length >= 1, 'the preview left its plugins running');
    const pids = kept.map((p) => p.pid!);
    assert.ok(pids.every(alive));
    handover.keep(kept);
    suite.files.reset();
    const update = await suite.prog.run({ plugins: handover });
    assert.equal(update.ok, true, update.error);
    assert.deepEqual(steps(update.events), ['create a']);
    // Configured again by the update before it created anything.
    assert.match(suite.files.allCalls().join('\n'), /configure[\s\S]*create a/);
    assert.deepEqual(handover.take(), [], 'the update took them all');
    // The update stopped them when it ended.
    await new Promise((r) => setTimeout(r, 300));
    assert.deepEqual(pids.filter(alive), []);
  });

  it('a handed-over plugin that ended meanwhile is replaced by a new process', async () => {
    const handover = new PluginHandover();
    assert.equal((await suite.prog.run({ preview: true, plugins: handover, keepPlugins: true })).ok, true);
    const kept = handover.take();
    for (const p of kept) process.kill(p.pid!, 'SIGKILL');
    // Kept before their exit is noticed: the update finds them dead at its handshake.
    handover.keep(kept);
    const update = await suite.prog.run({ plugins: handover });
    assert.equal(update.ok, true, update.error);
    assert.deepEqual(steps(update.events), ['create a']);
  });
});

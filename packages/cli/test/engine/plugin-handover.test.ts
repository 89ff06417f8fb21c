// A preview's plugin processes handed to the run that follows it (PluginHandover): the run adopts
// them (Handshake again, configured again) and starts a new process only for one that is gone.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
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

describe('the plugin pool (fake provider)', () => {
  it('a plugin that finishes starting after its run ended is stopped, not left running', async () => {
    const { PluginPool } = await import('../../src/engine/provider-host');
    const left: number[] = [];
    const pool = new PluginPool({
      command: [resolve(__dirname, 'support', 'fake-provider.ts')],
      engineAddress: () => '127.0.0.1:1',
      env: process.env,
      programDir: process.cwd(),
      onStderr: () => undefined,
    });
    // A provider asked for just as the run fails: the run closes the pool while it starts.
    const taking = pool.take();
    await pool.close();
    await assert.rejects(taking, /the run ended before its provider plugin had started/);
    assert.deepEqual(pool.taken, [], 'nobody holds it');
    // The process it started has gone (ps lists fake providers by their file).
    for (const line of execFileSync('ps', ['-eo', 'pid,ppid,args'], { encoding: 'utf8' }).split('\n'))
      if (line.includes('support/fake-provider.ts') && Number(line.trim().split(/\s+/)[1]) === process.pid)
        left.push(Number(line.trim().split(/\s+/)[0]));
    assert.deepEqual(left, [], 'no fake provider of this process is left running');
  });
});

// Runs interrupted half-way (Ctrl-C through the abort signal, and a killed process) against the
// real plugin and a real emulator whose resources take a while to become ACTIVE: the next up
// converges, with no duplicate and nothing left untracked.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { startCloud, type Cloud } from './support/cloud';
import { makeProgram, diagnostics, type TestProgram } from './support/harness';

const program = (units: number) => `
import * as pulumi from '@pulumi/pulumi';
import * as oci from '@pulumi/oci';
const cfg = new pulumi.Config();
const a = new oci.ailanguage.Endpoint('a', { compartmentId: cfg.require('compartmentId'), modelId: cfg.require('modelId'), displayName: 'int-a', inferenceUnits: ${units} });
const b = new oci.ailanguage.Endpoint('b', { compartmentId: cfg.require('compartmentId'), modelId: cfg.require('modelId'), displayName: 'int-b', inferenceUnits: ${units} });
export const ids = [a.id, b.id];
`;

describe('interrupted runs', () => {
  let cloud: Cloud;
  let prog: TestProgram;
  let config: Record<string, string>;
  const stateFile = () => join(prog.dir, '.ocikit/stacks/dev.json');
  const pendingOps = (): Array<{ type: string }> => {
    if (!existsSync(stateFile())) return [];
    try {
      return JSON.parse(readFileSync(stateFile(), 'utf8')).checkpoint.latest.pending_operations ?? [];
    } catch {
      return [];
    }
  };
  const live = async (name: string) =>
    (
      await cloud
        .language(cloud.sandbox.homeRegion)
        .listEndpoints({ compartmentId: cloud.sandbox.compartmentId, displayName: name })
    ).endpointCollection.items.filter((e) => !['DELETED', 'DELETING'].includes(e.lifecycleState));
  /** Polls until `cond` holds; fails, instead of waiting for ever, once `ended` settles or after 60 s. */
  const waitFor = async (what: string, cond: () => boolean, ended: Promise<unknown>) => {
    let over = false;
    const end = () => (over = true);
    void ended.then(end, end);
    const deadline = Date.now() + 60_000;
    while (!cond()) {
      if (over) throw new Error(`the run ended before a ${what}`);
      if (Date.now() > deadline) throw new Error(`no ${what} within 60 s`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  before(async () => {
    cloud = await startCloud({ transitionDelaySeconds: 3 });
    config = {
      'enginetest:compartmentId': cloud.sandbox.compartmentId,
      'enginetest:modelId': cloud.sandbox.aiLanguage.pretrainedModelIds.sentimentAnalysis,
    };
    prog = makeProgram(program(1), { providerEnv: cloud.providerEnv, config });
  });
  after(async () => {
    prog?.remove();
    await cloud?.close();
  });

  it('Ctrl-C (abort) while creating: the plugin is cancelled, what it started is recorded, the next up converges', async () => {
    const ac = new AbortController();
    const run = prog.run({ signal: ac.signal });
    await waitFor('pending create', () => pendingOps().some((op) => op.type === 'creating'), run);
    ac.abort();
    const r = await run;
    assert.equal(r.ok, false);
    assert.match(r.error!, /cancel/);
    const again = await prog.run();
    assert.equal(again.ok, true, again.error);
    assert.equal((await live('int-a')).length, 1, 'no duplicate of a');
    assert.equal((await live('int-b')).length, 1, 'no duplicate of b');
    assert.equal(JSON.parse(readFileSync(stateFile(), 'utf8')).checkpoint.latest.pending_operations, undefined);
  });

  it('a killed process while updating: the stale lock is taken over, the pending update is read back, the next up converges', async () => {
    prog.write(program(2));
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        resolve(__dirname, 'support/run-child.ts'),
        JSON.stringify({ programDir: prog.dir, config, secretKeys: [], providerEnv: cloud.providerEnv }),
      ],
      { detached: true, stdio: 'ignore' },
    );
    const exited = new Promise((r) => child.once('exit', r));
    try {
      await waitFor('pending update', () => pendingOps().some((op) => op.type === 'updating'), exited);
    } finally {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // Already gone: the failure above says why.
      }
    }
    await exited;
    assert.ok(existsSync(join(prog.dir, '.ocikit/stacks/dev.lock')), 'the killed run left its lock');
    const r = await prog.run();
    assert.equal(r.ok, true, r.error);
    assert.ok(
      diagnostics(r.events).some((m) => /interrupted updating/.test(m)),
      diagnostics(r.events).join('\n'),
    );
    for (const name of ['int-a', 'int-b']) {
      const eps = await live(name);
      assert.equal(eps.length, 1, `exactly one ${name}`);
      assert.equal(eps[0].inferenceUnits, 2);
    }
    assert.equal(JSON.parse(readFileSync(stateFile(), 'utf8')).checkpoint.latest.pending_operations, undefined);
  });
});

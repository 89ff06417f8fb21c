import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { startEmulator } from '@ocikit/emulator';
import { ociTestClients } from '@ocikit/emulator/testing';
import { ok, program } from '../support/programs';

const QUICKSTART = resolve(__dirname, '../../../../examples/quickstart');

// The quickstart, as `npm run demo` runs it: no cloud configured, so ocikit starts the embedded
// emulator with the sandbox in <program>/.ocikit/emulator/ and says so in one line.
test('the quickstart runs against the embedded emulator, and the resources are really there', async () => {
  const p = program(QUICKSTART);
  const up = ok(await p.run(['up', '--yes']), 'ocikit up');
  const embeddedLines = up.stdout.split('\n').filter((l) => /embedded OCI emulator/.test(l));
  assert.equal(embeddedLines.length, 1, up.stdout);
  assert.ok(embeddedLines[0].includes(join(p.dir, '.ocikit', 'emulator')));
  assert.match(up.stdout, /Resources:\n(.*\n)*? {4}\+ \d+ created/);
  // As Pulumi's `up --yes`: the preview is shown first, then the update runs without a question.
  assert.match(up.stdout, /Previewing update \(dev\):[\s\S]*\+ \d+ to create[\s\S]*\nUpdating \(dev\):/);
  // The preview of a new stack lists its outputs, those not known before the update as [unknown];
  // the update lists their values.
  assert.match(
    up.stdout,
    /Previewing update[\s\S]*Outputs:\n[\s\S]*drPlanId +: \[unknown\]\n[\s\S]*\nUpdating \(dev\):/,
  );
  assert.match(up.stdout, /Updating \(dev\):[\s\S]*Outputs:[\s\S]*drPlanId +: "ocid1\.drplan\./);
  // The emulator's API key is the user's (~/.config/ocikit/), not in the program's .ocikit/.
  const ocikitFiles = readdirSync(join(p.dir, '.ocikit'), { recursive: true, withFileTypes: true });
  const files = ocikitFiles.filter((f) => f.isFile()).map((f) => join(f.parentPath ?? f.path, f.name));
  assert.ok(files.some((f) => f.endsWith('emulator.db')));
  for (const file of files) assert.ok(!readFileSync(file).includes('PRIVATE KEY'), `a private key in ${file}`);

  const out = JSON.parse(ok(await p.run(['stack', 'output', '--json'])).stdout);
  assert.equal(out.drPlanState, 'ACTIVE');
  assert.equal(out.endpointState, 'ACTIVE');
  assert.ok(out.drPlanGroupCount > 0);

  // The embedded emulator persisted what ocikit created: open its data directory and look.
  const emulator = await startEmulator({ dataDir: join(p.dir, '.ocikit', 'emulator') });
  try {
    const clients = ociTestClients(emulator);
    const dr = clients.dr(emulator.sandbox?.peerRegion ?? 'us-phoenix-1');
    const language = clients.language();
    const plan = (await dr.getDrPlan({ drPlanId: out.drPlanId })).drPlan;
    assert.equal(plan.lifecycleState, 'ACTIVE');
    assert.equal(plan.planGroups.length, out.drPlanGroupCount);
    const endpoint = (await language.getEndpoint({ endpointId: out.endpointId })).endpoint;
    assert.equal(endpoint.lifecycleState, 'ACTIVE');
    assert.equal(endpoint.inferenceUnits, 1);
    clients.close();
  } finally {
    await emulator.close();
  }

  // Changing it as the README shows: one more inference unit is an update in place.
  p.setConfig({ 'quickstart:inferenceUnits': 2 });
  const preview = ok(await p.run(['preview']));
  assert.match(preview.stdout, /~ +oci:AiLanguage\/endpoint:Endpoint tickets update\n +~ inferenceUnits: 1 => 2/);
  ok(await p.run(['up', '--yes']));
  assert.equal(JSON.parse(ok(await p.run(['stack', 'output', 'endpointId', '--json'])).stdout), out.endpointId);

  // The README's DR flow: a change to the protection group (`npm run change-group`, made with the
  // official OCI SDK) makes the plan need a refresh; raising refreshTrigger, then verifyTrigger,
  // runs RefreshDrPlan and VerifyDrPlan and brings it back to ACTIVE.
  const change = spawnSync(process.execPath, ['--import', 'tsx', 'change-group.ts'], { cwd: p.dir, encoding: 'utf8' });
  assert.equal(change.status, 0, change.stderr);
  assert.match(change.stdout, /Added volume group ocid1\.volumegroup\./);
  const planStates = async () => {
    const o = JSON.parse(ok(await p.run(['stack', 'output', '--json'])).stdout);
    return `${o.drPlanState}/${o.drPlanSubState}`;
  };
  p.setConfig({ 'quickstart:inferenceUnits': 2, 'quickstart:refreshTrigger': 1 });
  assert.match(ok(await p.run(['up', '--yes'])).stdout, /DrPlan switchover updat/);
  assert.equal(await planStates(), 'NEEDS_ATTENTION/NEEDS_VERIFICATION', 'refreshed');
  p.setConfig({ 'quickstart:inferenceUnits': 2, 'quickstart:refreshTrigger': 1, 'quickstart:verifyTrigger': 1 });
  // --skip-preview goes straight to the update, as Pulumi's does (CI's quicker form).
  const verify = ok(await p.run(['up', '--skip-preview']));
  assert.doesNotMatch(verify.stdout, /Previewing/);
  assert.match(verify.stdout, /^Updating \(dev\):/m);
  assert.equal(await planStates(), 'ACTIVE/', 'verified');

  const destroy = ok(await p.run(['destroy', '--yes']));
  assert.match(destroy.stdout, /Previewing destroy \(dev\):[\s\S]*\nDestroying \(dev\):/);
  assert.match(destroy.stdout, /- \d+ deleted/);
  assert.deepEqual(JSON.parse(ok(await p.run(['stack', 'output', '--json'])).stdout), {});
});

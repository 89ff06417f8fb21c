import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import {
  assertIntegrity,
  FIXTURES,
  inlineProgram,
  ok,
  program,
  readCheckpoint,
  startCloud,
  type Cloud,
  type Program,
} from '../support/programs';
import type { RunResult } from '../support/ocikit';

// A run that fails or dies half-way leaves state that matches the cloud, and the next `up`
// converges: no orphan, no duplicate. A second run on a locked stack is refused.

async function pair(cloud: Cloud): Promise<Program> {
  const p = program(join(FIXTURES, 'pair'), { PULUMI_NODEJS_TRANSPILE_ONLY: 'true', ...cloud.env });
  p.setConfig({
    ...cloud.ociConfig,
    'pair:compartmentId': cloud.sandbox.compartmentId,
    'pair:standbyRegion': cloud.sandbox.peerRegion,
    'pair:standbyGroupId': cloud.sandbox.standbyGroupId,
    'pair:textModelId': cloud.sandbox.textModelId,
  });
  return p;
}

/** What the cloud holds under the pair's names (not yet deleted). */
async function inCloud(cloud: Cloud): Promise<{ endpoints: string[]; plans: string[] }> {
  const live = (s?: string) => s !== 'DELETED' && s !== 'DELETING';
  const endpoints = (
    await cloud.t.language().listEndpoints({ compartmentId: cloud.sandbox.compartmentId, displayName: 'pair-first' })
  ).endpointCollection.items
    .filter((e) => live(e.lifecycleState))
    .map((e) => e.id);
  const plans = (
    await cloud.t
      .dr(cloud.sandbox.peerRegion)
      .listDrPlans({ drProtectionGroupId: cloud.sandbox.standbyGroupId, displayName: 'pair-second' })
  ).drPlanCollection.items
    .filter((p) => live(p.lifecycleState))
    .map((p) => p.id);
  return { endpoints, plans };
}

async function converged(cloud: Cloud, p: Program): Promise<void> {
  const up = ok(await p.run(['up', '--yes']), 'the converging up');
  const out = JSON.parse(ok(await p.run(['stack', 'output', '--json'])).stdout);
  assert.deepEqual(await inCloud(cloud), { endpoints: [out.endpointId], plans: [out.planId] }, up.stdout);
  const again = ok(await p.run(['preview']));
  assert.match(again.stdout, /no changes|unchanged/);
  assert.doesNotMatch(again.stdout, / (create|update|replace|delete)\n/);
}

test('a fault injected half-way through up fails it with one line; the next up converges', async () => {
  const cloud = await startCloud();
  try {
    const p = await pair(cloud);
    await cloud.t.emulator.admin.injectFault({
      operation: 'CreateDrPlan',
      status: 400,
      code: 'InvalidParameter',
      message: 'injected by the test',
      count: 1,
    });
    const failed = await p.run(['up', '--yes']);
    assert.notEqual(failed.code, 0);
    assert.match(failed.stdout + failed.stderr, /injected by the test/);
    assert.equal(failed.stderr.trim().split('\n').length, 1, failed.stderr);
    assert.doesNotMatch(failed.stderr, /\n\s+at /);
    assert.deepEqual((await inCloud(cloud)).plans, []);
    assert.equal((await inCloud(cloud)).endpoints.length, 1, 'the endpoint was created before the fault');
    await converged(cloud, p);
  } finally {
    await cloud.close();
  }
});

// OCI made the endpoint but its create's work request failed: the endpoint is FAILED, which OCI
// will not update. The next up replaces it, as Terraform replaces a tainted resource.
test('a create whose work request fails leaves a FAILED resource on record; the next up replaces it', async () => {
  const cloud = await startCloud();
  try {
    const p = await pair(cloud);
    await cloud.t.emulator.admin.injectFault({ operation: 'CreateEndpoint', kind: 'fail-work-request', count: 1 });
    const failed = await p.run(['up', '--yes']);
    assert.notEqual(failed.code, 0);
    const [endpoint] = (await inCloud(cloud)).endpoints;
    const language = cloud.t.language();
    assert.equal((await language.getEndpoint({ endpointId: endpoint })).endpoint.lifecycleState, 'FAILED');
    const preview = ok(await p.run(['preview']));
    assert.match(
      preview.stdout,
      /\+- +oci:AiLanguage\/endpoint:Endpoint first replace\n +- state: "FAILED" # forces replacement\n/,
    );
    await converged(cloud, p);
    const { endpointId } = JSON.parse(ok(await p.run(['stack', 'output', '--json'])).stdout);
    assert.notEqual(endpointId, endpoint);
    assert.equal((await language.getEndpoint({ endpointId })).endpoint.lifecycleState, 'ACTIVE');
  } finally {
    await cloud.close();
  }
});

// Killed while the plugin waits for the new plan to become ACTIVE, the run never learns the
// plan's id; the next up sends the same create again with the key recorded with the pending
// create, and the plugin's retry token (derived from it) makes OCI replay the first answer: the
// plan is adopted, not created twice.
test('an ocikit killed half-way leaves no orphan and no duplicate after the next up', async () => {
  // Slow transitions: the plan is still CREATING when ocikit dies.
  const cloud = await startCloud({ transitionDelaySeconds: 4 });
  try {
    const p = await pair(cloud);
    await killedWhilePlanCreating(p);
    // The state on disk names the create it was waiting for, so the next run knows of it.
    const killed = readCheckpoint(p);
    assertIntegrity(killed);
    assert.deepEqual(
      (killed.pending_operations ?? []).map((o) => [o.type, o.resource.urn.split('::').pop()]),
      [['creating', 'second']],
    );
    await converged(cloud, p);
    const after = readCheckpoint(p);
    assertIntegrity(after);
    assert.equal(after.pending_operations, undefined, 'the converging up resolved the pending create');
  } finally {
    await cloud.close();
  }
});

// Pulumi's `refresh --clear-pending-creates` (refresh.go, filterMapPendingCreates): the pending
// create is dropped from the state before the refresh, which then neither warns of it nor keeps it;
// --skip-pending-creates (the default off a terminal) keeps it, and the two flags together are refused.
test('refresh --clear-pending-creates drops a pending create from the state, as Pulumi does', async () => {
  const cloud = await startCloud({ transitionDelaySeconds: 4 });
  try {
    const p = await pair(cloud);
    await killedWhilePlanCreating(p);
    const pendingOf = () => (readCheckpoint(p).pending_operations ?? []).map((o) => o.type);
    assert.deepEqual(pendingOf(), ['creating']);
    const both = await p.run(['refresh', '--yes', '--clear-pending-creates', '--skip-pending-creates']);
    assert.notEqual(both.code, 0);
    assert.equal(both.stderr, 'error: cannot set both --skip-pending-creates and --clear-pending-creates\n');
    const skipped = ok(await p.run(['refresh', '--yes', '--skip-pending-creates']));
    assert.match(skipped.stdout, /interrupted while creating it/);
    assert.deepEqual(pendingOf(), ['creating']);
    const cleared = ok(await p.run(['refresh', '--yes', '--clear-pending-creates']));
    assert.doesNotMatch(cleared.stdout, /interrupted while creating it/);
    const after = readCheckpoint(p);
    assertIntegrity(after);
    assert.equal(after.pending_operations, undefined);
  } finally {
    await cloud.close();
  }
});

// Pulumi's `refresh --import-pending-creates <urn> <id>` (refresh.go, pendingCreatesToImports):
// the pending create gets the id the user found and the refresh reads the resource into the state,
// so the next up adopts it instead of making another. An odd number of entries is refused; a URN
// with no pending create is warned about.
test('refresh --import-pending-creates reads a pending create into the state under the given id', async () => {
  const cloud = await startCloud({ transitionDelaySeconds: 4 });
  try {
    const p = await pair(cloud);
    await killedWhilePlanCreating(p);
    const [planId] = (await inCloud(cloud)).plans;
    assert.ok(planId, 'the killed run made the plan');
    const urn = 'urn:pulumi:dev::pair::oci:DisasterRecovery/drPlan:DrPlan::second';
    const odd = await p.run(['refresh', '--yes', '--import-pending-creates', urn]);
    assert.equal(odd.code, 1);
    assert.equal(odd.stderr, 'error: each URN must be followed by an ID: found an odd number of entries\n');
    const unknown = 'urn:pulumi:dev::pair::oci:DisasterRecovery/drPlan:DrPlan::nothing';
    const imported = ok(
      await p.run([
        'refresh',
        '--yes',
        '--import-pending-creates',
        urn,
        '--import-pending-creates',
        planId,
        '--import-pending-creates',
        unknown,
        '--import-pending-creates',
        'ocid1.drplan.none',
      ]),
    );
    assert.match(imported.stderr, new RegExp(`^warning: "${unknown}" did not correspond to a pending create$`, 'm'));
    const after = readCheckpoint(p);
    assertIntegrity(after);
    assert.equal(after.pending_operations, undefined);
    assert.equal(after.resources?.find((r) => r.urn === urn)?.id, planId);
    // The next up keeps that plan: no second one is made.
    ok(await p.run(['up', '--yes']));
    assert.deepEqual((await inCloud(cloud)).plans, [planId]);
    assert.equal(JSON.parse(ok(await p.run(['stack', 'output', '--json'])).stdout).planId, planId);
  } finally {
    await cloud.close();
  }
});

// A replacement killed while it created the new plan leaves the old one on record beside the
// pending create: marked pendingReplacement (delete-before-replace: already deleted) or live
// (create-before-delete). `refresh --import-pending-creates` puts the plan the create made in its
// place, so the state names the URN live once, as Pulumi's snapshot integrity check requires (a
// URN twice only when the other copy is marked for deletion), and the next up converges: the
// delete-before-replace original stays gone, the create-before-delete one is deleted.
for (const replacement of ['delete-before-replace', 'create-before-delete'] as const)
  test(`refresh --import-pending-creates after a ${replacement} killed while creating keeps the URN live once`, async () => {
    const cloud = await startCloud();
    try {
      const p = await pair(cloud);
      ok(await p.run(['up', '--yes']));
      const urn = 'urn:pulumi:dev::pair::oci:DisasterRecovery/drPlan:DrPlan::second';
      const dr = cloud.t.dr(cloud.sandbox.peerRegion);
      const [original] = (await inCloud(cloud)).plans;
      if (replacement === 'delete-before-replace') await dr.deleteDrPlan({ drPlanId: original });
      // What the killed run left: the original (pendingReplacement once deleted), then the create it sent.
      const file = join(p.dir, '.ocikit', 'stacks', 'dev.json');
      const checkpoint = JSON.parse(readFileSync(file, 'utf8'));
      const latest = checkpoint.checkpoint.latest;
      const old = latest.resources.find((r: { urn: string }) => r.urn === urn);
      if (replacement === 'delete-before-replace') old.pendingReplacement = true;
      const { id: _id, outputs: _outputs, ...sent } = old;
      latest.pending_operations = [
        { resource: { ...sent, pendingReplacement: undefined, created: new Date().toISOString() }, type: 'creating' },
      ];
      writeFileSync(file, JSON.stringify(checkpoint));
      const { drPlan } = await dr.createDrPlan({
        createDrPlanDetails: {
          displayName: 'pair-second',
          type: 'SWITCHOVER' as never,
          drProtectionGroupId: cloud.sandbox.standbyGroupId,
        },
      });
      ok(await p.run(['refresh', '--yes', '--import-pending-creates', urn, '--import-pending-creates', drPlan.id]));
      const after = readCheckpoint(p);
      assertIntegrity(after);
      assert.equal(after.pending_operations, undefined);
      const seconds = (after.resources ?? []).filter((r) => r.urn === urn);
      assert.deepEqual(
        seconds.map((r) => [r.id, Boolean(r.delete)]),
        replacement === 'delete-before-replace'
          ? [[drPlan.id, false]]
          : [
              [drPlan.id, false],
              [original, true],
            ],
      );
      await converged(cloud, p);
      assert.equal(JSON.parse(ok(await p.run(['stack', 'output', '--json'])).stdout).planId, drPlan.id);
    } finally {
      await cloud.close();
    }
  });

// A second signal quits at once, in the words of Pulumi's cancellation scope (SIGTERM here; "^C"
// for SIGINT), and fails as up.go fails on the engine's context.Canceled (a CancelledError, "update
// cancelled", exit 8): the state is written as it is, and the stack is unlocked on the way out, as Pulumi's backend
// unlocks it; the next up converges.
test('a second SIGTERM quits at once, exits 8, leaves no lock, and the next up converges', async () => {
  const cloud = await startCloud({ transitionDelaySeconds: 4 });
  try {
    const p = await pair(cloud);
    const { child, done } = await upUntilPlanCreating(p);
    // Both before the first one's cancel is done (it ends the plan's wait at once).
    child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 20));
    child.kill('SIGTERM');
    const quit = await done;
    assert.equal(quit.code, 8, quit.stdout + quit.stderr);
    assert.match(
      quit.stdout,
      /^SIGTERM received; cancelling\. If you would like to terminate immediately, send SIGTERM again\.\nNote that terminating immediately may lead to orphaned resources and other inconsistencies\.$/m,
    );
    assert.match(quit.stdout, /^SIGTERM received; terminating$/m);
    assert.equal(quit.stderr, 'error: update cancelled\n');
    assert.ok(!existsSync(join(p.dir, '.ocikit', 'stacks', 'dev.lock')), 'the lock is released');
    assertIntegrity(readCheckpoint(p));
    await converged(cloud, p);
  } finally {
    await cloud.close();
  }
});

// A terminate still ends the run's events as Pulumi's engine ends them: deployment.go run emits the
// summary after TerminateErr, and update.go's deferred NewCancelEvent follows, which --json prints
// as its last line (display/json.go ShowJSONEvents stops at it). The program here ignores the
// SIGTERM that cancelling sends it, so the second signal always finds the run in progress.
test('a second signal ends the event stream: the summary, then the cancelEvent as --json’s last line', async () => {
  const cloud = await startCloud();
  try {
    const index = `import * as pulumi from '@pulumi/pulumi';
process.on('SIGTERM', () => undefined);
new pulumi.ComponentResource('my:x:C', 'a');
export const x = new Promise((r) => setTimeout(() => r(1), 60_000));
`;
    const p = program(inlineProgram('stubborn', index), { PULUMI_NODEJS_TRANSPILE_ONLY: 'true', ...cloud.env });
    p.setConfig(cloud.ociConfig);
    const twice = async (args: string[], registered: RegExp, cancelling: RegExp) => {
      const { child, done } = p.spawn(args);
      let seen = '';
      const until = (pattern: RegExp) =>
        new Promise<void>((resolve) => {
          const look = () => pattern.test(seen) && (child.stdout!.off('data', onData), resolve());
          const onData = (d: Buffer) => ((seen += d), look());
          child.stdout!.on('data', onData);
          look();
        });
      await until(registered);
      child.kill('SIGINT');
      await until(cancelling);
      child.kill('SIGINT');
      return done;
    };
    // (A preview first: the stack is new, so both resources are creates.)
    const preview = await twice(['preview'], /my:x:C a create/, /\^C received; cancelling/);
    assert.equal(preview.code, 1);
    assert.equal(preview.stderr, 'error: context canceled\n');
    assert.match(preview.stdout, /^\^C received; terminating\nResources:\n {4}\+ 2 to create\n/m);
    const json = await twice(
      ['up', '--yes', '--skip-preview', '--json'],
      /"resOutputsEvent".*my:x:C::a/,
      /"stdoutEvent".*\^C received; cancelling/,
    );
    assert.equal(json.code, 8, json.stderr);
    assert.equal(json.stderr, 'error: update cancelled\n');
    const events = json.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    assert.deepEqual(
      events.slice(-3).map((e) => Object.keys(e).find((k) => k.endsWith('Event'))),
      ['stdoutEvent', 'summaryEvent', 'cancelEvent'],
    );
    assert.equal(events.filter((e) => e.cancelEvent).length, 1);
    assert.deepEqual(events.at(-2)!.summaryEvent, {
      ...(events.at(-2)!.summaryEvent as object),
      isPreview: false,
      resourceChanges: { create: 2 },
    });
    assert.ok(!existsSync(join(p.dir, '.ocikit', 'stacks', 'dev.lock')), 'the lock is released');
  } finally {
    await cloud.close();
  }
});

// OCI keeps a retry token for 24 hours: a create an interrupted run sent longer ago than that is,
// sent again, a new create. The next up says so (what the first create made is not tracked)
// instead of saying that OCI answered with what the first create made.
test('a pending create older than the 24-hour retry token is not claimed as adopted', async () => {
  const cloud = await startCloud({ transitionDelaySeconds: 4 });
  try {
    const p = await pair(cloud);
    await killedWhilePlanCreating(p);
    // As if the run had been killed two days ago (the key of the create is its `created` time).
    const file = join(p.dir, '.ocikit', 'stacks', 'dev.json');
    const checkpoint = JSON.parse(readFileSync(file, 'utf8'));
    const [op] = checkpoint.checkpoint.latest.pending_operations;
    op.resource.created = new Date(Date.now() - 2 * 24 * 3600 * 1000).toISOString();
    writeFileSync(file, JSON.stringify(checkpoint));
    const up = ok(await p.run(['up', '--yes', '--skip-preview']));
    assert.match(up.stdout, /more than 24 hours ago, so OCI no longer knows its retry token/);
    assert.match(up.stdout, /if that create made it, it is not tracked: delete or import it by hand/);
    assert.doesNotMatch(up.stdout, /OCI answered with/);
    assertIntegrity(readCheckpoint(p));
  } finally {
    await cloud.close();
  }
});

// Ctrl-C as a user presses it: the first SIGINT lets the operations in flight finish and be
// recorded, releases the lock and fails the run with one line; the next up converges.
test('Ctrl-C half-way through up finishes what is in flight, records it, unlocks; the next up converges', async () => {
  const cloud = await startCloud({ transitionDelaySeconds: 3 });
  try {
    const p = await pair(cloud);
    const { child, done } = await upUntilPlanCreating(p);
    child.kill('SIGINT');
    const cancelled = await done;
    // Pulumi's words and exit code: its cancellation scope's message, then the deployment
    // executor's "update canceled" and a bail, which ExitCodeFor maps to 1.
    assert.equal(cancelled.code, 1, cancelled.stdout + cancelled.stderr);
    assert.match(
      cancelled.stdout,
      /^\^C received; cancelling\. If you would like to terminate immediately, press \^C again\.\nNote that terminating immediately may lead to orphaned resources and other inconsistencies\.$/m,
    );
    assert.match(cancelled.stdout, /^error: update canceled$/m);
    assert.equal(cancelled.stderr, 'error: update canceled\n');
    // The plugin's progress while the endpoint was being created, under it (stdout is not a terminal).
    assert.match(cancelled.stdout, /^ {4}oci:AiLanguage\/endpoint:Endpoint first: work request in_progress \d+%$/m);
    // The plan's create was in flight: it finished and is recorded, not left pending.
    const state = readCheckpoint(p);
    assertIntegrity(state);
    assert.equal(state.pending_operations, undefined, 'nothing left pending');
    const second = (state.resources ?? []).find((r) => r.urn.endsWith('::second'));
    assert.ok(second?.id, 'the plan created while cancelling is in the state');
    assert.deepEqual((await inCloud(cloud)).plans, [second.id]);
    await converged(cloud, p);
  } finally {
    await cloud.close();
  }
});

test('a second ocikit up on a locked stack is refused with a clear message', async () => {
  const cloud = await startCloud({ transitionDelaySeconds: 3 });
  try {
    const p = await pair(cloud);
    const first = p.spawn(['up', '--yes']);
    let seen = '';
    await new Promise<void>((resolve, reject) => {
      first.child.stdout!.on('data', (d) => {
        seen += d;
        if (/first creating/.test(seen)) resolve();
      });
      first.child.on('close', () => reject(new Error(`the first up ended early:\n${seen}`)));
    });
    const second = await p.run(['up', '--yes']);
    assert.notEqual(second.code, 0);
    const lines = second.stderr.trim().split('\n');
    assert.equal(lines.length, 1, second.stderr);
    assert.match(lines[0], /lock/i);
    ok(await first.done, 'the first up');
    assert.equal((await inCloud(cloud)).plans.length, 1);
  } finally {
    await cloud.close();
  }
});

/** Starts `ocikit up --yes` and resolves once its display shows the plan `second` being created. */
async function upUntilPlanCreating(p: Program) {
  const run = p.spawn(['up', '--yes']);
  let seen = '';
  await new Promise<void>((resolve, reject) => {
    run.child.stdout!.on('data', (d) => {
      seen += d;
      if (/second creating/.test(seen)) resolve();
    });
    run.child.on('close', () => reject(new Error(`ocikit ended before creating the plan:\n${seen}`)));
  });
  return run;
}

/** An `up` killed (SIGKILL) while the plugin waits for the new plan: its id never came back. */
async function killedWhilePlanCreating(p: Program): Promise<void> {
  const { child, done } = await upUntilPlanCreating(p);
  await new Promise((r) => setTimeout(r, 500));
  child.kill('SIGKILL');
  await done;
}

// Pulumi's refresh runs every read whatever one of them answers (deployment_executor.go refresh:
// its step executor ignores errors); a failed read keeps its resource's old state, and the run
// fails after them all. -p 1 reads one at a time: the endpoint, which fails, before the plan.
test('a refresh read that fails does not stop the other reads; the run fails after them, in one line', async () => {
  const cloud = await startCloud();
  try {
    const p = await pair(cloud);
    ok(await p.run(['up', '--yes']));
    const ids = JSON.parse(ok(await p.run(['stack', 'output', '--json'])).stdout);
    const dr = cloud.t.dr(cloud.sandbox.peerRegion);
    await dr.updateDrPlan({ drPlanId: ids.planId, updateDrPlanDetails: { displayName: 'drifted' } });
    await cloud.t.emulator.admin.injectFault({
      operation: 'GetEndpoint',
      status: 401,
      code: 'NotAuthenticated',
      message: 'injected by the test',
      count: 100,
    });
    const outputsOf = (type: string) =>
      (readCheckpoint(p).resources!.find((r) => r.type === type) as unknown as { outputs: Record<string, unknown> })
        .outputs;
    const endpointBefore = outputsOf('oci:AiLanguage/endpoint:Endpoint');
    const failedRead = (r: RunResult) => {
      assert.equal(r.code, 1);
      assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
      assert.match(r.stderr, /^error: urn:\S+::first: refreshing failed: .*injected by the test/);
    };
    const preview = await p.run(['--parallel', '1', 'refresh', '--preview-only']);
    failedRead(preview);
    assert.match(preview.stdout, /DrPlan second update\n\s+~ displayName: "pair-second" => "drifted"/);
    for (const command of [
      ['refresh', '--skip-preview'],
      ['up', '--refresh', '--skip-preview'],
    ]) {
      failedRead(await p.run(['--parallel', '1', ...command]));
      assert.equal(outputsOf('oci:DisasterRecovery/drPlan:DrPlan').displayName, 'drifted', command.join(' '));
      assert.deepEqual(outputsOf('oci:AiLanguage/endpoint:Endpoint'), endpointBefore, command.join(' '));
    }
    // up --refresh stopped after its reads: the program's steps did not run.
    assert.equal((await dr.getDrPlan({ drPlanId: ids.planId })).drPlan.displayName, 'drifted');
    await cloud.t.emulator.admin.clearFaults();
    await converged(cloud, p);
  } finally {
    await cloud.close();
  }
});

// Each create is a create of its own (the plugin's OCI retry token derives from the key ocikit's
// engine gives it): `--replace` with the same inputs makes a new endpoint and deletes the old one,
// and the same program in another folder (same project, stack and names) makes its own resources.
test('--replace, and the same program in another folder, create anew rather than replay a create', async () => {
  const cloud = await startCloud();
  try {
    const p = await pair(cloud);
    ok(await p.run(['up', '--yes']));
    const first = JSON.parse(ok(await p.run(['stack', 'output', '--json'])).stdout);
    const urn = 'urn:pulumi:dev::pair::oci:AiLanguage/endpoint:Endpoint::first';
    const replaced = ok(await p.run(['up', '--yes', '--replace', urn]));
    assert.match(replaced.stdout, /\+- +oci:AiLanguage\/endpoint:Endpoint first replaced/);
    const second = JSON.parse(ok(await p.run(['stack', 'output', '--json'])).stdout);
    assert.notEqual(second.endpointId, first.endpointId);
    const language = cloud.t.language();
    assert.equal((await language.getEndpoint({ endpointId: second.endpointId })).endpoint.lifecycleState, 'ACTIVE');
    assert.match((await language.getEndpoint({ endpointId: first.endpointId })).endpoint.lifecycleState ?? '', /DELET/);

    const other = await pair(cloud);
    ok(await other.run(['up', '--yes']));
    const theirs = JSON.parse(ok(await other.run(['stack', 'output', '--json'])).stdout);
    assert.notEqual(theirs.endpointId, second.endpointId);
    assert.notEqual(theirs.planId, second.planId);
    assert.equal((await inCloud(cloud)).endpoints.length, 2);
    assert.equal((await inCloud(cloud)).plans.length, 2);
  } finally {
    await cloud.close();
  }
});

// The next whole `up` finishes a create an interrupted run sent without learning the id: the same
// create again (same key, so the same OCI retry token), answered with the plan the first one made.
// That plan then takes its steps like any other: here the program renamed it, an update in place;
// dropped from the program, it is deleted. Nothing is left untracked.
for (const change of ['renamed', 'removed'] as const)
  test(`an interrupted create is finished by the next up, then ${change === 'renamed' ? "updated to the program's new inputs" : 'deleted, as the program no longer declares it'}`, async () => {
    const cloud = await startCloud({ transitionDelaySeconds: 4 });
    try {
      const p = await pair(cloud);
      await killedWhilePlanCreating(p);
      assert.deepEqual(
        (readCheckpoint(p).pending_operations ?? []).map((o) => o.type),
        ['creating'],
      );
      const index = join(p.dir, 'index.ts');
      const source = readFileSync(index, 'utf8');
      writeFileSync(
        index,
        change === 'renamed'
          ? source.replace("displayName: 'pair-second'", "displayName: 'renamed'")
          : source.replace(/const plan = new [^;]*;/s, '').replace(/export const planId[^;]*;/, ''),
      );
      // A preview resolves nothing (it writes nothing) and says so.
      const preview = ok(await p.run(['preview']));
      assert.match(
        preview.stdout,
        /::second: an earlier run was interrupted while creating it; the next run that may change it resolves that first/,
      );
      const next = ok(await p.run(['up', '--yes', '--skip-preview']));
      assert.match(
        next.stdout,
        /::second: .*that create was sent again as it was and OCI answered with ocid1\.drplan\./,
      );
      assert.doesNotMatch(next.stdout, /not tracked/);
      assert.match(
        next.stdout,
        change === 'renamed'
          ? /~ +oci:DisasterRecovery\/drPlan:DrPlan second updated/
          : /- +oci:DisasterRecovery\/drPlan:DrPlan second deleted/,
      );
      const state = readCheckpoint(p);
      assertIntegrity(state);
      assert.equal(state.pending_operations, undefined);
      const plans = (
        await cloud.t.dr(cloud.sandbox.peerRegion).listDrPlans({ drProtectionGroupId: cloud.sandbox.standbyGroupId })
      ).drPlanCollection.items.filter((d) => !['DELETED', 'DELETING'].includes(d.lifecycleState ?? ''));
      const recorded = (state.resources ?? []).filter((r) => r.type === 'oci:DisasterRecovery/drPlan:DrPlan');
      assert.deepEqual(
        plans.map((d) => [d.id, d.displayName]),
        recorded.map((r) => [r.id, 'renamed']),
        'one plan in the cloud, the one the state records, or none',
      );
      assert.equal(plans.length, change === 'renamed' ? 1 : 0);
    } finally {
      await cloud.close();
    }
  });

// A signal once the run is over (a second Ctrl-C pressed as it ended) lands in its cleanup, after
// the cancellation handlers are gone: it killed ocikit (by the signal, before the plugins were
// stopped and the stack unlocked when it came early enough). It is now taken and changes
// nothing. To hold the cleanup open for as long as the test needs, a request half sent to the
// embedded emulator keeps its close waiting; the emulator's owner file, removed just before that
// close, says the cleanup has begun.
test('a signal during the cleanup after a run changes nothing: it finishes and exits as the run ended', async () => {
  const p = program(inlineProgram('late-signal', 'export const x = 1;\n'), { PULUMI_NODEJS_TRANSPILE_ONLY: 'true' });
  const { child, done } = p.spawn(['up', '--yes', '--skip-preview']);
  let stdout = '';
  const url = await new Promise<URL>((resolve) =>
    child.stdout!.on('data', (d) => {
      stdout += d;
      const at = /embedded OCI emulator at (http:\/\/\S+)/.exec(stdout);
      if (at) resolve(new URL(at[1]));
    }),
  );
  const socket = connect(Number(url.port), url.hostname);
  await new Promise((resolve) => socket.once('connect', resolve));
  socket.write('GET /20221001/endpoints HTTP/1.1\r\nHost: emulator\r\n');
  const owner = join(p.dir, '.ocikit', 'emulator', 'owner.json');
  while (!/Duration:/.test(stdout) || existsSync(owner)) await new Promise((r) => setTimeout(r, 10));
  child.kill('SIGINT');
  // (Long enough for the signal to end a process that does not take it; then the cleanup may end.)
  await Promise.race([done, new Promise((r) => setTimeout(r, 500))]);
  socket.destroy();
  const result = await done;
  assert.deepEqual([result.code, result.signal, result.stderr], [0, null, '']);
  assert.match(result.stdout, /Resources:\n {4}\+ 1 created\n/);
  assert.ok(!existsSync(join(p.dir, '.ocikit', 'stacks', 'dev.lock')), 'the lock is released');
  assert.equal(ok(await p.run(['stack', 'output', 'x'])).stdout, '1\n');
});

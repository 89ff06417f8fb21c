import { test } from 'node:test';
import assert from 'node:assert/strict';
import { inlineProgram, ok, program, startCloud, type Cloud, type Program } from '../support/programs';

// `destroy -r/--refresh`, and Pulumi.yaml's `options: {refresh: always}` for destroy, as Pulumi's
// destroy.go (getRefreshOption) and deploymentExecutor.Execute (refresh before the deletes): what
// was deleted outside is found gone by the refresh, and is not deleted again.

const INDEX = `import * as pulumi from '@pulumi/pulumi';
import * as oci from '@ocikit/oci';
const config = new pulumi.Config();
export const endpointId = new oci.ailanguage.Endpoint('gone', {
  compartmentId: config.require('compartmentId'),
  modelId: config.require('modelId'),
}).id;
`;

function endpointProgram(cloud: Cloud, pulumiYaml?: string): Program {
  const p = program(inlineProgram('refreshing', INDEX, pulumiYaml), {
    PULUMI_NODEJS_TRANSPILE_ONLY: 'true',
    ...cloud.env,
  });
  p.setConfig({ ...cloud.ociConfig, compartmentId: cloud.sandbox.compartmentId, modelId: cloud.sandbox.textModelId });
  return p;
}

/** Deploys the endpoint, deletes it outside ocikit, and arms a fault for the next DeleteEndpoint. */
async function deletedOutside(cloud: Cloud, p: Program): Promise<void> {
  ok(await p.run(['up', '--yes']));
  const { endpointId } = JSON.parse(ok(await p.run(['stack', 'output', '--json'])).stdout) as { endpointId: string };
  await cloud.t.language().deleteEndpoint({ endpointId });
  await cloud.t.advance(5);
  await failNextDelete(cloud);
}

/** A destroy that asks OCI to delete the endpoint again fails: the refresh must keep it from doing so. */
function failNextDelete(cloud: Cloud): Promise<void> {
  return cloud.t.emulator.admin.injectFault({
    operation: 'DeleteEndpoint',
    status: 400,
    code: 'InvalidParameter',
    message: 'DeleteEndpoint was called',
    count: 1,
  });
}

test('destroy --refresh finds what was deleted outside gone and does not delete it again', async () => {
  const cloud = await startCloud();
  try {
    const p = endpointProgram(cloud);
    await deletedOutside(cloud, p);
    const destroyed = ok(await p.run(['destroy', '--yes', '--refresh']));
    // Read back as gone (a refresh's delete), so only the stack is deleted, and only that counts
    // (Pulumi counts refresh steps only in a refresh operation).
    assert.match(destroyed.stdout, /^ ~ +oci:AiLanguage\/endpoint:Endpoint gone refreshing$/m);
    assert.match(destroyed.stdout, /^Resources:\n +- 1 deleted\n\nDuration:/m);
    assert.doesNotMatch(destroyed.stdout + destroyed.stderr, /DeleteEndpoint was called/);
    // destroy.go's words after a whole destroy.
    assert.match(
      destroyed.stdout,
      /^The resources in the stack have been deleted, but the history and configuration associated with the stack are still maintained. \nIf you want to remove the stack completely, run `ocikit stack rm dev`\.$/m,
    );
    assert.deepEqual(JSON.parse(ok(await p.run(['stack', 'export'])).stdout).deployment.resources ?? [], []);
  } finally {
    await cloud.close();
  }
});

test("Pulumi.yaml's options.refresh: always refreshes before destroy too; -r=false does not", async () => {
  const cloud = await startCloud();
  try {
    const p = endpointProgram(cloud, 'name: refreshing\nruntime: nodejs\noptions:\n  refresh: always\n');
    await deletedOutside(cloud, p);
    const unrefreshed = await p.run(['destroy', '--yes', '--refresh=false']);
    assert.equal(unrefreshed.code, 1, 'without the refresh, OCI is asked to delete it again');
    assert.match(unrefreshed.stdout + unrefreshed.stderr, /DeleteEndpoint was called/);
    await failNextDelete(cloud);
    ok(await p.run(['destroy', '--yes']), 'the project option refreshes first');
    assert.deepEqual(JSON.parse(ok(await p.run(['stack', 'export'])).stdout).deployment.resources ?? [], []);
  } finally {
    await cloud.close();
  }
});

test("refresh --show-sames shows the stack's row; its preview, the stack's outputs as they stay", async () => {
  // The stack's refresh changes nothing (RefreshStep.Apply keeps a component's state): its
  // preview prints the outputs as sames with --show-sames (getResourceOutputsPropertiesString).
  const p = program(inlineProgram('stacked', `export const a = 'x';\n`), { PULUMI_NODEJS_TRANSPILE_ONLY: 'true' });
  ok(await p.run(['up', '--yes']));
  const previewed = ok(await p.run(['refresh', '--preview-only', '--show-sames'])).stdout;
  assert.match(
    previewed,
    /^ {5}pulumi:pulumi:Stack stacked-dev\nOutputs:\n {4}a: "x"\n\nResources:\n {4}1 unchanged\n/m,
  );
  // Without --show-sames the stack keeps its row (the root stack is always shown), not its outputs.
  const plain = ok(await p.run(['refresh', '--preview-only'])).stdout;
  assert.match(plain, /^ {5}pulumi:pulumi:Stack stacked-dev\nResources:\n/m);
  assert.doesNotMatch(plain, /Outputs:/);
  const refreshed = ok(await p.run(['refresh', '--yes', '--skip-preview', '--show-sames'])).stdout;
  assert.match(
    refreshed,
    /^ ~ +pulumi:pulumi:Stack stacked-dev refreshing\n {5}pulumi:pulumi:Stack stacked-dev\nOutputs:\n {4}a: "x"\n/m,
  );
});

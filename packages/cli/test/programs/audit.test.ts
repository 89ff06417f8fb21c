import { after, before, test } from 'node:test';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { FIXTURES, ok, program, startCloud, type Cloud, type Program } from '../support/programs';
import { cleanEnv, hasTerminal, ocikit, terminalText } from '../support/ocikit';
import type { StepEventMetadata } from '../../src/engine';

// What a user of the Pulumi CLI sees and what `pulumi stack import` needs, checked on a
// @pulumi/oci program with a default provider, an explicit one and a secret output.
const SECRET = 'audit-token-value';
let cloud: Cloud;
let p: Program;

before(async () => {
  cloud = await startCloud();
  p = program(join(FIXTURES, 'audit'), {
    PULUMI_CONFIG_PASSPHRASE: 'audit passphrase',
    ...cloud.env,
    PULUMI_NODEJS_TRANSPILE_ONLY: 'true',
  });
  // No encryptionsalt yet: the run's secret output creates it.
  p.setConfig({
    ...cloud.ociConfig,
    'audit:compartmentId': cloud.sandbox.compartmentId,
    'audit:peerRegion': cloud.sandbox.peerRegion,
    'audit:modelId': cloud.sandbox.textModelId,
    'audit:groupId': cloud.sandbox.standbyGroupId,
  });
});
after(() => cloud?.close());

test('the plan shows explicit providers and the summary does not count default ones, as Pulumi', async () => {
  const up = ok(await p.run(['up', '--yes']));
  assert.match(up.stdout, /^ \+ +pulumi:providers:oci peer created/m);
  assert.doesNotMatch(up.stdout, /default_/, 'a default provider is internal: not shown');
  // stack, peer provider, endpoint, plan: the default provider is not counted (Pulumi's isInternalStep).
  assert.match(up.stdout, /Resources:\n {4}\+ 4 created\n\n/);
  // Nothing changed: the default provider and the unchanged read of `seen` are not counted.
  const preview = ok(await p.run(['preview']));
  assert.match(preview.stdout, /Resources:\n {4}4 unchanged\n\n/);
});

test('--expect-no-changes passes on a stack in step and fails, as Pulumi, when a change is proposed or made', async () => {
  ok(await p.run(['preview', '--expect-no-changes']));
  ok(await p.run(['refresh', '--yes', '--expect-no-changes']));
  ok(await p.run(['config', 'set', 'units', '3']));
  // --json's step events name a property diff's kind `diffKind`, as apitype.PropertyDiff does.
  const update = ok(await p.run(['preview', '--json']))
    .stdout.trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { resourcePreEvent?: { metadata: StepEventMetadata } })
    .find((e) => e.resourcePreEvent?.metadata.op === 'update')!.resourcePreEvent!.metadata;
  assert.deepEqual(update.detailedDiff, { inferenceUnits: { diffKind: 'update', inputDiff: true } });
  const proposed = await p.run(['preview', '--expect-no-changes']);
  assert.equal(proposed.code, 7, 'ExitNoChanges');
  assert.match(proposed.stdout, /~ 1 to update/);
  assert.match(proposed.stderr, /^error: no changes were expected but changes were proposed\n$/);
  const made = await p.run(['up', '--yes', '--expect-no-changes']);
  assert.equal(made.code, 7, 'ExitNoChanges');
  assert.match(made.stderr, /^error: no changes were expected but changes occurred\n$/);
  const { endpointId } = JSON.parse(ok(await p.run(['stack', 'output', '--json'])).stdout) as { endpointId: string };
  assert.equal(
    (await cloud.t.language().getEndpoint({ endpointId })).endpoint.inferenceUnits,
    3,
    'applied, then reported',
  );
  ok(await p.run(['config', 'rm', 'units']));
  ok(await p.run(['up', '--yes']));
});

test('up --refresh reads the cloud first: a change made outside is seen and undone in one run', async () => {
  const { endpointId } = JSON.parse(ok(await p.run(['stack', 'output', '--json'])).stdout) as { endpointId: string };
  const language = cloud.t.language();
  await language.updateEndpoint({ endpointId, updateEndpointDetails: { inferenceUnits: 2 } });
  await cloud.t.advance(5);
  const units = async () => (await language.getEndpoint({ endpointId })).endpoint.inferenceUnits;
  assert.equal(await units(), 2);
  // Without a refresh the state still says 1, as the program does: nothing to do.
  ok(await p.run(['preview', '--expect-no-changes']));
  const plan = ok(await p.run(['preview', '--refresh'])).stdout;
  assert.match(plan, /^ ~ +oci:AiLanguage\/endpoint:Endpoint classifier update\n +~ inferenceUnits: 2 => 1$/m);
  const state = JSON.parse(ok(await p.run(['stack', 'export'])).stdout).deployment.resources.find(
    (r: { urn: string }) => r.urn.endsWith('::classifier'),
  );
  assert.equal(state.outputs.inferenceUnits, 1, 'a preview writes nothing, its refresh neither');
  ok(await p.run(['up', '--refresh', '--yes']));
  assert.equal(await units(), 1, 'undone');
  ok(await p.run(['up', '--refresh', '--yes', '--expect-no-changes']));
});

test("refresh's drift is what the provider's Diff finds against the state's inputs, as Pulumi's: a change the program does not make is none", async () => {
  const { endpointId } = JSON.parse(ok(await p.run(['stack', 'output', '--json'])).stdout) as { endpointId: string };
  const language = cloud.t.language();
  const classifier = async () =>
    JSON.parse(ok(await p.run(['stack', 'export'])).stdout).deployment.resources.find((r: { urn: string }) =>
      r.urn.endsWith('::classifier'),
    );
  // The program leaves displayName to OCI: renamed outside (timeUpdated moves too), it is read and
  // recorded, but no drift: the next up would change nothing.
  const before = (await classifier()).modified as string;
  await language.updateEndpoint({ endpointId, updateEndpointDetails: { displayName: 'renamed-outside' } });
  await cloud.t.advance(5);
  const renamed = ok(await p.run(['refresh', '--yes', '--expect-no-changes']));
  assert.doesNotMatch(renamed.stdout, /displayName|timeUpdated|updated/, renamed.stdout);
  const recorded = await classifier();
  assert.equal(recorded.outputs.displayName, 'renamed-outside');
  // Its modified time moves when what was read differs from the state, only then (RefreshStep.Apply).
  // Compared as times: Go's format trims trailing zeros, so `…07.1Z` is later than `…07.12Z` as text.
  assert.ok(Date.parse(recorded.modified) > Date.parse(before), `${recorded.modified} after ${before}`);
  ok(await p.run(['refresh', '--yes']));
  assert.equal((await classifier()).modified, recorded.modified);
  // An input the program sets, changed outside: the drift names it alone, old value to the cloud's.
  await language.updateEndpoint({ endpointId, updateEndpointDetails: { inferenceUnits: 2 } });
  await cloud.t.advance(5);
  const drifted = await p.run(['refresh', '--yes', '--expect-no-changes']);
  assert.equal(drifted.code, 7, drifted.stdout + drifted.stderr);
  // Its row ends as what the refresh found, as Pulumi's (getStepDoneDescription of ResultOp).
  assert.match(
    drifted.stdout,
    / ~ +oci:AiLanguage\/endpoint:Endpoint classifier updated \([\d.]+s\)\n +~ inferenceUnits: 1 => 2\n(?! +~)/,
  );
  assert.match(drifted.stdout, /^ +~ 1 updated$/m);
  assert.equal((await classifier()).inputs.inferenceUnits, 2);
  assert.match(ok(await p.run(['preview'])).stdout, /~ inferenceUnits: 2 => 1/);
  ok(await p.run(['up', '--yes']));
  assert.equal((await language.getEndpoint({ endpointId })).endpoint.inferenceUnits, 1, 'repaired');
});

test('stack export names the passphrase salt a run created, so Pulumi can read its secrets', async () => {
  const salt = parseYaml(readFileSync(join(p.dir, 'Pulumi.dev.yaml'), 'utf8')).encryptionsalt as string;
  assert.match(salt, /^v1:/);
  const exported = JSON.parse(ok(await p.run(['stack', 'export'])).stdout);
  assert.equal(exported.version, 3);
  assert.deepEqual(exported.deployment.secrets_providers, { type: 'passphrase', state: { salt } });
  const stack = exported.deployment.resources.find((r: { type: string }) => r.type === 'pulumi:pulumi:Stack');
  assert.equal(stack.outputs.token['4dabf18193072939515e22adb298388d'], '1b47061264138c4ac30d75fd1eb44270');
  assert.match(stack.outputs.token.ciphertext, /^v1:/);
  // The file on disk too, not only the export.
  const file = JSON.parse(readFileSync(join(p.dir, '.ocikit', 'stacks', 'dev.json'), 'utf8'));
  assert.deepEqual(file.checkpoint.latest.secrets_providers, { type: 'passphrase', state: { salt } });
});

test('stack output prints Pulumi’s OUTPUT/VALUE table; --show-secrets reveals secrets there too', async () => {
  const out = JSON.parse(ok(await p.run(['stack', 'output', '--json'])).stdout);
  const table = ok(await p.run(['stack', 'output'])).stdout;
  assert.equal(
    table,
    [
      'Current stack outputs (4):',
      '    OUTPUT      VALUE',
      `    endpointId  ${out.endpointId}`,
      `    planId      ${out.planId}`,
      '    shape       {"tags":["a","b"],"units":1}',
      '    token       [secret]',
      '',
    ].join('\n'),
  );
  const shown = ok(await p.run(['stack', 'output', '--show-secrets'])).stdout;
  assert.match(shown, new RegExp(`^ {4}token {7}${SECRET}$`, 'm'));
  assert.equal(ok(await p.run(['stack', 'output', 'shape'])).stdout, '{"tags":["a","b"],"units":1}\n');
  // Pulumi's -j and --shell (name=value lines to eval, quoted as go-shellquote does), and its message
  // for a name the stack does not have.
  assert.deepEqual(JSON.parse(ok(await p.run(['stack', 'output', '-j'])).stdout), out);
  assert.equal(
    ok(await p.run(['stack', 'output', '--shell'])).stdout,
    `endpointId=${out.endpointId}\nplanId=${out.planId}\nshape=\\{\\"tags\\":\\[\\"a\\",\\"b\\"],\\"units\\":1}\ntoken=\\[secret]\n`,
  );
  assert.equal(ok(await p.run(['stack', 'output', '--shell', 'planId'])).stdout, `planId=${out.planId}\n`);
  // What a shell gets back from it is the value.
  const shell = ok(await p.run(['stack', 'output', '--shell'])).stdout;
  assert.equal(
    execFileSync('sh', ['-c', 'eval "$0"; printf %s "$shape"', shell], { encoding: 'utf8' }),
    '{"tags":["a","b"],"units":1}',
  );
  const missing = await p.run(['stack', 'output', 'nope']);
  assert.equal(missing.stderr, "error: current stack does not have output property 'nope'\n");
  // Without --show-secrets no passphrase is needed, as Pulumi reads the state with its
  // BlindingProvider (pulumi/pulumi#23820); with it, it still is.
  for (const passphrase of [undefined, 'not the passphrase']) {
    const env = { PULUMI_CONFIG_PASSPHRASE: passphrase };
    assert.equal(ok(await p.run(['stack', 'output'], env)).stdout, table);
    assert.deepEqual(JSON.parse(ok(await p.run(['stack', 'output', '--json'], env)).stdout), out);
    assert.equal(ok(await p.run(['stack', 'output', 'token'], env)).stdout, '[secret]\n');
    assert.notEqual((await p.run(['stack', 'output', '--show-secrets'], env)).code, 0);
  }
});

test('--show-secrets on preview and up shows secret values, as Pulumi; without it no output carries them', async () => {
  // A preview shows only the outputs that change (none here), the unchanged ones with --show-sames.
  assert.doesNotMatch(ok(await p.run(['preview'])).stdout, /Outputs:/);
  const masked = ok(await p.run(['preview', '--show-sames']));
  assert.match(masked.stdout, /^ {4}token +: \[secret\]$/m);
  assert.doesNotMatch(masked.stdout, new RegExp(SECRET));
  assert.doesNotMatch(ok(await p.run(['preview', '--json'])).stdout, new RegExp(SECRET));
  const shown = ok(await p.run(['preview', '--show-sames', '--show-secrets']));
  assert.match(shown.stdout, new RegExp(`^ {4}token +: "${SECRET}"$`, 'm'));
  // The engine's events carry it too (the stack's outputs), as Pulumi's with --show-secrets.
  const events = ok(await p.run(['preview', '--json', '--show-secrets']))
    .stdout.trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { resOutputsEvent?: { metadata: { type: string; new?: { outputs: object } } } });
  const stack = events.find((e) => e.resOutputsEvent?.metadata.type === 'pulumi:pulumi:Stack')!;
  assert.equal((stack.resOutputsEvent!.metadata.new!.outputs as { token: string }).token, SECRET);
  const up = ok(await p.run(['up', '--yes', '--show-secrets']));
  assert.match(up.stdout, new RegExp(`^ {4}token +: "${SECRET}"$`, 'm'));
  // Shown, not stored: the state keeps it encrypted.
  assert.doesNotMatch(readFileSync(join(p.dir, '.ocikit', 'stacks', 'dev.json'), 'utf8'), new RegExp(SECRET));
});

test('import by command uses the stack’s default provider, not a second unversioned one', async () => {
  const { endpointId } = JSON.parse(ok(await p.run(['stack', 'output', '--json'])).stdout);
  const imported = ok(await p.run(['import', 'oci:AiLanguage/endpoint:Endpoint', 'adopted', endpointId]));
  assert.match(imported.stdout, /Resources:\n {4}= 1 imported\n/);
  const resources = JSON.parse(ok(await p.run(['stack', 'export'])).stdout).deployment.resources as Array<{
    urn: string;
    provider?: string;
    protect?: boolean;
  }>;
  const adopted = resources.find((r) => r.urn.endsWith('::adopted'))!;
  assert.equal(adopted.protect, true, 'protected, as `pulumi import` does by default');
  assert.match(adopted.provider!, /::pulumi:providers:oci::default_4_20_0::/);
  assert.deepEqual(
    resources.filter((r) => r.urn.includes('::pulumi:providers:oci::default')).map((r) => r.urn.split('::').pop()),
    ['default_4_20_0'],
  );
});

// Pulumi's repair path: export, edit, import. Here the edit forgets the endpoint adopted by
// `ocikit import` (the same cloud object as `classifier`), which the program does not declare.
test('stack import takes back an edited export; a backup restores; another stack’s needs --force', async () => {
  const exported = JSON.parse(ok(await p.run(['stack', 'export'])).stdout);
  const refused = await p.run(['preview']);
  assert.equal(refused.code, 1, 'the protected, undeclared endpoint cannot be deleted');
  assert.match(refused.stderr, /resource "\S+::adopted" cannot be deleted because it is protected/);
  const edited = structuredClone(exported);
  edited.deployment.resources = edited.deployment.resources.filter(
    (r: { urn: string }) => !r.urn.endsWith('::adopted'),
  );
  const env = cleanEnv({ PULUMI_CONFIG_PASSPHRASE: 'audit passphrase' });
  const imported = await ocikit(['--cwd', p.dir, 'stack', 'import'], { env, input: JSON.stringify(edited) });
  assert.equal(imported.code, 0, imported.stderr);
  assert.equal(imported.stdout, 'Import complete.\n');
  const after = ok(await p.run(['preview'])).stdout;
  assert.doesNotMatch(after, /adopted/, 'forgotten: nothing to delete');
  assert.match(after, /Resources:\n {4}4 unchanged\n/);
  assert.equal(ok(await p.run(['stack', 'output', 'token', '--show-secrets'])).stdout, `${SECRET}\n`);

  // The previous state is the backup, and a backup file imports as it is.
  const backup = join(p.dir, '.ocikit', 'stacks', 'dev.json.bak');
  ok(await p.run(['stack', 'import', '--file', backup]));
  const restored = JSON.parse(ok(await p.run(['stack', 'export'])).stdout).deployment.resources;
  assert.deepEqual(
    restored.map((r: { urn: string }) => r.urn),
    exported.deployment.resources.map((r: { urn: string }) => r.urn),
  );
  ok(await ocikit(['--cwd', p.dir, 'stack', 'import'], { env, input: JSON.stringify(edited) }));

  // Broken or foreign deployments are refused in one line and change nothing.
  const file = join(p.dir, 'edited.json');
  const orphan = structuredClone(exported);
  orphan.deployment.resources = orphan.deployment.resources.filter(
    (r: { type: string }) => r.type !== 'pulumi:pulumi:Stack',
  );
  writeFileSync(file, JSON.stringify(orphan));
  const broken = await p.run(['stack', 'import', '--file', file]);
  assert.equal(broken.code, 1);
  assert.match(
    broken.stderr,
    /^error: state file contains errors: resource \S+ refers to unknown parent urn:pulumi:dev::audit::pulumi:pulumi:Stack::audit-dev; importing this file could be dangerous, rerun with --force to proceed anyway\n$/,
  );
  writeFileSync(file, JSON.stringify(exported));
  const foreign = await p.run(['--stack', 'copy', 'stack', 'import', '--file', file]);
  assert.equal(foreign.code, 1);
  assert.match(
    foreign.stderr,
    /^error: resource 'urn:pulumi:dev::audit::pulumi:pulumi:Stack::audit-dev' is from a different stack \(dev != copy\);/,
  );
  assert.equal(existsSync(join(p.dir, '.ocikit', 'stacks', 'copy.json')), false, 'nothing written');

  // Forced into a stack with a salt of its own: the secret is decrypted with the export's salt
  // and encrypted again with the new stack's.
  ok(await p.run(['--stack', 'copy', 'config', 'set', '--secret', 'other', 'x']));
  const copySalt = parseYaml(readFileSync(join(p.dir, 'Pulumi.copy.yaml'), 'utf8')).encryptionsalt as string;
  assert.notEqual(copySalt, exported.deployment.secrets_providers.state.salt);
  const forced = ok(await p.run(['--stack', 'copy', 'stack', 'import', '--file', file, '--force']));
  assert.match(forced.stderr, /^warning: resource '\S+' is from a different stack \(dev != copy\)$/m);
  assert.equal(
    ok(await p.run(['--stack', 'copy', 'stack', 'output', 'token', '--show-secrets'])).stdout,
    `${SECRET}\n`,
  );
  const copy = JSON.parse(ok(await p.run(['--stack', 'copy', 'stack', 'export'])).stdout).deployment;
  assert.deepEqual(copy.secrets_providers, { type: 'passphrase', state: { salt: copySalt } });

  // As `pulumi stack export --show-secrets --file f`: the file holds each secret as `plaintext`
  // (its JSON), nothing is printed, and the file imports back (the secret encrypted again).
  assert.ok(!JSON.stringify(exported).includes(SECRET), 'a plain export keeps the ciphertext');
  const shown = join(p.dir, 'shown.json');
  writeFileSync(shown, 'an older export\n', { mode: 0o644 });
  assert.equal(ok(await p.run(['stack', 'export', '--show-secrets', '--file', shown])).stdout, '');
  assert.equal(statSync(shown).mode & 0o777, 0o600, 'plain-text secrets: readable by the owner only');
  const plain = readFileSync(shown, 'utf8');
  assert.ok(plain.includes(`"plaintext": ${JSON.stringify(JSON.stringify(SECRET))}`), plain);
  assert.ok(!plain.includes('"ciphertext"'), 'every secret in plain text');
  ok(await p.run(['stack', 'import', '--file', shown]));
  assert.ok(!readFileSync(join(p.dir, '.ocikit', 'stacks', 'dev.json'), 'utf8').includes(SECRET));
  assert.equal(ok(await p.run(['stack', 'output', 'token', '--show-secrets'])).stdout, `${SECRET}\n`);
});

// A checkpoint as Pulumi writes its times, taken over with `stack import`: Go's time.Time
// MarshalJSON (RFC3339Nano) keeps nanoseconds, trims trailing zeros, and writes the manifest's
// time.Now() in the local zone (pkg/backend/snapshot.go) and a step's time.Now().UTC() in UTC
// (pkg/resource/deploy/step.go); the manifest names Pulumi's version and its magic
// (pkg/resource/deploy/manifest.go NewMagic), and DeploymentV3 ends with `metadata`. ocikit reads
// it as it is: nothing to change, and the resources' times kept as Pulumi wrote them.
test('a checkpoint with Pulumi’s times and manifest imports and runs with no changes', async () => {
  // The state as the cloud is now, so the refresh below reads nothing new (a read that differs moves `modified`).
  ok(await p.run(['refresh', '--yes']));
  const exported = JSON.parse(ok(await p.run(['stack', 'export'])).stdout);
  const pulumis = structuredClone(exported);
  const version = 'v3.140.0';
  pulumis.deployment.manifest = {
    time: '2026-11-27T14:17:07.123456789+01:00',
    magic: createHash('sha256').update(version).digest('hex'),
    version,
  };
  pulumis.deployment.metadata = {};
  const times = ['2026-11-27T13:17:07.123456789Z', '2026-11-27T13:17:08Z'];
  for (const r of pulumis.deployment.resources) if (r.created) [r.created, r.modified] = times;
  const env = cleanEnv({ PULUMI_CONFIG_PASSPHRASE: 'audit passphrase' });
  const imported = await ocikit(['--cwd', p.dir, 'stack', 'import'], { env, input: JSON.stringify(pulumis) });
  assert.equal(imported.code, 0, imported.stderr);
  ok(await p.run(['preview', '--expect-no-changes']));
  ok(await p.run(['refresh', '--yes', '--expect-no-changes']));
  const after = JSON.parse(ok(await p.run(['stack', 'export'])).stdout).deployment;
  const made = after.resources.filter((r: { created?: string }) => r.created);
  assert.ok(made.length > 0);
  for (const r of made) assert.deepEqual([r.created, r.modified], times, r.urn);
  // Written again by ocikit: its own manifest, in Go's format.
  assert.match(after.manifest.time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d*[1-9])?(Z|[+-]\d\d:\d\d)$/);
  assert.deepEqual(Object.keys(after).slice(-1), ['metadata']);
});

// Without --yes on a terminal, up previews, asks, and changes nothing unless the answer is yes.
test(
  'on a terminal, up shows the plan in colour and asks; no changes nothing, yes applies it',
  { skip: !hasTerminal && 'no `script` for a terminal' },
  async () => {
    const units = async () => {
      const { endpointId } = JSON.parse(ok(await p.run(['stack', 'output', '--json'])).stdout) as {
        endpointId: string;
      };
      return (await cloud.t.language().getEndpoint({ endpointId })).endpoint.inferenceUnits;
    };
    assert.equal(await units(), 1);
    ok(await p.run(['config', 'set', 'units', '2']));

    const declined = await p.onTerminal(['up'], 'no');
    assert.equal(declined.code, 1, declined.stdout);
    assert.ok(declined.stdout.includes('\x1b[33mupdate\x1b[0m'), 'colour on a terminal');
    const plan = terminalText(declined.stdout);
    assert.match(plan, /^ ~ +oci:AiLanguage\/endpoint:Endpoint classifier update\n +~ inferenceUnits: 1 => 2$/m);
    assert.match(
      plan,
      /\nDo you want to perform this update\? \(yes\/no\) no\nerror: confirmation declined, not proceeding with the update\n$/,
    );
    assert.equal(await units(), 1, 'declined: the endpoint is unchanged');

    const accepted = await p.onTerminal(['up'], 'yes');
    assert.equal(accepted.code, 0, accepted.stdout);
    assert.match(
      terminalText(accepted.stdout),
      /^ ~ +oci:AiLanguage\/endpoint:Endpoint classifier updated \([\d.]+s\)/m,
    );
    assert.equal(await units(), 2, 'accepted: the endpoint has the new units');
  },
);

test('stack shows the resources as a tree under the stack, with URNs and ids on request, then the outputs', async () => {
  const { endpointId } = JSON.parse(ok(await p.run(['stack', 'output', '--json'])).stdout) as { endpointId: string };
  const shown = ok(await p.run(['stack', '--show-urns', '--show-ids'])).stdout;
  assert.match(
    shown,
    /^Current stack is dev:\n {4}Managed by \S+\n {4}Last updated: (now|\d+ \w+ ago) \(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d+)? [+-]\d{4} \S+\)\n {4}Pulumi version used: ocikit-\S+\n/,
  );
  assert.match(shown, /^Current stack resources \(6\):\n {4}TYPE {2,}NAME\n {4}pulumi:pulumi:Stack {2,}audit-dev\n/m);
  assert.match(shown, /^ {4}[├└]─ oci:AiLanguage\/endpoint:Endpoint {2,}classifier$/m);
  assert.ok(shown.includes(`URN: urn:pulumi:dev::audit::oci:AiLanguage/endpoint:Endpoint::classifier\n`), shown);
  assert.ok(shown.includes(`ID: ${endpointId}\n`), shown);
  assert.match(shown, /\nCurrent stack outputs \(4\):\n {4}OUTPUT {6}VALUE\n[\s\S]* {4}token {7}\[secret\]\n/);
  assert.doesNotMatch(ok(await p.run(['stack'])).stdout, /URN:|ID:/);
  assert.equal(ok(await p.run(['stack', '--show-name'])).stdout, 'dev\n', 'the name alone, for scripts');
});

test('state delete, protect and unprotect edit the state only, refusing what would break it', async () => {
  const saved = join(p.dir, 'saved.json');
  writeFileSync(saved, ok(await p.run(['stack', 'export'])).stdout);
  const urnOf = async (name: string) =>
    (
      JSON.parse(ok(await p.run(['stack', 'export'])).stdout).deployment.resources as Array<{
        urn: string;
        protect?: boolean;
      }>
    ).find((r) => r.urn.endsWith(`::${name}`))!;
  const classifier = (await urnOf('classifier')).urn;
  const peer = (await urnOf('peer')).urn;

  assert.equal(ok(await p.run(['state', 'protect', classifier])).stdout, 'Resource protected\n');
  assert.equal((await urnOf('classifier')).protect, true);
  const guarded = await p.run(['state', 'delete', classifier]);
  assert.equal(guarded.code, 1);
  assert.equal(
    guarded.stderr,
    `error: ${classifier} can't be safely deleted because it is protected. Re-run this command with --force to force deletion\n`,
  );
  assert.equal(ok(await p.run(['state', 'unprotect', '--all'])).stdout, 'All resources unprotected\n');
  assert.equal((await urnOf('classifier')).protect, undefined);

  // The plan and the read of it use the peer provider: it cannot go alone.
  const used = await p.run(['state', 'delete', peer]);
  assert.equal(used.code, 1);
  assert.match(
    used.stderr,
    /^error: \S+::peer can't be safely deleted because the following resources depend on it: failover \(\S+\), seen \(\S+\); delete those resources first or pass --target-dependents\n$/,
  );
  assert.equal(ok(await p.run(['state', 'delete', peer, '--target-dependents'])).stdout, 'Resource deleted\n');
  const left = JSON.parse(ok(await p.run(['stack', 'export'])).stdout).deployment.resources as Array<{ urn: string }>;
  assert.deepEqual(
    left.map((r) => r.urn.split('::').pop()),
    ['audit-dev', 'default_4_20_0', 'classifier'],
  );
  const missing = await p.run(['state', 'delete', peer]);
  assert.equal(missing.stderr, `error: No such resource "${peer}" exists in the current state\n`);
  // Only the state changed: the plan is still in the cloud.
  const { planId } = JSON.parse(ok(await p.run(['stack', 'output', '--json'])).stdout) as { planId: string };
  assert.equal(
    (await cloud.t.dr(cloud.sandbox.peerRegion).getDrPlan({ drPlanId: planId })).drPlan.lifecycleState,
    'ACTIVE',
  );
  ok(await p.run(['stack', 'import', '--file', saved]));
});

test('state rename renames a resource and every reference to it follows; renamed back, nothing changes', async () => {
  type Exported = { urn: string; id?: string; provider?: string; parent?: string; dependencies?: string[] };
  const exported = async () =>
    JSON.parse(ok(await p.run(['stack', 'export'])).stdout).deployment.resources as Exported[];
  const named = (resources: Exported[], name: string) => resources.find((r) => r.urn.endsWith(`::${name}`))!;
  const before = await exported();
  const peer = named(before, 'peer');
  const peerUrn2 = peer.urn.replace(/::peer$/, '::peer-b');

  // The provider: the resources it serves now name it by its new URN (with the same id).
  assert.equal(ok(await p.run(['state', 'rename', peer.urn, 'peer-b'])).stdout, 'Resource renamed\n');
  const renamed = await exported();
  assert.equal(named(renamed, 'peer'), undefined);
  assert.equal(named(renamed, 'peer-b').id, peer.id);
  for (const user of ['failover', 'seen'])
    assert.equal(named(renamed, user).provider, `${peerUrn2}::${peer.id}`, `${user} follows the provider`);
  // The program still says peer: to the engine that is a new provider and an old one to delete.
  const plan = ok(await p.run(['preview'])).stdout;
  assert.match(plan, /\+ +pulumi:providers:oci peer create/);
  assert.match(plan, /- +pulumi:providers:oci peer-b delete/);

  // Pulumi's refusals, in its words.
  const clash = await p.run(['state', 'rename', peerUrn2, 'default_4_20_0']);
  assert.equal(clash.stderr, 'error: The chosen new urn for the state corresponds to an already existing resource\n');
  const missing = await p.run(['state', 'rename', peer.urn, 'x']);
  assert.equal(missing.stderr, 'error: The input URN does not correspond to an existing resource\n');
  const bad = await p.run(['state', 'rename', peerUrn2, 'no spaces']);
  assert.equal(
    bad.stderr,
    'error: invalid name "no spaces": resource names may only contain alphanumerics, underscores, hyphens, dots, and slashes\n',
  );
  ok(await p.run(['state', 'rename', peerUrn2, 'peer']));

  // Back under the program's names, the state is what it was (secrets aside: an export encrypts
  // them afresh each time), and there is nothing to do.
  const links = (resources: Exported[]) => JSON.stringify(resources, (k, v) => (k === 'ciphertext' ? '…' : v));
  assert.equal(links(await exported()), links(before));
  ok(await p.run(['preview', '--expect-no-changes']));
});

test('stack rm refuses a stack with resources, asks unless --yes, and keeps the last state as a backup', async () => {
  const stacks = join(p.dir, '.ocikit', 'stacks');
  const refused = await p.run(['stack', 'rm', 'copy']);
  assert.equal(refused.code, 1);
  assert.equal(refused.stderr, 'error: non-interactive mode requires --yes flag\n');
  const kept = await p.run(['stack', 'rm', 'copy', '--yes']);
  assert.equal(kept.code, 1);
  assert.match(kept.stderr, /^error: 'copy' still has resources; removal rejected: run `ocikit destroy`/);
  assert.ok(existsSync(join(stacks, 'copy.json')));
  const removed = ok(await p.run(['stack', 'rm', 'copy', '--yes', '--force']));
  assert.equal(removed.stdout, "Stack 'copy' has been removed!\n");
  assert.equal(existsSync(join(stacks, 'copy.json')), false);
  assert.ok(existsSync(join(stacks, 'copy.json.bak')), 'the last state stays as the backup');
  assert.equal(existsSync(join(p.dir, 'Pulumi.copy.yaml')), false);
  const list = JSON.parse(ok(await p.run(['stack', 'ls', '--json'])).stdout) as Array<{ name: string }>;
  assert.deepEqual(
    list.map((s) => s.name),
    ['dev'],
  );
  // The resources were left in the cloud: dev still has them.
  const { endpointId } = JSON.parse(ok(await p.run(['stack', 'output', '--json'])).stdout) as { endpointId: string };
  assert.equal((await cloud.t.language().getEndpoint({ endpointId })).endpoint.lifecycleState, 'ACTIVE');
});

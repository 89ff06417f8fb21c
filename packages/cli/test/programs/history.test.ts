import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { inlineProgram, ok, outputs, program, startCloud, type Cloud, type Program } from '../support/programs';

// The stack's update history, as Pulumi's DIY backend keeps it (pkg/backend/diy addToHistory,
// getHistory) and `pulumi stack history` prints it (pkg/cmd/pulumi/stack/stack_history.go).

let cloud: Cloud;
before(async () => {
  cloud = await startCloud();
});
after(() => cloud?.close());

const INDEX = `import * as pulumi from '@pulumi/pulumi';
import * as oci from '@ocikit/oci';
const config = new pulumi.Config();
if (config.getBoolean('fail')) throw new Error('the program was told to fail');
export const endpointId = new oci.ailanguage.Endpoint('kept', {
  compartmentId: config.require('compartmentId'),
  modelId: config.require('modelId'),
}).id;
`;
const PASSPHRASE = 'history passphrase';
const SECRET = 'only-in-ciphertext';

function endpointProgram(): Program {
  const p = program(inlineProgram('recorded', INDEX), {
    PULUMI_NODEJS_TRANSPILE_ONLY: 'true',
    PULUMI_CONFIG_PASSPHRASE: PASSPHRASE,
    ...cloud.env,
  });
  p.setConfig({ ...cloud.ociConfig, compartmentId: cloud.sandbox.compartmentId, modelId: cloud.sandbox.textModelId });
  return p;
}

interface Entry {
  version: number;
  kind: string;
  startTime: string;
  message: string;
  environment: Record<string, string>;
  config: Record<string, { value?: string; objectValue?: unknown; secret: boolean }>;
  result: string;
  endTime: string;
  resourceChanges: Record<string, number>;
}

const historyFiles = (p: Program, stack = 'dev') => {
  const dir = join(p.dir, '.ocikit', 'history', stack);
  return existsSync(dir) ? readdirSync(dir).sort() : [];
};

test('up, refresh and a failed up are recorded; stack history prints them newest first, as text and JSON', async () => {
  const p = endpointProgram();
  ok(await p.run(['config', 'set', '--secret', 'apiKey', SECRET]));
  // A preview records nothing, as the DIY backend adds to the history only what is not a dry run.
  ok(await p.run(['preview']));
  assert.equal(ok(await p.run(['stack', 'history'])).stdout, 'Stack has never been updated\n');

  ok(await p.run(['up', '--yes', '-m', 'first deploy']));
  ok(await p.run(['up', '--yes', '--message', 'nothing to change']));
  ok(await p.run(['refresh', '--yes', '-m', 'drift check']));
  ok(await p.run(['config', 'set', 'fail', 'true']));
  // A preview that fails stops the up before its update: nothing recorded; an update that fails is.
  assert.equal((await p.run(['up', '--yes', '-m', 'previewed, broken'])).code, 1);
  assert.equal((await p.run(['up', '--skip-preview', '-m', 'broken'])).code, 1);

  // Each record beside a copy of the state the run left (<stack>-<unix nanoseconds>.*.json).
  const files = historyFiles(p);
  assert.equal(files.length, 8, files.join(' '));
  for (const f of files) assert.match(f, /^dev-\d{19}\.(checkpoint|history)\.json$/);
  const newestCheckpoint = join(p.dir, '.ocikit', 'history', 'dev', files[files.length - 2]);
  assert.equal(
    readFileSync(newestCheckpoint, 'utf8'),
    readFileSync(join(p.dir, '.ocikit', 'stacks', 'dev.json'), 'utf8'),
  );
  // As the DIY backend's backupStack after each of them: a copy of the state in the backups folder.
  const backups = readdirSync(join(p.dir, '.ocikit', 'backups', 'dev')).sort();
  assert.equal(backups.length, 4, backups.join(' '));
  for (const f of backups) assert.match(f, /^dev\.\d{19}\.json$/);
  assert.equal(
    readFileSync(join(p.dir, '.ocikit', 'backups', 'dev', backups[3]), 'utf8'),
    readFileSync(join(p.dir, '.ocikit', 'stacks', 'dev.json'), 'utf8'),
  );
  // The config is recorded as Pulumi.<stack>.yaml holds it: the secret as its ciphertext.
  const recorded = files.filter((f) => f.endsWith('.history.json'));
  const first = readFileSync(join(p.dir, '.ocikit', 'history', 'dev', recorded[0]), 'utf8');
  assert.ok(!first.includes(SECRET), 'no secret in plain text');
  const stackFile = parseYaml(readFileSync(join(p.dir, 'Pulumi.dev.yaml'), 'utf8')) as {
    config: Record<string, unknown>;
  };
  assert.deepEqual((JSON.parse(first) as { config: Record<string, unknown> }).config['recorded:apiKey'], {
    secure: (stackFile.config['recorded:apiKey'] as { secure: string }).secure,
  });

  const text = ok(await p.run(['stack', 'history'])).stdout;
  const blocks = text.trimEnd().split('\n\n');
  assert.deepEqual(
    blocks.map((b) => /^UpdateKind: (.*)$/m.exec(b)?.[1]),
    ['update', 'refresh', 'update', 'update'],
  );
  assert.deepEqual(
    blocks.map((b) => /^Message: (.*)$/m.exec(b)?.[1]),
    ['broken', 'drift check', 'nothing to change', 'first deploy'],
  );
  assert.deepEqual(
    blocks.map((b) => /^Status: (.*)$/m.exec(b)?.[1]),
    ['failed', 'succeeded', 'succeeded', 'succeeded'],
  );
  // The DIY backend gives no update a version number.
  for (const b of blocks) assert.match(b, /^Version: 0\nUpdateKind: /);
  // Creates, deletes, updates and sames (the stack and the endpoint), when and how long.
  assert.match(blocks[3], /^\+2-0~0 0 Updated (now|\d+ seconds? ago) took \d+s$/m);
  assert.match(blocks[2], /^\+0-0~0 2 Updated /m);
  assert.match(blocks[3], /^ {4}exec\.kind: cli$/m);
  // --full-dates: Go's time.Time, in the local zone.
  assert.match(
    ok(await p.run(['stack', 'history', '--full-dates'])).stdout,
    /^\+2-0~0 0 Updated \d{4}-\d\d-\d\d \d\d:\d\d:\d\d [+-]\d{4} \S+ took \d+s$/m,
  );

  const json = JSON.parse(ok(await p.run(['stack', 'history', '--json'])).stdout) as Entry[];
  assert.deepEqual(
    json.map((u) => [u.kind, u.message, u.result]),
    [
      ['update', 'broken', 'failed'],
      ['refresh', 'drift check', 'succeeded'],
      ['update', 'nothing to change', 'succeeded'],
      ['update', 'first deploy', 'succeeded'],
    ],
  );
  assert.deepEqual(Object.keys(json[3]), [
    'version',
    'kind',
    'startTime',
    'message',
    'environment',
    'config',
    'result',
    'endTime',
    'resourceChanges',
  ]);
  assert.deepEqual(json[3].resourceChanges, { create: 2 });
  // Outside a git checkout: no git.* or vcs.* keys (the program is in a temporary folder).
  assert.deepEqual(
    Object.keys(json[3].environment).filter((k) => /^(git|vcs)\./.test(k)),
    [],
  );
  // As GetUpdateMetadata: each PULUMI_* variable by name only (the passphrase's value nowhere),
  // and no update plan (addUpdatePlanMetadataToEnvironment).
  assert.equal(json[3].environment['pulumi.env.PULUMI_CONFIG_PASSPHRASE'], 'set');
  assert.ok(!JSON.stringify(json[3].environment).includes(PASSPHRASE));
  assert.equal(json[3].environment.updatePlan, 'false');
  // The flags given (`up --yes -m …`, and the tests' --cwd), by long name, a bool one by its value.
  const flags = (e: Entry) => Object.entries(e.environment).filter(([k]) => k.startsWith('pulumi.flag.'));
  assert.deepEqual(flags(json[3]).sort(), [
    ['pulumi.flag.cwd', 'set'],
    ['pulumi.flag.message', 'set'],
    ['pulumi.flag.yes', 'true'],
  ]);
  assert.match(json[3].startTime, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000Z$/);
  assert.ok(json[3].startTime <= json[3].endTime);
  assert.deepEqual(json[3].config['recorded:apiKey'], { secret: true });
  assert.deepEqual(json[3].config['recorded:compartmentId'], { value: cloud.sandbox.compartmentId, secret: false });
  // The failed update ran with the config that made it fail.
  assert.deepEqual(json[0].config['recorded:fail'], { value: 'true', secret: false });
  const shown = JSON.parse(ok(await p.run(['stack', 'history', '--json', '--show-secrets'])).stdout) as Entry[];
  assert.deepEqual(shown[3].config['recorded:apiKey'], { value: SECRET, secret: true });

  // Pages of --page-size updates, newest first.
  const page = JSON.parse(ok(await p.run(['stack', 'history', '--json', '--page-size', '2', '--page', '2'])).stdout);
  assert.deepEqual(
    (page as Entry[]).map((u) => u.message),
    ['nothing to change', 'first deploy'],
  );
  assert.equal(
    ok(await p.run(['stack', 'hist', '--page-size', '2', '--page', '3'])).stdout,
    "No stack updates found on page '3'\n",
  );

  // A DIY backend keeps no versions to export (its backend is no SpecificDeploymentExporter).
  const exported = await p.run(['stack', 'export', '--version', '1']);
  assert.equal(exported.code, 1);
  assert.equal(exported.stdout, '');
  assert.equal(
    exported.stderr,
    `error: the current backend (${hostname()}) does not provide the ability to export previous deployments\n`,
  );

  // No backup with PULUMI_DISABLE_CHECKPOINT_BACKUPS, or its newer name, true; stack rm
  // --remove-backups removes the folder, as the DIY backend's removeStack does.
  const backupsDir = join(p.dir, '.ocikit', 'backups', 'dev');
  ok(await p.run(['refresh', '--yes'], { PULUMI_DISABLE_CHECKPOINT_BACKUPS: 'true' }));
  ok(await p.run(['refresh', '--yes'], { PULUMI_DIY_BACKEND_DISABLE_CHECKPOINT_BACKUPS: '1' }));
  assert.equal(readdirSync(backupsDir).length, 4);
  // Recorded as a bool Pulumi declares; the older name, which Pulumi declares as no variable, as set.
  const [viaNew, viaOld] = (
    JSON.parse(ok(await p.run(['stack', 'history', '--json', '--page-size', '2'])).stdout) as Entry[]
  ).map((e) => e.environment);
  assert.equal(viaNew['pulumi.env.PULUMI_DIY_BACKEND_DISABLE_CHECKPOINT_BACKUPS'], 'true');
  assert.equal(viaOld['pulumi.env.PULUMI_DISABLE_CHECKPOINT_BACKUPS'], 'set');
  // With PULUMI_DIY_BACKEND_RETAIN_CHECKPOINTS (or its older name) true, each write of the state
  // is also kept as `dev.json.<unix nanoseconds>` (the DIY backend's saveCheckpoint).
  const stacksDir = join(p.dir, '.ocikit', 'stacks');
  const retained = () => readdirSync(stacksDir).filter((f) => /^dev\.json\.\d{19}$/.test(f));
  assert.deepEqual(retained(), []);
  ok(await p.run(['refresh', '--yes'], { PULUMI_DIY_BACKEND_RETAIN_CHECKPOINTS: 'true' }));
  const kept = retained().sort();
  assert.ok(kept.length > 0);
  const current = readFileSync(join(stacksDir, 'dev.json'), 'utf8');
  assert.equal(readFileSync(join(stacksDir, kept[kept.length - 1]), 'utf8'), current);
  ok(await p.run(['refresh', '--yes'], { PULUMI_RETAIN_CHECKPOINTS: '1' }));
  assert.ok(retained().length > kept.length);
  ok(await p.run(['stack', 'rm', '--yes', '--force', '--remove-backups']));
  assert.ok(!existsSync(backupsDir));
});

test('config refresh restores the config of the last update; destroy is recorded; stack rename moves the history, stack rm removes it', async () => {
  const p = endpointProgram();
  ok(await p.run(['config', 'set', '--secret', 'apiKey', SECRET]));
  assert.equal(
    (await p.run(['config', 'refresh'])).stderr,
    'error: no previous deployment\n',
    'nothing to refresh from before an update',
  );
  ok(await p.run(['up', '--yes', '-m', 'deployed']));
  const deployed = ok(await p.run(['config', '--json', '--show-secrets'])).stdout;
  ok(await p.run(['config', 'rm', 'modelId']));
  ok(await p.run(['config', 'set', 'extra', 'not deployed']));

  const refreshed = ok(await p.run(['config', 'refresh']));
  assert.equal(
    refreshed.stdout,
    `backed up existing configuration file to ${join(p.dir, 'Pulumi.dev.yaml.bak')}\nrefreshed configuration for stack 'dev'\n`,
  );
  // The keys as the history holds them (config.Map's: with their namespace), the same values.
  assert.equal(ok(await p.run(['config', '--json', '--show-secrets'])).stdout, deployed);
  assert.match(readFileSync(join(p.dir, 'Pulumi.dev.yaml'), 'utf8'), /^ {2}recorded:modelId: /m);
  assert.match(readFileSync(join(p.dir, 'Pulumi.dev.yaml.bak'), 'utf8'), /not deployed/);
  assert.equal(ok(await p.run(['config', 'get', 'apiKey'])).stdout, `${SECRET}\n`);
  // A second backup does not replace the first; --force keeps none.
  ok(await p.run(['config', 'refresh']));
  assert.ok(existsSync(join(p.dir, 'Pulumi.dev.yaml.bak.bak')));
  assert.equal(ok(await p.run(['config', 'refresh', '--force'])).stdout, '');
  assert.ok(!existsSync(join(p.dir, 'Pulumi.dev.yaml.bak.bak.bak')));
  // A checkout without its stack file gets it back, its salt from the state: the secrets read again.
  rmSync(join(p.dir, 'Pulumi.dev.yaml'));
  assert.equal(ok(await p.run(['config', 'refresh'])).stdout, '');
  assert.equal(ok(await p.run(['config', 'get', 'apiKey'])).stdout, `${SECRET}\n`);

  ok(await p.run(['destroy', '--yes', '-m', 'torn down']));
  ok(await p.run(['stack', 'rename', 'prod']));
  assert.deepEqual(historyFiles(p), []);
  // The DIY backend's renameStack moves the history, not the backups.
  assert.equal(readdirSync(join(p.dir, '.ocikit', 'backups', 'dev')).length, 2);
  assert.equal(historyFiles(p, 'prod').length, 4);
  for (const f of historyFiles(p, 'prod')) assert.match(f, /^prod-\d{19}\./);
  const moved = JSON.parse(ok(await p.run(['stack', 'history', '--json'])).stdout) as Entry[];
  assert.deepEqual(
    moved.map((u) => [u.kind, u.message, u.resourceChanges]),
    [
      ['destroy', 'torn down', { delete: 2 }],
      ['update', 'deployed', { create: 2 }],
    ],
  );

  ok(await p.run(['stack', 'rm', '--yes', '--preserve-config']));
  assert.ok(!existsSync(join(p.dir, '.ocikit', 'history', 'prod')));
});

test("in a git checkout, an update without -m takes the HEAD commit's title, and records the commit, the remote and whether the checkout was dirty", async () => {
  const p = endpointProgram();
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=Ada Author', '-c', 'user.email=ada@example.com', ...args], {
      cwd: p.dir,
      encoding: 'utf8',
    }).trim();
  // The stack's salt is in the committed Pulumi.dev.yaml (it is written when a secret is first set).
  ok(await p.run(['config', 'set', '--secret', 'apiKey', SECRET]));
  git('init', '-q', '-b', 'main');
  git('remote', 'add', 'origin', 'https://github.com/acme/infra.git');
  writeFileSync(join(p.dir, '.gitignore'), 'node_modules\n.ocikit/\n');
  git('add', '.');
  git('commit', '-q', '-m', 'Deploy the language endpoint\n\nFor the DR drill.');
  const head = git('rev-parse', 'HEAD');

  ok(await p.run(['up', '--yes']));
  writeFileSync(join(p.dir, 'notes.txt'), 'not committed');
  ok(await p.run(['refresh', '--yes', '-m', 'drift check']));
  const [refresh, update] = JSON.parse(ok(await p.run(['stack', 'history', '--json'])).stdout) as Entry[];
  // Pulumi's addGitCommitMetadata: the commit's title when there is no message; -m wins.
  assert.equal(update.message, 'Deploy the language endpoint');
  assert.equal(refresh.message, 'drift check');
  const vcsKeys = (e: Entry) =>
    Object.fromEntries(Object.entries(e.environment).filter(([k]) => /^(git|vcs)\./.test(k)));
  assert.deepEqual(vcsKeys(update), {
    'git.author': 'Ada Author',
    'git.author.email': 'ada@example.com',
    'git.committer': 'Ada Author',
    'git.committer.email': 'ada@example.com',
    'git.dirty': 'false',
    'git.head': head,
    'git.headName': 'refs/heads/main',
    'vcs.kind': 'github.com',
    'vcs.owner': 'acme',
    'vcs.repo': 'infra',
    'vcs.root': '.',
  });
  assert.equal(refresh.environment['git.dirty'], 'true');
  assert.equal(update.environment['exec.kind'], 'cli');
  // The text shows them too, git.head among the environment's lines.
  const text = ok(await p.run(['stack', 'history'])).stdout;
  assert.match(text, /^Message: Deploy the language endpoint$/m);
  assert.match(text, new RegExp(`^ {4}git\\.head: ${head}$`, 'm'));
  assert.match(text, /^ {4}vcs\.owner: acme$/m);
});

test("an update that succeeded but whose record or backup cannot be written fails in the DIY backend's words; the state is kept", async () => {
  const p = endpointProgram();
  // A file where the stack's history and backups folders go: neither can be written.
  for (const folder of ['history', 'backups']) {
    mkdirSync(join(p.dir, '.ocikit', folder), { recursive: true });
    writeFileSync(join(p.dir, '.ocikit', folder, 'dev'), '');
  }
  const first = await p.run(['up', '--yes', '--skip-preview']);
  assert.equal(first.code, 1, first.stderr);
  // The record's error comes first (apply: saveErr before backupErr), in one line.
  assert.match(first.stderr, /^error: saving update info: EEXIST: file already exists, mkdir '.*dev'\n$/);
  // The update itself is in the state: the endpoint it created is the stack's.
  const id = String(outputs(ok(await p.run(['stack', 'output', '--json']))).endpointId);
  assert.match(id, /^ocid1\.ailanguageendpoint\./);

  rmSync(join(p.dir, '.ocikit', 'history', 'dev'));
  const second = await p.run(['up', '--yes', '--skip-preview']);
  assert.equal(second.code, 1, second.stderr);
  assert.match(second.stderr, /^error: saving backup: EEXIST: file already exists, mkdir '.*dev'\n$/);
  // The backup is tried even though the record was written: the record is there.
  assert.equal(historyFiles(p).filter((f) => f.endsWith('.history.json')).length, 1);

  rmSync(join(p.dir, '.ocikit', 'backups', 'dev'));
  ok(await p.run(['up', '--yes', '--skip-preview']));
  assert.equal(readdirSync(join(p.dir, '.ocikit', 'backups', 'dev')).length, 1);
  ok(await p.run(['destroy', '--yes']));
});

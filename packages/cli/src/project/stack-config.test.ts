import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scratchDir } from '../../../emulator/test/support/scratch';
import { readProject } from './project';
import { ProjectError } from './project-error';
import { StackConfigFile } from './stack-config';

function program(yaml: string, stack?: string): string {
  const dir = scratchDir('project');
  writeFileSync(join(dir, 'Pulumi.yaml'), yaml);
  if (stack !== undefined) writeFileSync(join(dir, 'Pulumi.dev.yaml'), stack);
  return dir;
}

test('reads name, runtime as a string or with options, and main, as Pulumi does', () => {
  const dir = program('name: a\nruntime: nodejs\n');
  assert.deepEqual(readProject(dir), { dir, name: 'a', main: undefined, runtimeOptions: undefined, fileExt: '.yaml' });
  const p = readProject(program('name: b\nmain: src/\nruntime:\n  name: nodejs\n  options:\n    typescript: true\n'));
  assert.equal(p.name, 'b');
  assert.equal(p.main, 'src/');
  assert.deepEqual(p.runtimeOptions, { typescript: true });
  assert.throws(() => readProject(program('name: c\nruntime: python\n')), ProjectError);
  // ValidateProject's words for a missing name and for one that is not a non-empty string.
  assert.throws(() => readProject(program('runtime: nodejs\n')), /: project is missing a 'name' attribute$/);
  // A misspelt one is named, as ValidateProject's findClosestKey names it (distance <= 2, case ignored).
  for (const [yaml, key] of [
    ['nmae: a\n', 'nmae'],
    ['Name: a\n', 'Name'],
    ['names: a\nnam: b\n', 'nam'],
  ])
    assert.throws(
      () => readProject(program(`${yaml}runtime: nodejs\n`)),
      new RegExp(`: project is missing a 'name' attribute; found '${key}' instead$`),
    );
  assert.throws(() => readProject(program('title: a\nruntime: nodejs\n')), /attribute$/);
  for (const name of ['123', '""', '[a]'])
    assert.throws(
      () => readProject(program(`name: ${name}\nruntime: nodejs\n`)),
      /: project is missing a non-empty string 'name' attribute$/,
    );
  // The `config:` block is read (project-config.test.ts has its rules).
  assert.deepEqual(readProject(program('name: d\nruntime: nodejs\nconfig:\n  units: 2\n')).config, {
    units: { default: 2 },
  });
});

test('a Pulumi.yml project has Pulumi.<stack>.yml stack files, as Pulumi names them (ProjectStackPath)', () => {
  const dir = scratchDir('project');
  writeFileSync(join(dir, 'Pulumi.yml'), 'name: y\nruntime: nodejs\n');
  writeFileSync(join(dir, 'Pulumi.dev.yml'), 'config:\n  y:units: "3"\n');
  const file = StackConfigFile.open(readProject(dir), 'dev');
  assert.equal(file.path, join(dir, 'Pulumi.dev.yml'));
  assert.equal(file.get('units')?.value, '3');
});

// Pulumi looks for Pulumi.json, Pulumi.yaml and Pulumi.yml, in that order (DetectProjectPathFrom,
// encoding.Exts), and names the stack files with the project file's extension (ProjectStackPath).
test('a Pulumi.json project is found first, and its stacks are Pulumi.<stack>.json files written as JSON', () => {
  const dir = scratchDir('project');
  writeFileSync(join(dir, 'Pulumi.json'), '\uFEFF{ "name": "j", "runtime": "nodejs" }\n');
  writeFileSync(join(dir, 'Pulumi.yaml'), 'name: y\nruntime: nodejs\n');
  writeFileSync(join(dir, 'Pulumi.dev.json'), '{ "config": { "j:units": "3", "j:tags": { "a": 1 } } }');
  const project = readProject(join(dir));
  assert.deepEqual([project.name, project.fileExt], ['j', '.json']);
  const file = StackConfigFile.open(project, 'dev');
  assert.equal(file.path, join(dir, 'Pulumi.dev.json'));
  assert.equal(file.get('units')?.value, '3');
  file.set('region', 'eu', false);
  file.set('token', 'v1:AAAA:BBBB', true);
  file.save();
  assert.equal(
    readFileSync(join(dir, 'Pulumi.dev.json'), 'utf8'),
    JSON.stringify(
      // Its keys sorted, as Pulumi's ProjectStack.Save writes config.Map.
      { config: { 'j:region': 'eu', 'j:tags': { a: 1 }, 'j:token': { secure: 'v1:AAAA:BBBB' }, 'j:units': '3' } },
      null,
      4,
    ) + '\n',
  );
  // JSON as Pulumi's JSON marshaller reads it: YAML there is a mistake, named in one line.
  writeFileSync(join(dir, 'Pulumi.dev.json'), 'config:\n  j:units: 3\n');
  assert.throws(() => StackConfigFile.open(project, 'dev'), /Pulumi\.dev\.json: Unexpected token/);
  // A folder of that name is no project file (isMarkupFile): the YAML one is found.
  const other = scratchDir('project');
  mkdirSync(join(other, 'Pulumi.json'));
  writeFileSync(join(other, 'Pulumi.yaml'), 'name: y\nruntime: nodejs\n');
  assert.equal(readProject(other).name, 'y');
});

test('stackConfigDir (or the older `config: <folder>`) moves the stack files; the folder is made on the first set', () => {
  for (const line of ['stackConfigDir: stacks', 'config: stacks/']) {
    const dir = program(`name: e\nruntime: nodejs\n${line}\n`);
    const project = readProject(dir);
    assert.equal(project.stackConfigDir, join(dir, 'stacks'));
    assert.equal(project.config, undefined);
    const file = StackConfigFile.open(project, 'dev');
    assert.equal(file.path, join(dir, 'stacks', 'Pulumi.dev.yaml'));
    file.set('units', '2', false);
    file.save();
    assert.equal(readFileSync(join(dir, 'stacks', 'Pulumi.dev.yaml'), 'utf8'), 'config:\n  e:units: "2"\n');
    assert.equal(StackConfigFile.open(readProject(dir), 'dev').get('units')?.value, '2');
  }
  assert.throws(
    () => readProject(program('name: f\nruntime: nodejs\nconfig: a\nstackConfigDir: b\n')),
    /Should not use both config and stackConfigDir/,
  );
  assert.throws(() => readProject(program('name: g\nruntime: nodejs\nstackConfigDir: 3\n')), /must be a folder path/);
});

test('finds Pulumi.yaml in a parent folder and names the folder when there is none', () => {
  const dir = program('name: up\nruntime: nodejs\n');
  const sub = join(dir, 'src');
  mkdirSync(sub);
  assert.equal(readProject(sub).name, 'up');
  assert.throws(() => readProject(scratchDir('none')), /no Pulumi.yaml project file found/);
});

test('config keys: plain keys are the project’s, namespaced keys stay, secure values and objects are kept', () => {
  const dir = program(
    'name: proj\nruntime: nodejs\n',
    '# my stack\nconfig:\n  proj:a: one\n  b: 2\n  oci:region: us-phoenix-1\n  proj:s:\n    secure: v1:abc:def\n  proj:o:\n    x: [1, 2]\n',
  );
  const file = StackConfigFile.open(readProject(dir), 'dev');
  assert.deepEqual(Object.fromEntries(file.entries()), {
    'proj:a': { value: 'one', secure: false },
    'proj:b': { value: '2', secure: false },
    'oci:region': { value: 'us-phoenix-1', secure: false },
    'proj:s': { value: 'v1:abc:def', secure: true },
    'proj:o': { value: '{"x":[1,2]}', secure: false },
  });
  assert.equal(file.get('proj:config:a')?.value, 'one');
});

test('set and rm rewrite the file in place, keeping comments and the other keys', () => {
  const dir = program('name: proj\nruntime: nodejs\n', '# keep me\nconfig:\n  proj:a: one # inline\n  b: two\n');
  const file = StackConfigFile.open(readProject(dir), 'dev');
  file.set('a', 'uno', false);
  file.set('oci:region', 'eu-frankfurt-1', false);
  assert.equal(file.remove('proj:b'), true);
  assert.equal(file.remove('missing'), false);
  file.set('token', 'v1:n:c', true);
  file.save();
  const text = readFileSync(join(dir, 'Pulumi.dev.yaml'), 'utf8');
  assert.match(text, /^# keep me/);
  assert.match(text, /proj:a: uno/);
  assert.doesNotMatch(text, /two/);
  assert.match(text, /oci:region: eu-frankfurt-1/);
  assert.match(text, /proj:token:\n {4}secure: v1:n:c/);
});

test('a missing stack file reads as empty and is created on the first set', () => {
  const dir = program('name: proj\nruntime: nodejs\n');
  const file = StackConfigFile.open(readProject(dir), 'dev');
  assert.equal(file.entries().size, 0);
  file.set('k', 'v', false);
  file.save();
  assert.equal(readFileSync(join(dir, 'Pulumi.dev.yaml'), 'utf8'), 'config:\n  proj:k: v\n');
});

test('an object holding a secure value reaches the program decrypted, and the whole key is secret', async () => {
  const { loadStackConfig } = await import('./config');
  const { stackCrypter } = await import('../secrets/stack-crypter');
  const dir = program('name: shop\nruntime: nodejs\n', 'config:\n  shop:plain:\n    a: 1\n');
  const project = readProject(dir);
  const env = { PULUMI_CONFIG_PASSPHRASE: 'pw' };
  const file = StackConfigFile.open(project, 'dev');
  file.setRaw('db', { host: 'h', password: { secure: stackCrypter(file, env).encrypt('hunter2') } });
  file.save();
  const loaded = loadStackConfig(project, 'dev', env);
  assert.deepEqual(JSON.parse(loaded.values['shop:db']), { host: 'h', password: 'hunter2' });
  assert.deepEqual(loaded.secretKeys, ['shop:db']);
  assert.deepEqual(JSON.parse(loaded.values['shop:plain']), { a: 1 });
  assert.ok(!readFileSync(join(dir, 'Pulumi.dev.yaml'), 'utf8').includes('hunter2'));
});

// Pulumi's DIY backend refuses a stack whose file imports ESC environments (openStackEnv: "backend
// … does not support environments"); ocikit did run the program without their values.
test('a stack file that imports ESC environments is refused for a run, in one line', async () => {
  const { loadStackConfig } = await import('./config');
  for (const environment of [
    'environment:\n  - my-org/aws-dev\n',
    'environment:\n  imports:\n    - my-org/aws-dev\n',
  ]) {
    const dir = program('name: esc\nruntime: nodejs\n', `${environment}config:\n  esc:units: "2"\n`);
    assert.throws(
      () => loadStackConfig(readProject(dir), 'dev', {}),
      (e: Error) =>
        e instanceof ProjectError &&
        /Pulumi\.dev\.yaml imports ESC environments \(environment: .*my-org\/aws-dev.*\).*does not support environments/.test(
          e.message,
        ),
    );
  }
  const plain = program('name: esc\nruntime: nodejs\n', 'environment: null\nconfig:\n  esc:units: "2"\n');
  assert.equal(loadStackConfig(readProject(plain), 'dev', {}).values['esc:units'], '2');
});

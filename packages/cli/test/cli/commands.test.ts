import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join, relative } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { cleanEnv, ocikit, spawnOcikit } from '../support/ocikit';
import { resourceSig, sigKey } from '../../src/engine/values';
import { scratchDir } from '../../../emulator/test/support/scratch';

// The command line through the built binary, without running a program: flags, config, secrets
// and the one-line errors a user sees. Programs run in test/programs/.

function project(name = 'proj'): string {
  const dir = scratchDir('cli');
  writeFileSync(join(dir, 'Pulumi.yaml'), `name: ${name}\nruntime: nodejs\n`);
  return dir;
}

/** Runs `ocikit config <args>` in `cwd`, which must succeed; its stdout. */
const configOk = (cwd: string, env: NodeJS.ProcessEnv) => async (args: string[]) => {
  const r = await ocikit(['config', ...args], { cwd, env });
  assert.equal(r.code, 0, r.stderr);
  return r.stdout;
};

const oneLineError = (stderr: string) => {
  const lines = stderr.trimEnd().split('\n');
  assert.equal(lines.length, 1, `one line, got:\n${stderr}`);
  assert.doesNotMatch(stderr, /\n\s+at /, 'no stack trace');
  return lines[0];
};

test('every command of the contract is there, with its flags', async () => {
  const help = await ocikit(['--help']);
  assert.equal(help.code, 0);
  for (const command of ['preview', 'up', 'refresh', 'destroy', 'import', 'stack', 'state', 'config', 'emulator'])
    assert.match(help.stdout, new RegExp(`\\n  ${command}\\b`));
  for (const flag of ['-C, --cwd <dir>', '-s, --stack <name>', '-p, --parallel <n>', '--json', '--non-interactive'])
    assert.ok(help.stdout.includes(flag), flag);
  assert.match((await ocikit(['up', '--help'])).stdout, /--yes[\s\S]*--skip-preview/);
  // Beyond the contract, as Pulumi's: drift checks and targeted replacement.
  assert.match((await ocikit(['up', '--help'])).stdout, /--expect-no-changes[\s\S]*--replace <urn>/);
  assert.match((await ocikit(['preview', '--help'])).stdout, /--expect-no-changes[\s\S]*--replace <urn>/);
  // The exit code it names is the one it exits with (Pulumi's ExitNoChanges, audit.test.ts).
  assert.match((await ocikit(['preview', '--help'])).stdout, /--expect-no-changes\s+fail \(exit 7\)/);
  assert.match((await ocikit(['refresh', '--help'])).stdout, /--yes/);
  assert.match((await ocikit(['destroy', '--help'])).stdout, /--yes/);
  // Pulumi's display flags where its commands have them: --show-replacement-steps on all four,
  // --show-reads on preview and up only (pkg/cmd/pulumi/operations).
  for (const command of ['preview', 'up', 'refresh', 'destroy']) {
    const { stdout } = await ocikit([command, '--help']);
    assert.match(stdout, /--show-replacement-steps/, command);
    (command === 'preview' || command === 'up' ? assert.match : assert.doesNotMatch)(stdout, /--show-reads/, command);
  }
  assert.match((await ocikit(['stack', 'output', '--help'])).stdout, /\[name\]/);
  assert.match((await ocikit(['config', 'set', '--help'])).stdout, /<key> \[value\][\s\S]*--secret/);
});

test("a user's mistakes end with one line and a non-zero exit code", async () => {
  const empty = scratchDir('empty');
  // A project name Pulumi's stack references refuse (tokens.ValidateProjectName; its
  // TestProjectBadName: `name: pulumi/proj`, then `stack init dev`).
  const badName = scratchDir('badname');
  writeFileSync(join(badName, 'Pulumi.yaml'), 'name: pulumi/proj\nruntime: nodejs\n');
  const badNameMessage = /^error: project names may only contain alphanumerics, hyphens, underscores, and periods$/;
  // A project with a stack, for config's commands (which refuse one that is not there).
  const withStack = project();
  writeFileSync(join(withStack, 'Pulumi.dev.yaml'), '{}\n');
  const cases: Array<[string[], RegExp, string?]> = [
    [['preview'], /no Pulumi\.yaml project file found/, empty],
    [['up', '--yes', '--cwd', empty], /no Pulumi\.yaml project file found/],
    // Pulumi's root command changes into --cwd first (os.Chdir), in Go's words.
    [['up', '--yes', '--cwd', join(empty, 'gone')], /^error: chdir .*gone: no such file or directory$/],
    [['up', '--bogus'], /unknown option '--bogus'/],
    [['frobnicate'], /^error: unknown command "frobnicate" for "ocikit"\. Run 'ocikit --help' for usage\.$/],
    // commander's suggestion stays on the error's line.
    [['up', '--yess'], /^error: unknown option '--yess' \(Did you mean --yes\?\)$/],
    // rattler's words; no suggestion, as rattler's: `delete` is matched as its synonym `remove`.
    [['state', 'delet'], /^error: unknown command "delet" for "ocikit state"\. Run 'ocikit state --help' for usage\.$/],
    [
      ['config', 'set', '--path', 'a[', '1'],
      /^error: invalid config key path: missing closing bracket in array index$/,
    ],
    // A config key of more than one namespace, in the words of Pulumi's config.ParseKey.
    ...[
      ['config', 'set', 'a:b:c', '1'],
      ['config', 'get', 'a:b:c'],
      ['config', 'rm', 'a:b:c'],
    ].map((args): [string[], RegExp, string] => [
      args,
      /^error: invalid configuration key: could not parse a:b:c as a configuration key \(configuration keys should be of the form `<namespace>:<name>`\)$/,
      withStack,
    ]),
    [['--parallel', 'zero', 'preview'], /--parallel/],
    // Pulumi's DIY backend's words for a stack reference it cannot parse (diy/store.go
    // ParseReference, tokens.ParseStackName).
    [
      ['--stack', 'no way', 'preview'],
      /^error: a stack name may only contain alphanumeric, hyphens, underscores, or periods: invalid character ' ' at position 2$/,
    ],
    [['--stack', 'acme/dev', 'preview'], /^error: organization name must be 'organization'$/],
    [['--stack', 'x'.repeat(101), 'stack', 'init'], /^error: a stack name cannot exceed 100 characters$/],
    [['--stack', '', 'preview'], /^error: stack name must not be empty$/],
    [['stack', 'init', 'dev'], badNameMessage, badName],
    [['preview'], badNameMessage, badName],
    [
      ['--stack', 'organization/other/dev', 'stack', 'ls'],
      /stack 'organization\/other\/dev' belongs to project 'other'/,
    ],
    // import.go's words: a whole inline resource, or a --file.
    [['import', 'oci:AiLanguage/endpoint:Endpoint'], /inline resource must be specified .*, missing name and id$/],
  ];
  for (const [args, message, cwd] of cases) {
    const result = await ocikit(args, { cwd: cwd ?? project() });
    assert.notEqual(result.code, 0, args.join(' '));
    assert.match(oneLineError(result.stderr), message);
  }
});

// The newest Pulumi's rattler.Install (pkg/cmd/pulumi/rattler/rattler.go) refuses a word that
// names no command the same way under every parent: the root and `state` (group commands: their Args
// check), `stack` and `config` (runnable, but constrictor.NoArgs: argsPastSpec blames the first
// argument), each with suggestCommands' full paths and no help printed first.
test("an unknown command is refused in rattler's words at the root, after stack and config, as Pulumi", async () => {
  const cwd = project();
  for (const [args, message] of [
    [['upp'], 'unknown command "upp" for "ocikit" (Did you mean this? ocikit up)'],
    // The whole tree, nested commands too (rattler_test.go: `export` suggests `pulumi stack export`).
    [['export'], 'unknown command "export" for "ocikit" (Did you mean this? ocikit stack export, ocikit import)'],
    [['st'], 'unknown command "st" for "ocikit"'],
    [['stack', 'outptu'], 'unknown command "outptu" for "ocikit stack" (Did you mean this? ocikit stack output)'],
    [
      ['config', 'sett', 'k', 'v'],
      'unknown command "sett" for "ocikit config" (Did you mean this? ocikit config set, ocikit config set-all)',
    ],
    [['config', 'zzz'], 'unknown command "zzz" for "ocikit config"'],
  ] as const) {
    const r = await ocikit([...args], { cwd });
    const path = ['ocikit', ...args.slice(0, -1).filter((a) => a === 'stack' || a === 'config')].join(' ');
    assert.deepEqual(
      [r.code, r.stdout, r.stderr],
      [1, '', `error: ${message}. Run '${path} --help' for usage.\n`],
      args.join(' '),
    );
  }
});

// The newest Pulumi's rattler.Install (pkg/cmd/pulumi/rattler/rattler.go) gives `state` and `stack
// tag`, which have no Run, an Args check: unknownCommandError's words, suggestCommands' full
// command paths (the group's own subcommands first, else the whole tree), `Run '… --help' for usage.`
test("a mistyped subcommand of state or stack tag fails in rattler's words, with its suggestions", async () => {
  const cwd = project();
  for (const [args, message] of [
    [['state', 'tiant'], 'unknown command "tiant" for "ocikit state" (Did you mean this? ocikit state taint)'],
    [
      ['stack', 'tag', 'sett', 'a', 'b'],
      'unknown command "sett" for "ocikit stack tag" (Did you mean this? ocikit stack tag set)',
    ],
    // rattler's synonyms: rm is remove, as delete is; move is within two edits of remove.
    [
      ['state', 'rm'],
      'unknown command "rm" for "ocikit state" (Did you mean this? ocikit state delete, ocikit state move)',
    ],
    // Nothing near under the group: the whole tree.
    [
      ['stack', 'tag', 'export'],
      'unknown command "export" for "ocikit stack tag" (Did you mean this? ocikit stack export, ocikit stack import)',
    ],
    [['state', 'zzz'], 'unknown command "zzz" for "ocikit state"'],
  ] as const) {
    const r = await ocikit([...args], { cwd });
    const path = args[0] === 'state' ? 'ocikit state' : 'ocikit stack tag';
    assert.deepEqual(
      [r.code, r.stdout, r.stderr],
      [1, '', `error: ${message}. Run '${path} --help' for usage.\n`],
      args.join(' '),
    );
  }
});

// Pulumi's root, `state` and `stack tag` have no Run of their own: rattler.Install's prints their
// help (to stdout) and fails (rattler_test.go TestRootIsAStandardGroupCommand for the root).
test('`ocikit version` prints the version alone, as `--version` and `pulumi version` do', async () => {
  const { version } = JSON.parse(readFileSync(join(__dirname, '../../package.json'), 'utf8')) as { version: string };
  for (const args of [['version'], ['--version']]) {
    const r = await ocikit(args);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, `${version}\n`);
  }
  const extra = await ocikit(['version', 'now']);
  assert.notEqual(extra.code, 0);
  oneLineError(extra.stderr);
});

// The newest Pulumi's commands declare their arguments with constrictor.AttachArguments, whose
// predicate (constrictor.go createCobraArgsPredicate) words a wrong count; exit 1 (ExitCodeFor).
test("a missing or extra argument fails in one line in Pulumi's words, exit 1", async () => {
  const cwd = scratchDir('args');
  for (const [args, line] of [
    [['version', 'now'], 'error: accepts 0 arg(s), received 1'],
    [['stack', 'tag', 'get'], 'error: accepts 1 arg(s), received 0'],
    [['stack', 'tag', 'set', 'a'], 'error: accepts 2 arg(s), received 1'],
    [['stack', 'output', 'a', 'b'], 'error: accepts at most 1 arg(s), received 2'],
    [['import', 'a', 'b', 'c', 'd'], 'error: accepts at most 3 arg(s), received 4'],
    [['config', 'set'], 'error: requires at least 2 arg(s), only received 0'],
  ] as const) {
    const r = await ocikit([...args], { cwd });
    assert.equal(r.code, 1, args.join(' '));
    assert.equal(oneLineError(r.stderr), line, args.join(' '));
    assert.equal(r.stdout, '', 'no help printed');
  }
});

test('a command group given no subcommand prints its help on stdout and exits 1, as Pulumi', async () => {
  for (const args of [[], ['state'], ['stack', 'tag']]) {
    const r = await ocikit(args, { cwd: project() });
    assert.equal(r.code, 1, args.join(' '));
    assert.match(r.stdout, new RegExp(`^Usage: ${['ocikit', ...args].join(' ')} `));
    assert.match(r.stdout, /\n {2}(delete|ls|up)\b/, 'its subcommands');
    assert.equal(r.stderr, '');
    assert.equal((await ocikit(['help', ...args], { cwd: project() })).code, 0, `help ${args.join(' ')}`);
  }
});

test('--cwd runs ocikit as if started there, as Pulumi: relative --file paths are read and written there', async () => {
  const cwd = project();
  const elsewhere = scratchDir('elsewhere');
  const env = { PULUMI_CONFIG_PASSPHRASE: 'pw' };
  const rel = (args: string[]) => ocikit(['--cwd', relative(elsewhere, cwd), ...args], { cwd: elsewhere, env });
  assert.equal((await rel(['config', 'set', 'k', 'v'])).code, 0);
  const exported = await rel(['stack', 'export', '--file', 'state.json']);
  assert.equal(exported.code, 0, exported.stderr);
  assert.ok(existsSync(join(cwd, 'state.json')), 'written in --cwd');
  assert.ok(!existsSync(join(elsewhere, 'state.json')), 'not where ocikit was started');
  const imported = await rel(['stack', 'import', '--file', 'state.json']);
  assert.equal(imported.code, 0, imported.stderr);
});

test("a stack named as Pulumi's local backend qualifies it (organization/<project>/<stack>, organization/<stack>) is that stack", async () => {
  const cwd = project();
  const set = await ocikit(['--stack', 'organization/proj/qa', 'config', 'set', 'proj:k', 'v'], { cwd });
  assert.equal(set.code, 0, set.stderr);
  assert.ok(existsSync(join(cwd, 'Pulumi.qa.yaml')));
  assert.equal((await ocikit(['--stack', 'qa', 'config', 'get', 'k'], { cwd })).stdout, 'v\n');
  const short = await ocikit(['--stack', 'organization/qa', 'config', 'get', 'k'], { cwd });
  assert.equal(short.stdout, 'v\n', short.stderr);
});

test('a Pulumi.yaml without a runtime says so, as Pulumi does', async () => {
  const cwd = scratchDir('noruntime');
  writeFileSync(join(cwd, 'Pulumi.yaml'), 'name: proj\n');
  const r = await ocikit(['preview'], { cwd });
  assert.equal(r.code, 1);
  assert.match(oneLineError(r.stderr), /Pulumi\.yaml: project is missing a 'runtime' attribute$/);
});

test('commands that read or remove a stack refuse an unknown one, as Pulumi does', async () => {
  const cwd = project();
  for (const args of [
    ['stack', 'output'],
    ['stack', 'output', 'x', '--json'],
    ['stack', 'export'],
    // As Pulumi's stack_export.go, RequireStack before it asks the backend for a version.
    ['stack', 'export', '--version', '2'],
    ['stack', 'history'],
    ['refresh', '--yes'],
    ['destroy', '--yes'],
    // config's commands other than set (and set-all) too: RequireStack's error without a terminal
    // (pkg/cmd/pulumi/stack/io.go), where ocikit listed nothing, said the key was not there, or
    // removed nothing, exit 0.
    ['config'],
    ['config', '--json'],
    ['config', 'get', 'units'],
    ['config', 'rm', 'units'],
    ['config', 'rm-all', 'units'],
    ['config', 'cp', 'units', '--dest', 'prod'],
    ['config', 'refresh'],
  ]) {
    const result = await ocikit(['--stack', 'nope', ...args], { cwd });
    assert.equal(result.code, 6, args.join(' '));
    assert.equal(oneLineError(result.stderr), "error: no stack named 'nope' found");
  }
  // A stack with only its Pulumi.<stack>.yaml exists (ocikit's `stack init` is `config set`).
  assert.equal((await ocikit(['--stack', 'prod', 'config', 'set', 'units', '5'], { cwd })).code, 0);
  const empty = await ocikit(['--stack', 'prod', 'stack', 'output'], { cwd });
  assert.equal(empty.code, 0, empty.stderr);
  assert.equal(empty.stdout, 'Current stack outputs (0):\n    No output values currently in this stack\n');
  // ...and so stack ls lists it, beside the stacks with state, as Pulumi's DIY backend lists a
  // stack `stack init` made: no deployment, so no lastUpdate nor resourceCount (n/a in the table),
  // and never updateInProgress (the DIY backend does not support progress).
  const listed = JSON.parse((await ocikit(['--stack', 'prod', 'stack', 'ls', '--json'], { cwd })).stdout);
  assert.deepEqual(listed, [{ name: 'prod', current: true }]);
  const table = await ocikit(['--stack', 'prod', 'stack', 'ls'], { cwd });
  assert.equal(table.stdout, 'NAME   LAST UPDATE  RESOURCE COUNT\nprod*  n/a          n/a\n');
});

// Pulumi's stack output (pkg/cmd/pulumi/stack/stack_output.go) reads the checkpoint alone
// (RequireStack with LoadOnly, then SnapshotStackOutputs): a Pulumi.<stack>.yaml that does not parse
// does not stop it. ocikit parsed the file first and failed.
test('stack output prints the outputs when Pulumi.<stack>.yaml does not parse; a run still names the file', async () => {
  const cwd = projectWithCheckpoint({
    resources: [resource('proj-dev', { outputs: { endpointState: 'ACTIVE' } })],
  });
  writeFileSync(join(cwd, 'Pulumi.dev.yaml'), 'config:\n  proj:units: 2\n   bad: [\n');
  const output = await ocikit(['stack', 'output', 'endpointState'], { cwd });
  assert.equal(output.code, 0, output.stderr);
  assert.equal(output.stdout, 'ACTIVE\n');
  const table = await ocikit(['stack', 'output'], { cwd });
  assert.match(table.stdout, /^ {4}endpointState {2}ACTIVE$/m);
  // Where the file's config is needed, its mistake is one line naming it.
  const config = await ocikit(['config'], { cwd });
  assert.equal(config.code, 1);
  assert.match(oneLineError(config.stderr), /^error: \S+Pulumi\.dev\.yaml: .+ at line \d+, column \d+$/);
});

test('a broken state file is named in one line; stack ls lists its stack without a deployment', async () => {
  const cwd = project();
  mkdirSync(join(cwd, '.ocikit', 'stacks'), { recursive: true });
  writeFileSync(join(cwd, '.ocikit', 'stacks', 'broken.json'), '{ not json');
  const broken = await ocikit(['--stack', 'broken', 'stack', 'output'], { cwd });
  assert.equal(broken.code, 1);
  assert.match(oneLineError(broken.stderr), /broken\.json is not a Pulumi checkpoint: /);
  // A file that is JSON but not a checkpoint (null), with a backup beside it: the way back is named.
  writeFileSync(join(cwd, '.ocikit', 'stacks', 'broken.json'), 'null');
  writeFileSync(join(cwd, '.ocikit', 'stacks', 'broken.json.bak'), '{}');
  const nulled = await ocikit(['--stack', 'broken', 'stack', 'output'], { cwd });
  assert.match(
    oneLineError(nulled.stderr),
    /^error: \S+broken\.json is not a Pulumi checkpoint ocikit reads \(version 3, or 4 with the features hooks and taint\); to restore the previous version: ocikit stack import --file \S+broken\.json\.bak$/,
  );
  // A version 4 checkpoint that needs a feature ocikit does not implement is named the same way.
  writeFileSync(
    join(cwd, '.ocikit', 'stacks', 'broken.json'),
    JSON.stringify({ version: 4, features: ['views'], checkpoint: { stack: 'broken' } }),
  );
  assert.match(
    oneLineError((await ocikit(['--stack', 'broken', 'stack', 'output'], { cwd })).stderr),
    /^error: \S+broken\.json is not a Pulumi checkpoint ocikit reads \(version 3, or 4 with the features hooks and taint\); /,
  );
  // Held by a run or not: Pulumi's DIY backend never reports an update in progress.
  writeFileSync(join(cwd, '.ocikit', 'stacks', 'broken.lock'), '{}');
  const listed = JSON.parse((await ocikit(['stack', 'ls', '--json'], { cwd })).stdout);
  assert.deepEqual(listed, [{ name: 'broken', current: false }]);
});

test('without --yes, up, refresh and destroy refuse when stdin is not a terminal', async () => {
  const cwd = project();
  for (const command of ['up', 'refresh', 'destroy']) {
    const result = await ocikit([command], { cwd });
    assert.equal(result.code, 2);
    // refresh.go and destroy.go name --preview-only too.
    const flags = command === 'up' ? '--yes or --skip-preview' : '--yes or --skip-preview or --preview-only';
    assert.equal(
      oneLineError(result.stderr),
      `error: ${flags} must be passed in to proceed when running in non-interactive mode`,
    );
  }
  // PULUMI_SKIP_CONFIRMATIONS=true is --yes, as in Pulumi: destroy then goes on (to the unknown stack).
  const skipping = await ocikit(['destroy'], { cwd, env: cleanEnv({ PULUMI_SKIP_CONFIRMATIONS: 'true' }) });
  assert.equal(oneLineError(skipping.stderr), "error: no stack named 'dev' found");
});

// Pulumi's exit codes (pkg/cmd/pulumi/cmd/exit_codes.go ExitCodeFor), which scripts and agents
// branch on: 2 no confirmation without a terminal, 6 stack not found, 1 any other failure.
// (7, --expect-no-changes with changes, is asserted where programs run: audit and deploy-flags.)
test("a failure exits with Pulumi's code for it", async () => {
  const cwd = project();
  // A stack for config get to read (config's commands refuse a stack that is not there).
  writeFileSync(join(cwd, 'Pulumi.dev.yaml'), '{}\n');
  for (const [args, code] of [
    [['up'], 2],
    [['refresh'], 2],
    [['destroy'], 2],
    [['--stack', 'nope', 'stack', 'output'], 6],
    [['--stack', 'nope', 'stack', 'export'], 6],
    // stack_select.go's `no stack named 'x' found` is a plain fmt.Errorf, not a StackNotFoundError.
    [['stack', 'select', 'nope'], 1],
    [['--stack', 'nope', 'refresh', '--yes'], 6],
    [['--stack', 'nope', 'destroy', '--yes'], 6],
    [['config', 'get', 'missing'], 1],
    // Not malformed input to Pulumi: cobra's unknown command reaches ExitCodeFor as a plain error
    // (pkg/cmd/pulumi/pulumi_test.go TestUnknownCommandSuggestions: cmd.ExitCodeError).
    [['upp'], 1],
    // Nor are flag and argument mistakes: no FlagErrorFunc in NewPulumiCmd, so pflag's error as it
    // is (cobra's default FlagErrorFunc), and cmdutil.ArgsFunc's plain error.
    [['up', '--bogus'], 1],
    [['up', '--stack'], 1],
    [['--parallel', 'zero', 'preview'], 1],
    [['up', 'template'], 1],
    [['stack', 'output', 'a', 'b'], 1],
  ] as Array<[string[], number]>) {
    const result = await ocikit(args, { cwd });
    assert.equal(result.code, code, args.join(' '));
    assert.match(oneLineError(result.stderr), /^error: /, args.join(' '));
  }
});

// Pulumi's flags of preview, up, refresh and destroy (pkg/cmd/pulumi/operations): the short ones
// and those that change nothing here are taken; those ocikit does not implement are refused in one
// line with the reason, not as unknown options; --preview-only goes with neither --yes nor --skip-preview.
test("Pulumi's deploy flags: taken, or refused with the reason", async () => {
  const cwd = project();
  const run = async (args: string[]) => oneLineError((await ocikit(args, { cwd })).stderr);
  const noStack = "error: no stack named 'dev' found";
  assert.equal(await run(['destroy', '-f']), noStack, '-f is --skip-preview');
  assert.equal(await run(['destroy', '-f', '--show-full-output']), noStack, "destroy's --show-full-output is taken");
  assert.equal(await run(['refresh', '-f', '--suppress-progress', '--suppress-permalink']), noStack);
  assert.equal(await run(['destroy', '--preview-only', '-d']), noStack, 'no --yes needed with --preview-only');
  const refusals: Array<[string[], string]> = [
    [['refresh', '--preview-only', '--yes'], '--yes and --preview-only cannot be used together'],
    [['destroy', '--preview-only', '--skip-preview'], '--skip-preview and --preview-only cannot be used together'],
    [
      ['preview', '--policy-pack', 'policies'],
      "--policy-pack is not supported by ocikit: policy packs run in Pulumi's analyzer plugins (CrossGuard), which ocikit does not host",
    ],
    [
      ['destroy', '--yes', '--run-program'],
      '--run-program is not supported by ocikit: refresh and destroy work from the state and do not run the program',
    ],
    [
      ['refresh', '--yes', '--run-program'],
      '--run-program is not supported by ocikit: refresh and destroy work from the state and do not run the program',
    ],
    // Pulumi's refresh has no --show-config (pkg/cmd/pulumi/operations/refresh.go): an unknown flag there too.
    [['refresh', '--yes', '--show-config'], "unknown option '--show-config'"],
  ];
  for (const [args, message] of refusals) assert.equal(await run(args), `error: ${message}`);
  for (const [command, flag] of [
    ['up', '--plan=p.json'],
    ['preview', '--save-plan=p.json'],
    ['preview', '--import-file=i.json'],
    ['up', '--secrets-provider=awskms://k'],
    ['refresh', '--config-file=c.yaml'],
    ['destroy', '--show-config'],
    ['up', '--attach-debugger'],
    ['preview', '--remote'],
  ])
    assert.match(await run([command, flag]), new RegExp(`^error: ${flag.split('=')[0]} is not supported by ocikit: `));
});

test('config set|get|rm keep Pulumi.<stack>.yaml as Pulumi writes it; secrets need the passphrase', async () => {
  const cwd = project('shop');
  const env = cleanEnv({ PULUMI_CONFIG_PASSPHRASE: 'correct horse' });
  assert.equal((await ocikit(['config', 'set', 'units', '2'], { cwd, env })).code, 0);
  assert.equal((await ocikit(['config', 'set', 'oci:region', 'us-phoenix-1'], { cwd, env })).code, 0);
  assert.equal((await ocikit(['config', 'set', '--secret', 'apiKey', 's3cr3t'], { cwd, env })).code, 0);
  assert.equal((await ocikit(['--stack', 'prod', 'config', 'set', 'units', '5'], { cwd, env })).code, 0);
  const file = readFileSync(join(cwd, 'Pulumi.dev.yaml'), 'utf8');
  assert.match(file, /^encryptionsalt: v1:[A-Za-z0-9+/=]+:v1:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+\n/);
  assert.match(file, /shop:units: "2"/);
  assert.match(file, /oci:region: us-phoenix-1/);
  assert.match(file, /shop:apiKey:\n {4}secure: v1:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+\n/);
  assert.doesNotMatch(file, /s3cr3t/);
  assert.match(readFileSync(join(cwd, 'Pulumi.prod.yaml'), 'utf8'), /shop:units: "5"/);

  assert.equal((await ocikit(['config', 'get', 'apiKey'], { cwd, env })).stdout, 's3cr3t\n');
  assert.equal((await ocikit(['config', 'get', 'shop:units'], { cwd, env })).stdout, '2\n');
  const listed = await ocikit(['config'], { cwd, env });
  // As Pulumi's prettyKey: the project's own keys without their namespace.
  assert.match(listed.stdout, /^apiKey +\[secret\]$/m);

  const wrong = await ocikit(['config', 'get', 'apiKey'], { cwd, env: cleanEnv({ PULUMI_CONFIG_PASSPHRASE: 'nope' }) });
  assert.equal(oneLineError(wrong.stderr), 'error: could not create a decrypter: incorrect passphrase');
  const missing = await ocikit(['config', 'get', 'apiKey'], { cwd });
  assert.match(oneLineError(missing.stderr), /PULUMI_CONFIG_PASSPHRASE/);

  const passFile = join(cwd, 'passphrase.txt');
  writeFileSync(passFile, 'correct horse\n');
  const fromFile = await ocikit(['config', 'get', 'apiKey'], {
    cwd,
    env: cleanEnv({ PULUMI_CONFIG_PASSPHRASE_FILE: passFile }),
  });
  assert.equal(fromFile.stdout, 's3cr3t\n');

  assert.equal((await ocikit(['config', 'rm', 'units'], { cwd, env })).code, 0);
  const gone = await ocikit(['config', 'get', 'units'], { cwd, env });
  assert.match(oneLineError(gone.stderr), /configuration key 'units' not found for stack 'dev'/);
  assert.equal((await ocikit(['config', 'set', 'fromStdin'], { cwd, env, input: 'piped value\n' })).code, 0);
  assert.equal((await ocikit(['config', 'get', 'fromStdin'], { cwd, env })).stdout, 'piped value\n');

  // Emptied, the map is written `config: {}`; keys set after that are written in block style again.
  const other = project('shop');
  for (const args of [
    ['set', 'a', '1'],
    ['rm', 'a'],
    ['set', 'b', '2'],
    ['set', 'c', '3'],
  ])
    assert.equal((await ocikit(['config', ...args], { cwd: other, env })).code, 0, args.join(' '));
  assert.equal(readFileSync(join(other, 'Pulumi.dev.yaml'), 'utf8'), 'config:\n  shop:b: "2"\n  shop:c: "3"\n');
  // A file YAML cannot parse is named in one line, without the dangling colon of the parser's code frame.
  writeFileSync(join(other, 'Pulumi.dev.yaml'), 'config: [\n');
  const unparsable = oneLineError((await ocikit(['config', 'get', 'b'], { cwd: other, env })).stderr);
  assert.match(unparsable, /^error: \S+Pulumi\.dev\.yaml: .* at line \d+, column \d+$/);
});

test("config keys :x and x: are taken as Pulumi's config.ParseKey reads them: an empty namespace, an empty name", async () => {
  const cwd = project('shop');
  const config = configOk(cwd, cleanEnv());
  await config(['set', ':x', '1']);
  await config(['set', 'x:', '2']);
  await config(['set', '', '3']);
  const file = parseYaml(readFileSync(join(cwd, 'Pulumi.dev.yaml'), 'utf8'));
  assert.deepEqual(file.config, { ':x': '1', 'x:': '2', 'shop:': '3' });
  assert.equal(await config(['get', ':x']), '1\n');
  assert.equal(await config(['get', 'x:']), '2\n');
  assert.equal(await config(['get', 'shop:']), '3\n');
  assert.deepEqual(Object.keys(JSON.parse(await config(['--json']))), [':x', 'shop:', 'x:']);
});

test('-c values are saved first, as Pulumi saves them: a program that cannot start leaves them saved', async () => {
  const cwd = project();
  writeFileSync(join(cwd, 'Pulumi.yaml'), 'name: proj\nruntime: nodejs\nmain: missing.ts\n');
  for (const command of [['preview'], ['up', '--yes']]) {
    const r = await ocikit([...command, '-c', 'k=v=w', '-c', 'bare', '-c', 'oci:region=us-phoenix-1'], { cwd });
    assert.notEqual(r.code, 0);
    assert.match(
      oneLineError(r.stderr),
      /^error: the program's main 'missing\.ts' \(Pulumi\.yaml\) does not exist in /,
    );
    // Split at the first `=`; a pair without one sets an empty value (Pulumi's newcmd.ParseConfig).
    assert.deepEqual(parseYaml(readFileSync(join(cwd, 'Pulumi.dev.yaml'), 'utf8')).config, {
      'proj:k': 'v=w',
      'proj:bare': '',
      'oci:region': 'us-phoenix-1',
    });
  }
  // A key ParseKey refuses, in its words as ParseConfig returns them (config set prefixes them).
  const bad = await ocikit(['preview', '-c', 'a:b:c=1'], { cwd });
  assert.equal(
    oneLineError(bad.stderr),
    'error: could not parse a:b:c as a configuration key (configuration keys should be of the form `<namespace>:<name>`)',
  );
});

test('a Pulumi.json project keeps its config in Pulumi.<stack>.json, as Pulumi names it', async () => {
  const cwd = scratchDir('cli');
  writeFileSync(join(cwd, 'Pulumi.json'), '{ "name": "shop", "runtime": "nodejs" }\n');
  const env = cleanEnv();
  assert.equal((await ocikit(['--stack', 'test', 'config', 'set', 'units', '2'], { cwd, env })).code, 0);
  assert.deepEqual(JSON.parse(readFileSync(join(cwd, 'Pulumi.test.json'), 'utf8')), {
    config: { 'shop:units': '2' },
  });
  assert.equal((await ocikit(['--stack', 'test', 'config', 'get', 'units'], { cwd, env })).stdout, '2\n');
  const stacks = JSON.parse((await ocikit(['stack', 'ls', '--json'], { cwd, env })).stdout) as Array<{ name: string }>;
  assert.deepEqual(
    stacks.map((s) => s.name),
    ['test'],
  );
  // `stack init` writes an empty JSON object there (an empty file is no JSON): the stack's config reads.
  assert.equal((await ocikit(['stack', 'init', 'blank'], { cwd, env })).code, 0);
  assert.deepEqual(JSON.parse(readFileSync(join(cwd, 'Pulumi.blank.json'), 'utf8')), {});
  assert.equal((await ocikit(['config', 'set', 'units', '3'], { cwd, env })).code, 0);
  assert.equal((await ocikit(['config', 'get', 'units'], { cwd, env })).stdout, '3\n');
});

// ProjectStack.Save marshals the struct (its fields in order, omitempty, nothing else) with
// encoding.JSON; config.Map and object values are Go maps, their keys sorted.
test('config set writes a Pulumi.<stack>.json as Pulumi marshals a ProjectStack: keys sorted, fields in order', async () => {
  const cwd = scratchDir('cli');
  writeFileSync(join(cwd, 'Pulumi.json'), '{ "name": "shop", "runtime": "nodejs" }\n');
  const salt = 'v1:c2FsdA==:v1:AAAAAAAAAAAAAAAA:AAAA';
  writeFileSync(
    join(cwd, 'Pulumi.test.json'),
    JSON.stringify({
      config: { 'shop:zeta': '1', 'shop:alpha': { b: 1, a: [2, 1] } },
      extra: true,
      encryptionsalt: salt,
    }),
  );
  const env = cleanEnv();
  assert.equal((await ocikit(['--stack', 'test', 'config', 'set', 'units', '2'], { cwd, env })).code, 0);
  assert.equal(
    readFileSync(join(cwd, 'Pulumi.test.json'), 'utf8'),
    JSON.stringify(
      { encryptionsalt: salt, config: { 'shop:alpha': { a: [2, 1], b: 1 }, 'shop:units': '2', 'shop:zeta': '1' } },
      null,
      4,
    ) + '\n',
  );
});

// What Pulumi says of a secret config value it cannot read (config.go listConfig, config_get.go,
// getAndSaveSecretsManager and the engine's "failed to decrypt config"): a wrong passphrase is
// "incorrect passphrase"; a value the right key cannot open is the value's fault, said in crypt.go's
// words, named by its path inside an object value only (object.go decrypt), never by its key.
test('a secure config value that cannot be decrypted fails in Pulumi’s words, for config, config get and preview', async () => {
  const cwd = project('shop');
  writeFileSync(join(cwd, 'index.ts'), 'export const a = 1;\n');
  const env = cleanEnv({ PULUMI_CONFIG_PASSPHRASE: 'correct horse' });
  const wrongEnv = cleanEnv({ PULUMI_CONFIG_PASSPHRASE: 'nope' });
  const error = async (args: string[], e = env) => {
    const r = await ocikit(args, { cwd, env: e });
    assert.equal(r.code, 1, args.join(' '));
    return oneLineError(r.stderr);
  };
  assert.equal((await ocikit(['config', 'set', '--secret', 'apiKey', 's3cr3t'], { cwd, env })).code, 0);
  assert.equal((await ocikit(['config', 'set', '--path', '--secret', 'data.token', 't0k3n'], { cwd, env })).code, 0);
  // The wrong passphrase.
  assert.equal(await error(['config', '--show-secrets'], wrongEnv), 'error: incorrect passphrase');
  assert.equal(
    await error(['config', 'get', 'apiKey'], wrongEnv),
    'error: could not create a decrypter: incorrect passphrase',
  );
  assert.equal(
    await error(['preview'], wrongEnv),
    'error: getting stack configuration: get stack secrets manager: incorrect passphrase',
  );
  // Refused before the run also when no config value is secret (the stack's salt checks it), not
  // half-way through an up, when a step's state holds a secret output to encrypt.
  writeFileSync(
    join(cwd, 'Pulumi.other.yaml'),
    readFileSync(join(cwd, 'Pulumi.dev.yaml'), 'utf8').replace(/\nconfig:[\s\S]*$/, '\n'),
  );
  assert.equal(
    await error(['up', '--yes', '-s', 'other'], wrongEnv),
    'error: getting stack configuration: get stack secrets manager: incorrect passphrase',
  );
  // The right passphrase, a corrupt value (its ciphertext's first character changed).
  const file = join(cwd, 'Pulumi.dev.yaml');
  const corrupt = (text: string, key: string) =>
    text.replace(
      new RegExp(`(${key}:\\n +secure: v1:[^:]+:)(.)`),
      (_, head: string, c: string) => head + (c === 'A' ? 'B' : 'A'),
    );
  const good = readFileSync(file, 'utf8');
  writeFileSync(file, corrupt(good, 'shop:apiKey'));
  const reason = 'cipher: message authentication failed';
  assert.match((await ocikit(['config'], { cwd, env })).stdout, /^apiKey +\[secret\]$/m, 'listed without decrypting');
  assert.equal(await error(['config', '--show-secrets']), `error: could not decrypt configuration value: ${reason}`);
  assert.equal(await error(['config', 'get', 'apiKey']), `error: could not decrypt configuration value: ${reason}`);
  assert.equal(await error(['preview']), `error: failed to decrypt config: ${reason}`);
  // Inside an object value, the path to it is named (not when `--path` gets the value itself).
  writeFileSync(file, corrupt(good, 'token'));
  assert.equal(
    await error(['config', 'get', 'data']),
    `error: could not decrypt configuration value: token: ${reason}`,
  );
  assert.equal(
    await error(['config', 'get', '--path', 'data.token']),
    `error: could not decrypt configuration value: ${reason}`,
  );
  assert.equal(await error(['preview']), `error: failed to decrypt config: token: ${reason}`);
});

test('config set refuses a plaintext value that looks like a credential under a password/secret/token key, as Pulumi does', async () => {
  const cwd = project('shop');
  const env = cleanEnv({ PULUMI_CONFIG_PASSPHRASE: 'correct horse' });
  const random = 'xK9mQ2vL7nP4aB8cZ';
  const refused = await ocikit(['config', 'set', 'dbPassword', random], { cwd, env });
  assert.notEqual(refused.code, 0);
  assert.equal(
    oneLineError(refused.stderr),
    "error: config value for 'shop:dbPassword' looks like a secret; rerun with --secret to encrypt it, or --plaintext if you meant to store in plaintext",
  );
  assert.ok(!existsSync(join(cwd, 'Pulumi.dev.yaml')), 'nothing written');
  // A word is no credential; a key that does not say so is not checked; --plaintext and --secret say what was meant.
  assert.equal((await ocikit(['config', 'set', 'dbPassword', 'changeme'], { cwd, env })).code, 0);
  assert.equal((await ocikit(['config', 'set', 'shelfLabel', random], { cwd, env })).code, 0);
  assert.equal((await ocikit(['config', 'set', '--plaintext', 'apiToken', random], { cwd, env })).code, 0);
  assert.equal((await ocikit(['config', 'set', '--secret', 'oci:authToken', random], { cwd, env })).code, 0);
  const file = readFileSync(join(cwd, 'Pulumi.dev.yaml'), 'utf8');
  assert.match(file, /shop:apiToken: xK9mQ2vL7nP4aB8cZ/);
  assert.match(file, /oci:authToken:\n {4}secure: /);
});

test('config --json and config get --json print Pulumi’s configValueJSON, a secret’s value elided unless --show-secrets', async () => {
  const cwd = project('shop');
  const env = cleanEnv({ PULUMI_CONFIG_PASSPHRASE: 'correct horse' });
  const run = async (...args: string[]) => {
    const r = await ocikit(['config', ...args], { cwd, env });
    assert.equal(r.code, 0, r.stderr);
    return r.stdout;
  };
  await run('set', 'units', '2');
  await run('set', '--secret', 'apiKey', 's3cr3t');
  await run('set', '--path', 'data.name', 'shop');
  assert.deepEqual(JSON.parse(await run('--json')), {
    'shop:apiKey': { secret: true },
    'shop:data': { value: '{"name":"shop"}', objectValue: { name: 'shop' }, secret: false },
    'shop:units': { value: '2', secret: false },
  });
  assert.equal(await run('get', 'units', '--json'), '{\n  "value": "2",\n  "secret": false\n}\n');
  // Pulumi's -j, and --plaintext (the default, said explicitly), which --secret excludes.
  assert.equal(await run('get', 'units', '-j'), await run('get', 'units', '--json'));
  assert.equal(await run('-j'), await run('--json'));
  await run('set', '--plaintext', 'region', 'eu');
  assert.equal(await run('get', 'region'), 'eu\n');
  const both = await ocikit(['config', 'set', '--secret', '--plaintext', 'x', 'y'], { cwd, env });
  assert.equal(both.stderr, 'error: only one of --secret and --plaintext may be set\n');
  await run('rm', 'region');
  assert.deepEqual(JSON.parse(await run('get', 'apiKey', '--json')), { value: 's3cr3t', secret: true });
  assert.deepEqual(JSON.parse(await run('get', 'data', '--json')), {
    value: '{"name":"shop"}',
    objectValue: { name: 'shop' },
    secret: false,
  });
  // --show-secrets: the secrets in plain text, in the table and in the JSON (an object's secure
  // parts too), as `pulumi config --show-secrets`.
  await run('set', '--path', '--secret', 'data.token', 't0ken');
  assert.match(await run(), /^data +\{"name":"shop","token":"\[secret\]"\}$/m);
  const shown = await run('--show-secrets');
  assert.match(shown, /^apiKey +s3cr3t$/m);
  assert.match(shown, /^data +\{"name":"shop","token":"t0ken"\}$/m);
  assert.deepEqual(JSON.parse(await run('--show-secrets', '--json')), {
    'shop:apiKey': { value: 's3cr3t', secret: true },
    'shop:data': {
      value: '{"name":"shop","token":"t0ken"}',
      objectValue: { name: 'shop', token: 't0ken' },
      secret: true,
    },
    'shop:units': { value: '2', secret: false },
  });
});

test('config and config get show the project’s defaults from Pulumi.yaml; stackConfigDir moves the stack file', async () => {
  const cwd = scratchDir('cli');
  writeFileSync(
    join(cwd, 'Pulumi.yaml'),
    [
      'name: shop',
      'runtime: nodejs',
      'stackConfigDir: stacks',
      'config:',
      '  units: 2',
      '  zones: { type: array, items: { type: string }, default: [a, b] }',
      '  name: { type: string }',
      '  oci:region: us-ashburn-1',
      '',
    ].join('\n'),
  );
  const run = async (...args: string[]) => {
    const r = await ocikit(['config', ...args], { cwd, env: cleanEnv() });
    assert.equal(r.code, 0, r.stderr);
    return r.stdout;
  };
  assert.equal((await ocikit(['stack', 'init', 'dev'], { cwd, env: cleanEnv() })).code, 0);
  assert.equal(await run('get', 'units'), '2\n');
  assert.equal(await run('get', 'zones'), '["a","b"]\n');
  assert.equal(await run('get', '--path', 'zones[1]'), 'b\n');
  assert.equal(await run('get', 'oci:region'), 'us-ashburn-1\n');
  const missing = await ocikit(['config', 'get', 'name'], { cwd, env: cleanEnv() });
  assert.equal(oneLineError(missing.stderr), "error: configuration key 'name' not found for stack 'dev'");
  // A stack value wins over the project's default, and goes to stacks/Pulumi.dev.yaml.
  await run('set', 'units', '5');
  assert.equal(await run('get', 'units'), '5\n');
  assert.match(readFileSync(join(cwd, 'stacks', 'Pulumi.dev.yaml'), 'utf8'), /shop:units: "5"/);
  assert.equal(await run(), 'KEY         VALUE\noci:region  us-ashburn-1\nunits       5\nzones       ["a","b"]\n');
  assert.deepEqual(JSON.parse(await run('--json'))['shop:zones'], {
    value: '["a","b"]',
    objectValue: ['a', 'b'],
    secret: false,
  });
});

test('config --path sets, gets and removes nested values, typed and secret, as Pulumi stores them', async () => {
  const cwd = project('shop');
  const env = cleanEnv({ PULUMI_CONFIG_PASSPHRASE: 'correct horse' });
  const ok = configOk(cwd, env);
  await ok(['set', '--path', 'data.active', 'true']);
  await ok(['set', '--path', 'data.nums[0]', '1']);
  await ok(['set', '--path', 'data.nums[1]', '0123']);
  await ok(['set', '--path', 'data.name', 'web']);
  await ok(['set', '--path', '--secret', 'data.token', 't0k3n']);
  await ok(['set', '--path', 'oci:tags["cost.center"]', 'dr']);
  await ok(['set', 'plain.key', 'kept']); // without --path a dot is part of the key, as before
  // A path of the key alone sets its text, typed by nothing (Pulumi's Map.Set), from set and set-all.
  await ok(['set', '--path', 'count', '2']);
  await ok(['set-all', '--path', '--plaintext', 'flag=true']);
  const text = readFileSync(join(cwd, 'Pulumi.dev.yaml'), 'utf8');
  assert.doesNotMatch(text, /t0k3n/);
  const config = parseYaml(text).config;
  assert.match(config['shop:data'].token.secure, /^v1:/);
  assert.deepEqual(
    { ...config['shop:data'], token: 'x' },
    { active: true, nums: [1, '0123'], name: 'web', token: 'x' },
  );
  assert.deepEqual(config['oci:tags'], { 'cost.center': 'dr' });
  assert.equal(config['shop:plain.key'], 'kept');
  assert.deepEqual([config['shop:count'], config['shop:flag']], ['2', 'true']);

  assert.equal(await ok(['get', '--path', 'data.token']), 't0k3n\n');
  assert.equal(await ok(['get', '--path', 'data.nums[0]']), '1\n');
  assert.equal(await ok(['get', '--path', 'shop:data.name']), 'web\n');
  // As Pulumi prints an object (Go's map marshalled to JSON): keys sorted, not in the file's order.
  assert.equal(await ok(['get', 'data']), '{"active":true,"name":"web","nums":[1,"0123"],"token":"t0k3n"}\n');
  const listed = await ok([]);
  assert.match(listed, /^data +\{"active":true,"name":"web","nums":\[1,"0123"\],"token":"\[secret\]"\}/m);
  assert.doesNotMatch(listed, /t0k3n|v1:/);

  await ok(['rm', '--path', 'data.nums[0]']);
  assert.deepEqual(parseYaml(readFileSync(join(cwd, 'Pulumi.dev.yaml'), 'utf8')).config['shop:data'].nums, ['0123']);
  // Removing what is not there succeeds and changes nothing, as Pulumi's `config rm` does.
  const before = readFileSync(join(cwd, 'Pulumi.dev.yaml'), 'utf8');
  for (const args of [
    ['rm', '--path', 'data.nope'],
    ['rm', 'nope'],
  ]) {
    const missing = await ocikit(['config', ...args], { cwd, env });
    assert.equal(missing.code, 0, args.join(' '));
    assert.equal(missing.stderr, '');
  }
  assert.equal(readFileSync(join(cwd, 'Pulumi.dev.yaml'), 'utf8'), before);
  const notList = await ocikit(['config', 'set', '--path', 'data.name[0]', 'x'], { cwd, env });
  assert.equal(oneLineError(notList.stderr), 'error: an array was expected for index 0');
  const range = await ocikit(['config', 'set', '--path', 'data.nums[5]', 'x'], { cwd, env });
  assert.equal(oneLineError(range.stderr), 'error: array index out of range');
  const dotted = await ocikit(['config', 'set', '--path', '.c', '2'], { cwd, env });
  assert.equal(
    oneLineError(dotted.stderr),
    'error: invalid config key path: expected property path to start with a name or index',
  );
});

// Pulumi's `config set-all` and `config rm-all` (pkg/cmd/pulumi/config): several keys in one
// command, `--plaintext`/`--secret` pairs split at the first `=` (or after a quoted key), plain
// values set before secrets, `--path` as for set and rm; a pair that does not parse sets nothing.
test('config set-all and rm-all set and remove several keys, as Pulumi’s', async () => {
  const cwd = project('shop');
  const env = cleanEnv({ PULUMI_CONFIG_PASSPHRASE: 'correct horse' });
  const ok = configOk(cwd, env);
  const config = () => parseYaml(readFileSync(join(cwd, 'Pulumi.dev.yaml'), 'utf8')).config;
  await ok(['set-all', '--plaintext', 'units=2', '--plaintext', '"a=b"=c=d', '--secret', 'apiKey=s3cr3t']);
  await ok(['set-all', '--secret', 'both=secret', '--plaintext', 'both=plain', '--plaintext', 'oci:region=eu']);
  assert.deepEqual(
    { ...config(), 'shop:apiKey': 'x', 'shop:both': 'x' },
    { 'shop:units': '2', 'shop:a=b': 'c=d', 'shop:apiKey': 'x', 'shop:both': 'x', 'oci:region': 'eu' },
  );
  assert.equal(await ok(['get', 'apiKey']), 's3cr3t\n');
  assert.equal(await ok(['get', 'both']), 'secret\n', 'the secrets are set after the plain values');
  await ok([
    'set-all',
    '--path',
    '--plaintext',
    'data.nums[0]=1',
    '--plaintext',
    'data.name=web',
    '--secret',
    'data.token=t0k3n',
  ]);
  assert.deepEqual({ ...config()['shop:data'], token: 'x' }, { nums: [1], name: 'web', token: 'x' });
  assert.equal(await ok(['get', '--path', 'data.token']), 't0k3n\n');

  const before = readFileSync(join(cwd, 'Pulumi.dev.yaml'), 'utf8');
  const bad = await ocikit(['config', 'set-all', '--plaintext', 'units=3', '--plaintext', 'oops'], { cwd, env });
  assert.equal(bad.code, 1);
  assert.equal(oneLineError(bad.stderr), 'error: config value must be in the form [key]=[value]');
  assert.equal(readFileSync(join(cwd, 'Pulumi.dev.yaml'), 'utf8'), before, 'nothing set');

  await ok(['rm-all', 'units', 'a=b', 'nope']);
  await ok(['rm-all', '--path', 'data.nums[0]', 'data.token']);
  assert.deepEqual(Object.keys(config()), ['shop:apiKey', 'shop:both', 'oci:region', 'shop:data']);
  assert.deepEqual(config()['shop:data'], { nums: [], name: 'web' });
  const none = await ocikit(['config', 'rm-all'], { cwd, env });
  assert.equal(none.code, 1);
  assert.equal(oneLineError(none.stderr), 'error: accepts 1 arg(s), received 0');
});

// Pulumi's `config cp` (copySingleConfigKey, CopyEntireConfigMap): into a stack that exists, its
// secrets encrypted again with the destination's own salt (the same passphrase).
test('config cp copies a key, a path or every key to another stack, secrets encrypted for it', async () => {
  const cwd = project('shop');
  const env = cleanEnv({ PULUMI_CONFIG_PASSPHRASE: 'correct horse' });
  const ok = configOk(cwd, env);
  const fails = async (args: string[]) => oneLineError((await ocikit(['config', ...args], { cwd, env })).stderr);
  await ok(['set-all', '--plaintext', 'units=2', '--secret', 'apiKey=s3cr3t']);
  await ok(['set', '--path', '--secret', 'data.token', 't0k3n']);
  await ok(['set', '--path', 'data.name', 'web']);
  assert.equal(await fails(['cp', '--dest', 'prod']), "error: no stack named 'prod' found");
  await ok(['set', 'other', 'kept', '--stack', 'prod']);
  assert.equal(await fails(['cp', '--dest', 'dev']), 'error: current stack and destination stack are the same');
  assert.equal(
    await fails(['cp', 'nope', '--dest', 'prod']),
    "error: configuration key 'nope' not found for stack 'dev'",
  );

  await ok(['cp', 'apiKey', '-d', 'prod']);
  await ok(['cp', '--path', 'data.token', '--dest', 'prod']);
  const prod = () => parseYaml(readFileSync(join(cwd, 'Pulumi.prod.yaml'), 'utf8'));
  assert.deepEqual(Object.keys(prod().config), ['shop:other', 'shop:apiKey', 'shop:data']);
  assert.notEqual(prod().encryptionsalt, parseYaml(readFileSync(join(cwd, 'Pulumi.dev.yaml'), 'utf8')).encryptionsalt);
  assert.equal(await ok(['get', 'apiKey', '--stack', 'prod']), 's3cr3t\n');
  assert.equal(await ok(['get', 'data', '--stack', 'prod']), '{"token":"t0k3n"}\n');
  await ok(['cp', '--dest', 'prod']);
  assert.equal(await ok(['get', 'data', '--stack', 'prod']), '{"name":"web","token":"t0k3n"}\n');
  assert.deepEqual(Object.keys(prod().config), ['shop:other', 'shop:apiKey', 'shop:data', 'shop:units']);
});

// Pulumi's config commands and flags that ocikit does not have end in one line that says so and why,
// not commander's bare "unknown option" or "too many arguments".
test('Pulumi’s config commands and flags ocikit lacks are refused, each naming itself and the reason', async () => {
  const cwd = project('shop');
  for (const [args, expected] of [
    [['env', 'ls'], /^error: `config env` is not supported by ocikit: ESC environments need Pulumi Cloud/],
    [['edit'], /^error: `config edit` is not supported by ocikit: /],
    [['--config-file', 'x.yaml'], /^error: --config-file is not supported by ocikit: /],
    [['get', 'a', '--config-file', 'x.yaml'], /^error: --config-file is not supported by ocikit: /],
    [['get', '--open=false', 'a'], /^error: --open is not supported by ocikit: ocikit has no ESC environments/],
    [['set', '--type', 'int', 'a', '1'], /^error: --type is not supported by ocikit: /],
  ] as const) {
    const r = await ocikit(['config', ...args], { cwd, env: cleanEnv() });
    assert.equal(r.code, 1, args.join(' '));
    assert.match(oneLineError(r.stderr), expected, args.join(' '));
  }
  assert.ok(!existsSync(join(cwd, 'Pulumi.dev.yaml')), 'nothing written');
});

test('ocikit emulator starts the emulator in the foreground with ocikit-emulator’s flags', async () => {
  const { spawnOcikit } = await import('../support/ocikit');
  const { child, done } = spawnOcikit(['emulator', '--in-memory', '--port', '0', '--transition-delay', '0']);
  const firstLine = await new Promise<string>((resolve) => {
    let buffer = '';
    child.stdout!.on('data', (d) => {
      buffer += d;
      // Its signal handlers are in place once the banner (ending with the admin API line) is out.
      if (buffer.includes('/_ocikit')) resolve(buffer.split('\n')[0]);
    });
  });
  assert.match(firstLine, /^ocikit emulator listening on http:\/\/127\.0\.0\.1:\d+$/);
  await new Promise((r) => setTimeout(r, 300));
  child.kill('SIGINT');
  assert.equal((await done).code, 0);
  const help = await ocikit(['emulator', '--help']);
  assert.match(help.stdout, /--transition-delay <seconds>/);
});

test('stack import and stack rm: their mistakes are one line; a stack with only config is removed', async () => {
  const cwd = project();
  const env = cleanEnv();
  const importing = (input: string) => ocikit(['stack', 'import'], { cwd, env, input });
  assert.match(oneLineError((await importing('{ nope')).stderr), /^error: could not read the deployment: /);
  // Pulumi's words for a version it does not know (FormatDeploymentDeserializationError): 1 to 4
  // are known, and a deployment without one is version 0.
  assert.equal(
    oneLineError((await importing('{"version":5,"deployment":{}}')).stderr),
    "error: the stack 'dev' is newer than what this version of the Pulumi CLI understands. Please update your version of the Pulumi CLI",
  );
  for (const input of ['{"version":0,"deployment":{}}', '{"deployment":{}}'])
    assert.equal(
      oneLineError((await importing(input)).stderr),
      "error: the stack 'dev' is too old to be used by this version of the Pulumi CLI",
    );
  // Version 4: a feature Pulumi does not know fails in its words (validateSupportedFeatures), one
  // it knows but ocikit does not implement is refused; nothing is written either way.
  assert.equal(
    oneLineError((await importing('{"version":4,"features":["taint","later"],"deployment":{}}')).stderr),
    "error: the stack 'dev' uses features that are not supported by this version of the Pulumi CLI: later. Please update your version of the Pulumi CLI",
  );
  assert.equal(
    oneLineError((await importing('{"version":4,"features":["refreshBeforeUpdate"],"deployment":{}}')).stderr),
    "error: the deployment uses Pulumi's refreshBeforeUpdate feature, which ocikit does not support (it reads version 4 deployments with hooks and taint)",
  );
  assert.ok(!existsSync(join(cwd, '.ocikit', 'stacks', 'dev.json')), 'nothing written');
  // Pulumi reads the manifest's time as a Go time.Time: a deployment it would refuse is refused.
  assert.equal(
    oneLineError(
      (await importing('{"version":3,"deployment":{"manifest":{"time":"x","magic":"","version":""}}}')).stderr,
    ),
    'error: could not read the deployment: its manifest\'s time "x" is not an RFC 3339 time',
  );
  // What Pulumi's DeserializeResource refuses (pkg/resource/stack/deployment.go), in its words and
  // with no --force, for a resource of the deployment or of a pending operation; and a `created` or
  // `modified` its decoder cannot read into a time.Time (ResourceV3). ocikit took a component with
  // an id, and a time it would write back for Pulumi to refuse.
  const stackUrn = 'urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev';
  const withResource = (resource: object, where: 'resources' | 'pending_operations' = 'resources') =>
    JSON.stringify({
      version: 3,
      deployment: {
        [where]: where === 'resources' ? [resource] : [{ type: 'creating', resource }],
      },
    });
  for (const [resource, where, message] of [
    [{ custom: false, type: 'pulumi:pulumi:Stack' }, 'resources', "resource missing required 'urn' field"],
    [{ urn: stackUrn, custom: false }, 'pending_operations', `resource '${stackUrn}' missing required 'type' field`],
    [
      { urn: stackUrn, custom: false, type: 'pulumi:pulumi:Stack', id: 'x' },
      'resources',
      `resource '${stackUrn}' has 'custom' false but non-empty ID`,
    ],
  ] as const)
    assert.equal(
      oneLineError(
        (await ocikit(['stack', 'import', '--force'], { cwd, env, input: withResource(resource, where) })).stderr,
      ),
      `error: could not deserialize deployment: ${message}`,
    );
  assert.equal(
    oneLineError(
      (
        await importing(
          withResource({ urn: stackUrn, custom: false, type: 'pulumi:pulumi:Stack', modified: 'yesterday' }),
        )
      ).stderr,
    ),
    `error: could not read the deployment: resource '${stackUrn}''s modified time "yesterday" is not an RFC 3339 time`,
  );
  // In Go's words, as Pulumi's `could not open file: %w` of os.Open's *fs.PathError.
  assert.equal(
    oneLineError((await ocikit(['stack', 'import', '--file', join(cwd, 'missing.json')], { cwd, env })).stderr),
    `error: could not open file: open ${join(cwd, 'missing.json')}: no such file or directory`,
  );
  const cloudSecret = JSON.stringify({
    version: 3,
    deployment: {
      secrets_providers: { type: 'service', state: {} },
      resources: [
        {
          urn: 'urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev',
          type: 'pulumi:pulumi:Stack',
          custom: false,
          outputs: {
            token: { '4dabf18193072939515e22adb298388d': '1b47061264138c4ac30d75fd1eb44270', ciphertext: 'x' },
          },
        },
      ],
    },
  });
  assert.match(
    oneLineError((await importing(cloudSecret)).stderr),
    /^error: the deployment's secrets are encrypted by the 'service' secrets provider, which ocikit cannot read/,
  );

  assert.equal((await ocikit(['--stack', 'prod', 'config', 'set', 'units', '5'], { cwd })).code, 0);
  assert.equal(
    oneLineError((await ocikit(['--stack', 'dev', 'stack', 'rm', 'prod', '--yes'], { cwd })).stderr),
    'error: only one of --stack or argument stack name may be specified, not both',
  );
  const removed = await ocikit(['stack', 'rm', 'prod', '--yes'], { cwd });
  assert.equal(removed.code, 0, removed.stderr);
  assert.equal(removed.stdout, "Stack 'prod' has been removed!\n");
  assert.equal(existsSync(join(cwd, 'Pulumi.prod.yaml')), false);
  assert.equal(
    oneLineError((await ocikit(['stack', 'rm', 'prod', '--yes'], { cwd })).stderr),
    "error: no stack named 'prod' found",
  );
});

test("stack import drops the deployment's pending operations, each with Pulumi's warning", async () => {
  const cwd = project();
  const env = cleanEnv();
  const stackUrn = 'urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev';
  const endpointUrn = 'urn:pulumi:dev::proj::oci:AiLanguage/endpoint:Endpoint::ep';
  const deployment = {
    version: 3,
    deployment: {
      manifest: { time: '2026-01-01T00:00:00Z', magic: '', version: '' },
      resources: [{ urn: stackUrn, custom: false, type: 'pulumi:pulumi:Stack' }],
      pending_operations: [
        { type: 'creating', resource: { urn: endpointUrn, custom: true, type: 'oci:AiLanguage/endpoint:Endpoint' } },
      ],
    },
  };
  const imported = await ocikit(['stack', 'import'], { cwd, env, input: JSON.stringify(deployment) });
  assert.equal(imported.code, 0, imported.stderr);
  assert.equal(imported.stderr, `warning: removing pending operation 'creating' on '${endpointUrn}' from snapshot\n`);
  assert.equal(imported.stdout, 'Import complete.\n');
  const exported = JSON.parse((await ocikit(['stack', 'export'], { cwd, env })).stdout) as {
    deployment: { resources: Array<{ urn: string }>; pending_operations?: unknown[] };
  };
  assert.deepEqual(
    exported.deployment.resources.map((r) => r.urn),
    [stackUrn],
  );
  assert.equal(exported.deployment.pending_operations, undefined, 'no pending operation left');
});

// Pulumi's `stack import` reads deployments of versions 1 and 2 and migrates them
// (UnmarshalUntypedDeployment, sdk/go/common/apitype/migrate); ocikit refused them.
test('stack import takes a version 1 or 2 deployment and keeps it migrated to version 3', async () => {
  const cwd = project();
  const env = cleanEnv();
  const stackUrn = 'urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev';
  const endpointUrn = 'urn:pulumi:dev::proj::oci:AiLanguage/endpoint:Endpoint::ep';
  const manifest = { time: '2018-03-01T10:00:00Z', magic: '', version: 'v0.11.0' };
  const endpoint = {
    urn: endpointUrn,
    custom: true,
    id: 'ocid1.ailanguageendpoint.oc1..a',
    type: 'oci:AiLanguage/endpoint:Endpoint',
    parent: stackUrn,
    inputs: { modelId: 'm', displayName: 'ep' },
    outputs: { id: 'ocid1.ailanguageendpoint.oc1..a' },
    dependencies: [stackUrn],
  };
  const exported = async () =>
    (JSON.parse((await ocikit(['stack', 'export'], { cwd, env })).stdout) as { deployment: { resources: object[] } })
      .deployment.resources;
  const v1 = {
    version: 1,
    deployment: {
      manifest,
      resources: [
        { urn: stackUrn, custom: false, type: 'pulumi:pulumi:Stack', dependencies: null, initErrors: null },
        { ...endpoint, defaults: { x: 1 } },
      ],
    },
  };
  const imported = await ocikit(['stack', 'import'], { cwd, env, input: JSON.stringify(v1) });
  assert.equal(imported.code, 0, imported.stderr);
  assert.equal(imported.stdout, 'Import complete.\n');
  const migrated = { ...endpoint, propertyDependencies: { displayName: [stackUrn], modelId: [stackUrn] } };
  assert.deepEqual(await exported(), [{ urn: stackUrn, custom: false, type: 'pulumi:pulumi:Stack' }, migrated]);

  const v2 = {
    version: 2,
    deployment: { manifest, resources: [{ urn: stackUrn, custom: false, type: 'pulumi:pulumi:Stack' }, endpoint] },
  };
  const again = await ocikit(['stack', 'import'], { cwd, env, input: JSON.stringify(v2) });
  assert.equal(again.code, 0, again.stderr);
  assert.deepEqual(await exported(), [{ urn: stackUrn, custom: false, type: 'pulumi:pulumi:Stack' }, migrated]);

  // Without dependencies, each input depends on Go's nil slice, which Pulumi writes `null`.
  const { dependencies: _, ...alone } = endpoint;
  const root = { urn: stackUrn, custom: false, type: 'pulumi:pulumi:Stack' };
  const v1Alone = { version: 1, deployment: { manifest, resources: [root, { ...alone, dependencies: [] }] } };
  const importedAlone = await ocikit(['stack', 'import'], { cwd, env, input: JSON.stringify(v1Alone) });
  assert.equal(importedAlone.code, 0, importedAlone.stderr);
  const nil = { ...alone, propertyDependencies: { displayName: null, modelId: null } };
  assert.deepEqual(await exported(), [root, nil]);
  // The state commands that rewrite URNs keep them.
  const renamed = await ocikit(['state', 'rename', alone.urn, 'ep2', '--yes'], { cwd, env });
  assert.equal(renamed.code, 0, renamed.stderr);
  assert.deepEqual(await exported(), [root, { ...nil, urn: alone.urn.replace(/::[^:]+$/, '::ep2') }]);
});

// ResourceV3's fields are `omitempty` but urn, custom and type (sdk/go/common/apitype/core.go):
// Pulumi's import reads a deployment and writes it again (SaveSnapshot), so `false`, "", [] and {}
// are gone from the state, and a customTimeouts with no timeout (SerializeResource writes one only
// when IsNotEmpty). ocikit wrote them back as they came.
test('stack import writes a resource’s empty fields as Pulumi writes them: not at all', async () => {
  const cwd = project();
  const env = cleanEnv();
  const stack = {
    urn: 'urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev',
    custom: false,
    type: 'pulumi:pulumi:Stack',
  };
  const empty = {
    ...stack,
    ...{ delete: false, id: '', parent: '', protect: false, external: false, provider: '', importID: '' },
    ...{ dependencies: [], initErrors: [], propertyDependencies: {}, pendingReplacement: false },
    ...{ additionalSecretOutputs: [], aliases: [], retainOnDelete: false, deletedWith: '', sourcePosition: '' },
    ...{ ignoreChanges: [], replaceOnChanges: [], customTimeouts: { create: 0, update: 0, delete: 0 }, outputs: {} },
  };
  const input = JSON.stringify({ version: 3, deployment: { resources: [empty] } });
  const imported = await ocikit(['stack', 'import'], { cwd, env, input });
  assert.equal(imported.code, 0, imported.stderr);
  const exported = JSON.parse((await ocikit(['stack', 'export'], { cwd, env })).stdout) as {
    deployment: { resources: unknown[] };
  };
  assert.deepEqual(exported.deployment.resources, [stack]);
});

/** The URN of a stack-typed resource `name` of the dev stack of project(), and such a resource's state. */
const urn = (name: string) => `urn:pulumi:dev::proj::pulumi:pulumi:Stack::${name}`;
const resource = (name: string, extra: object = {}) => ({
  urn: urn(name),
  custom: false,
  type: 'pulumi:pulumi:Stack',
  ...extra,
});

/** A project() whose dev stack's state is a version 3 checkpoint of `latest`. */
function projectWithCheckpoint(latest: object): string {
  const cwd = project();
  mkdirSync(join(cwd, '.ocikit', 'stacks'), { recursive: true });
  writeFileSync(
    join(cwd, '.ocikit', 'stacks', 'dev.json'),
    JSON.stringify({ version: 3, checkpoint: { stack: 'dev', latest } }),
  );
  return cwd;
}

// Pulumi's state unprotect (pkg/cmd/pulumi/state/state_unprotect.go) takes several URNs, says how
// many it unprotected, names each URN it does not find, and leaves a resource pending deletion
// protected (only `!res.Delete` ones, by URN or --all). ocikit took one URN and unprotected any.
test('state unprotect takes several URNs and leaves a resource pending deletion protected, as Pulumi’s', async () => {
  const env = cleanEnv();
  // A state edit keeps the manifest (TotalStateEdit serializes the snapshot it read, Manifest and all).
  const manifest = { time: '2026-01-02T03:04:05Z', magic: 'abc', version: 'v3.140.0' };
  const latest = {
    manifest,
    resources: [
      resource('a', { protect: true }),
      resource('b', { protect: true, delete: true }),
      resource('b', { protect: true }),
    ],
  };
  const cwd = projectWithCheckpoint(latest);
  const protectedOnes = async () =>
    (
      JSON.parse((await ocikit(['stack', 'export'], { cwd, env })).stdout) as {
        deployment: { resources: Array<{ protect?: boolean; delete?: boolean }> };
      }
    ).deployment.resources.map((r) => `${r.protect ? 'protected' : '-'}${r.delete ? ' (delete)' : ''}`);
  const missing = await ocikit(['state', 'unprotect', urn('nope'), urn('a'), urn('gone')], { cwd, env });
  assert.equal(missing.code, 1);
  assert.equal(
    missing.stderr,
    `error: No such resource "${urn('nope')}" exists in the current state; No such resource "${urn('gone')}" exists in the current state\n`,
  );
  assert.deepEqual(await protectedOnes(), ['protected', 'protected (delete)', 'protected'], 'nothing changed');
  const both = await ocikit(['state', 'unprotect', urn('a'), urn('b')], { cwd, env });
  assert.equal(both.stdout, '2 resources unprotected\n', both.stderr);
  assert.deepEqual(await protectedOnes(), ['-', 'protected (delete)', '-']);
  const exported = JSON.parse((await ocikit(['stack', 'export'], { cwd, env })).stdout) as {
    deployment: { manifest: unknown };
  };
  assert.deepEqual(exported.deployment.manifest, manifest);
  // With --all, Pulumi ignores the URNs (even one it does not find).
  const protectAll = await ocikit(['state', 'protect', '--all', urn('nope')], { cwd, env });
  assert.equal(protectAll.stdout, 'All resources protected\n', protectAll.stderr);
  assert.deepEqual(await protectedOnes(), ['protected', 'protected (delete)', 'protected']);
  const unprotectAll = await ocikit(['state', 'unprotect', '--all', urn('a'), urn('nope')], { cwd, env });
  assert.equal(unprotectAll.stdout, 'All resources unprotected\n', unprotectAll.stderr);
  assert.deepEqual(await protectedOnes(), ['-', 'protected (delete)', '-']);
});

// Pulumi's state taint and untaint (pkg/cmd/pulumi/state/state_taint.go, state_untaint.go): several
// URNs, each not pending deletion (`!res.Delete`), a URN not found named and nothing changed;
// untaint --all ignores the URNs, taint has no --all. A tainted state is version 4 (ApplyFeatures).
test('state taint and untaint mark resources not pending deletion, and the state is version 4 while one is tainted', async () => {
  const env = cleanEnv();
  const latest = {
    manifest: { time: '2026-01-02T03:04:05Z', magic: 'abc', version: 'v3.140.0' },
    resources: [resource('a'), resource('b', { delete: true }), resource('b')],
  };
  const cwd = projectWithCheckpoint(latest);
  const exported = async () =>
    JSON.parse((await ocikit(['stack', 'export'], { cwd, env })).stdout) as {
      version: number;
      features?: string[];
      deployment: { resources: Array<{ taint?: boolean; delete?: boolean }> };
    };
  const tainted = async () =>
    (await exported()).deployment.resources.map((r) => `${r.taint ? 'tainted' : '-'}${r.delete ? ' (delete)' : ''}`);

  const missing = await ocikit(['state', 'taint', urn('a'), urn('nope')], { cwd, env });
  assert.equal(missing.code, 1);
  assert.equal(missing.stderr, `error: No such resource "${urn('nope')}" exists in the current state\n`);
  assert.deepEqual(await tainted(), ['-', '- (delete)', '-'], 'nothing changed');
  const both = await ocikit(['state', 'taint', urn('a'), urn('b')], { cwd, env });
  assert.equal(both.stdout, '2 resources tainted\n', both.stderr);
  assert.deepEqual(await tainted(), ['tainted', '- (delete)', 'tainted']);
  const file = JSON.parse(readFileSync(join(cwd, '.ocikit', 'stacks', 'dev.json'), 'utf8'));
  assert.deepEqual([file.version, file.features], [4, ['taint']], 'the checkpoint file too');
  assert.deepEqual([(await exported()).version, (await exported()).features], [4, ['taint']]);

  const one = await ocikit(['state', 'untaint', urn('b')], { cwd, env });
  assert.equal(one.stdout, '1 resources untainted\n', one.stderr);
  assert.deepEqual(await tainted(), ['tainted', '- (delete)', '-']);
  const all = await ocikit(['state', 'untaint', '--all', urn('nope')], { cwd, env });
  assert.equal(all.stdout, 'All resources untainted\n', all.stderr);
  assert.deepEqual(await tainted(), ['-', '- (delete)', '-']);
  assert.deepEqual([(await exported()).version, (await exported()).features], [3, undefined]);
  const noAll = await ocikit(['state', 'taint', '--all'], { cwd, env });
  assert.equal(noAll.code, 1);
  assert.match(noAll.stderr, /^error: unknown option '--all'/);
});

/** A manifest as Pulumi writes it: its time with nanoseconds and the local offset, its version, its plugins. */
const PULUMI_MANIFEST = {
  time: '2026-01-02T08:34:05.1234567+05:30',
  magic: 'abc',
  version: 'v3.140.0',
  plugins: [
    { name: 'nodejs', path: '/usr/bin/pulumi-language-nodejs', type: 'language', version: '' },
    { name: 'oci', path: '/home/u/.pulumi/plugins/resource-oci-v4.20.0', type: 'resource', version: 'v4.20.0' },
  ],
};

// What `pulumi stack` prints of a DIY stack (pkg/cmd/pulumi/stack/stack.go runStack): the backend's
// name (the machine's), the manifest's time in the local zone as Go's `%v` prints a time.Time, the
// version that wrote it and each plugin it names (DeserializeManifest's semver: no `v`). ocikit printed the time in UTC, no version, and
// itself as the backend.
test('stack shows the last update in the local zone as Go prints it, the version and plugins that wrote it', async () => {
  const cwd = project();
  const stackUrn = 'urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev';
  const latest = {
    manifest: PULUMI_MANIFEST,
    resources: [{ urn: stackUrn, custom: false, type: 'pulumi:pulumi:Stack' }],
  };
  mkdirSync(join(cwd, '.ocikit', 'stacks'), { recursive: true });
  writeFileSync(
    join(cwd, '.ocikit', 'stacks', 'dev.json'),
    JSON.stringify({ version: 3, checkpoint: { stack: 'dev', latest } }),
  );
  const shown = async (TZ: string) => {
    const r = await ocikit(['stack'], { cwd, env: cleanEnv({ TZ }) });
    assert.equal(r.code, 0, r.stderr);
    // How long ago depends on today; the rest does not.
    return r.stdout
      .split('\n')
      .slice(0, 7)
      .join('\n')
      .replace(/Last updated: \d+ \w+ ago/, 'Last updated: … ago');
  };
  const expected = (time: string) =>
    [
      'Current stack is dev:',
      `    Managed by ${hostname()}`,
      `    Last updated: … ago (${time})`,
      '    Pulumi version used: v3.140.0',
      '    Plugin nodejs [language] version: ?',
      '    Plugin oci [resource] version: 4.20.0',
      'Current stack resources (1):',
    ].join('\n');
  assert.equal(await shown('Europe/Berlin'), expected('2026-01-02 04:04:05.1234567 +0100 CET'));
  assert.equal(await shown('America/New_York'), expected('2026-01-01 22:04:05.1234567 -0500 EST'));
  assert.equal(await shown('UTC'), expected('2026-01-02 03:04:05.1234567 +0000 UTC'));
});

// Pulumi's import keeps the deployment's manifest: stack_import.go's SaveSnapshot serializes the
// snapshot DeserializeDeploymentV3 read, whose Manifest came from DeserializeManifest
// (pkg/resource/deploy/manifest.go). ocikit wrote its own, so `stack` and `stack ls` showed the
// import as the last update, by ocikit.
test('stack import keeps the deployment’s manifest: its time, version and plugins', async () => {
  const cwd = project();
  const env = cleanEnv();
  const stackUrn = 'urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev';
  const input = JSON.stringify({
    version: 3,
    deployment: {
      manifest: PULUMI_MANIFEST,
      resources: [{ urn: stackUrn, custom: false, type: 'pulumi:pulumi:Stack' }],
    },
  });
  assert.equal((await ocikit(['stack', 'import'], { cwd, env, input })).code, 0);
  const exported = JSON.parse((await ocikit(['stack', 'export'], { cwd, env })).stdout) as {
    deployment: { manifest: unknown };
  };
  // DeserializeManifest keeps a plugin's name, kind and version (semver, no `v`), not its path.
  assert.deepEqual(exported.deployment.manifest, {
    ...PULUMI_MANIFEST,
    plugins: [
      { name: 'nodejs', path: '', type: 'language', version: '' },
      { name: 'oci', path: '', type: 'resource', version: '4.20.0' },
    ],
  });
  const listed = JSON.parse((await ocikit(['stack', 'ls', '--json'], { cwd, env })).stdout) as Array<{
    lastUpdate: string;
  }>;
  assert.equal(listed[0].lastUpdate, '2026-01-02T03:04:05.123Z');
  assert.match((await ocikit(['stack'], { cwd, env })).stdout, /\n {4}Pulumi version used: v3\.140\.0\n/);
  // stack_export.go's `could not open file: %w` of os.Create's error.
  const nowhere = join(cwd, 'gone', 'state.json');
  assert.equal(
    oneLineError((await ocikit(['stack', 'export', '--file', nowhere], { cwd, env })).stderr),
    `error: could not open file: open ${nowhere}: no such file or directory`,
  );
});

test('a reader that stops early (ocikit … | head) ends the output quietly, without a stack trace', async () => {
  const cwd = project('piped');
  const env = cleanEnv();
  const keys = Array.from({ length: 200 }, (_, i) => `  piped:key${i}: ${'x'.repeat(200)}\n`);
  writeFileSync(join(cwd, 'Pulumi.dev.yaml'), `config:\n${keys.join('')}`);
  // The reader closes before ocikit writes its 40 KB listing: every write meets a broken pipe.
  const { child, done } = spawnOcikit(['config'], { cwd, env });
  child.stdout!.destroy();
  const run = await done;
  assert.equal(run.stderr, '');
  assert.equal(run.code, 0);
});

test("Pulumi's stack and state subcommands ocikit lacks fail with the reason, not commander's words", async () => {
  const cwd = project();
  for (const [args, reason] of [
    [['stack', 'change-secrets-provider', 'awskms://x'], /passphrase provider only$/],
    [['state', 'move', '--dest', 'prod', 'urn'], /^error: `state move` is not supported by ocikit: /],
    [['state', 'edit'], /^error: `state edit` is not supported by ocikit: /],
    [['state', 'repair'], /^error: `state repair` is not supported by ocikit: /],
    [['state', 'upgrade'], /^error: `state upgrade` is not supported by ocikit: /],
    // Pulumi 3.257's state get and 3.260's state promote (pkg/cmd/pulumi/state/state.go).
    [['state', 'get', 'urn'], /^error: `state get` is not supported by ocikit: `ocikit stack export` prints/],
    [['state', 'promote', 'b'], /^error: `state promote` is not supported by ocikit: it has no `do` command/],
    // Not a command of Pulumi's (its state.go registers promote, which state eject was renamed to).
    [
      ['state', 'eject', 'b'],
      /^error: unknown command "eject" for "ocikit state"\. Run 'ocikit state --help' for usage\.$/,
    ],
  ] as Array<[string[], RegExp]>) {
    const result = await ocikit(args, { cwd });
    assert.equal(result.code, 1, args.join(' '));
    assert.equal(result.stdout, '', args.join(' '));
    assert.match(oneLineError(result.stderr), reason);
  }
});

test('stack init, select and unselect choose the stack later commands use, as Pulumi', async () => {
  const cwd = project();
  const run = async (...args: string[]) => ocikit(args, { cwd });
  const name = async () => (await run('stack', '--show-name')).stdout;
  assert.equal((await run('stack', 'init', 'dev', '--no-select')).code, 0);
  assert.equal(existsSync(join(cwd, '.ocikit', 'workspace.json')), false, '--no-select');
  assert.equal(await name(), 'dev\n', 'nothing selected: dev');
  const init = await run('stack', 'init', 'prod');
  assert.equal(init.stdout, "Created stack 'prod'\n");
  assert.equal(readFileSync(join(cwd, 'Pulumi.prod.yaml'), 'utf8'), '');
  assert.equal(await name(), 'prod\n', 'init selects the new stack');
  assert.equal(oneLineError((await run('stack', 'init', 'prod')).stderr), "error: stack 'prod' already exists");
  const selectMissing = await run('stack', 'select', 'qa');
  assert.equal(oneLineError(selectMissing.stderr), "error: no stack named 'qa' found");
  assert.equal(selectMissing.code, 1, "Pulumi's stack select fails with a plain error: exit 1, not 6");
  assert.equal(
    oneLineError((await run('stack', 'select')).stderr),
    'error: no stack name given, use --stack to specify a stack name',
  );
  assert.equal(
    oneLineError((await run('--stack', 'a', 'stack', 'init', 'b')).stderr),
    'error: only one of --stack or argument stack name may be specified, not both',
  );
  // Commands without --stack use the selection; --stack still wins.
  assert.equal((await run('config', 'set', 'units', '3')).code, 0);
  assert.match(readFileSync(join(cwd, 'Pulumi.prod.yaml'), 'utf8'), /^config:\n {2}proj:units: "3"\n$/);
  assert.equal((await run('--stack', 'dev', 'stack', '--show-name')).stdout, 'dev\n');
  assert.equal((await run('stack', 'select', '-c', 'qa')).stdout, "Created stack 'qa'\n");
  assert.equal(await name(), 'qa\n');
  assert.equal((await run('stack', 'select', 'prod')).code, 0);
  const copied = await run('stack', 'init', 'staging', '--copy-config-from', 'prod', '--no-select');
  assert.equal(copied.code, 0, copied.stderr);
  assert.equal(readFileSync(join(cwd, 'Pulumi.staging.yaml'), 'utf8'), 'config:\n  proj:units: "3"\n');
  const listed = JSON.parse((await run('stack', 'ls', '--json')).stdout) as Array<{ name: string; current: boolean }>;
  assert.deepEqual(
    listed.map((s) => [s.name, s.current]),
    [
      ['dev', false],
      ['prod', true],
      ['qa', false],
      ['staging', false],
    ],
  );
  assert.equal((await run('stack', 'unselect')).stdout, 'Stack was unselected\n');
  assert.equal((await run('stack', 'unselect')).stdout, '', 'nothing selected: nothing said');
  assert.equal(await name(), 'dev\n');
  // Removing the selected stack clears the selection, as Pulumi's stack rm does.
  assert.equal((await run('stack', 'select', 'qa')).code, 0);
  assert.equal((await run('stack', 'rm', '--yes')).stdout, "Stack 'qa' has been removed!\n");
  assert.equal(await name(), 'dev\n');
  // Removing another stack clears it too: Pulumi's stack rm selects nothing after, whichever it removed.
  assert.equal((await run('stack', 'select', 'prod')).code, 0);
  assert.equal((await run('stack', 'rm', 'staging', '--yes')).code, 0);
  assert.equal(await name(), 'dev\n');
  assert.match(
    oneLineError((await run('stack', 'init', 'x', '--secrets-provider', 'awskms://k')).stderr),
    /secrets provider 'awskms:\/\/k' is not supported by ocikit/,
  );
});

// Pulumi's `stack init` on a DIY backend makes the stack's passphrase secrets manager, which
// makes the salt (DefaultSecretManager: passphrase.NewPromptingPassphraseSecretsManager) and saves
// it in Pulumi.<stack>.yaml. ocikit does so when the passphrase is given; without one it waits for
// the first secret (Pulumi would refuse). No salt beside another provider's secure values.
test("stack init with a passphrase writes the stack's encryptionsalt, as Pulumi", async () => {
  const cwd = project();
  const env = cleanEnv({ PULUMI_CONFIG_PASSPHRASE: 'pw' });
  const run = async (...args: string[]) => ocikit(args, { cwd, env });
  assert.equal((await run('stack', 'init', 'dev')).code, 0);
  const salt = parseYaml(readFileSync(join(cwd, 'Pulumi.dev.yaml'), 'utf8')).encryptionsalt as string;
  assert.match(salt, /^v1:[A-Za-z0-9+/=]+:v1:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+$/);
  // It opens with that passphrase: a secret set now is encrypted with it, the salt kept.
  assert.equal((await run('config', 'set', '--secret', 'token', 's3cr3t')).code, 0);
  assert.equal(parseYaml(readFileSync(join(cwd, 'Pulumi.dev.yaml'), 'utf8')).encryptionsalt, salt);
  assert.equal((await run('stack', 'init', 'copy', '--copy-config-from', 'dev')).code, 0);
  assert.equal(parseYaml(readFileSync(join(cwd, 'Pulumi.copy.yaml'), 'utf8')).encryptionsalt, salt);
  writeFileSync(join(cwd, 'Pulumi.cloud.yaml'), 'config:\n  proj:k:\n    secure: AAABAOq1dQ==\n');
  assert.equal((await run('stack', 'init', 'other', '--copy-config-from', 'cloud')).code, 0);
  assert.doesNotMatch(readFileSync(join(cwd, 'Pulumi.other.yaml'), 'utf8'), /encryptionsalt/);
  assert.equal((await ocikit(['stack', 'init', 'plain'], { cwd })).code, 0);
  assert.equal(readFileSync(join(cwd, 'Pulumi.plain.yaml'), 'utf8'), '', 'no passphrase: no salt yet');
});

test("stack ls takes Pulumi's filters as its DIY backend honours them: --project and --tag filter", async () => {
  const cwd = project();
  for (const stack of ['prod', 'dev', 'test']) assert.equal((await ocikit(['stack', 'init', stack], { cwd })).code, 0);
  for (const [stack, name, value] of [
    ['prod', 'env', 'prod'],
    ['dev', 'env', 'dev'],
    ['dev', 'team', 'dr'],
  ])
    assert.equal((await ocikit(['stack', 'tag', 'set', name, value, '--stack', stack], { cwd })).code, 0);
  const list = async (...args: string[]) =>
    (JSON.parse((await ocikit(['stack', 'ls', '--json', ...args], { cwd })).stdout) as Array<{ name: string }>).map(
      (s) => s.name,
    );
  assert.deepEqual(await list('--project', 'other'), []);
  assert.deepEqual(await list('--project', 'proj'), ['dev', 'prod', 'test']);
  // --organization filters nothing (a DIY backend keeps none).
  assert.deepEqual(await list('--all', '-o', 'acme'), ['dev', 'prod', 'test']);
  // parseTagFilter and ListStacks: the tag's name, and its value after the first `=`.
  assert.deepEqual(await list('-t', 'env'), ['dev', 'prod']);
  assert.deepEqual(await list('--tag', 'env=prod'), ['prod']);
  assert.deepEqual(await list('--tag', 'team=dr', '--project', 'proj'), ['dev']);
  assert.deepEqual(await list('--tag', 'env=staging'), []);
  assert.deepEqual(await list('--tag', '=dev'), []);
  // A stack whose tags cannot be read is left out, the others listed.
  writeFileSync(join(cwd, '.ocikit', 'stacks', 'prod.pulumi-tags'), 'not json');
  assert.deepEqual(await list('-t', 'env'), ['dev']);
  const table = await ocikit(['stack', 'ls', '-t', 'team'], { cwd });
  assert.match(table.stdout, /^NAME +LAST UPDATE +RESOURCE COUNT\ndev\*? +n\/a +n\/a\n$/);
});

test('stack rename moves the state (its URNs renamed as edit.RenameStack does) and the config, and selects it', async () => {
  const cwd = project();
  const run = async (...args: string[]) => ocikit(args, { cwd });
  const stackUrn = 'urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev';
  const group = 'urn:pulumi:dev::proj::my:index:Group::g';
  const file = join(cwd, 'dev-state.json');
  writeFileSync(
    file,
    JSON.stringify({
      version: 3,
      deployment: {
        manifest: { time: '2026-01-01T00:00:00Z', magic: '', version: '' },
        resources: [
          {
            urn: stackUrn,
            custom: false,
            type: 'pulumi:pulumi:Stack',
            outputs: { g: group, ref: { [sigKey]: resourceSig, urn: group, packageVersion: '' } },
          },
          {
            urn: group,
            custom: false,
            type: 'my:index:Group',
            parent: stackUrn,
            dependencies: [stackUrn],
            aliases: ['urn:pulumi:dev::proj::my:index:Group::old', 'urn:pulumi:dev::other::my:index:Group::g'],
          },
        ],
      },
    }),
  );
  assert.equal((await run('stack', 'import', '--file', file)).code, 0);
  assert.equal((await run('config', 'set', 'units', '2')).code, 0);
  assert.equal((await run('stack', 'init', 'taken', '--no-select')).code, 0);
  assert.equal(
    oneLineError((await run('stack', 'rename', 'taken')).stderr),
    'error: a stack named taken already exists',
  );

  const renamed = await run('stack', 'rename', 'prod');
  assert.equal(renamed.stdout, 'Renamed dev to prod\n', renamed.stderr);
  assert.equal(existsSync(join(cwd, 'Pulumi.dev.yaml')), false);
  assert.match(readFileSync(join(cwd, 'Pulumi.prod.yaml'), 'utf8'), /proj:units: "2"/);
  assert.equal(existsSync(join(cwd, '.ocikit', 'stacks', 'dev.json')), false);
  assert.ok(existsSync(join(cwd, '.ocikit', 'stacks', 'dev.json.bak')), 'the old state kept as its backup');
  const exported = JSON.parse((await run('stack', 'export')).stdout) as {
    deployment: { manifest: unknown; resources: Array<Record<string, unknown>> };
  };
  const [root, child] = exported.deployment.resources;
  // The manifest stays as it was (the DIY backend's renameStack writes back the checkpoint it read).
  assert.deepEqual(exported.deployment.manifest, { time: '2026-01-01T00:00:00Z', magic: '', version: '' });
  // The stack resource's name follows (<project>-<stack>), as edit.RenameStack renames it.
  assert.equal(root.urn, 'urn:pulumi:prod::proj::pulumi:pulumi:Stack::proj-prod');
  // As edit.RenameStack's renameSerializedPropertyValue: a resource reference's URN follows, a plain string stays.
  assert.deepEqual(root.outputs, {
    g: group,
    ref: { [sigKey]: resourceSig, urn: 'urn:pulumi:prod::proj::my:index:Group::g', packageVersion: '' },
  });
  // stackRenamer.renameURN renames this project's stack's URNs only.
  assert.deepEqual(
    [child.urn, child.parent, child.dependencies, child.aliases],
    [
      'urn:pulumi:prod::proj::my:index:Group::g',
      root.urn,
      [root.urn],
      ['urn:pulumi:prod::proj::my:index:Group::old', 'urn:pulumi:dev::other::my:index:Group::g'],
    ],
  );
  assert.equal((await run('stack', '--show-name')).stdout, 'prod\n', 'the renamed stack is selected');
  assert.deepEqual(
    (JSON.parse((await run('stack', 'ls', '--json')).stdout) as Array<{ name: string }>).map((s) => s.name),
    ['prod', 'taken'],
  );
});

test("stack tag keeps a stack's tags as Pulumi's DIY backend does, in <stack>.pulumi-tags", async () => {
  const cwd = project();
  const run = async (...args: string[]) => ocikit(args, { cwd });
  const tagsFile = join(cwd, '.ocikit', 'stacks', 'dev.pulumi-tags');
  assert.equal((await run('stack', 'init', 'dev')).code, 0);
  // No tags yet (loadStackTags without a file): an empty table, an empty map.
  const empty = await run('stack', 'tag', 'ls');
  assert.deepEqual([empty.code, empty.stdout, empty.stderr], [0, 'NAME  VALUE\n', '']);
  assert.equal((await run('stack', 'tag', 'ls', '--json')).stdout, '{}\n');
  for (const [name, value] of [
    ['owner', 'me'],
    ['env', 'prod'],
    ['cost<center>', 'a&b'],
  ]) {
    const set = await run('stack', 'tag', 'set', name, value);
    assert.deepEqual([set.code, set.stdout, set.stderr], [0, '', ''], name);
  }
  // As saveStackTags writes stackTagsFile with json.MarshalIndent: four spaces, keys sorted, HTML escaped.
  assert.equal(
    readFileSync(tagsFile, 'utf8'),
    '{\n    "version": 1,\n    "tags": {\n        "cost\\u003ccenter\\u003e": "a\\u0026b",\n        "env": "prod",\n        "owner": "me"\n    }\n}',
  );
  const get = await run('stack', 'tag', 'get', 'env');
  assert.deepEqual([get.code, get.stdout], [0, 'prod\n']);
  const ls = await run('stack', 'tag', 'ls');
  assert.equal(ls.stdout, 'NAME          VALUE\ncost<center>  a&b\nenv           prod\nowner         me\n');
  assert.equal(
    (await run('stack', 'tag', 'ls', '-j')).stdout,
    '{\n  "cost<center>": "a&b",\n  "env": "prod",\n  "owner": "me"\n}\n',
  );
  // set replaces a value; rm removes one, and a name it does not have changes nothing.
  assert.equal((await run('stack', 'tag', 'set', 'env', 'dev')).code, 0);
  assert.equal((await run('stack', 'tag', 'rm', 'owner')).code, 0);
  assert.equal((await run('stack', 'tag', 'rm', 'nope')).code, 0);
  assert.deepEqual(JSON.parse((await run('stack', 'tag', 'ls', '--json')).stdout), {
    'cost<center>': 'a&b',
    env: 'dev',
  });
  const gone = await run('stack', 'tag', 'get', 'owner');
  assert.equal(gone.code, 1);
  assert.equal(oneLineError(gone.stderr), "error: stack tag 'owner' not found for stack 'dev'");
  // The last tag removed, the file goes (saveStackTags of no tags: deleteStackTags, pulumi/pulumi#23702).
  for (const name of ['env', 'cost<center>']) assert.equal((await run('stack', 'tag', 'rm', name)).code, 0);
  assert.equal(existsSync(tagsFile), false);
  assert.equal((await run('stack', 'tag', 'ls', '--json')).stdout, '{}\n');
  assert.equal((await run('stack', 'tag', 'rm', 'nope')).code, 0);
  assert.equal(existsSync(tagsFile), false, 'rm on a stack without tags writes no file');
  assert.equal((await run('stack', 'tag', 'set', 'env', 'dev')).code, 0);
  // Tags are no stack: stack ls lists dev once.
  assert.deepEqual(
    (JSON.parse((await run('stack', 'ls', '--json')).stdout) as Array<{ name: string }>).map((s) => s.name),
    ['dev'],
  );
  for (const args of [['ls'], ['get', 'env'], ['set', 'a', 'b'], ['rm', 'a']]) {
    const missing = await run('stack', 'tag', ...args, '--stack', 'nope');
    assert.deepEqual([missing.code, oneLineError(missing.stderr)], [6, "error: no stack named 'nope' found"], args[0]);
  }
  // A file loadStackTags refuses: ls and get see no tags, as the DIY stack's Tags() gives none then
  // (stack_tag.go reads s.Tags(), which has no error; pulumi/pulumi#19882); the file is kept.
  for (const text of ['{"version": 2, "tags": {"env": "dev"}}', 'not json']) {
    writeFileSync(tagsFile, text);
    const ls = await run('stack', 'tag', 'ls');
    assert.deepEqual([ls.code, ls.stdout, ls.stderr], [0, 'NAME  VALUE\n', ''], text);
    assert.equal((await run('stack', 'tag', 'ls', '--json')).stdout, '{}\n', text);
    const get = await run('stack', 'tag', 'get', 'env');
    assert.deepEqual(
      [get.code, get.stdout, oneLineError(get.stderr)],
      [1, '', "error: stack tag 'env' not found for stack 'dev'"],
    );
    assert.equal(readFileSync(tagsFile, 'utf8'), text);
  }
  // set and rm start from those same no tags, and UpdateStackTags writes without reading the file
  // (diy/backend.go): set replaces it with the one tag, rm deletes it (saveStackTags of none).
  for (const text of ['{"version": 2, "tags": {"env": "dev"}}', 'not json']) {
    writeFileSync(tagsFile, text);
    const set = await run('stack', 'tag', 'set', 'a', 'b');
    assert.deepEqual([set.code, set.stdout, set.stderr], [0, '', ''], text);
    assert.equal(readFileSync(tagsFile, 'utf8'), '{\n    "version": 1,\n    "tags": {\n        "a": "b"\n    }\n}');
    writeFileSync(tagsFile, text);
    const rm = await run('stack', 'tag', 'rm', 'env');
    assert.deepEqual([rm.code, rm.stdout, rm.stderr], [0, '', ''], text);
    assert.equal(existsSync(tagsFile), false, text);
  }
});

// The DIY backend's getTarget loads the tags of every run's stack (pkg/backend/diy/state.go): a file it
// cannot read fails the run at its start, before the engine or the program starts.
test('a stack tags file that cannot be read fails preview, up, refresh, destroy and import at the start, writing nothing', async () => {
  const cwd = project();
  const run = async (...args: string[]) => ocikit(args, { cwd });
  assert.equal((await run('stack', 'init', 'dev')).code, 0);
  const file = join(cwd, 'dev-state.json');
  writeFileSync(file, JSON.stringify({ version: 3, deployment: { manifest: { time: '2026-01-01T00:00:00Z' } } }));
  assert.equal((await run('stack', 'import', '--file', file)).code, 0);
  const stacks = join(cwd, '.ocikit', 'stacks');
  const tagsFile = join(stacks, 'dev.pulumi-tags');
  const listing = () => JSON.stringify([readdirSync(join(cwd, '.ocikit')), readdirSync(stacks)]);
  writeFileSync(tagsFile, '{"version": 2, "tags": {}}');
  const before = listing();
  const state = readFileSync(join(stacks, 'dev.json'), 'utf8');
  for (const args of [
    ['preview'],
    ['up', '--yes'],
    ['up', '--skip-preview'],
    ['refresh', '--yes'],
    ['refresh', '--preview-only'],
    ['destroy', '--yes'],
    ['import', 'oci:Core/vcn:Vcn', 'net', 'ocid1.vcn.oc1..x', '--yes'],
  ]) {
    const r = await run(...args);
    assert.deepEqual(
      [r.code, r.stdout, r.stderr],
      [1, '', 'error: failed to load stack tags: unsupported stack tags version: 2 (expected 1)\n'],
      args.join(' '),
    );
  }
  assert.equal(listing(), before, 'no lock, no emulator, no history, no backup');
  assert.equal(readFileSync(join(stacks, 'dev.json'), 'utf8'), state);
  writeFileSync(tagsFile, 'not json');
  assert.match(
    oneLineError((await run('preview')).stderr),
    /^error: failed to load stack tags: failed to unmarshal stack tags: /,
  );
  // A file it reads, tags or none, changes nothing: the run goes on (here to the missing program).
  writeFileSync(tagsFile, '{"version": 1, "tags": null}');
  assert.doesNotMatch((await run('preview')).stderr, /stack tags/);
});

test('stack rm deletes the tags file, stack rename leaves it under the old name, as the DIY backend', async () => {
  const cwd = project();
  const run = async (...args: string[]) => ocikit(args, { cwd });
  const tagsFile = (stack: string) => join(cwd, '.ocikit', 'stacks', `${stack}.pulumi-tags`);
  assert.equal((await run('stack', 'init', 'dev')).code, 0);
  assert.equal((await run('stack', 'tag', 'set', 'env', 'dev')).code, 0);
  // removeStack's deleteStackTags: a stack made again under the name starts without tags.
  assert.equal((await run('stack', 'rm', '--yes')).code, 0);
  assert.equal(existsSync(tagsFile('dev')), false);
  assert.equal((await run('stack', 'init', 'dev')).code, 0);
  assert.equal((await run('stack', 'tag', 'ls', '--json')).stdout, '{}\n');
  // renameStack moves the state and the history, not the tags file.
  assert.equal((await run('stack', 'tag', 'set', 'env', 'dev')).code, 0);
  const file = join(cwd, 'dev-state.json');
  writeFileSync(file, JSON.stringify({ version: 3, deployment: { manifest: { time: '2026-01-01T00:00:00Z' } } }));
  assert.equal((await run('stack', 'import', '--file', file)).code, 0);
  assert.equal((await run('stack', 'rename', 'prod')).code, 0);
  assert.equal(existsSync(join(cwd, '.ocikit', 'stacks', 'prod.json')), true);
  assert.equal((await run('stack', 'tag', 'ls', '--json')).stdout, '{}\n');
  assert.equal(existsSync(tagsFile('prod')), false);
  assert.equal(existsSync(tagsFile('dev')), true);
});

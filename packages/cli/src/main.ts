#!/usr/bin/env node
import { Command, type HelpContext, InvalidArgumentError, Option } from 'commander';
import type { GlobalOptions } from './commands/options';
import { COLOR_MODES } from './display/modes';
import { goPathError, isUserError, oneLine, UserError } from './errors';
import { unknownCommandMessage } from './unknown-command';
import { constrictorArgumentErrors } from './argument-count';

/**
 * `ocikit`: commands and flags of issue 9's contract. This module loads only commander; each
 * command loads what it needs (engine, emulator, OCI SDK) when it runs, so `--help`, `config` and
 * `stack` start fast.
 */

const positiveInt = (value: string): number => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('must be a positive integer.');
  return n;
};

/** A Go int flag's value (strconv.ParseInt): any integer, negative and zero too. */
const goInt = (value: string): number => {
  const n = Number(value);
  if (!/^[+-]?\d+$/.test(value) || !Number.isSafeInteger(n)) throw new InvalidArgumentError('must be an integer.');
  return n;
};

/** A Go-style boolean flag value (`--protect=false`), as Pulumi's flags take them. */
const booleanFlag = (value: string): boolean => {
  if (/^(true|1)$/i.test(value)) return true;
  if (/^(false|0)$/i.test(value)) return false;
  throw new InvalidArgumentError('must be true or false.');
};

const { version } = require('../package.json') as { version: string };

/**
 * The flags given on the command line, the command's and its parents' (cobra's cmd.Flags() holds
 * the inherited persistent ones too), by long name, with their parsed values: what
 * GetUpdateMetadata records as `pulumi.flag.*`.
 */
function flagsSet(cmd: Command): Record<string, unknown> {
  const set: Record<string, unknown> = {};
  for (let c: Command | null = cmd; c; c = c.parent)
    for (const option of c.options)
      if (option.long && c.getOptionValueSource(option.attributeName()) === 'cli')
        set[option.long.replace(/^--/, '')] ??= c.getOptionValue(option.attributeName());
  return set;
}

type DeployCommand = 'preview' | 'up' | 'refresh' | 'destroy';

/** Why `--config-file` is refused, by the deploy commands and by `config`. */
const CONFIG_FILE_REASON =
  "the stack's config is read from Pulumi.<stack>.yaml (beside Pulumi.yaml, or in its stackConfigDir)";

/**
 * The flags of Pulumi's preview, up, refresh and destroy (pkg/cmd/pulumi/operations) that ocikit
 * does not implement: each is refused in one line with the reason, not as an unknown option.
 */
const UNSUPPORTED_FLAGS: Array<{ flag: string; commands: DeployCommand[]; reason: string }> = [
  ...['--policy-pack <path>', '--policy-pack-config <path>', '--show-policy-remediations'].map((flag) => ({
    flag,
    commands: ['preview', 'up'] as DeployCommand[],
    reason: "policy packs run in Pulumi's analyzer plugins (CrossGuard), which ocikit does not host",
  })),
  { flag: '--config-file <path>', commands: ['preview', 'up', 'refresh', 'destroy'], reason: CONFIG_FILE_REASON },
  {
    // Not refresh's: Pulumi's refresh has no --show-config.
    flag: '--show-config',
    commands: ['preview', 'up', 'destroy'],
    reason: "the display does not list the config: run 'ocikit config'",
  },
  {
    flag: '--secrets-provider <provider>',
    commands: ['up'],
    reason: 'only the passphrase secrets provider is implemented, and up creates no stack from a template',
  },
  {
    flag: '--attach-debugger',
    commands: ['preview', 'up'],
    reason: 'the program is not started for a debugger to attach to',
  },
  { flag: '--plan <path>', commands: ['up'], reason: 'update plans (experimental in Pulumi) are not implemented' },
  {
    flag: '--save-plan <path>',
    commands: ['preview'],
    reason: 'update plans (experimental in Pulumi) are not implemented',
  },
  {
    flag: '--import-file <path>',
    commands: ['preview'],
    reason: "import files are not written: adopt each resource with 'ocikit import'",
  },
  {
    flag: '--run-program [bool]',
    commands: ['refresh', 'destroy'],
    reason: 'refresh and destroy work from the state and do not run the program',
  },
  {
    flag: '--remote',
    commands: ['preview', 'up', 'refresh', 'destroy'],
    reason: 'remote operations run on Pulumi Deployments (Pulumi Cloud)',
  },
];

export function buildProgram(): Command {
  const program = new Command()
    .name('ocikit')
    .version(version)
    .description('Run Pulumi TypeScript programs locally; the embedded OCI emulator is the default cloud.')
    .option('-C, --cwd <dir>', "the program's folder (holds Pulumi.yaml)")
    .option('-s, --stack <name>', 'the stack to operate on (default: the one `stack select` chose, else dev)')
    .option('-p, --parallel <n>', 'how many resource operations run at once (default: as Pulumi)', positiveInt)
    .option('-j, --json', 'print machine-readable output: engine events, one JSON object a line')
    .option('--non-interactive', 'never prompt; also implied when stdin is not a terminal')
    // An error is one line: commander's "(Did you mean …?)" goes on the line of the mistake it
    // answers (an unknown command or option), not on a line of its own.
    .configureOutput({ outputError: (text, write) => write(text.replace(/\n(\(Did you mean [^\n]*\))\n$/, ' $1\n')) })
    .addOption(
      new Option('--color <mode>', 'colorize output, as Pulumi: auto is on a terminal unless NO_COLOR')
        .choices(COLOR_MODES)
        .default('auto'),
    );

  // As Pulumi's root command (PersistentPreRun: os.Chdir), --cwd runs ocikit "as if it had been
  // started in another directory": relative paths (--file, --out) are read from there too.
  program.hook('preAction', () => {
    const cwd = program.opts<GlobalOptions>().cwd;
    if (cwd === undefined) return;
    try {
      process.chdir(cwd);
    } catch (e) {
      // Go's words for os.Chdir's error, as Pulumi prints them.
      throw new UserError(goPathError(e, cwd, 'chdir'));
    }
    // (keeping its source: the flag was given, for the history's pulumi.flag.cwd)
    program.setOptionValueWithSource('cwd', process.cwd(), 'cli');
  });

  const globals = (cmd: Command) => cmd.optsWithGlobals() as GlobalOptions & Record<string, unknown>;
  const deploy = (kind: 'preview' | 'up' | 'refresh' | 'destroy') => async (_: unknown, cmd: Command) => {
    const { runDeploy } = await import('./commands/deploy');
    await runDeploy(kind, { ...globals(cmd), flagsSet: flagsSet(cmd) });
  };

  const expectNoChanges = '--expect-no-changes';
  const expectNoChangesHelp = 'fail (exit 7) if any change is proposed or made, as Pulumi does';
  const replace = '--replace <urn>';
  const replaceHelp = 'replace this resource even if nothing changed (repeatable; wildcards * and ** as Pulumi)';
  const refresh = '-r, --refresh [bool]';
  const refreshHelp =
    "read every resource from the cloud first, so the plan starts from what is there (--refresh=false: not, even with Pulumi.yaml's options.refresh: always)";
  const collect = (value: string, previous: string[] = []) => [...previous, value];
  const targetReplace = '--target-replace <urn>';
  const targetReplaceHelp = 'replace this resource and update no other (short for --target <urn> --replace <urn>)';
  // The four deploy commands take Pulumi's flags (pkg/cmd/pulumi/operations): --yes and
  // --skip-preview but on preview (as in Pulumi, the others preview first and ask; --yes approves
  // the preview), --replace, --target-replace, --refresh and --show-reads on preview and up, and
  // the targeting flags on all (-x for --exclude on all but up, as Pulumi).
  const deployCommand = (kind: 'preview' | 'up' | 'refresh' | 'destroy', description: string) => {
    const update = kind === 'preview' || kind === 'up';
    const verb = update ? 'update' : kind;
    const cmd = program.command(kind).description(description);
    if (kind !== 'preview')
      cmd
        .option('-y, --yes', 'do not ask for confirmation (the preview still runs first)')
        .option('-f, --skip-preview', 'do not preview first (and do not ask)');
    if (kind === 'refresh' || kind === 'destroy')
      cmd.option('--preview-only', `only show the preview of the ${kind}; do not perform it`);
    cmd.option(expectNoChanges, expectNoChangesHelp);
    cmd
      .option('-d, --debug', "also show debug diagnostics (the provider plugin's log)")
      // Accepted, as what they turn off ocikit never does.
      .option('--suppress-progress', 'accepted: ocikit prints no progress dots')
      .option('--suppress-permalink [value]', 'accepted: ocikit has no update permalinks (its state is local)');
    // up's and destroy's (Pulumi's destroy.go has it too).
    if (kind === 'up' || kind === 'destroy')
      cmd.option('--show-full-output [bool]', 'accepted: ocikit never truncates the outputs', booleanFlag);
    // Pulumi's display and bookkeeping flags (pkg/cmd/pulumi/operations), so its command lines run.
    cmd
      .option(
        '--diff',
        "show each change property by property (what ocikit always shows); a replacement's create and delete rows only with --show-replacement-steps",
      )
      .option('--show-sames', 'also show the resources that do not change')
      .option(
        '--show-replacement-steps',
        "with --diff, show a replacement's create and delete (++, --) as steps of their own (they always show without --diff)",
      )
      .option('--suppress-outputs', "do not print the stack's outputs")
      .option('--show-secrets', 'show secret values in plain text in the plan, the progress and the outputs')
      .option('-m, --message <text>', "the update's message, in the stack's history (ocikit stack history)");
    // All four, as Pulumi's (preview.go, up.go, refresh.go, destroy.go: parseAndSaveConfigArray).
    cmd
      .option(
        '-c, --config <key=value>',
        'set this config value in Pulumi.<stack>.yaml before the run (repeatable), as Pulumi does',
        collect,
      )
      .option('--config-path', 'the --config keys are paths into object values (a.b[0].c), as config set --path');
    if (update)
      cmd
        // Pulumi's flag only changes its progress view; its diff view, ocikit's, shows reads anyway.
        .option('--show-reads', 'show the resources the program reads (accepted: ocikit always shows them)')
        .option(replace, replaceHelp, collect)
        .option(targetReplace, targetReplaceHelp, collect);
    if (kind !== 'refresh') cmd.option(refresh, refreshHelp, booleanFlag);
    cmd
      .option('-t, --target <urn>', `${verb} only this resource (repeatable; wildcards * and ** as Pulumi)`, collect)
      .option(
        '--target-dependents',
        'also operate on the resources that depend on a --target (else a needed one is refused, as Pulumi)',
      )
      .option(
        `${kind === 'up' ? '' : '-x, '}--exclude <urn>`,
        `do not ${verb} this resource (repeatable; wildcards as --target)`,
        collect,
      )
      .option('--exclude-dependents', 'also leave out the resources that depend on an --exclude');
    // refresh.go's flags for the creates an interrupted run left pending (there is no
    // interactive choice here: as Pulumi off a terminal, refresh skips them unless told).
    if (kind === 'refresh')
      cmd
        .option('--clear-pending-creates', 'clear all pending creates, dropping them from the state')
        .option('--skip-pending-creates', 'skip the pending creates (what refresh does anyway)')
        .option(
          '--import-pending-creates <urn-or-id...>',
          'the ids of pending creates, as [[URN ID]...] (repeatable): each is read into the state under its URN',
        );
    if (kind === 'up' || kind === 'destroy')
      cmd.option(
        '--continue-on-error [bool]',
        'go on past a failed step (what depends on it is skipped); the run still fails (default: PULUMI_CONTINUE_ON_ERROR)',
        booleanFlag,
      );
    if (kind === 'destroy')
      cmd
        .option(
          '--exclude-protected',
          'do not destroy the protected resources (nor what they depend on); destroy all the others',
        )
        .option('--remove', 'remove the stack and its config file once all its resources are deleted');
    refuseFlags(
      cmd,
      UNSUPPORTED_FLAGS.filter((u) => u.commands.includes(kind)),
    );
    cmd.action(deploy(kind));
  };
  deployCommand('preview', 'show the changes an update would make');
  deployCommand('up', 'create or update the resources of the program');
  deployCommand(
    'refresh',
    'read every resource from the cloud and record drift in the state (writes nothing to the cloud)',
  );
  deployCommand('destroy', 'delete every resource of the stack');
  program
    .command('import')
    .description('adopt existing cloud resources into the stack: one on the command line, or a --file of them')
    .argument('[type]', 'type token, e.g. oci:DisasterRecovery/drPlan:DrPlan')
    .argument('[name]', 'resource name in the program')
    .argument('[id]', 'the OCID of the resource')
    .option('-f, --file <path>', 'a JSON file of resources to import, as `pulumi import --file`')
    .option('-o, --out <path>', 'write the generated code to this file instead of printing it')
    .option(
      '--generate-code [bool]',
      'generate the code that declares what was imported (--generate-code=false: not)',
      booleanFlag,
      true,
    )
    .option('-y, --yes', 'accepted for Pulumi compatibility: an import writes nothing to the cloud and never asks')
    .option('--skip-preview', 'accepted for Pulumi compatibility: an import does not preview first')
    .option('--preview-only', 'only show a preview of the import: adopt nothing, generate no code')
    .option('-m, --message <text>', "the import's message, in the stack's history (ocikit stack history)")
    .option(
      '--protect [bool]',
      'mark the imported resources protected, as `pulumi import` does by default (--protect=false: not)',
      booleanFlag,
      true,
    )
    .option(
      '--provider <name=urn>',
      "import with this provider of the stack (e.g. one in the DR plan's region), as `pulumi import --provider`",
    )
    .option('--parent <name=urn>', 'import it as a child of this resource of the stack, as `pulumi import --parent`')
    .option(
      '--properties <names>',
      'keep only these inputs (comma-separated), as `pulumi import --properties`',
      (v: string, prev: string[] = []) => [...prev, ...v.split(',')],
    )
    .action(
      async (type: string | undefined, name: string | undefined, id: string | undefined, _: unknown, cmd: Command) => {
        const { runDeploy } = await import('./commands/deploy');
        const { commandContext } = await import('./commands/context');
        const { parseImportFile, readImportFile } = await import('./commands/import-file');
        const opts = cmd.opts() as {
          protect: boolean;
          file?: string;
          out?: string;
          generateCode: boolean;
          provider?: string;
          parent?: string;
          properties?: string[];
          previewOnly?: boolean;
        };
        // import.go's rules: a file, or a whole inline resource, not both.
        const inline = [type, name, id].filter((a) => a !== undefined).length;
        if (opts.file !== undefined && (inline > 0 || opts.parent || opts.provider || opts.properties))
          throw new UserError('an inline resource may not be specified in conjunction with an import file');
        if (opts.file === undefined && inline < 3)
          throw new UserError(
            `an inline resource must be specified if no converter or import file is used, missing ${['type, name, and id', 'name and id', 'id'][inline]}`,
          );
        if (!opts.generateCode && opts.out)
          process.stderr.write('Output file will not be used as --generate-code is false.\n');
        const provider = nameAndUrn('--provider', opts.provider);
        const parent = nameAndUrn('--parent', opts.parent);
        if (provider && parent && provider.variable === parent.variable)
          throw new UserError(`provider and parent must have distinct names, both were '${provider.variable}'`);
        const { project, stack } = commandContext(globals(cmd));
        // The command line's resource is a file of one, as import.go's makeImportFile makes it.
        const file = opts.file
          ? readImportFile(opts.file)
          : {
              nameTable: {
                ...(parent ? { [parent.variable]: parent.urn } : {}),
                ...(provider ? { [provider.variable]: provider.urn } : {}),
              },
              resources: [
                {
                  type,
                  name,
                  id,
                  properties: opts.properties,
                  ...(parent ? { parent: parent.variable } : {}),
                  ...(provider ? { provider: provider.variable } : {}),
                },
              ],
            };
        await runDeploy('import', {
          ...globals(cmd),
          flagsSet: flagsSet(cmd),
          imports: parseImportFile(file, { stack, project: project.name, protect: opts.protect }),
          out: opts.generateCode ? opts.out : undefined,
          generateCode: opts.generateCode,
          previewOnly: opts.previewOnly,
        });
      },
    );

  const stack = program
    .command('stack')
    .description('show a stack (its resources and outputs); inspect, import, export and remove stacks')
    .option('-u, --show-urns', "show each resource's URN")
    .option('-i, --show-ids', "show each resource's id")
    .option('--show-secrets', 'print secret outputs in plain text')
    .option('--show-name', "print only the stack's name")
    .action(async (_: unknown, cmd: Command) => {
      const { stackShow } = await import('./commands/stack');
      stackShow(globals(cmd));
    });
  stack
    .command('output')
    .description("print the stack's outputs (secrets as [secret] unless --show-secrets)")
    .argument('[name]', 'one output')
    .option('-j, --json', 'print JSON')
    .option('--shell', 'print name=value lines for a POSIX shell')
    .option('--show-secrets', 'print secret values in plain text')
    .action(async (name: string | undefined, _: unknown, cmd: Command) => {
      const { stackOutput } = await import('./commands/stack');
      stackOutput(globals(cmd), name);
    });
  stack
    .command('export')
    .description("print the stack's state as a Pulumi checkpoint (what `pulumi stack import` reads)")
    .option('--file <path>', 'write it to this file instead of standard output')
    .option('--show-secrets', 'write secrets in plain text, as `pulumi stack export --show-secrets`')
    // `--version <n>` (see exportVersionArgs): which a DIY backend cannot export.
    .addOption(new Option(`${EXPORT_VERSION} <version>`).hideHelp())
    .action(async (_: unknown, cmd: Command) => {
      const { stackExport } = await import('./commands/stack');
      stackExport(globals(cmd));
    });
  // stack_history.go's flags; a DIY backend keeps the history (pkg/backend/diy getHistory).
  stack
    .command('history')
    .alias('hist')
    .description("print the stack's updates, newest first, as `pulumi stack history`")
    .option('-j, --json', 'print JSON')
    .option('--show-secrets', "show the config's secret values (with --json)")
    .option('--page-size <n>', 'how many updates a page holds (0 or less: all of them)', goInt, 10)
    .option('--page <n>', 'the page of updates to print, with --page-size', goInt, 1)
    .option('--full-dates', 'print full dates, not how long ago')
    .action(async (_: unknown, cmd: Command) => {
      const { stackHistory } = await import('./commands/history');
      stackHistory(globals(cmd) as unknown as Parameters<typeof stackHistory>[0]);
    });
  // stack_ls.go's filters as its DIY backend honours them (ListStacks): the project's and the tag's.
  stack
    .command('ls')
    .description("list the program's stacks")
    .option('-a, --all', "list all stacks (this program's: its state is all ocikit sees)")
    .option('--project <name>', "only this project's stacks (none unless it is this program's)")
    .option('-o, --organization <org>', 'accepted: a DIY backend keeps no organizations')
    .option('-t, --tag <name[=value]>', 'only the stacks with this tag (and value)')
    .action(async (_: unknown, cmd: Command) => {
      const { stackList } = await import('./commands/stack');
      stackList(globals(cmd));
    });

  stack
    .command('import')
    .description("replace the stack's state with a deployment read from stdin (what `stack export` prints)")
    .option('--file <path>', 'read the deployment from this file (a `stack export` or a state backup)')
    .option('-f, --force', 'import even if the deployment is from another stack or has integrity errors')
    .action(async (_: unknown, cmd: Command) => {
      const { stackImport } = await import('./commands/stack');
      await stackImport(globals(cmd) as Parameters<typeof stackImport>[0]);
    });
  stack
    .command('init')
    .description('create a stack (its Pulumi.<stack>.yaml) and select it, as `pulumi stack init`')
    .argument('[stack]', 'the stack to create (or --stack)')
    .option('--copy-config-from <stack>', "start with this stack's config")
    .option('--no-select', 'do not select the new stack')
    .option('--secrets-provider <provider>', 'accepted: passphrase (the default) is the only one')
    .option('--teams <team>', 'refused: ocikit has no teams', collect)
    .action(async (name: string | undefined, _: unknown, cmd: Command) => {
      const { stackInit } = await import('./commands/stack');
      stackInit(globals(cmd), name);
    });
  stack
    .command('select')
    .description('select the stack later commands use without --stack, as `pulumi stack select`')
    .argument('[stack]', 'the stack to select (or --stack)')
    .option('-c, --create', 'create it if it does not exist')
    .option('--secrets-provider <provider>', 'with --create: passphrase (the default) is the only one')
    .action(async (name: string | undefined, _: unknown, cmd: Command) => {
      const { stackSelect } = await import('./commands/stack');
      stackSelect(globals(cmd), name);
    });
  stack
    .command('rename')
    .description('rename the stack: its state (every URN) and its Pulumi.<stack>.yaml, as `pulumi stack rename`')
    .argument('<new-stack-name>', 'the new name')
    .action(async (newName: string, _: unknown, cmd: Command) => {
      const { stackRename } = await import('./commands/stack');
      stackRename(globals(cmd), newName);
    });
  // stack_graph.go's flags, and its defaults.
  stack
    .command('graph')
    .description("write the stack's dependency graph to a file in DOT (Graphviz), as `pulumi stack graph`")
    .argument('<filename>', 'the file to write')
    .option('--ignore-parent-edges', 'leave out the edges from each resource to its parent')
    .option('--ignore-dependency-edges', 'leave out the edges from each resource to those that depend on it')
    .option('--dependency-edge-color <color>', 'the color of dependency edges', '#246C60')
    .option('--parent-edge-color <color>', 'the color of parent edges', '#AA6639')
    .option('--short-node-name', "label each node with the resource's name instead of its URN")
    .option('--dot-fragment <dot>', 'DOT inserted at the top of the digraph (styles, graph attributes)')
    .action(async (file: string, _: unknown, cmd: Command) => {
      const { stackGraph } = await import('./commands/stack-graph');
      stackGraph(globals(cmd) as Parameters<typeof stackGraph>[0], file);
    });
  // stack_tag.go's commands, with the tags the DIY backend keeps (pkg/backend/diy/stack_tags.go).
  const tag = helpWhenAlone(
    stack
      .command('tag')
      .description("manage the stack's tags, as `pulumi stack tag` (kept in .ocikit/stacks/<stack>.pulumi-tags)"),
  );
  tag
    .command('get')
    .description('print the value of a stack tag')
    .argument('<name>', 'the tag')
    .action(async (name: string, _: unknown, cmd: Command) => {
      const { stackTagGet } = await import('./commands/stack');
      stackTagGet(globals(cmd), name);
    });
  tag
    .command('ls')
    .description("list the stack's tags")
    .option('-j, --json', 'print JSON')
    .action(async (_: unknown, cmd: Command) => {
      const { stackTagList } = await import('./commands/stack');
      stackTagList(globals(cmd));
    });
  tag
    .command('rm')
    .description('remove a stack tag')
    .argument('<name>', 'the tag')
    .action(async (name: string, _: unknown, cmd: Command) => {
      const { stackTagUpdate } = await import('./commands/stack');
      stackTagUpdate(globals(cmd), name);
    });
  tag
    .command('set')
    .description('set a stack tag')
    .argument('<name>', 'the tag')
    .argument('<value>', 'its value')
    .action(async (name: string, value: string, _: unknown, cmd: Command) => {
      const { stackTagUpdate } = await import('./commands/stack');
      stackTagUpdate(globals(cmd), name, value);
    });
  stack
    .command('unselect')
    .description('clear the selected stack (later commands use dev), as `pulumi stack unselect`')
    .action(async (_: unknown, cmd: Command) => {
      const { stackUnselect } = await import('./commands/stack');
      stackUnselect(globals(cmd));
    });
  stack
    .command('rm')
    .description('remove a stack, its state and its Pulumi.<stack>.yaml (not its resources)')
    .argument('[stack]', 'the stack to remove (default: --stack)')
    .option('-f, --force', 'remove it even if it still has resources (they stay in the cloud)')
    .option('-y, --yes', 'do not ask for confirmation')
    .option('--preserve-config', 'keep Pulumi.<stack>.yaml')
    .option('--remove-backups', "also delete the stack's state backup")
    .action(async (name: string | undefined, _: unknown, cmd: Command) => {
      const options = globals(cmd);
      if (name !== undefined && cmd.getOptionValueSourceWithGlobals('stack') === 'cli')
        throw new UserError('only one of --stack or argument stack name may be specified, not both');
      const { stackRemove } = await import('./commands/stack');
      await stackRemove({ ...(options as Parameters<typeof stackRemove>[0]), stack: name ?? options.stack });
    });

  const state = helpWhenAlone(
    program.command('state').description("edit the stack's state without touching the cloud (as pulumi state)"),
  );
  state
    .command('delete')
    .description("delete a resource from the stack's state (the cloud resource stays)")
    .argument('[urn]', "the resource's URN (ocikit stack export lists them)")
    .option('--force', 'delete it even if it is protected')
    .option('--target-dependents', 'also delete the resources that depend on it')
    .option('--all', 'delete every resource of the state')
    .option('-y, --yes', 'do not ask for confirmation')
    .action(async (urn: string | undefined, _: unknown, cmd: Command) => {
      const { stateDelete } = await import('./commands/state');
      await stateDelete(globals(cmd), urn);
    });
  state
    .command('rename')
    .description("rename a resource in the stack's state (references to it follow; the cloud resource stays)")
    .argument('<urn>', "the resource's URN (ocikit stack --show-urns lists them)")
    .argument('<new-name>', 'its new name')
    .option('-y, --yes', 'do not ask for confirmation')
    .action(async (urn: string, newName: string, _: unknown, cmd: Command) => {
      const { stateRename } = await import('./commands/state');
      await stateRename(globals(cmd), urn, newName);
    });
  for (const protect of [true, false])
    state
      .command(protect ? 'protect' : 'unprotect')
      .description(
        protect
          ? 'mark a resource protected: up and destroy refuse to delete it'
          : 'remove the protection of a resource, so it can be deleted',
      )
      .argument(
        protect ? '[urn]' : '[urn...]',
        protect
          ? "the resource's URN (ocikit stack export lists them)"
          : 'the resources’ URNs (ocikit stack export lists them)',
      )
      .option('--all', `${protect ? 'protect' : 'unprotect'} every resource of the stack`)
      .option('-y, --yes', 'do not ask for confirmation')
      .action(async (urns: string | string[] | undefined, _: unknown, cmd: Command) => {
        const { stateProtect } = await import('./commands/state');
        await stateProtect(globals(cmd), urns === undefined ? [] : [urns].flat(), protect);
      });

  for (const taint of [true, false]) {
    const command = state
      .command(taint ? 'taint' : 'untaint')
      .description(
        taint
          ? 'mark resources tainted: the next up replaces them'
          : 'clear the taint of resources, so the next up does not replace them',
      )
      .argument('[urn...]', 'the resources’ URNs (ocikit stack --show-urns lists them)');
    // As Pulumi's: untaint has --all, taint does not.
    if (!taint) command.option('--all', 'untaint every resource of the stack');
    command
      .option('-y, --yes', 'do not ask for confirmation')
      .action(async (urns: string[], _: unknown, cmd: Command) => {
        const { stateTaint } = await import('./commands/state');
        await stateTaint(globals(cmd), urns, taint);
      });
  }

  // Pulumi's other stack and state subcommands (pkg/cmd/pulumi/stack, pkg/cmd/pulumi/state): named,
  // so that a command line written for Pulumi fails with the reason rather than commander's
  // "too many arguments" (README, Known differences).
  const unsupported = (parent: Command, name: string, why: string) =>
    parent
      .command(name)
      .description(`not supported by ocikit: ${why}`)
      .helpOption(false)
      .allowUnknownOption()
      .allowExcessArguments()
      .action(() => {
        throw new UserError(`\`${parent.name()} ${name}\` is not supported by ocikit: ${why}`);
      });
  for (const [name, why] of UNSUPPORTED_STACK) unsupported(stack, name, why);
  for (const [name, why] of UNSUPPORTED_STATE) unsupported(state, name, why);
  unknownSubcommand(stack);

  const config = program
    .command('config')
    .description('list the stack config, or change it in Pulumi.<stack>.yaml')
    .option('--show-secrets', 'print secret values in plain text')
    .option('-j, --json', 'print JSON')
    .action(async (_: unknown, cmd: Command) => {
      const { configList } = await import('./commands/config');
      configList(globals(cmd));
    });
  // Pulumi's config flags that ocikit does not have (README, Known differences).
  refuseFlags(config, [
    { flag: '--config-file <path>', reason: CONFIG_FILE_REASON },
    { flag: '--open [bool]', reason: 'ocikit has no ESC environments to open' },
  ]);
  for (const [name, why] of UNSUPPORTED_CONFIG_COMMANDS) unsupported(config, name, why);
  config
    .command('refresh')
    .description("set the stack's config to its last update's (kept in its history), as `pulumi config refresh`")
    .option('-f, --force', 'overwrite the config file without keeping a backup')
    .action(async (_: unknown, cmd: Command) => {
      const { configRefresh } = await import('./commands/config');
      configRefresh(globals(cmd));
    });
  const configSetCommand = config
    .command('set')
    .description('set a config value (read from stdin when omitted)')
    .argument('<key>', '<name> (this project), <project>:<name> or oci:<name>')
    .argument('[value]')
    .option('--secret', 'encrypt the value with the stack passphrase')
    .option('--plaintext', 'store the value in plain text (the default), as Pulumi takes it')
    .option('--path', 'the key is a path into an object value: a.b[0].c')
    .action(async (key: string, value: string | undefined, _: unknown, cmd: Command) => {
      if (cmd.opts().secret && cmd.opts().plaintext)
        throw new UserError('only one of --secret and --plaintext may be set');
      const { configSet } = await import('./commands/config');
      await configSet(globals(cmd), key, value);
    });
  refuseFlags(configSetCommand, [
    { flag: '--type <type>', reason: 'values are stored as text, or, with --path, typed as Pulumi types them' },
  ]);
  config
    .command('set-all')
    .description('set several config values at once: --plaintext key=value and --secret key=value, each repeatable')
    .option('--plaintext <key=value>', 'a value stored in plain text (repeatable)', collect)
    .option('--secret <key=value>', 'a value encrypted with the stack passphrase (repeatable)', collect)
    .option('--path', 'the keys are paths into object values: a.b[0].c')
    .action(async (_: unknown, cmd: Command) => {
      const { configSetAll } = await import('./commands/config');
      const opts = cmd.opts() as { plaintext?: string[]; secret?: string[] };
      configSetAll(globals(cmd), opts.plaintext ?? [], opts.secret ?? []);
    });
  config
    .command('get')
    .description('print a config value (secrets decrypted)')
    .argument('<key>')
    .option('--path', 'the key is a path into an object value: a.b[0].c')
    .option('-j, --json', 'print JSON')
    .action(async (key: string, _: unknown, cmd: Command) => {
      const { configGet } = await import('./commands/config');
      configGet(globals(cmd), key);
    });
  config
    .command('rm')
    .description('remove a config value')
    .argument('<key>')
    .option('--path', 'the key is a path into an object value: a.b[0].c')
    .action(async (key: string, _: unknown, cmd: Command) => {
      const { configRm } = await import('./commands/config');
      configRm(globals(cmd), key);
    });
  config
    .command('cp')
    .description("copy a config value (or, without a key, all of this stack's) to another stack")
    .argument('[key]')
    .requiredOption('-d, --dest <stack>', 'the stack to copy the config to')
    .option('--path', 'the key is a path into an object value: a.b[0].c')
    .action(async (key: string | undefined, _: unknown, cmd: Command) => {
      const { configCopy } = await import('./commands/config');
      configCopy(globals(cmd), key);
    });
  config
    .command('rm-all')
    .description('remove several config values')
    .argument('<keys...>')
    .option('--path', 'the keys are paths into object values: a.b[0].c')
    .action(async (keys: string[], _: unknown, cmd: Command) => {
      const { configRmAll } = await import('./commands/config');
      configRmAll(globals(cmd), keys);
    });
  unknownSubcommand(config);

  program
    .command('emulator')
    .description(
      'start the OCI emulator in the foreground, as ocikit-emulator does (same flags: ocikit emulator --help)',
    )
    .helpOption(false)
    .allowUnknownOption()
    .allowExcessArguments()
    .addOption(new Option('--help').hideHelp())
    .action(async (_: unknown, cmd: Command) => {
      const { runEmulator } = await import('./commands/emulator');
      runEmulator(emulatorArgs(process.argv.slice(2)));
      void cmd;
    });
  // pkg/cmd/pulumi/version/version.go: the version alone on stdout, no arguments; the same as
  // `--version`, so scripts may use either.
  program
    .command('version')
    .description("print ocikit's version number")
    .action(() => {
      process.stdout.write(`${version}\n`);
    });
  helpWhenAlone(program);
  constrictorArgumentErrors(program);
  return program;
}

const UNSUPPORTED_STACK: Array<[string, string]> = [
  ['change-secrets-provider', 'it reads and writes secrets with the passphrase provider only'],
];
const UNSUPPORTED_STATE: Array<[string, string]> = [
  ['edit', 'edit `ocikit stack export` output and `ocikit stack import` it'],
  ['get', "`ocikit stack export` prints each resource's state (URN, ID, inputs and outputs)"],
  ['move', 'there is no backend to move resources between stacks through'],
  ['promote', 'it has no `do` command, so no stateful snippets to promote'],
  ['repair', 'a state is checked whole when written and when imported (`stack import` names what is wrong)'],
  ['upgrade', 'its state is always a current checkpoint (version 3, or 4 with the features it needs)'],
];

/** The option `stack export --version` is parsed as (see exportVersionArgs). */
const EXPORT_VERSION = '--previous-version';

/**
 * `stack export --version <n>` asks for an earlier deployment; commander would take `--version`
 * as the root's (and print ocikit's version), so it is renamed before commander sees it.
 */
function exportVersionArgs(argv: string[]): string[] {
  const at = argv.findIndex((a, i) => i >= 2 && a === 'stack' && argv[i + 1] === 'export');
  if (at < 0) return argv;
  return argv.map((a, i) =>
    i > at + 1 && (a === '--version' || a.startsWith('--version=')) ? EXPORT_VERSION + a.slice('--version'.length) : a,
  );
}

/** Pulumi's `config` subcommands that ocikit does not have, and why. */
const UNSUPPORTED_CONFIG_COMMANDS: Array<[string, string]> = [
  ['env', 'ESC environments need Pulumi Cloud (move their values into config:)'],
  ['edit', 'edit Pulumi.<stack>.yaml itself, or use config set, set-all and rm'],
];

/**
 * Pulumi flags that `cmd` does not have: hidden options that, when given, fail in one line with
 * the reason (README, Known differences) rather than commander's bare "unknown option". Checked
 * before any action of `cmd` or of its subcommands (a parent's flag may come before them).
 */
function refuseFlags(cmd: Command, flags: Array<{ flag: string; reason: string }>): void {
  const options = flags.map(({ flag, reason }) => ({ option: new Option(flag).hideHelp(), reason }));
  for (const { option } of options) cmd.addOption(option);
  cmd.hook('preAction', () => {
    for (const { option, reason } of options)
      if (cmd.getOptionValue(option.attributeName()) !== undefined)
        throw new UserError(`${option.long} is not supported by ocikit: ${reason}`);
  });
}

/**
 * `stack` and `config` run on their own too, so a mistyped subcommand would reach their action as
 * an argument (commander's "too many arguments for 'stack'"). As the newest Pulumi's, it is an
 * unknown command: rattler.Install (pkg/cmd/pulumi/rattler/rattler.go) gives a runnable command
 * with subcommands an Args check that blames the first argument past its constrictor spec (both
 * take none: constrictor.NoArgs), with unknownCommandError's words and suggestions, no help
 * first. Call after the subcommands are added (they would inherit allowExcessArguments).
 */
function unknownSubcommand(cmd: Command): void {
  cmd.allowExcessArguments().hook('preAction', (_, actionCommand) => {
    if (actionCommand === cmd && cmd.args.length > 0) failUnknownCommand(cmd, cmd.args);
  });
}

/**
 * `ocikit`, `state` and `stack tag` do nothing themselves: given no subcommand, they print their
 * help on stdout and exit 1, as Pulumi's group commands (the root in pkg/cmd/pulumi/pulumi.go
 * NewPulumiCmd, state/state.go NewStateCmd, stack_tag.go newStackTagCmd: no Run) since
 * rattler.Install (pkg/cmd/pulumi/rattler) gives each a RunE that calls cmd.Help() (Pulumi's help
 * func writes to stdout) and returns a bail error (rattler_test.go TestRootIsAStandardGroupCommand).
 * commander would print the help on stderr; `ocikit help state` still succeeds. A word that names
 * none of their subcommands fails as rattler's Args check fails it, where commander said
 * `unknown command 'x' (Did you mean y?)`.
 */
function helpWhenAlone(cmd: Command): Command {
  (cmd as unknown as { unknownCommand(): void }).unknownCommand = () => failUnknownCommand(cmd, cmd.args);
  const help = cmd.help.bind(cmd);
  cmd.help = ((context?: HelpContext) => {
    if (!context?.error) return help(context);
    process.exitCode = 1;
    return help({ error: false });
  }) as Command['help'];
  return cmd;
}

/** unknownCommandError (unknown-command.ts) as ocikit's one-line error, exit 1. */
function failUnknownCommand(cmd: Command, args: string[]): never {
  cmd.error(`error: ${unknownCommandMessage(cmd, args)}`, { code: 'commander.unknownCommand' });
}

/** Everything after the word `emulator` goes to ocikit-emulator's own flag parser untouched. */
function emulatorArgs(argv: string[]): string[] {
  const at = argv.indexOf('emulator');
  return at < 0 ? [] : argv.slice(at + 1);
}

export async function main(argv = process.argv): Promise<void> {
  // A reader that goes away (`ocikit stack export | head`) is no error of ours: what is left to
  // print is dropped and the command finishes its work (an update still records its state and
  // releases its lock), where Node would otherwise crash with EPIPE and a stack trace.
  for (const stream of [process.stdout, process.stderr]) stream.on('error', () => undefined);
  const program = buildProgram();
  program.exitOverride();
  try {
    await program.parseAsync(exportVersionArgs(argv));
  } catch (error) {
    const code = (error as { code?: string; exitCode?: number }).code;
    if (typeof code === 'string' && code.startsWith('commander.')) {
      // commander has already printed its one-line reason (or the help / version).
      process.exitCode = (error as { exitCode?: number }).exitCode ?? 1;
      return;
    }
    fail(error);
  }
}

export function fail(error: unknown): void {
  process.stderr.write(`error: ${oneLine(error)}\n`);
  if (!isUserError(error) && process.env.OCIKIT_DEBUG) process.stderr.write(`${(error as Error).stack ?? ''}\n`);
  process.exitCode = process.exitCode || (error instanceof UserError ? error.exitCode : 1);
}

if (require.main === module) void main();

/**
 * `--provider` and `--parent` of `import`, in Pulumi's form name=urn (the name is the variable in
 * the code printed after); a bare URN is taken too, named `provider` or `parent` as Pulumi's
 * makeImportFile names it (pkg/cmd/pulumi/operations/import.go).
 */
function nameAndUrn(flag: string, given: string | undefined): { variable: string; urn: string } | undefined {
  if (!given) return undefined;
  if (given.startsWith('urn:')) return { variable: flag.slice(2), urn: given };
  const eq = given.indexOf('=');
  if (eq <= 0 || !given.slice(eq + 1).startsWith('urn:'))
    throw new UserError(
      flag === '--parent' ? `invalid parent URN: '${given}'` : `could not parse ${flag} '${given}': expected name=urn`,
    );
  return { variable: given.slice(0, eq), urn: given.slice(eq + 1) };
}

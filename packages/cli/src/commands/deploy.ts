import { configuredCloud, startEmbeddedCloud, type EmbeddedCloud } from '../embedded';
import { Display, type DisplayMode } from '../display/display';
import { ExitCode, UserError } from '../errors';
import type { Operation, UpdateInfo } from '../engine';
import type { GlobalOptions } from './options';
import { loadStackConfig } from '../project/config';
import { checkEntryPoint, findUp, type Project } from '../project/project';
import { checkRuntimeOptions } from '../project/runtime-options';
import { ConfigKeyError, StackConfigFile } from '../project/stack-config';
import { ProjectError } from '../project/project-error';
import { setPlainAtPath } from './config';
import { envFlag } from '../env';
import { canPrompt, commandContext, requireExistingStack, skipConfirmations } from './context';
import { ask } from './prompt';
import { plannedSteps } from './planned-steps';
import { importCode, importNotice } from '../display/import-code';
import type { PlannedImport } from './import-file';
// Not through '../engine': the first program starts before the engine (gRPC, state) is loaded.
import { PrestartedProgram, programLocation } from '../engine/program';
import type { FileStackState } from '../engine/state';
import { trace } from '../engine/trace';
import { checkStackTags } from '../engine/stack-tags';
import { gatherUpdateMetadata } from '../engine/update-metadata';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';

export type DeployKind = 'preview' | 'up' | 'refresh' | 'destroy' | 'import';

interface DeployOptions extends GlobalOptions {
  /** The flags given on the command line, by long name (for the history's `pulumi.flag.*`). */
  flagsSet?: Record<string, unknown>;
  yes?: boolean;
  skipPreview?: boolean;
  expectNoChanges?: boolean;
  replace?: string[];
  refresh?: boolean;
  target?: string[];
  targetReplace?: string[];
  targetDependents?: boolean;
  exclude?: string[];
  excludeDependents?: boolean;
  /** `refresh --clear-pending-creates`, `--skip-pending-creates` (Pulumi's refresh.go). */
  clearPendingCreates?: boolean;
  skipPendingCreates?: boolean;
  /** `refresh --import-pending-creates`: URNs and ids, alternating (Pulumi's [[URN ID]...]). */
  importPendingCreates?: string[];
  /** `up` and `destroy --continue-on-error[=bool]` (default: PULUMI_CONTINUE_ON_ERROR). */
  continueOnError?: boolean;
  /** `destroy --exclude-protected`. */
  excludeProtected?: boolean;
  /** `import`: what to adopt, parents first, with the variables of the code generated after. */
  imports?: PlannedImport[];
  /** `import --out <file>`: the generated code goes there, not to stdout. */
  out?: string;
  /** `import --generate-code=false`: no code. */
  generateCode?: boolean;
  /** `refresh`, `destroy` and `import --preview-only`: the preview, and nothing after it. */
  previewOnly?: boolean;
  /** `destroy --remove`: the stack goes too once its resources are deleted. */
  remove?: boolean;
  debug?: boolean;
  /** `--config-path`: the `--config` keys are paths. */
  configPath?: boolean;
  showSames?: boolean;
  /** Pulumi's `--diff`: a replacement's `++` and `--` rows only with `--show-replacement-steps`. */
  diff?: boolean;
  showReplacementSteps?: boolean;
  suppressOutputs?: boolean;
  showSecrets?: boolean;
  config?: string[];
  /** `-m, --message`: the update's message in the stack's history. */
  message?: string;
}

const OPERATION: Record<DeployKind, Operation> = {
  preview: 'update',
  up: 'update',
  refresh: 'refresh',
  destroy: 'destroy',
  import: 'update',
};
/**
 * A terminated run's error, each command's words for the engine's context.Canceled (up.go,
 * refresh.go, destroy.go, import.go: "<operation> cancelled"; preview.go returns it as it is).
 */
const TERMINATED: Record<DeployKind, string> = {
  preview: 'context canceled',
  up: 'update cancelled',
  refresh: 'refresh cancelled',
  destroy: 'destroy cancelled',
  import: 'import cancelled',
};
/** The kind of update each command records in the stack's history (a preview records none). */
const HISTORY_KIND: Partial<Record<DeployKind, UpdateInfo['kind']>> = {
  up: 'update',
  refresh: 'refresh',
  destroy: 'destroy',
  import: 'resource-import',
};
const QUESTION: Partial<Record<DeployKind, string>> = {
  up: 'Do you want to perform this update?',
  refresh: 'Do you want to perform this refresh?',
  destroy: 'Do you want to perform this destroy?',
};

/**
 * preview, up, refresh, destroy and import: read the project and stack config, take the stack
 * lock, start the embedded emulator when no cloud is configured, then run the engine (a preview
 * first unless --skip-preview, and a question unless --yes, as Pulumi does).
 */
export async function runDeploy(kind: DeployKind, options: DeployOptions): Promise<void> {
  // Pulumi marks --target and --exclude mutually exclusive (cobra's words).
  if ((options.target?.length || options.targetReplace?.length) && options.exclude?.length)
    throw new UserError(
      'if any flags in the group [target exclude] are set none of the others can be; [exclude target] were all set',
    );
  const context = commandContext(options);
  const { project, stack } = context;
  // Pulumi's rules (its up, refresh and destroy commands, then PreviewThenPromptThenExecute): the
  // preview runs first unless --skip-preview; then, unless --yes or --skip-preview, a change needs
  // a terminal to confirm on. So `up --yes` previews and goes on, `up --skip-preview` only updates.
  // updateFlagsToOptions: --preview-only goes with neither of the flags that skip the question.
  if (options.previewOnly && options.skipPreview)
    throw new UserError('--skip-preview and --preview-only cannot be used together');
  if (options.previewOnly && skipConfirmations(options))
    throw new UserError('--yes and --preview-only cannot be used together');
  // A preview, or refresh/destroy/import --preview-only: the preview alone (no lock, nothing written).
  const previewOnly = kind === 'preview' || Boolean(options.previewOnly);
  const previewFirst = previewOnly || (kind in QUESTION && !options.skipPreview);
  const confirm = kind in QUESTION && !previewOnly && !skipConfirmations(options) && !options.skipPreview;
  if (confirm && !canPrompt(options))
    throw new UserError(
      // Pulumi's words (up.go; refresh.go and destroy.go name --preview-only too).
      `--yes or --skip-preview${kind === 'up' ? '' : ' or --preview-only'} must be passed in to proceed when running in non-interactive mode`,
      ExitCode.configuration,
    );
  if (options.clearPendingCreates && options.skipPendingCreates)
    throw new UserError('cannot set both --skip-pending-creates and --clear-pending-creates');
  if ((options.importPendingCreates?.length ?? 0) % 2 !== 0)
    throw new UserError('each URN must be followed by an ID: found an odd number of entries');
  if (kind === 'refresh' || kind === 'destroy') requireExistingStack(context);
  // As Pulumi's commands (parseAndSaveConfigArray right after RequireStack), -c values are saved
  // before anything about the program is checked: they stay saved when it cannot start.
  if (options.config?.length) setConfigValues(project, stack, options.config, Boolean(options.configPath));
  // As the DIY backend's getTarget, before the engine starts (and before the lock, the emulator and
  // the program: nothing is written). Not through '../engine': it loads after the first program starts.
  checkStackTags(project.dir, stack);
  // Only preview and up run the program (refresh, destroy and import work from the state).
  if (kind === 'preview' || kind === 'up') {
    checkEntryPoint(project);
    // The language host's refusals of Pulumi.yaml's runtime options, before the program starts.
    checkRuntimeOptions(project.runtimeOptions);
  }
  const config = loadStackConfig(project, stack);
  // The programs the runs will use, started ahead (gated: no user code runs before its run).
  // The first starts now, and loads while ocikit loads its engine and, with no cloud configured,
  // starts the embedded emulator. Its config is sent when its run starts.
  const programs: PrestartedProgram[] = [];
  const prestart = () => {
    try {
      programs.push(
        new PrestartedProgram({
          programDir: project.dir,
          project: { name: project.name, main: project.main, runtimeOptions: project.runtimeOptions },
          config: config.values,
          secretKeys: config.secretKeys,
          debug: options.debug,
        }),
      );
    } catch {
      // (no @pulumi/pulumi for the program) the run starts it cold and reports why it cannot
    }
  };
  if (kind === 'preview' || kind === 'up') {
    prestart();
    trace.mark('first program started');
  }
  const discardPrograms = () => programs.splice(0).forEach((p) => p.discard());
  // The update's message and environment (its git checkout, CI and agent), as Pulumi's command
  // gathers them before the update: its git queries run beside the run, read when it is recorded.
  const metadata =
    !previewOnly && HISTORY_KIND[kind]
      ? gatherUpdateMetadata(project.dir, options.message ?? '', options.flagsSet)
      : undefined;
  const engine = await import('../engine');
  trace.mark('engine loaded');
  const state = engine.openStackState({
    programDir: project.dir,
    stack,
    crypter: config.crypter,
    stackConfigFile: config.file.path,
  });
  if (!previewOnly)
    try {
      state.lock();
    } catch (e) {
      discardPrograms();
      throw e;
    }
  // As refresh.go: the creates given ids become imports first, then --clear-pending-creates drops the rest.
  if (kind === 'refresh')
    try {
      if (options.importPendingCreates?.length) warnUnused(importPendingCreates(state, options.importPendingCreates));
      if (options.clearPendingCreates) clearPendingCreates(state);
    } catch (e) {
      state.unlock();
      throw e;
    }
  let cloud: EmbeddedCloud | undefined;
  // The preview's plugins serve the operation that follows it (see PluginHandover).
  const plugins = new engine.PluginHandover();
  const controller = new AbortController();
  const terminator = new AbortController();
  // The run in progress (its preview or its operation): a signal's message goes to its display, as
  // Pulumi's cancellation scope sends it into the run's events (a stdout event).
  let running: { display: Display; preview: boolean } | undefined;
  const say = (message: string) => {
    // (Before the first run starts: to stdout, or beside --json's events.)
    if (!running) return void (options.json ? process.stderr : process.stdout).write(message);
    running.display.onEvent({
      sequence: 0,
      timestamp: Math.floor(Date.now() / 1000),
      stdoutEvent: { message, color: 'never' },
    });
  };
  // Pulumi's cancellation scope (pkg/backend/cancellation_scope.go NewScope): SIGINT or SIGTERM
  // cancels, a second one terminates, each in its words.
  const onSignal = (signal: NodeJS.Signals) => {
    const what = signal === 'SIGTERM' ? 'SIGTERM' : '^C';
    if (controller.signal.aborted) {
      say(`${what} received; terminating\n`);
      // The run in progress ends its events as Pulumi's engine does on a terminate: its summary,
      // then the cancelEvent that ends --json's stream (see runEngine's `terminate`).
      terminator.abort();
      // The state as it is, pending operations included, and the stack unlocked on the way out, as
      // Pulumi's backend saves the snapshot and unlocks after the engine returns context.Canceled;
      // the command then fails in its words (see TERMINATED): a CancelledError, exit 8, in the
      // Pulumi whose exit codes ocikit follows (its ExitCodeFor tests name the operations that
      // return one: update, destroy, refresh, import); preview passes the plain error on, exit 1.
      state.flushSync();
      state.unlock();
      process.stderr.write(`error: ${TERMINATED[kind]}\n`);
      process.exit(kind === 'preview' ? 1 : ExitCode.cancelled);
    }
    say(
      (signal === 'SIGTERM'
        ? 'SIGTERM received; cancelling. If you would like to terminate immediately, send SIGTERM again.\n'
        : '^C received; cancelling. If you would like to terminate immediately, press ^C again.\n') +
        ((running ? running.preview : previewFirst)
          ? ''
          : 'Note that terminating immediately may lead to orphaned resources and other inconsistencies.\n'),
    );
    controller.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    let targets = [...(options.target ?? []), ...(options.targetReplace ?? [])];
    let protectedLeft = 0;
    if (options.excludeProtected) {
      // destroy.go: every resource but the protected ones and what they depend on is a target;
      // with nothing else left, it says so and succeeds.
      if (targets.length) throw new UserError('You cannot specify --target and --exclude-protected');
      const { unprotected, protectedCount } = engine.separateProtected(state.load().resources, {
        patterns: options.exclude,
        dependents: options.excludeDependents,
      });
      if (protectedCount > 0 && unprotected.length === 0) {
        if (!options.json)
          process.stdout.write(
            `There were no unprotected resources to destroy. There are still ${protectedCount} protected resources associated with this stack.\n`,
          );
        return;
      }
      if (protectedCount > 0) targets = unprotected;
      protectedLeft = protectedCount;
    }
    const values = { ...config.values };
    let providerEnv: Record<string, string> | undefined;
    const using = configuredCloud(values);
    if (!using) {
      cloud = await startEmbeddedCloud(project.dir).catch((error: Error) => {
        throw new UserError(`cannot start the embedded OCI emulator: ${error.message.split('\n')[0]}`);
      });
      trace.mark('embedded emulator ready');
      for (const [key, value] of Object.entries(cloud.config)) values[key] ??= value;
      providerEnv = cloud.providerEnv;
    }
    const base = {
      programDir: project.dir,
      project: { name: project.name, main: project.main, runtimeOptions: project.runtimeOptions },
      stack,
      operation: OPERATION[kind],
      config: values,
      secretKeys: config.secretKeys,
      imports: options.imports?.map((i) => i.spec),
      // --target-replace <urn> is --target <urn> --replace <urn>.
      replace: [...(options.replace ?? []), ...(options.targetReplace ?? [])],
      targets,
      targetDependents: options.targetDependents,
      excludes: options.exclude,
      excludeDependents: options.excludeDependents,
      // --refresh[=bool] wins; without it, Pulumi.yaml's `options: {refresh: always}` (getRefreshOption)
      // for preview, up and destroy.
      refresh: options.refresh ?? (kind === 'refresh' || kind === 'import' ? undefined : project.refreshAlways),
      // up.go and destroy.go: the flag's default is PULUMI_CONTINUE_ON_ERROR (env.ContinueOnError).
      continueOnError:
        kind === 'up' || kind === 'destroy'
          ? (options.continueOnError ?? envFlag('PULUMI_CONTINUE_ON_ERROR'))
          : undefined,
      parallel: options.parallel,
      providerEnv,
      state,
      signal: controller.signal,
      showSecrets: options.showSecrets,
      debug: options.debug,
    };
    // `up` runs the program twice, for the preview then for the update (as Pulumi does). The
    // update's process starts now too: it loads while the preview runs.
    if (previewFirst && kind === 'up') prestart();
    const planned = plannedSteps();
    const run = async (mode: DisplayMode, preview: boolean) => {
      const display = new Display({
        mode,
        preview,
        stack,
        project: project.name,
        json: Boolean(options.json),
        color: options.color,
        showSames: options.showSames,
        diff: options.diff,
        showReplacementSteps: options.showReplacementSteps,
        suppressOutputs: options.suppressOutputs,
        showSecrets: options.showSecrets,
        showDebug: options.debug,
      });
      display.begin();
      running = { display, preview };
      const startTime = engine.unixSeconds();
      const result = await engine.runEngine({
        ...base,
        preview,
        onEvent: preview ? (e) => (planned.note(e), display.onEvent(e)) : display.onEvent,
        prestarted: programs.shift(),
        plugins,
        keepPlugins: preview && !previewOnly,
        terminate: terminator.signal,
        onTerminated: (r) => display.end(r),
      });
      display.end(result);
      // As the DIY backend's apply, once the operation (not its preview) is over, failed or not.
      const historyKind = HISTORY_KIND[kind];
      if (!preview && historyKind && metadata) {
        const { message, environment } = await metadata;
        // As the DIY backend's apply: the record, then the backup, each tried whatever the other
        // did; their errors count only for a run that succeeded, the record's first ("saving
        // update info: …", "saving backup: …").
        let saveError: unknown;
        try {
          engine.addToHistory(state, {
            kind: historyKind,
            startTime,
            message,
            environment: { ...engine.updateEnvironment(engine.engineVersion), ...environment },
            config: config.recorded,
            version: 0,
            result: result.ok ? 'succeeded' : 'failed',
            endTime: engine.unixSeconds(),
            resourceChanges: result.resourceChanges,
          });
        } catch (e) {
          saveError = e;
        }
        let backupError: unknown;
        try {
          engine.backupStack(state);
        } catch (e) {
          backupError = e;
        }
        if (result.ok && saveError) throw new UserError(`saving update info: ${(saveError as Error).message}`);
        if (result.ok && backupError) throw new UserError(`saving backup: ${(backupError as Error).message}`);
      }
      if (!result.ok) {
        const detail = display.exceptionDetail();
        throw new UserError(detail ? `the program failed: ${detail}` : (result.error ?? `${kind} failed`));
      }
      // As Pulumi checks --expect-no-changes: on the preview command's plan, else on what ran.
      // (--preview-only: on its preview, in refresh.go's and destroy.go's words.)
      if (options.expectNoChanges && (previewOnly || !preview) && hasChanges(result.changes))
        throw new UserError(
          `no changes were expected but changes ${kind === 'preview' ? 'were proposed' : 'occurred'}`,
          ExitCode.noChanges,
        );
      return result;
    };
    if (cloud && !options.json) process.stdout.write(`${cloud.message}\n`);
    const mode: DisplayMode = kind === 'up' || kind === 'preview' ? 'update' : kind;
    if (previewFirst) {
      await run(mode, true);
      if (previewOnly) return;
      // A signal that came as the preview ended: the operation does not start, and the run fails
      // as one cancelled at its start does (the engine's words, exit 1), not as a success.
      if (controller.signal.aborted) throw new UserError('update canceled');
      if (confirm) {
        if (!options.json) process.stdout.write(planned.notices(OPERATION[kind]));
        // The preview's summary ends with a blank line (Display.end), as Pulumi's does.
        const answer = (await ask(`${QUESTION[kind]} (yes/no) `)).toLowerCase();
        if (answer !== 'yes' && answer !== 'y')
          throw new UserError(`confirmation declined, not proceeding with the ${OPERATION[kind]}`);
        if (!options.json) process.stdout.write('\n');
      }
    }
    // An import that fails part-way still writes the code of what it adopted, then fails, as
    // import.go generates the code (generateImportedDefinitions) before returning ImportStack's error.
    const failed = await run(mode, false).then(
      () => undefined,
      (e: unknown) => {
        if (kind !== 'import') throw e;
        return { e };
      },
    );
    if (kind === 'destroy')
      afterDestroy(state, config.file.path, {
        protectedLeft,
        targeted: Boolean(options.target?.length),
        remove: options.remove,
        json: options.json,
      });
    if (kind === 'import' && options.generateCode !== false)
      writeImportCode(
        programLocation(project.dir, project.main).pwd,
        state.load().resources,
        options.imports ?? [],
        options,
      );
    if (failed) throw failed.e;
  } finally {
    // The run is over, and so is its cancellation scope. A signal from here on (a second Ctrl-C
    // pressed as the run ended) would end ocikit by the signal's default action, before the
    // plugins are stopped and the stack unlocked (Pulumi's diy backend likewise closes its scope,
    // signal.Stop, before it saves the snapshot and unlocks: pkg/backend/diy/backend.go apply,
    // pkg/backend/cancellation_scope.go Close). It is taken and changes nothing: the cleanup
    // completes and the command exits as the run ended. The handler stays until the process exits.
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    process.on('SIGINT', ignoreSignal);
    process.on('SIGTERM', ignoreSignal);
    discardPrograms();
    await plugins.stop();
    if (!previewOnly) state.unlock();
    await cloud?.close();
  }
}

const ignoreSignal = () => undefined;

/**
 * `--config key=value` (preview, up, refresh and destroy): as Pulumi, each value is saved in Pulumi.<stack>.yaml (in
 * plain text) before the run reads it. Split at the first `=`; without one, as Pulumi's newcmd.ParseConfig, the
 * key's value is empty.
 */
function setConfigValues(project: Project, stack: string, pairs: string[], path: boolean): void {
  const file = StackConfigFile.open(project, stack);
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    const [key, value] = eq < 0 ? [pair, ''] : [pair.slice(0, eq), pair.slice(eq + 1)];
    try {
      // --config-path: the key is a path, as `config set --path` takes it.
      if (path) setPlainAtPath(file, key, value);
      else file.set(key, value, false);
    } catch (e) {
      // ParseKey's words without config set's "invalid configuration key: " (ParseConfig returns them as they are).
      throw e instanceof ConfigKeyError ? new ProjectError(e.reason) : e;
    }
  }
  file.save();
}

/**
 * What destroy.go does after a destroy that succeeded: with protected resources left
 * (--exclude-protected) it says how many; after an untargeted one it says the stack is still
 * there, or with --remove removes it (its state, kept as the backup as `stack rm` keeps it, and
 * its Pulumi.<stack>.yaml).
 */
function afterDestroy(
  state: FileStackState,
  configFile: string,
  o: { protectedLeft: number; targeted: boolean; remove?: boolean; json?: boolean },
): void {
  const say = (text: string) => o.json || process.stdout.write(`${text}\n`);
  if (o.protectedLeft > 0)
    say(
      `All unprotected resources were destroyed. There are still ${o.protectedLeft} protected resources associated with this stack.`,
    );
  else if (o.targeted) return;
  else if (!o.remove)
    say(
      `The resources in the stack have been deleted, but the history and configuration associated with the stack are still maintained. \nIf you want to remove the stack completely, run \`ocikit stack rm ${state.stack}\`.`,
    );
  else {
    // As the DIY backend's RemoveStack without force (pkg/backend/diy), whose error destroy returns
    // as it is: a stack that still has resources stays.
    if (state.resourceCount() > 0) throw new UserError('refusing to remove stack because it still contains resources');
    state.remove({ removeBackups: false });
    rmSync(configFile, { force: true });
    say('The resources in the stack have been deleted, and the history and configuration removed.');
  }
}

/** Pulumi's ResourceChanges.HasChanges: any step but same and read. */
function hasChanges(changes: Partial<Record<string, number>>): boolean {
  return Object.entries(changes).some(([kind, n]) => kind !== 'same' && kind !== 'read' && (n ?? 0) > 0);
}

/**
 * After `import`, the code to declare what was adopted, as `pulumi import` generates it: printed
 * after its notice, or (`--out`) written alone to the file; not printed with `--json`. The package
 * is read from the program's package.json: the nearest one up from the folder the program runs in
 * (`main`'s), as Pulumi's Node.js language host finds it (searchup).
 */
function writeImportCode(
  programDir: string,
  resources: Array<{
    urn: string;
    type: string;
    parent?: string;
    inputs: Record<string, unknown>;
    delete?: boolean;
    protect?: boolean;
  }>,
  imports: PlannedImport[],
  options: { out?: string; json?: boolean },
): void {
  let pkg = '@pulumi/oci';
  // searchup takes any entry of that name (os.Stat), as existsSync does.
  const manifestFile = findUp(programDir, ['package.json'], existsSync);
  try {
    const manifest = (manifestFile ? JSON.parse(readFileSync(manifestFile, 'utf8')) : {}) as Record<string, unknown>;
    const deps = { ...(manifest.devDependencies as object), ...(manifest.dependencies as object) };
    if ('@ocikit/oci' in deps && !('@pulumi/oci' in deps)) pkg = '@ocikit/oci';
  } catch {
    // No package.json: the code names @pulumi/oci, the package such programs use.
  }
  const adopted = imports.flatMap(({ spec, variable, parentVariable, providerVariable }) => {
    // Under a parent, the URN's type is qualified by the parent's (`…::Parent$Type::name`).
    const suffix = `${spec.type}::${spec.name}`;
    const found = resources.find(
      (r) =>
        !r.delete &&
        (r.urn.endsWith(`::${suffix}`) || r.urn.endsWith(`$${suffix}`)) &&
        (!spec.parent || r.parent === spec.parent),
    );
    return found
      ? [
          {
            type: spec.type,
            name: variable,
            logicalName: spec.name,
            inputs: found.inputs,
            parent: parentVariable,
            provider: providerVariable,
            component: spec.component,
            // As Pulumi's importer (makeResourceOptions: `if state.Protect`): what the stack held
            // already, unprotected, is left so and its code says so.
            protect: Boolean(found.protect),
          },
        ]
      : [];
  });
  if (adopted.length === 0) return;
  const protect = imports.some((i) => i.spec.protect !== false);
  const code = importCode({ pkg, protect, resources: adopted });
  if (options.out) {
    try {
      writeFileSync(options.out, code);
    } catch (error) {
      throw new UserError(`could not open output file: ${(error as Error).message}`);
    }
  } else if (!options.json) process.stdout.write(`\n${importNotice(protect)}${code}`);
}

/**
 * `refresh --clear-pending-creates`, as Pulumi's (refresh.go, filterMapPendingCreates): every
 * pending create is dropped from the state before the refresh, which then neither reports nor
 * keeps it (whatever such a create made in the cloud is no longer tracked). Pending updates and
 * deletes stay: the refresh reads them back. The previous state is kept as the backup.
 */
function clearPendingCreates(state: FileStackState): void {
  editPendingCreates(state, () => undefined);
}

type PendingOperation = ReturnType<FileStackState['load']>['pendingOperations'][number];

/**
 * Pulumi's filterMapPendingCreates: each pending create is replaced by what `edit` returns, or
 * dropped when it returns nothing; other pending operations stay. Written (the previous state kept
 * as the backup) only when something changed.
 */
function editPendingCreates(state: FileStackState, edit: (op: PendingOperation) => PendingOperation | undefined): void {
  const snapshot = state.load();
  let changed = false;
  const pendingOperations = snapshot.pendingOperations.flatMap((op) => {
    if (op.type !== 'creating') return [op];
    const next = edit(op);
    if (next !== op) changed = true;
    return next ? [next] : [];
  });
  if (changed) state.replace({ ...snapshot, pendingOperations });
}

/**
 * `refresh --import-pending-creates <urn> <id> …`, as Pulumi's (refresh.go, pendingCreatesToImports):
 * the create an interrupted run left pending under each URN made the resource with that id; it
 * becomes a pending import, which the refresh reads into the state. Returns the URNs that named
 * no pending create (Pulumi warns of them and goes on).
 */
function importPendingCreates(state: FileStackState, entries: string[]): string[] {
  const ids = new Map<string, string>();
  for (let i = 0; i < entries.length; i += 2) ids.set(entries[i], entries[i + 1]);
  editPendingCreates(state, (op) => {
    const id = ids.get(op.resource.urn);
    if (id === undefined) return op;
    ids.delete(op.resource.urn);
    return { type: 'importing', resource: { ...op.resource, id } };
  });
  return [...ids.keys()];
}

/** Pulumi's warning for the URNs of --import-pending-creates that named no pending create. */
function warnUnused(urns: string[]): void {
  if (urns.length === 1) process.stderr.write(`warning: "${urns[0]}" did not correspond to a pending create\n`);
  else if (urns.length > 1)
    process.stderr.write(
      `warning: the following urns did not correspond to a pending create\n${urns.map((u) => `- "${u}"`).join('\n')}\n`,
    );
}

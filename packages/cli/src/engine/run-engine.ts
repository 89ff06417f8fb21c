// One engine run: lock the stack, resolve what an interrupted run left pending, then run the
// program (update), refresh every resource (refresh) or delete everything (destroy), with the
// state written after every step, and report Pulumi-shaped events and a summary.
import { availableParallelism } from 'node:os';
import { PREVIEW_ONLY_ENV } from '@ocikit/pulumi-resource-oci';
import { Deployment } from './deployment';
import { engineRegistration } from './registration';
import { StepError } from './step-errors';
import { stackType } from './urn';
import { EventSink } from './events';
import { startMonitor } from './monitor';
import { startProgram, type ProgramOptions } from './program';
import { resolvePluginCommand } from './provider-host';
import { FileStackState, rootStackOutputs } from './state';
import { trace } from './trace';
import { urnMatcher } from './targets';

export { urnMatcher };
import { StackLockedError, type EngineEvent, type EngineOptions, type EngineResult } from './types';

/**
 * Pulumi's default for `--parallel`: PULUMI_PARALLEL when it is a positive integer, else four
 * operations per CPU (pkg/cmd/pulumi/operations/up.go `defaultParallel`, sdk/go/common/env
 * `Parallel`; a value that does not parse counts as unset there too).
 */
export function defaultParallel(env: NodeJS.ProcessEnv = process.env): number {
  const value = env.PULUMI_PARALLEL ?? '';
  const fromEnv = /^[+-]?\d+$/.test(value) ? Number(value) : 0; // Go's strconv.ParseInt(v, 10, 64)
  return Number.isSafeInteger(fromEnv) && fromEnv > 0 ? fromEnv : availableParallelism() * 4;
}

/**
 * The plugins' environment: ocikit's and the provider's, and for a preview alone (no operation
 * follows it with these plugins, nothing is refreshed or imported) PREVIEW_ONLY_ENV, so the plugin
 * does not load the OCI services' SDK and clients that such a preview's Check and Diff never use.
 */
export function pluginEnv(o: EngineOptions): NodeJS.ProcessEnv {
  const env = { ...process.env, ...(o.providerEnv ?? {}) };
  delete env[PREVIEW_ONLY_ENV];
  const reads = o.operation === 'refresh' || o.refresh || Boolean(o.imports?.length);
  if (o.preview && !o.keepPlugins && !reads) env[PREVIEW_ONLY_ENV] = '1';
  return env;
}

/** Engine-internal options (tests): run another plugin executable instead of `pulumi-resource-oci`. */
export interface InternalEngineOptions extends EngineOptions {
  pluginCommand?: string[];
}

export async function runEngine(options: EngineOptions): Promise<EngineResult> {
  const started = Date.now();
  trace.mark('engine start');
  const o = options as InternalEngineOptions;
  let firstError: string | undefined;
  const events = new EventSink(
    (e: EngineEvent) => {
      if (e.diagnosticEvent?.severity === 'error' && !firstError) firstError = e.diagnosticEvent.message.trim();
      o.onEvent(e);
    },
    { showSecrets: o.showSecrets, debug: o.debug },
  );
  if (!(o.state instanceof FileStackState)) throw new Error('runEngine needs a state from openStackState()');
  const state = o.state;
  const result = (ok: boolean, error: string | undefined, d?: Deployment): EngineResult => ({
    ok,
    ...(error ? { error: oneLine(error) } : {}),
    changes: d?.changes ?? {},
    resourceChanges: d?.opCounts ?? {},
    // A refresh runs no program: the stack keeps its outputs (RefreshStep.Apply returns a
    // component's state as it was), in its preview too. Otherwise the stack's outputs in the
    // snapshot the run wrote (from memory: reading the file back cost a parse of every resource).
    outputs: d
      ? o.preview
        ? o.operation === 'refresh'
          ? (oldOutputs ?? {})
          : d.stackOutputs
        : (rootStackOutputs(d.snapshot().resources) ?? {})
      : {},
    ...(d && oldOutputs ? { oldOutputs } : {}),
    durationMs: Date.now() - started,
  });

  let oldOutputs: Record<string, unknown> | undefined;
  let lockedHere = false;
  if (!o.preview && !state.isLocked) {
    try {
      state.lock();
      lockedHere = true;
    } catch (e) {
      if (e instanceof StackLockedError) return result(false, e.message);
      throw e;
    }
  }

  let deployment: Deployment | undefined;
  // The end of the event stream: the summary, then the cancelEvent, the last event of every run,
  // as Pulumi's engine sends them (deployment.go run: summaryEvent, also after a terminate; a
  // deferred NewCancelEvent in update.go, destroy.go, refresh.go and import.go): consumers stop at it.
  let ended = false;
  const endStream = () => {
    if (ended) return;
    ended = true;
    events.emit({
      summaryEvent: {
        isPreview: o.preview,
        maybeCorrupt: false,
        // Rounded up, as Pulumi's ConvertEngineEvent does (a run under a second says 1).
        durationSeconds: Math.ceil((Date.now() - started) / 1000),
        resourceChanges: deployment?.opCounts ?? {},
        PolicyPacks: {},
      },
    });
    events.emit({ cancelEvent: {} });
  };
  // A terminate returns at once (deployment.go run: TerminateErr), the stream ended all the same.
  const onTerminate = () => {
    endStream();
    o.onTerminated?.(result(false, undefined, deployment));
  };
  o.terminate?.addEventListener('abort', onTerminate, { once: true });
  const parallel = o.parallel && o.parallel > 0 ? o.parallel : defaultParallel();
  let monitor: Awaited<ReturnType<typeof startMonitor>> | undefined;
  let error: string | undefined;
  let canceled = false;
  try {
    const snapshot = state.load();
    oldOutputs = rootStackOutputs(snapshot.resources);
    if (!o.preview) state.backup();
    const config: Record<string, string> = {};
    for (const [k, v] of Object.entries(o.config)) config[k] = o.secretKeys.includes(k) ? '[secret]' : v;
    events.emit({ preludeEvent: { config } });
    const d = new Deployment(
      {
        project: o.project.name,
        stack: o.stack,
        programDir: o.programDir,
        preview: o.preview,
        config: o.config,
        secretKeys: o.secretKeys,
        parallel,
        pluginCommand: o.pluginCommand ?? resolvePluginCommand(),
        pluginEnv: pluginEnv(o),
        engineAddress: () => monitor!.address,
        adoptedPlugins: o.plugins?.take(),
        state,
        events,
        replace: o.replace?.length ? urnMatcher(o.replace) : undefined,
        continueOnError: o.continueOnError,
        targeting: {
          targets: o.targets,
          targetDependents: o.targetDependents,
          excludes: o.excludes,
          excludeDependents: o.excludeDependents,
        },
      },
      snapshot,
    );
    deployment = d;
    // Deletes of what the program no longer declares run once, when the program says it is done
    // (SignalAndWaitForShutdown) if it registered resource hooks, which the deletes may call while
    // it still serves them, as Pulumi's engine does; else after it exits.
    let finishing: Promise<void> | undefined;
    const finish = () => (finishing ??= d.finish());
    const shutdown = async () => {
      if (!d.hooks.any) return;
      await d.idle();
      if (!canceled && !d.failures.failure) await finish().catch(() => undefined);
    };
    monitor = await startMonitor(() => d, events, shutdown);
    trace.mark('monitor listening');
    // The plugin starts while the program boots (an update runs one for at least the default provider).
    d.warmPlugins(o.operation === 'update');
    const onAbort = () => {
      canceled = true;
      void d.cancel();
    };
    if (o.signal?.aborted) onAbort();
    o.signal?.addEventListener('abort', onAbort, { once: true });
    let succeeded = false;
    // A preview that went on past the step generator's errors to its end (Pulumi's sawError).
    let generatorErrored = false;
    // Pulumi's reportExecResult words: "update" unless a dry run (a destroy or a refresh too).
    const execFailed = `${o.preview ? 'preview' : 'update'} failed`;
    try {
      // A whole update or destroy finishes the creates an interrupted run left pending (they may
      // write to the cloud); a refresh or an import only reads it.
      const completeCreates = (o.operation === 'update' && !o.imports?.length) || o.operation === 'destroy';
      const refreshes = o.operation === 'refresh' || Boolean(o.refresh);
      if (o.preview) d.pending.notePending(refreshes);
      // A refresh reads in the pending creates `--import-pending-creates` gave ids (now imports).
      else if (!canceled)
        await d.resolvePending({ completeCreates, adoptImports: o.operation === 'refresh', refreshes });
      if (canceled) throw new StepError('the update was canceled');
      // Only a program's update can create again what an interrupted run was creating (see finish):
      // the others keep it on record for the next.
      if (o.operation !== 'update' || o.imports?.length) d.pending.keepUnresentCreates();
      if (o.operation === 'destroy') {
        // `destroy --refresh`: what is gone from the cloud leaves the state before the deletes.
        if (o.refresh) await d.refresh({ beforeUpdate: true });
        await d.destroyAll();
      } else if (o.operation === 'refresh') await d.refresh();
      else if (o.imports?.length) {
        await d.registerComponent(rootRegistration(o.project.name, o.stack));
        for (const imp of o.imports) await d.importResource(imp);
      } else {
        // `up --refresh`: the cloud is read first, so the program's steps diff against it.
        if (o.refresh) await d.refresh({ beforeUpdate: true });
        d.checkReplaceTargets(o.replace);
        const programOptions: ProgramOptions = {
          programDir: o.programDir,
          project: o.project,
          stack: o.stack,
          monitorAddress: monitor.address,
          engineAddress: monitor.address,
          dryRun: o.preview,
          parallel,
          config: o.config,
          secretKeys: o.secretKeys,
          debug: o.debug,
          onStdout: (line) => events.diag('info', line, d.stackUrn || undefined),
          onStderr: (line) => events.diag('info#err', line, d.stackUrn || undefined),
        };
        const program = o.prestarted ? o.prestarted.start(programOptions) : startProgram(programOptions);
        trace.mark('program spawned');
        const kill = () => program.child.kill('SIGTERM');
        // A failed step ends the run: the program is stopped rather than left to unwind its
        // dependents' errors (Pulumi cancels the program the same way).
        d.failures.onFailure = kill;
        o.signal?.addEventListener('abort', kill, { once: true });
        const exit = await program.exit;
        trace.mark('program exited');
        o.signal?.removeEventListener('abort', kill);
        await d.idle();
        if (canceled) throw new StepError('the update was canceled');
        if (d.failures.failure) throw d.failures.failure;
        if (exit.code !== 0) {
          // 32: the program already reported its error through Engine.Log. Otherwise the Node.js
          // language host's words (pulumi-language-nodejs main.go: exiterr.ExitCode(), -1 for a
          // signal), wrapped by Pulumi's evalSource ("an unhandled error occurred: …") and reported
          // by its deployment executor as an error diagnostic (Execute: reportError("", err)).
          if (firstError && exit.code === 32) throw new StepError(firstError);
          const message = `an unhandled error occurred: Program exited with non-zero exit code: ${exit.code ?? -1}`;
          events.diag('error', message);
          throw new StepError(message);
        }
        await finish();
        trace.mark('deletes done');
      }
      // A preview reports every targeting error (and a protected replace) and goes on, then fails
      // (Pulumi's sawError).
      generatorErrored = d.failures.sawError !== undefined;
      if (d.failures.sawError) throw new StepError(d.failures.sawError);
      // --continue-on-error: the steps that could run did; the run fails with Pulumi's words
      // (reported below), and the stack keeps the old outputs the program did not register again.
      if (d.failures.continuedPast) throw new StepError(execFailed);
      succeeded = true;
    } finally {
      o.signal?.removeEventListener('abort', onAbort);
      await d.idle();
      // The stack's outputs and their event come last; a run that failed (a step, the program
      // itself, --continue-on-error) keeps the old ones under those the program registered, as
      // Pulumi finalizes them whatever failed (deployment_executor.go Execute:
      // executeRegisterResourceOutputs with errored).
      await d.finalizeStackOutputs(!succeeded && !canceled);
      // A failed step, then, fails the run under the stack (deployment_executor.go Execute, and
      // refresh: reportExecResult("failed") once stepExec.Errored(), after the stack's outputs):
      // "update failed", for a destroy or a refresh too, "preview failed" for a preview; so does
      // a preview that went on past the step generator's errors to its end (ex.stepGen.Errored()),
      // and an update whose deletes `--target` refused (Failures.deletesRefused). An error that
      // stopped the run before any step (Check, Diff, the program) bails without it.
      const generatorFailedRun = generatorErrored || d.failures.deletesRefused;
      if ((d.failures.stepErrored || generatorFailedRun) && !canceled) events.diag('error', execFailed);
      // Everything the steps recorded is on disk before the run reports (and unlocks).
      await state.flush();
      trace.mark('state flushed');
    }
  } catch (e) {
    // A cancelled run ends as Pulumi's deployment executor ends it (deployment_executor.go Execute:
    // reportExecResult("canceled"), "update canceled", for a refresh or a destroy too, "preview
    // canceled" for a preview; then a bail): an error diagnostic, and that reason.
    error = canceled ? `${o.preview ? 'preview' : 'update'} canceled` : e instanceof Error ? e.message : String(e);
    if (canceled || (!(e instanceof StepError) && !firstError)) events.diag('error', error);
  } finally {
    // A program started ahead for this run, if the run ended before it started the program.
    o.prestarted?.discard();
    // A preview whose operation follows leaves its plugins running for it, unless it failed.
    await deployment?.close(o.keepPlugins && error === undefined ? o.plugins : undefined).catch(() => undefined);
    await monitor?.close().catch(() => undefined);
    await state.flush().catch(() => undefined);
    if (lockedHere) state.unlock();
  }
  trace.mark('engine end (plugins stopped)');
  trace.flush();
  o.terminate?.removeEventListener('abort', onTerminate);
  endStream();
  return result(error === undefined, error, deployment);
}

function rootRegistration(project: string, stack: string) {
  return engineRegistration({
    type: stackType,
    name: `${project}-${stack}`,
    parent: '',
    custom: false,
    inputs: {},
    version: '',
  });
}

/** The user sees one line: a multi-line diagnostic is folded, and a long one cut. */
function oneLine(message: string): string {
  const line = message
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .join(' ');
  return line.length > 600 ? `${line.slice(0, 597)}...` : line;
}

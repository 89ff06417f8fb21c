// The Deployment: one run's step generator and executor and the state they share. It turns each
// registration of the program into Pulumi's steps (same, create, update, replace, read, import),
// runs them against the provider plugins with bounded parallelism, deletes what the program no
// longer declares in reverse dependency order, and writes the stack state after every step
// (pending operations included). Rules follow pulumi/pulumi pkg/resource/deploy/step_generator.go,
// step_executor.go and step.go. Its parts that do one job each live beside it:
// - rules that need none of its state: diff.ts (the step generator's diff rules), step-state.ts
//   (what a step records), refresh.ts (a refresh step's read and drift), deletes.ts (the order of
//   deletes), registration.ts, urn.ts, resource-order.ts;
// - collaborators with their own state: Targeting (targets.ts), Aliases (aliases.ts), Providers
//   (providers.ts, the provider registry), PendingOperations (pending.ts), Failures (failures.ts).
import { randomUUID } from 'node:crypto';
import { goTimeJson } from '../go-json';
import { Aliases } from './aliases';
import { isDefaultProvider } from './default-provider';
import { deleteSkipsProvider, deleteWaits } from './deletes';
import {
  applyReplaceOnChanges,
  diffExtra,
  diffResource,
  knownDiff,
  replacementKeys,
  targetedReplaceDiff,
} from './diff';
import { EventSink, stepMetadata } from './events';
import { Failures } from './failures';
import {
  MAX_ERROR_HOOK_ATTEMPTS,
  ResourceHooks,
  type ErrorHookArgs,
  type HookArgs,
  type HookBinding,
  type HookType,
} from './hooks';
import { expiredToken, PendingOperations, readOnceSettled, retryTokenExpired } from './pending';
import {
  DiffUnavailableError,
  InitFailedError,
  PluginPool,
  unconfiguredPlugin,
  type PluginHandover,
  type ProviderPlugin,
  type DiffResult,
} from './provider-host';
import {
  filterProviderConfig,
  Providers,
  SERVED_PACKAGE,
  unservedPackage,
  withEngineInputs,
  withInternal,
  withoutVersion,
  type ProviderInstance,
} from './providers';
import { danglingReferenceFixes, refreshRead, type RefreshRead } from './refresh';
import {
  engineRegistration,
  importRegistration,
  registrationEdges,
  type Registration,
  type StepOutcome,
} from './registration';
import { orderResources } from './resource-order';
import { Semaphore } from './semaphore';
import type { FileStackState, PendingKind, ResourceState, Snapshot } from './state';
import {
  checkFailureMessages,
  ContinuedStepError,
  oneLine,
  protectedDependentRefusal,
  protectedRefusal,
  StepError,
  UNPROTECT,
} from './step-errors';
import { created, createdButFailed, oldProps, pendingUpdate, withSecrets } from './step-state';
import {
  allDependencies,
  missingTargetMessages,
  providerUrn,
  UrnTargets,
  Targeting,
  type Edges,
  type TargetOptions,
} from './targets';
import type { ChangeKind, ImportSpec, OpType, StepEventMetadata } from './types';
import { intoQName, makeUrn, providerPrefix, splitRef, stackType, urnName } from './urn';
import { goQuote } from '../go-quote';
import {
  applyIgnoreChanges,
  changedKeys,
  resetPaths,
  containsUnknowns,
  deepEqual,
  makeSecret,
  stripSecrets,
  unknownValue,
  type Props,
} from './values';

export interface DeploymentOptions {
  project: string;
  stack: string;
  programDir: string;
  preview: boolean;
  config: Record<string, string>;
  secretKeys: string[];
  parallel: number;
  pluginCommand: string[];
  pluginEnv: NodeJS.ProcessEnv;
  engineAddress: () => string;
  /** Running plugins of the command's previous run (its preview), used before new ones start. */
  adoptedPlugins?: ProviderPlugin[];
  state: FileStackState;
  events: EventSink;
  /** `--replace <urn>`: replaced whatever their diff says (Pulumi's targeted replace). */
  replace?: (urn: string) => boolean;
  /** `--target`, `--exclude` and their `-dependents` flags (Pulumi's UrnTargets). */
  targeting?: TargetOptions;
  /** `--continue-on-error`: a failed step stops only what depends on it (Pulumi's ContinueOnError). */
  continueOnError?: boolean;
}

export class Deployment {
  readonly changes: Partial<Record<ChangeKind, number>> = {};
  readonly opCounts: Partial<Record<OpType, number>> = {};
  canceled = false;
  stackUrn = '';
  stackOutputs: Props = {};
  /** The stack's outputs the program registered, until the end of the run (finalizeStackOutputs). */
  private pendingStackOutputs?: Props;

  /** Resources of the previous snapshot still live (not marked for deletion), by URN. */
  private readonly olds = new Map<string, ResourceState>();
  /** Everything the state holds now, old and new; ordered topologically at write time. */
  private current: ResourceState[];
  /** The state's pending operations, and the creates an interrupted run sent without learning the id. */
  readonly pending: PendingOperations;
  /** URNs of old resources the program registered (or read) in this run. */
  private readonly registered = new Set<string>();
  /** Old copies to delete at the end: replaced (create-before-delete) or left `delete: true` by an earlier run. */
  private readonly toDeleteLater: ResourceState[] = [];
  /** The run's provider instances and the plugin processes they run in. */
  private readonly providers: Providers;
  private readonly defaultProviders = new Map<string, Promise<string>>();
  private readonly sem: Semaphore;
  private readonly inflight = new Set<Promise<unknown>>();
  /** The previous snapshot in dependency order: the graph delete-before-replace dependents are found in. */
  private readonly base: ResourceState[];
  /** The aliases registrations claimed old URNs through. */
  private readonly aliases: Aliases;
  /** Dependents deleted ahead of a delete-before-replace resource, with the keys that forced it (recreated when registered). */
  private readonly recreate = new Map<string, string[]>();
  /** The hideDiffs each registration named, for its step events (display only, as Pulumi's option). */
  private readonly hideDiffs = new Map<string, string[]>();
  /** Dependents a delete-before-replace deletes ahead of it, with their deletes (awaited before they are re-created). */
  private readonly deletedEarly = new Map<ResourceState, Promise<void>>();
  /**
   * Custom resources registered whose step is not decided yet (their Check and Diff under way):
   * still dependents a delete-before-replace must take (step_generator.go
   * calculateDependentReplacements, pulumi/pulumi#19945: impossibleDependents are the resources
   * with a generated step, not every URN registered).
   */
  private readonly undecided = new Set<string>();
  /** URNs deleted (or being deleted) in this run, for deletedWith; URNs replaced in this run, for replaceWith. */
  private readonly deletedUrns = new Set<string>();
  private readonly replacedUrns = new Set<string>();
  /** The step each component took (and its old state), for its RegisterResourceOutputs event and after hooks. */
  private readonly componentOps = new Map<string, { op: OpType; old?: ResourceState }>();
  private readonly o: DeploymentOptions;
  /** The program's resource hooks (RegisterResourceHook), run around the steps. */
  readonly hooks: ResourceHooks;
  /** `--target` and `--exclude`: which registrations take their step, which deletes may run. */
  private readonly targeting: Targeting;
  /** Registrations not targeted that had no old state: neither created nor recorded (skipped creates). */
  private readonly skippedCreates = new Set<string>();
  /** Untargeted resources kept as they were (a same step of their old state). */
  private readonly untargeted = new Set<string>();
  /** Provider refs (`urn::id`) the program registered in this run. */
  private readonly registeredProviders = new Set<string>();
  /** The run's failures: the first one, which stops it, and those it goes on from. */
  readonly failures: Failures;

  /** The project's folder (Pulumi.yaml's): source positions are relative to it. */
  get projectRoot(): string {
    return this.o.programDir;
  }

  constructor(options: DeploymentOptions, snapshot: Snapshot) {
    this.o = options;
    this.targeting = new Targeting(options.targeting);
    this.aliases = new Aliases(options.stack, options.project);
    this.failures = new Failures(options.events, Boolean(options.continueOnError), options.preview, this.changes);
    this.hooks = new ResourceHooks({
      dryRun: options.preview,
      warn: (message, urn) => options.events.diag('warning', message, urn),
    });
    this.sem = new Semaphore(Math.max(1, options.parallel));
    this.providers = new Providers(
      new PluginPool(
        {
          command: options.pluginCommand,
          engineAddress: options.engineAddress,
          env: options.pluginEnv,
          programDir: options.programDir,
          onStderr: (line) => options.events.diag('debug', line),
        },
        options.adoptedPlugins,
      ),
    );
    for (const r of snapshot.resources) {
      if (r.delete) this.toDeleteLater.push(r);
      else this.olds.set(r.urn, r);
    }
    this.current = [...snapshot.resources];
    this.base = orderResources(snapshot.resources);
    this.pending = new PendingOperations(snapshot.pendingOperations, options.events, () => this.write());
  }

  // ----- state -------------------------------------------------------------------------------

  snapshot(): Snapshot {
    // References to a resource that moved through an alias follow it to its new URN.
    const resources = this.aliases.aliased.size ? this.current.map((r) => this.aliases.follow(r)) : this.current;
    return { resources: orderResources(resources), pendingOperations: this.pending.list };
  }

  /**
   * Asks for the state to be written (coalesced with other steps' changes, see requestSave);
   * resolves when it is on disk. Callers that do not wait still get it written: a failure is
   * reported by the run's final flush.
   */
  private write(): Promise<void> {
    if (this.o.preview) return Promise.resolve();
    const written = this.o.state.requestSave(() => this.snapshot());
    written.catch(() => undefined);
    return written;
  }

  /**
   * An old resource read back before the steps (an interrupted operation resolved, `up --refresh`):
   * what was read (or nothing, if gone) replaces it everywhere the old object is held, so the steps
   * start from it. `olds` changes only where it held this object: a replaced copy (`delete: true`)
   * that is gone must not take its live replacement with it.
   */
  private replaceOldState(r: ResourceState, next: ResourceState | undefined): void {
    this.put(r, next);
    const swap = (list: ResourceState[]) => {
      const i = list.indexOf(r);
      if (i < 0) return;
      if (next) list[i] = next;
      else list.splice(i, 1);
    };
    swap(this.base);
    swap(this.toDeleteLater);
    if (this.olds.get(r.urn) !== r) return;
    if (next) this.olds.set(r.urn, next);
    else this.olds.delete(r.urn);
  }

  /** The state's entry for a resource deleted to be replaced, which its replacement takes the place of. */
  private pendingReplacementOf(urn: string): ResourceState | undefined {
    return this.current.find((r) => r.urn === urn && r.pendingReplacement);
  }

  /** Replaces `old` (by identity) with `next` in the state, or appends `next`; removes when `next` is undefined. */
  private put(old: ResourceState | undefined, next: ResourceState | undefined): void {
    const i = old ? this.current.indexOf(old) : -1;
    if (i >= 0) {
      if (next) this.current[i] = next;
      else this.current.splice(i, 1);
    } else if (next) this.current.push(next);
  }

  private count(kind: ChangeKind, op?: OpType): void {
    this.changes[kind] = (this.changes[kind] ?? 0) + 1;
    const o = op ?? (kind as OpType);
    this.opCounts[o] = (this.opCounts[o] ?? 0) + 1;
  }

  private pre(metadata: StepEventMetadata): void {
    const hideDiffs = this.hideDiffs.get(metadata.urn);
    if (hideDiffs && metadata.new) metadata = { ...metadata, new: { ...metadata.new, hideDiffs } };
    this.o.events.emit({ resourcePreEvent: { metadata, planning: this.o.preview || undefined } });
  }

  private outputs(metadata: StepEventMetadata): void {
    this.o.events.emit({ resOutputsEvent: { metadata, planning: this.o.preview || undefined } });
  }

  /** --continue-on-error: the answer to a registration whose step failed (the program gets unknowns). */
  failedRegistration(reg: { type: string; name: string; parent: string }): StepOutcome {
    const urn = this.urn(reg.type, reg.name, reg.parent);
    this.failures.skipped.add(urn);
    return { urn, id: '', outputs: {}, result: 'fail' };
  }

  /** Runs a resource's hooks of one type; a failing hook fails the step (one line naming the resource). */
  private async hook(type: HookType, binding: HookBinding | undefined, args: HookArgs, meta: StepEventMetadata) {
    if (!binding?.[type]?.length) return;
    try {
      await this.hooks.run(type, binding, args);
    } catch (e) {
      throw this.failures.stepFailed(meta, `${args.urn}: ${oneLine(e)}`);
    }
  }

  /**
   * A provider operation, tried again while the resource's error hooks ask for it (hooks.ts): each
   * failure goes to them with the ones before it, newest first. Without error hooks, once.
   */
  private async withErrorHooks<T>(
    binding: HookBinding | undefined,
    args: Omit<ErrorHookArgs, 'errors'>,
    operation: () => Promise<T>,
  ): Promise<T> {
    const errors: string[] = [];
    for (;;) {
      try {
        return await operation();
      } catch (e) {
        // A partial failure left a resource behind: trying the create again would make another.
        // Without a program serving hooks (destroy, refresh) the provider's error stands.
        if (!binding?.on_error?.length || !this.hooks.any || e instanceof InitFailedError) throw e;
        errors.unshift(oneLine(e));
        if (errors.length >= MAX_ERROR_HOOK_ATTEMPTS)
          throw new Error('maximum number of error hook retries reached', { cause: e });
        if (!(await this.hooks.shouldRetry(binding, { ...args, errors }))) throw e;
      }
    }
  }

  private readonly claimed = new Set<string>();

  /**
   * Two registrations of one URN in a run are the program's mistake, refused before any step in
   * Pulumi's words, under the resource (step_generator.go generateURN: bailDiag with
   * diag.GetDuplicateResourceURNError).
   */
  private claim(urn: string): void {
    if (this.claimed.has(urn))
      throw this.failures.refusedBeforeStep(urn, `Duplicate resource URN '${urn}'; try giving it a unique name`);
    // (Pulumi reports this one with GetDuplicateResourceAliasedError, on the resource too.)
    const by = this.aliases.aliased.get(urn);
    if (by)
      throw this.failures.refusedBeforeStep(
        urn,
        `duplicate resource URN '${urn}': it is an alias of '${by}', registered earlier`,
      );
    this.claimed.add(urn);
  }

  /**
   * The old state of a registration: by its URN, else by its aliases (step_generator.go
   * generateSteps: URN first, then each alias), recording the alias so the old URN is not deleted.
   */
  private findOld(urn: string, reg: Registration): { old?: ResourceState; alias?: string } {
    this.registered.add(urn);
    const direct = this.olds.get(urn);
    if (direct) return { old: direct };
    for (const alias of this.aliases.urnsOf(reg)) {
      const old = this.olds.get(alias);
      if (!old) continue;
      // An alias that names a resource registered in this run, or that another resource claimed:
      // refused under the resource in Pulumi's words (step_generator.go generateSteps:
      // diag.GetDuplicateResourceAliasError, with the resource's own URN as the conflicting one
      // in the first case, as Pulumi passes it), then the resource is invalid and the run bails.
      const conflicting = this.claimed.has(alias) ? urn : this.aliases.aliased.get(alias);
      if (conflicting)
        throw this.failures.refusedBeforeStep(
          urn,
          `Duplicate resource alias '${alias}' applied to resource with URN '${urn}' conflicting with resource with URN '${conflicting}'`,
        );
      this.aliases.aliased.set(alias, urn);
      this.aliases.aliasOf.set(urn, alias);
      this.registered.add(alias);
      return { old, alias };
    }
    return {};
  }

  /** Runs a step under the parallelism bound and remembers it until it settles. */
  private step<T>(fn: () => Promise<T>): Promise<T> {
    return this.track(this.sem.run(fn));
  }

  /** Remembers a step until it settles (idle() waits for it). */
  private track<T>(p: Promise<T>): Promise<T> {
    this.inflight.add(p);
    const forget = () => this.inflight.delete(p);
    p.then(forget, forget);
    return p;
  }

  /**
   * Runs a step's provider operations (Create, Update, Delete, Read) under the `--parallel` bound,
   * as Pulumi's step executor does; Check and Diff run before it, outside the bound, as Pulumi's
   * step generator calls them (so they never queue behind other resources' creates). A create or
   * update gives its slot back (`release`) once the provider has answered: the state write that
   * records the result, which the program waits for, is not a provider operation. Steps waiting
   * for a slot are served round-robin across plugins (see Semaphore).
   */
  private async mutate<T>(plugin: ProviderPlugin, fn: (release: () => void) => Promise<T>): Promise<T> {
    const release = await this.sem.acquire(plugin);
    try {
      this.guard();
      return await fn(release);
    } finally {
      release();
    }
  }

  /** Resolves once every step already started has settled (after the program exits or is killed). */
  async idle(): Promise<void> {
    while (this.inflight.size) await Promise.allSettled([...this.inflight]);
  }

  // ----- naming ------------------------------------------------------------------------------

  urn(type: string, name: string, parent: string): string {
    return makeUrn(this.o.stack, this.o.project, parent, type, name);
  }

  // ----- providers ---------------------------------------------------------------------------

  /**
   * Starts the plugin process before the program asks for a provider (see PluginPool), when the
   * run will need one: it has providers in its state, or `expected` says it will register one
   * (an update registers at least the default provider). Every other provider the program
   * registers, however many, becomes an instance in that process when it registers.
   */
  warmPlugins(expected: boolean): void {
    if (expected || this.current.some((r) => r.type.startsWith(providerPrefix) && !r.delete)) this.providers.warm();
  }

  /**
   * The ref (`urn::id`) of the default provider of a package, registered on first use: one per
   * version and plugin download URL, named and configured as Pulumi's (providers.ProviderRequest
   * DefaultName, `default_4_20_0_https_/example.com/oci` for a pluginDownloadURL, its trailing `/`
   * trimmed by NewProviderRequest; source_eval.go newRegisterDefaultProviderEvent sets the
   * `version` and `pluginDownloadURL` inputs).
   */
  defaultProviderRef(pkg: string, version: string, pluginDownloadURL = ''): Promise<string> {
    const url = pluginDownloadURL.replace(/\/$/, '');
    const name =
      (version ? `default_${version.replace(/[.+-]/g, '_')}` : 'default') + (url ? `_${intoQName(url)}` : '');
    const key = `${pkg}::${name}`;
    let ref = this.defaultProviders.get(key);
    if (!ref) {
      const inputs: Props = {};
      for (const [k, v] of Object.entries(this.o.config)) {
        if (!k.startsWith(`${pkg}:`)) continue;
        const key = k.slice(pkg.length + 1).replace(/^config:/, '');
        inputs[key] = this.o.secretKeys.includes(k) ? makeSecret(v) : v;
      }
      ref = this.registerProvider(
        engineRegistration({
          type: `${providerPrefix}${pkg}`,
          name,
          parent: '',
          inputs,
          version,
          ...(url ? { pluginDownloadURL: url } : {}),
        }),
      ).then((o) => `${o.urn}::${o.id}`);
      this.defaultProviders.set(key, ref);
    }
    return ref;
  }

  private async providerFor(ref: string, type: string, version: string, url = ''): Promise<ProviderInstance> {
    const pkg = type.split(':')[0];
    const resolved = ref || (await this.defaultProviderRef(pkg, version, url));
    return this.providers.instance(resolved, this.aliases.aliased, this.current);
  }

  /** A provider resource, default or explicit: one plugin process, CheckConfig → DiffConfig → Configure. */
  async registerProvider(reg: Registration): Promise<StepOutcome> {
    const urn = this.urn(reg.type, reg.name, reg.parent);
    const pkg = reg.type.slice(providerPrefix.length);
    const { old, alias } = this.findOld(urn, reg);
    // A plugin that cannot start fails Pulumi's registry Check (providers/registry.go Check:
    // loadProvider's error), in the step generator before any step: an error under the provider.
    if (pkg !== SERVED_PACKAGE) throw this.failures.refusedBeforeStep(urn, unservedPackage(pkg));
    const plugin = await this.providers.start();
    // As Pulumi's resource monitor and registry (providers.SetProviderVersion, SetProviderURL,
    // registry.go Check): the version the SDK registered the provider with is one of its inputs, as
    // it is for a default provider, beside `__internal`; the plugin is never given `__internal`.
    const inputs = withEngineInputs(reg.inputs, reg.version, reg.pluginDownloadURL);
    const olds = filterProviderConfig(old?.inputs ?? {});
    // A provider is replaced on request too (--replace, `state taint`): step_generator.go's
    // isTargetedReplace holds for any resource, checked without its old inputs and not diffed.
    const targeted = this.targetedReplace(urn, old);
    const result = await plugin.checkConfig(
      urn,
      reg.name,
      reg.type,
      targeted ? {} : olds,
      filterProviderConfig(inputs),
    );
    if (result.failures.length) throw this.failures.checkFailed(urn, reg.type, inputs, result.failures);
    const checked = { ...result, inputs: withInternal(result.inputs, inputs) };
    const config = filterProviderConfig(checked.inputs);
    let op: OpType = 'create';
    let diff: DiffResult | undefined;
    if (old && targeted) {
      op = 'replace';
      diff = targetedReplaceDiff(olds, config);
      this.refuseProtectedReplace(urn, reg, old);
    } else if (old) {
      diff = await plugin.diffConfig(urn, reg.name, reg.type, olds, config);
      const changed = diff
        ? diff.changes === 'some' || (diff.changes === 'unknown' && changedKeys(olds, config).length > 0)
        : changedKeys(olds, config).length > 0;
      // DiffConfig asking for a replacement replaces the provider: a new id, so every resource
      // using it sees its provider change and is replaced too (step_generator.go providerChanged).
      op = diff && changed && replacementKeys(diff).length ? 'replace' : changed ? 'update' : 'same';
    }
    const id = (op !== 'replace' ? old?.id : undefined) ?? (this.o.preview ? unknownValue : randomUUID());
    const next: ResourceState = {
      urn,
      custom: true,
      id,
      type: reg.type,
      inputs: checked.inputs,
      outputs: config,
      ...(reg.parent ? { parent: reg.parent } : {}),
      ...(reg.protect ? { protect: true } : {}),
      ...(reg.dependencies.length ? { dependencies: reg.dependencies } : {}),
      ...(alias ? { aliases: [alias] } : {}),
      ...(reg.sourcePosition ? { sourcePosition: reg.sourcePosition } : {}),
      created: op === 'replace' ? goTimeJson() : (old?.created ?? goTimeJson()),
      modified: op === 'same' ? old?.modified : goTimeJson(),
    };
    const meta = stepMetadata(op, urn, reg.type, old, next, diffExtra(diff, old?.inputs, checked.inputs));
    this.targeting.inScope(urn, reg.type, registrationEdges(reg));
    this.checkSkippedCreates(urn, registrationEdges(reg));
    this.pre(meta);
    const ref = `${urn}::${id}`;
    this.registeredProviders.add(ref);
    const instance = (async () => {
      if (containsUnknowns(config)) return { plugin: unconfiguredPlugin(plugin), ref };
      await plugin.configure(pkg, urn, reg.name, id, config);
      return { plugin, ref };
    })();
    this.providers.set(ref, instance);
    await instance;
    if (op === 'replace' && old) {
      // The old provider stays in the state (marked for deletion) to delete what it manages.
      const marked = { ...old, delete: true };
      this.put(old, marked);
      this.put(undefined, next);
      this.toDeleteLater.push(marked);
      this.replacedUrns.add(urn);
    } else this.put(old, next);
    void this.write();
    // A default provider's step is internal to Pulumi: not counted in the summary (isInternalStep).
    if (!isDefaultProvider(urn))
      this.count(op === 'same' ? 'same' : op === 'update' ? 'update' : op === 'replace' ? 'replace' : 'create');
    this.outputs(meta);
    return { urn, id, outputs: next.outputs };
  }

  // ----- targeting (--target, --exclude) -----------------------------------------------------

  /**
   * validateSteps: a step that runs may not depend on a skipped create (the program would get no
   * real value for it). An update stops at the first; a preview reports each and fails at the end.
   */
  private checkSkippedCreates(urn: string, edges: Edges): void {
    if (!this.targeting.targets.constrained && !this.o.replace) return;
    for (const dep of [...allDependencies(edges), providerUrn(edges.provider)]) {
      if (!this.skippedCreates.has(dep)) continue;
      // Pulumi's diagnostic 2013, word for word (its doubled "was" included: scripts match it).
      const message = `Resource '${urn}' depends on '${dep}' which was was not specified in --target list.`;
      const refused = this.failures.stepGeneratorErrors([{ message, urn }]);
      if (refused) throw refused;
      this.skippedCreates.delete(dep);
    }
  }

  /**
   * The step of a registration that is not targeted: a resource with old state keeps it exactly
   * (same step of the old inputs, outputs and dependencies; the program gets the old outputs); one
   * without is a skipped create, neither created nor recorded.
   */
  private untargetedStep(
    reg: Registration,
    urn: string,
    old: ResourceState | undefined,
    alias: string | undefined,
  ): StepOutcome {
    if (!old) {
      this.skippedCreates.add(urn);
      const draft: ResourceState = { urn, custom: reg.custom, type: reg.type, inputs: {}, outputs: {} };
      const meta = stepMetadata('same', urn, reg.type, draft, draft);
      this.pre(meta);
      this.count('same');
      this.outputs(meta);
      return { urn, id: '', outputs: {} };
    }
    // The step generator's error (step_generator.go generateSteps: fmt.Errorf), which the deployment
    // executor reports under the resource before it bails (Execute: reportError with
    // generateEventURN): no step, in a preview too.
    if (reg.custom && old.provider && !this.registeredProviders.has(old.provider))
      throw this.failures.refusedBeforeStep(
        urn,
        `provider ${old.provider} for resource ${urn} has not been registered yet, this is due to a change of providers mixed with --target. Change your program back to the original providers`,
      );
    // The state keeps the old resource as it was, under its old URN.
    if (alias) {
      this.aliases.aliased.delete(alias);
      this.aliases.aliasOf.delete(urn);
    }
    this.untargeted.add(old.urn);
    this.keepDependencies(old);
    if (!reg.custom) this.componentOps.set(urn, { op: 'same', old });
    const meta = stepMetadata('same', urn, reg.type, old, old);
    this.pre(meta);
    this.count('same');
    this.outputs(meta);
    return { urn, id: old.id ?? '', outputs: old.outputs };
  }

  /**
   * getDependencySteps: what an untargeted resource depends on stays in the state even if the
   * program no longer declares it, so the kept resource never refers to a deleted one.
   */
  private keepDependencies(r: ResourceState): void {
    for (const dep of allDependencies(r)) {
      if (this.registered.has(dep)) continue;
      const old = this.olds.get(dep);
      if (!old) continue;
      this.registered.add(dep);
      this.keepDependencies(old);
    }
  }

  /**
   * GenerateDeletes' targeting (Targeting.deletes), its refusals reported, all of them (so the user
   * can fix the command once): an update then stops, a preview fails at the end.
   */
  private targetedDeletes(candidates: ResourceState[]): ResourceState[] {
    const { chosen, refusals } = this.targeting.deletes(this.base, candidates);
    const refused = this.failures.stepGeneratorErrors(refusals);
    if (refused) {
      this.failures.deletesRefused = true;
      throw refused;
    }
    return chosen;
  }

  /**
   * `--replace` and `--target-replace` URNs, checked before the program runs, as Pulumi's
   * deploymentExecutor.Execute checks its ReplaceTargets before iterating the source.
   */
  checkReplaceTargets(patterns: string[] | undefined): void {
    const missing = this.missingTargets(new UrnTargets(patterns));
    if (missing.length) throw new StepError(missing[0]);
  }

  /** checkTargets: each literal --target must name a resource of the stack (or one registered in this run). */
  private missingTargets(targets: UrnTargets): string[] {
    const messages = missingTargetMessages(
      targets,
      (urn) => this.olds.has(urn) || this.claimed.has(urn) || this.registered.has(urn),
    );
    for (const m of messages) this.o.events.diag('error', m);
    return messages;
  }

  // ----- registrations -----------------------------------------------------------------------

  /** Component resources and the root stack: no provider, state only (and hooks). */
  async registerComponent(reg: Registration): Promise<StepOutcome> {
    const urn = this.urn(reg.type, reg.name, reg.parent);
    this.claim(urn);
    if (reg.type === stackType) this.stackUrn = urn;
    const { old, alias } = this.findOld(urn, reg);
    const skip = this.failures.skippedAfterFailure(urn, reg);
    if (skip) return skip;
    if (!this.targeting.inScope(urn, reg.type, registrationEdges(reg)))
      return this.untargetedStep(reg, urn, old, alias);
    this.checkSkippedCreates(urn, registrationEdges(reg));
    // A component is replaced on request too (--replace, `state taint`: isTargetedReplace holds for
    // any resource), or when a run died between its delete-before-replace and its create.
    const replacing = old && (this.targetedReplace(urn, old) || old.pendingReplacement) ? old : undefined;
    if (replacing) this.refuseProtectedReplace(urn, reg, replacing);
    // continueStepsFromDiff: the targeted diff names no order, so the deleteBeforeReplace option
    // decides: dependents first, then the old copy (unless already deleted), then the create;
    // else create-before-delete, the old copy deleted at the end.
    const dbr = Boolean(replacing && (reg.deleteBeforeReplace || replacing.pendingReplacement));
    const deleteFirst = dbr && !replacing?.pendingReplacement ? replacing : undefined;
    const op: OpType = replacing
      ? 'create-replacement'
      : !old
        ? 'create'
        : deepEqual(old.inputs, reg.inputs)
          ? 'same'
          : 'update';
    const next: ResourceState = {
      urn,
      custom: false,
      type: reg.type,
      inputs: reg.inputs,
      outputs: old?.outputs ?? {},
      ...(reg.parent ? { parent: reg.parent } : {}),
      ...(reg.protect ? { protect: true } : {}),
      ...(reg.dependencies.length ? { dependencies: reg.dependencies } : {}),
      ...(alias ? { aliases: [alias] } : {}),
      ...(reg.deletedWith ? { deletedWith: reg.deletedWith } : {}),
      ...(reg.hooks ? { resourceHooks: reg.hooks } : {}),
      ...(reg.sourcePosition ? { sourcePosition: reg.sourcePosition } : {}),
      created: (!replacing && old?.created) || goTimeJson(),
      modified: op === 'same' ? old?.modified : goTimeJson(),
    };
    // Until the program registers them, the stack's outputs are its old ones, in a preview too
    // (step.go SameStep.Apply: new.Outputs = old.Outputs): a program that ends without
    // registering them (process.exit(0) before its exports resolve) keeps them.
    if (urn === this.stackUrn) this.stackOutputs = next.outputs;
    const extra = replacing
      ? {
          ...diffExtra(targetedReplaceDiff(replacing.inputs, next.inputs), replacing.inputs, next.inputs),
          keys: ['id'],
        }
      : {};
    const meta = stepMetadata(op, urn, reg.type, old, next, extra);
    const replaceMeta = replacing && stepMetadata('replace', urn, reg.type, old, next, extra);
    this.componentOps.set(urn, { op, old: replacing ? undefined : old });
    if (deleteFirst) await this.deleteDependents(deleteFirst, urn);
    // Pulumi's order: the old copy's delete-replaced before the replace step (see replace()).
    if (deleteFirst) await this.deleteOne(deleteFirst, 'delete-replaced');
    if (replaceMeta && dbr) this.pre(replaceMeta);
    this.pre(meta);
    // A component's before hooks run at its registration, its after hooks when it registers its outputs.
    if (op !== 'same')
      await this.hook(
        op === 'update' ? 'before_update' : 'before_create',
        next.resourceHooks,
        { urn, id: '', name: reg.name, type: reg.type, newInputs: next.inputs, ...(replacing ? {} : oldProps(old)) },
        meta,
      );
    if (replacing && dbr) {
      this.put(this.o.preview ? replacing : this.pendingReplacementOf(urn), next);
      this.replacedUrns.add(urn);
    } else if (replacing) {
      const marked = { ...replacing, delete: true };
      this.put(replacing, this.o.preview ? next : marked);
      if (!this.o.preview) this.put(undefined, next);
      this.toDeleteLater.push(marked);
      this.replacedUrns.add(urn);
    } else this.put(old, next);
    void this.write();
    this.count(op === 'same' ? 'same' : op === 'update' ? 'update' : replacing ? 'replace' : 'create');
    // An update reports a component's outputs once, when it registers them (update.go
    // OnResourceStepPost reports outputs at the step only for custom resources); a preview at both.
    if (this.o.preview) this.outputs(meta);
    // Create-before-delete: the replace step follows its create-replacement (continueStepsFromDiff).
    if (replaceMeta && !dbr) this.pre(replaceMeta);
    if (replaceMeta) this.outputs(replaceMeta);
    return { urn, id: '', outputs: {} };
  }

  async registerOutputs(urn: string, outputs: Props): Promise<void> {
    // The stack's outputs are kept for the end of the run (finalizeStackOutputs), as Pulumi's
    // step executor saves their event (step_executor.go executeRegisterResourceOutputs).
    if (urn === this.stackUrn) this.pendingStackOutputs = outputs;
    else await this.completeOutputs(urn, outputs);
  }

  private async completeOutputs(urn: string, outputs: Props): Promise<void> {
    const r = this.current.find((x) => x.urn === urn && !x.delete);
    // An untargeted component keeps its old outputs, as the rest of its old state.
    if (!r || this.untargeted.has(urn)) return;
    const next = { ...r, outputs };
    this.put(r, next);
    if (urn === this.stackUrn) this.stackOutputs = outputs;
    void this.write();
    const step = this.componentOps.get(urn);
    const meta = stepMetadata(step?.op ?? 'same', urn, r.type, r, next);
    if (step && step.op !== 'same')
      await this.hook(
        step.op === 'update' ? 'after_update' : 'after_create',
        next.resourceHooks,
        {
          urn,
          id: '',
          name: urnName(urn),
          type: r.type,
          newInputs: next.inputs,
          newOutputs: outputs,
          ...oldProps(step.old),
        },
        meta,
      );
    this.outputs(meta);
  }

  /**
   * The stack's outputs the program registered, once every step ran (deletes too), with their
   * event: after a run that failed (with --continue-on-error or not) its old outputs under the new
   * ones, as Pulumi finalizes them (deployment_executor.go Execute calls
   * executeRegisterResourceOutputs with errored: an output missing from the new ones may not have
   * been deleted, so it is kept).
   */
  async finalizeStackOutputs(errored: boolean): Promise<void> {
    const registered = this.pendingStackOutputs;
    if (!registered) return;
    this.pendingStackOutputs = undefined;
    const old = errored ? this.olds.get(this.stackUrn)?.outputs : undefined;
    await this.completeOutputs(this.stackUrn, { ...old, ...registered });
  }

  private guard(): void {
    if (this.canceled) throw new StepError('the update was canceled');
    if (this.failures.failure) throw new StepError('the update stopped after an earlier error');
  }

  /** A custom resource: Check → (Create | Diff → Same/Update/Replace), or an import. */
  async registerCustom(reg: Registration): Promise<StepOutcome> {
    this.guard();
    const urn = this.urn(reg.type, reg.name, reg.parent);
    this.claim(urn);
    this.undecided.add(urn);
    try {
      return await this.registerCustomStep(reg, urn);
    } finally {
      this.undecided.delete(urn);
    }
  }

  private async registerCustomStep(reg: Registration, urn: string): Promise<StepOutcome> {
    if (reg.hideDiffs?.length) this.hideDiffs.set(urn, reg.hideDiffs);
    const { old, alias } = this.findOld(urn, reg);
    const skip = this.failures.skippedAfterFailure(urn, reg);
    if (skip) return skip;
    // Pulumi's step generator applies ignoreChanges to any resource with an old state, targeted or
    // not, and fails the registration on a path it cannot follow (generateSteps: processIgnoreChanges).
    const invalid = old ? resetPaths(old.inputs, reg.inputs, reg.ignoreChanges).invalid : [];
    if (invalid.length) {
      const message = `cannot ignore changes to the following properties because one or more elements of the path are missing: ${goQuote(invalid.join(', '))}`;
      throw this.failures.refusedBeforeStep(urn, `${urn}: ${message}`, message);
    }
    const { plugin, ref } = await this.providerFor(reg.provider, reg.type, reg.version, reg.pluginDownloadURL);
    // An import, a dependent deleted ahead of a delete-before-replace and a formerly external
    // resource are stepped before targeting is considered, as in Pulumi's step generator.
    const before =
      (!old && reg.importId) || (old && (this.recreate.has(urn) || old.external || old.pendingReplacement));
    if (!before) {
      const edges = registrationEdges(reg, ref);
      if (!this.targeting.inScope(urn, reg.type, edges)) return this.untargetedStep(reg, urn, old, alias);
      this.checkSkippedCreates(urn, edges);
    }
    return this.track(this.customStep(reg, urn, old, alias, plugin, ref));
  }

  private async customStep(
    reg: Registration,
    urn: string,
    old: ResourceState | undefined,
    alias: string | undefined,
    plugin: ProviderPlugin,
    ref: string,
  ): Promise<StepOutcome> {
    this.guard();
    if (!old && reg.importId) return this.mutate(plugin, () => this.importStep(reg, urn, plugin, ref, false));
    // Deleted to be replaced by an earlier run that died before the replacement: created now.
    const recreating = old ? (this.recreate.get(urn) ?? (old.pendingReplacement ? ['id'] : undefined)) : undefined;
    const base = (extra: Partial<ResourceState>): ResourceState => ({
      urn,
      custom: true,
      type: reg.type,
      inputs: {},
      outputs: {},
      ...(reg.parent ? { parent: reg.parent } : {}),
      ...(reg.protect ? { protect: true } : {}),
      ...(reg.dependencies.length ? { dependencies: reg.dependencies } : {}),
      provider: ref,
      ...(Object.keys(reg.propertyDependencies).length ? { propertyDependencies: reg.propertyDependencies } : {}),
      ...(reg.additionalSecretOutputs.length ? { additionalSecretOutputs: reg.additionalSecretOutputs } : {}),
      ...(reg.customTimeouts ? { customTimeouts: reg.customTimeouts } : {}),
      ...(reg.retainOnDelete ? { retainOnDelete: true } : {}),
      ...(reg.ignoreChanges.length ? { ignoreChanges: reg.ignoreChanges } : {}),
      ...(reg.replaceOnChanges.length ? { replaceOnChanges: reg.replaceOnChanges } : {}),
      ...(alias ? { aliases: [alias] } : {}),
      ...(reg.deletedWith ? { deletedWith: reg.deletedWith } : {}),
      ...(reg.replaceWith?.length ? { replaceWith: reg.replaceWith } : {}),
      ...(reg.replacementTrigger !== undefined ? { replacementTrigger: reg.replacementTrigger } : {}),
      ...(reg.hooks ? { resourceHooks: reg.hooks } : {}),
      ...(reg.sourcePosition ? { sourcePosition: reg.sourcePosition } : {}),
      created: old?.created ?? goTimeJson(),
      modified: goTimeJson(),
      ...extra,
    });
    // A dependent deleted ahead of a delete-before-replace resource, or one the user asked to
    // replace (--replace, or `state taint`: step_generator.go isTargetedReplace is true for an old
    // state marked Taint), is checked afresh: its old inputs do not count. Its new state is untainted.
    const targeted = this.targetedReplace(urn, old);
    const fresh = !old || Boolean(recreating) || targeted;
    const news = fresh ? reg.inputs : applyIgnoreChanges(old!.inputs, reg.inputs, reg.ignoreChanges);
    const check = await plugin.check(urn, reg.name, reg.type, fresh ? {} : old!.inputs, news).catch((e: unknown) => {
      throw this.failures.preStepFailed(urn, 'checking', e);
    });
    if (check.failures.length) throw this.failures.checkFailed(urn, reg.type, news, check.failures);
    const inputs = check.inputs;
    if (!old)
      return this.mutate(plugin, (release) =>
        this.create(reg, urn, plugin, base({ inputs }), undefined, undefined, release),
      );
    // Deleted already (ahead of a delete-before-replace, or by a run that died): created again,
    // with the keys that forced it (continueStepsFromDiff: ReplaceStep, CreateReplacementStep).
    const createAgain = (keys: string[]) => {
      this.recreate.delete(urn);
      const forced: DiffResult = {
        changes: 'some',
        replaces: keys,
        stables: [],
        deleteBeforeReplace: true,
        diffs: changedKeys(old.inputs, inputs),
      };
      return this.mutate(plugin, () => this.replace(reg, urn, plugin, old, base({ inputs }), forced, keys, true, true));
    };
    if (recreating) return createAgain(recreating);

    let diff: DiffResult = targeted
      ? targetedReplaceDiff(old.inputs, inputs)
      : await plugin
          .diff(urn, reg.name, reg.type, old.id ?? '', old.outputs, inputs, old.inputs, reg.ignoreChanges)
          .catch((e: unknown) => {
            if (!(e instanceof DiffUnavailableError)) throw this.failures.preStepFailed(urn, 'diffing', e);
            // step_generator.go: an unavailable diff is taken as some change, its reason a warning.
            this.o.events.diag('warning', e.message, urn);
            return { changes: 'some', replaces: [], stables: [], deleteBeforeReplace: false, diffs: [] };
          });
    diff = knownDiff(diff, old.inputs, inputs);
    // A resource left with init errors is updated until it initialises (step_generator.go).
    if (diff.changes === 'none' && old.initErrors?.length) diff = { ...diff, changes: 'some' };
    const forcedKeys = await this.forcedReplacement(reg, old, ref);
    // Its step is decided now. Another delete-before-replace may have deleted it as a dependent
    // while its Diff ran: it is created again, as Pulumi's step generator does once the Diff is
    // back and it finds the resource deleted (pulumi/pulumi#19945, TestDBRParallel).
    this.undecided.delete(urn);
    const deleting = this.deletedEarly.get(old);
    if (deleting) {
      await deleting.catch(() => undefined);
      this.guard();
      return createAgain(this.recreate.get(urn) ?? []);
    }
    if (forcedKeys.length) diff = { ...diff, changes: 'some', replaces: [...diff.replaces, ...forcedKeys] };
    const applied = applyReplaceOnChanges(diff, reg.replaceOnChanges);
    diff = applied.diff;
    const { replaceKeys } = applied;
    if (diff.changes === 'none' && replaceKeys.length === 0) {
      const next = base({ id: old.id, inputs, outputs: old.outputs, modified: old.modified });
      const meta = stepMetadata('same', urn, reg.type, old, next);
      this.pre(meta);
      this.put(old, next);
      void this.write();
      this.count('same');
      this.outputs(meta);
      return { urn, id: old.id ?? '', outputs: old.outputs };
    }
    if (replaceKeys.length === 0)
      return this.mutate(plugin, (release) =>
        this.update(reg, urn, plugin, old, base({ id: old.id, inputs }), diff, release),
      );
    this.refuseProtectedReplace(urn, reg, old);
    // The replacement is checked again with no olds, so defaults are computed afresh (a targeted
    // one already was).
    const recheck = targeted ? check : await plugin.check(urn, reg.name, reg.type, undefined, news);
    if (recheck.failures.length) throw this.failures.checkFailed(urn, reg.type, news, recheck.failures);
    const dbr = reg.deleteBeforeReplace ?? diff.deleteBeforeReplace;
    const draft = base({ inputs: recheck.inputs });
    // The dependents' deletes and the replacement hold one slot, one after the other, as before.
    return this.mutate(plugin, async () => {
      if (dbr) await this.deleteDependents(old, urn);
      return this.replace(reg, urn, plugin, old, draft, diff, applied.eventKeys, dbr);
    });
  }

  /**
   * step_generator.go isTargetedReplace: a resource is replaced whatever its diff says when the
   * user asked for it (--replace) or its old state is tainted (`state taint`); its new state is
   * untainted. Any resource: custom, provider or component.
   */
  private targetedReplace(urn: string, old: ResourceState | undefined): boolean {
    return Boolean(old && (old.taint || this.o.replace?.(urn)));
  }

  /**
   * continueStepsFromDiff: a resource protected before and after is not replaced. The step
   * generator reports it under the resource, with no step; an update then bails, a preview goes on
   * planning the replacement, so the user sees it, and fails at the end (sawError).
   */
  private refuseProtectedReplace(urn: string, reg: Registration, old: ResourceState): void {
    if (!old.protect || !reg.protect) return;
    const message = `unable to replace resource "${urn}"\nas it is currently marked for protection. ${UNPROTECT}`;
    const refused = this.failures.stepGeneratorErrors([{ message, urn }]);
    if (refused) throw refused;
  }

  /**
   * Replacement keys that do not come from the provider's Diff: a changed provider whose new
   * configuration DiffConfig says cannot manage the old resource ('provider'), a changed
   * `replacementTrigger`, or a `replaceWith` resource replaced in this run.
   */
  private async forcedReplacement(reg: Registration, old: ResourceState, ref: string): Promise<string[]> {
    const keys: string[] = [];
    if (old.provider && old.provider !== ref && (await this.providerChanged(old.provider, ref))) keys.push('provider');
    // A trigger that is set and differs from the recorded one (or is unknown in a preview) replaces.
    if (
      reg.replacementTrigger !== undefined &&
      reg.replacementTrigger !== null &&
      (containsUnknowns(reg.replacementTrigger) ||
        !deepEqual(stripSecrets(reg.replacementTrigger), stripSecrets(old.replacementTrigger)))
    )
      keys.push('replacementTrigger');
    if (reg.replaceWith?.some((u) => this.replacedUrns.has(u))) keys.push('replaceWith');
    return keys;
  }

  private readonly providerDiffs = new Map<string, Promise<boolean>>();

  /** step_generator.go providerChanged: the new provider's DiffConfig of the old provider's inputs. */
  private providerChanged(oldRef: string, newRef: string): Promise<boolean> {
    const key = `${oldRef} ${newRef}`;
    let p = this.providerDiffs.get(key);
    if (!p) {
      p = (async () => {
        const [oldUrn, oldId] = splitRef(oldRef);
        const [newUrn, newId] = splitRef(newRef);
        if (this.aliases.aliased.get(oldUrn) === newUrn) return false;
        const oldRes = this.base.find((r) => r.urn === oldUrn && r.id === oldId);
        const newRes = this.current.find((r) => r.urn === newUrn && r.id === newId && !r.delete);
        if (!oldRes || !newRes) return false;
        const { plugin } = await this.providerFor(newRef, newRes.type.slice(providerPrefix.length), '');
        const diff = await plugin.diffConfig(
          newUrn,
          urnName(newUrn),
          newRes.type,
          withoutVersion(oldRes.inputs),
          withoutVersion(newRes.inputs),
        );
        return !!diff && diff.changes !== 'none' && replacementKeys(diff).length > 0;
      })();
      this.providerDiffs.set(key, p);
    }
    return p;
  }

  /**
   * Before a delete-before-replace resource is deleted, its dependents that the change would
   * replace are deleted first, dependents of dependents first (step_generator.go
   * calculateDependentReplacements): a dependent through the replaced provider, or whose
   * property depends on a replaced resource and whose provider's Diff, with those properties
   * unknown, asks for a replacement. They are created again when the program registers them.
   */
  private async deleteDependents(root: ResourceState, urn: string): Promise<void> {
    const start = this.base.indexOf(root);
    if (start < 0) return;
    const dependentSet = new Set([root.urn]);
    const replaceSet = new Set([root.urn]);
    const toReplace: Array<{ res: ResourceState; keys: string[] }> = [];
    for (const r of this.base.slice(start + 1)) {
      // Resources registered already no longer depend on the root (they would have come after it),
      // once their step is decided: one whose Diff is under way may still be deleted first
      // (pulumi/pulumi#19945: impossibleDependents, the resources with a generated step).
      if ((this.claimed.has(r.urn) && !this.undecided.has(r.urn)) || this.aliases.aliased.has(r.urn)) continue;
      const providerUrn = r.provider ? splitRef(r.provider)[0] : '';
      const edges = [
        ...(r.dependencies ?? []),
        ...Object.values(r.propertyDependencies ?? {}).flatMap((urns) => urns ?? []),
        ...(r.deletedWith ? [r.deletedWith] : []),
        ...(r.replaceWith ?? []),
      ];
      if (!edges.some((u) => dependentSet.has(u)) && !dependentSet.has(providerUrn)) continue;
      dependentSet.add(r.urn);
      const keys = await this.requiresReplacement(r, replaceSet, providerUrn);
      if (keys) {
        toReplace.push({ res: r, keys });
        replaceSet.add(r.urn);
      }
    }
    for (const { res, keys } of toReplace.reverse()) {
      if (this.deletedEarly.has(res)) continue;
      // The step generator's refusal under the replaced resource, with no step; a preview bails too.
      if (res.protect && !res.delete)
        throw this.failures.refusedBeforeStep(urn, protectedDependentRefusal(res.urn, urn));
      const { plugin } = await this.providerFor(res.provider ?? '', res.type, '');
      this.deletedUrns.add(res.urn);
      const deleting = this.deleteOne(res, 'delete-replaced', plugin);
      this.deletedEarly.set(res, deleting);
      await deleting;
      if (!res.delete) this.recreate.set(res.urn, keys);
    }
  }

  private async requiresReplacement(
    r: ResourceState,
    replaceSet: Set<string>,
    providerUrn: string,
  ): Promise<string[] | undefined> {
    if (!r.custom || r.external) return undefined;
    if (replaceSet.has(providerUrn)) return ['provider'];
    if (r.replaceWith?.some((u) => replaceSet.has(u))) return ['replaceWith'];
    let depends = false;
    const inputsForDiff: Props = {};
    for (const [k, v] of Object.entries(r.inputs)) {
      const replaced = (r.propertyDependencies?.[k] ?? []).some((u) => replaceSet.has(u));
      if (replaced) depends = true;
      inputsForDiff[k] = replaced ? unknownValue : v;
    }
    if (!depends || r.type.startsWith(providerPrefix)) return undefined;
    // As Pulumi's calculateDependentReplacements (pulumi/pulumi#19056): diffResource with the
    // dependent's recorded ignoreChanges (an unknown answer decided on the inputs), then its
    // recorded replaceOnChanges, so a property they name that would change replaces it too.
    const { plugin } = await this.providerFor(r.provider ?? '', r.type, '');
    const diff = await diffResource(plugin, r, r, inputsForDiff, r.ignoreChanges ?? []);
    const keys = applyReplaceOnChanges(diff, r.replaceOnChanges ?? []).replaceKeys;
    return keys.length ? keys : undefined;
  }

  private async create(
    reg: Registration,
    urn: string,
    plugin: ProviderPlugin,
    given: ResourceState,
    replacing: ResourceState | undefined,
    diff?: DiffResult,
    release: () => void = () => undefined,
    replaceKeys: string[] = [],
  ): Promise<StepOutcome> {
    const op: OpType = replacing ? 'create-replacement' : 'create';
    // Each create is one of its own, a replacement too, keyed by when it is sent (its `created`):
    // our plugin derives the create's OCI retry token from the key, so a replacement or the same
    // program in another folder makes a new resource. The create an interrupted run sent without
    // learning the id is sent again with its key, recorded with the pending create, so OCI
    // answers with the resource it made (adopted, not made twice).
    const interrupted = this.o.preview ? undefined : this.pending.interruptedCreates.get(urn);
    if (interrupted) this.pending.forgetInterrupted(urn);
    // The same create only with the same inputs (the retry token covers them).
    const resent = interrupted && deepEqual(interrupted.inputs, given.inputs) ? interrupted.key : undefined;
    if (interrupted && !resent) this.pending.untrackedCreate(urn, 'the program now gives it other inputs');
    if (resent && retryTokenExpired(resent)) this.pending.untrackedCreate(urn, expiredToken(resent));
    else if (resent)
      this.o.events.diag(
        'info',
        `${urn}: an earlier run was interrupted while creating it, before its id came back; this create is sent again as it was, so OCI answers with the resource it made, if it did`,
        urn,
      );
    const draft: ResourceState = { ...given, created: resent ?? goTimeJson() };
    // A replacement's create carries the replace step's keys and diff, as Pulumi's
    // NewCreateReplacementStep does.
    const extra = diffExtra(diff, replacing?.inputs, draft.inputs);
    const meta = stepMetadata(
      op,
      urn,
      reg.type,
      replacing,
      draft,
      replaceKeys.length ? { ...extra, keys: replaceKeys } : extra,
    );
    this.pre(meta);
    const hookArgs = { urn, id: '', name: reg.name, type: reg.type, newInputs: draft.inputs };
    await this.hook('before_create', draft.resourceHooks, hookArgs, meta);
    if (this.o.preview) {
      let outputs = draft.inputs;
      let id = '';
      if (plugin.supportsPreview) {
        const res = await plugin.create(urn, reg.name, reg.type, draft.inputs, draft.customTimeouts?.create, true);
        outputs = res.properties;
        id = res.id;
      }
      outputs = withSecrets(reg, draft.inputs, outputs);
      await this.hook('after_create', draft.resourceHooks, { ...hookArgs, id, newOutputs: outputs }, meta);
      if (!replacing) this.count('create');
      this.outputs({ ...meta, new: { ...meta.new!, outputs } });
      return { urn, id, outputs };
    }
    const done = await this.pending.begin(draft, 'creating');
    let next: ResourceState;
    try {
      const res = await this.withErrorHooks(draft.resourceHooks, { ...hookArgs, failedOperation: 'create' }, () =>
        plugin.create(urn, reg.name, reg.type, draft.inputs, draft.customTimeouts?.create, false, draft.created),
      ).finally(release);
      next = created(draft, res.id, res.properties);
      done();
      this.put(this.pendingReplacementOf(urn), next);
      await this.write();
    } catch (e) {
      done();
      // Created but not initialised: kept in the state so the next run updates (or replaces) it.
      const made = createdButFailed(draft, e);
      if (made) this.put(this.pendingReplacementOf(urn), made);
      void this.write();
      throw this.failures.stepFailed(meta, `${urn}: creating failed: ${oneLine(e)}`, e);
    }
    // The create is recorded before its after hooks run: a failing one fails the step, not the create.
    await this.hook('after_create', next.resourceHooks, { ...hookArgs, id: next.id!, newOutputs: next.outputs }, meta);
    if (!replacing) this.count('create');
    this.outputs(stepMetadata(op, urn, reg.type, replacing, next));
    return { urn, id: next.id!, outputs: next.outputs };
  }

  private async update(
    reg: Registration,
    urn: string,
    plugin: ProviderPlugin,
    old: ResourceState,
    draft: ResourceState,
    diff: DiffResult,
    release: () => void = () => undefined,
  ): Promise<StepOutcome> {
    const meta = stepMetadata('update', urn, reg.type, old, draft, diffExtra(diff, old.inputs, draft.inputs));
    this.pre(meta);
    const preview = this.o.preview;
    // A preview asks the provider only when it supports previews; else the outputs are the inputs.
    const call = () =>
      plugin.update(
        urn,
        reg.name,
        reg.type,
        old.id ?? '',
        old.outputs,
        draft.inputs,
        old.inputs,
        draft.customTimeouts?.update,
        reg.ignoreChanges,
        preview,
      );
    const hookArgs = {
      urn,
      id: old.id ?? '',
      name: reg.name,
      type: reg.type,
      newInputs: draft.inputs,
      ...oldProps(old),
    };
    await this.hook('before_update', draft.resourceHooks, hookArgs, meta);
    if (preview) {
      const outputs = withSecrets(reg, draft.inputs, plugin.supportsPreview ? await call() : draft.inputs);
      await this.hook('after_update', draft.resourceHooks, { ...hookArgs, newOutputs: outputs }, meta);
      this.count('update');
      this.outputs({ ...meta, new: { ...meta.new!, outputs } });
      return { urn, id: old.id ?? '', outputs };
    }
    const done = await this.pending.begin(pendingUpdate(old, draft), 'updating');
    let next: ResourceState;
    try {
      const props = await this.withErrorHooks(
        draft.resourceHooks,
        { ...hookArgs, failedOperation: 'update' },
        call,
      ).finally(release);
      next = { ...draft, outputs: withSecrets(reg, draft.inputs, props) };
      done();
      this.put(old, next);
      await this.write();
    } catch (e) {
      done();
      // As Pulumi records a partial failure of an update (update.go OnResourceStepPost): the
      // outputs as they now are, but the old inputs, since the update did not take: the next run
      // diffs against what was there and tries again.
      if (e instanceof InitFailedError)
        this.put(old, {
          ...draft,
          inputs: old.inputs,
          outputs: withSecrets(reg, draft.inputs, e.properties),
          initErrors: e.reasons,
        });
      void this.write();
      throw this.failures.stepFailed(meta, `${urn}: updating failed: ${oneLine(e)}`, e);
    }
    await this.hook('after_update', next.resourceHooks, { ...hookArgs, newOutputs: next.outputs }, meta);
    this.count('update');
    this.outputs(stepMetadata('update', urn, reg.type, old, next, diffExtra(diff, old.inputs, next.inputs)));
    return { urn, id: next.id ?? '', outputs: next.outputs };
  }

  private async replace(
    reg: Registration,
    urn: string,
    plugin: ProviderPlugin,
    old: ResourceState,
    draft: ResourceState,
    diff: DiffResult,
    replaceKeys: string[],
    deleteBeforeReplace: boolean,
    alreadyDeleted = false,
  ): Promise<StepOutcome> {
    const extra = { ...diffExtra(diff, old.inputs, draft.inputs), keys: replaceKeys };
    const meta = stepMetadata('replace', urn, reg.type, old, draft, extra);
    this.replacedUrns.add(urn);
    if (deleteBeforeReplace && !alreadyDeleted) {
      this.deletedUrns.add(old.urn);
      // The old resource is deleted by the provider that manages it (the old one, if it changed).
      const oldPlugin =
        old.provider && old.provider !== draft.provider
          ? (await this.providerFor(old.provider, old.type, '')).plugin
          : plugin;
      await this.deleteOne(old, 'delete-replaced', oldPlugin);
    }
    // A replacement's steps run one after the other as Pulumi chains them (step_generator.go
    // continueStepsFromDiff): a delete-before-replace's delete-replaced, replace, create-replacement
    // (its replace step done, with no id yet, before the create starts); a create-before-delete's
    // create-replacement, then replace (its delete-replaced at the end).
    if (deleteBeforeReplace) {
      this.pre(meta);
      // The replace step succeeded and counts (update.go OnResourceStepPost: a logical step's
      // Ops[op]++), whether its create then fails or not.
      this.count('replace');
      this.outputs(meta);
    }
    let outcome: StepOutcome;
    try {
      outcome = await this.create(reg, urn, plugin, draft, old, diff, undefined, replaceKeys);
    } catch (e) {
      // A partial failure (made, not initialised: cancelled, timed out, FAILED) is recorded
      // beside the original, which Pulumi's CreateStep.Apply marks for deletion all the same: one
      // live copy per URN, and the next run deletes the original (else it stayed in the state,
      // unmarked, never deleted, and `stack import` refused the state as a duplicate).
      if (
        !deleteBeforeReplace &&
        !this.o.preview &&
        this.current.some((r) => r.urn === urn && r !== old && !r.delete)
      ) {
        this.put(old, { ...old, delete: true });
        void this.write();
      }
      throw e;
    }
    if (!deleteBeforeReplace && !this.o.preview) {
      // Create-before-delete: the old copy stays in the state marked for deletion until the end.
      const marked = { ...old, delete: true };
      this.put(old, marked);
      this.toDeleteLater.push(marked);
      await this.write();
    }
    if (!deleteBeforeReplace && this.o.preview) this.toDeleteLater.push({ ...old, delete: true });
    if (!deleteBeforeReplace) {
      this.count('replace');
      // The replace step's new state is the one its create-replacement made (id, outputs).
      const made = { ...meta, new: { ...meta.new!, id: outcome.id, outputs: outcome.outputs } };
      this.pre(made);
      this.outputs(made);
    }
    return outcome;
  }

  /** `import` resource option (`cli` false) or the import command (`cli` true): Read with only the id. */
  async importStep(
    reg: Registration,
    urn: string,
    plugin: ProviderPlugin,
    ref: string,
    cli: boolean,
    properties?: string[],
  ): Promise<StepOutcome> {
    const draft: ResourceState = {
      urn,
      custom: true,
      type: reg.type,
      id: reg.importId,
      inputs: {},
      outputs: {},
      ...(reg.parent ? { parent: reg.parent } : {}),
      ...(reg.protect ? { protect: true } : {}),
      ...(reg.dependencies.length ? { dependencies: reg.dependencies } : {}),
      provider: ref,
      ...(reg.retainOnDelete ? { retainOnDelete: true } : {}),
      ...(reg.ignoreChanges.length ? { ignoreChanges: reg.ignoreChanges } : {}),
      ...(reg.hooks ? { resourceHooks: reg.hooks } : {}),
      ...(reg.sourcePosition ? { sourcePosition: reg.sourcePosition } : {}),
      importID: reg.importId,
      created: goTimeJson(),
      modified: goTimeJson(),
    };
    const meta = stepMetadata('import', urn, reg.type, undefined, draft);
    this.pre(meta);
    const done = this.o.preview ? () => undefined : await this.pending.begin(draft, 'importing');
    try {
      const read = await plugin.read(urn, reg.name, reg.type, reg.importId, undefined, undefined);
      if (!read.id) {
        // `ocikit import` reads with the default provider: say how to reach another region's.
        const hint =
          cli && !reg.provider
            ? ' (read with the default provider; for another provider, such as one in another region, use --provider name=urn)'
            : '';
        throw new StepError(`${urn}: resource '${reg.importId}' does not exist${hint}`);
      }
      if (!read.inputs) throw new StepError(`${urn}: the provider does not support importing resources`);
      // An import file's `properties` (Pulumi's ImportStep): only those of the inputs read are kept.
      const readInputs = properties?.length
        ? Object.fromEntries(Object.entries(read.inputs).filter(([k]) => properties.includes(k)))
        : read.inputs;
      let inputs = readInputs;
      if (cli) {
        const check = await plugin.check(urn, reg.name, reg.type, readInputs, readInputs);
        // `pulumi import` warns of them and imports (ImportStep: issueCheckFailures(Warningf, …)).
        for (const m of checkFailureMessages(reg.type, urn, readInputs, check.failures))
          this.o.events.diag('warning', m, urn);
      } else {
        const news = applyIgnoreChanges(readInputs, reg.inputs, reg.ignoreChanges);
        const check = await plugin.check(urn, reg.name, reg.type, readInputs, news);
        // ImportStep.Apply (issueCheckErrors): the failures reported, then the step fails with
        // Pulumi's words (a step failure, which --continue-on-error goes on from).
        if (check.failures.length) {
          const messages = checkFailureMessages(reg.type, urn, news, check.failures);
          for (const m of messages) this.o.events.diag('error', m, urn);
          // Without the flag the run's one-line error is the first failure.
          if (!this.o.continueOnError) this.failures.recordFailure(messages[0]);
          throw new StepError(`${urn}: one or more inputs failed to validate`);
        }
        const diff = await plugin.diff(
          urn,
          reg.name,
          reg.type,
          read.id,
          read.properties,
          check.inputs,
          readInputs,
          reg.ignoreChanges,
        );
        const changed =
          diff.changes === 'some' || (diff.changes === 'unknown' && changedKeys(readInputs, check.inputs).length > 0);
        if (applyReplaceOnChanges(diff, reg.replaceOnChanges).replaceKeys.length > 0 || changed) {
          const keys = diff.diffs.length ? diff.diffs : changedKeys(readInputs, check.inputs);
          // Pulumi's words (ImportStep.Apply); the warning carries the URN in its own field, the
          // run's one-line error names it.
          const message = `inputs to import do not match the existing resource: [${keys.join(' ')}]`;
          if (!this.o.preview) throw new StepError(`${urn}: ${message}`);
          this.o.events.diag('warning', `${message}; importing this resource will fail`, urn);
        }
        inputs = check.inputs;
      }
      const next: ResourceState = {
        ...draft,
        id: read.id,
        inputs,
        outputs: withSecrets(reg, inputs, read.properties),
      };
      done();
      if (!this.o.preview) {
        this.put(undefined, next);
        await this.write();
      }
      this.count('import');
      this.outputs(stepMetadata('import', urn, reg.type, undefined, next));
      return { urn, id: read.id, outputs: next.outputs };
    } catch (e) {
      done();
      void this.write();
      const message = e instanceof StepError ? e.message : `${urn}: importing failed: ${oneLine(e)}`;
      // A failed step either way: the `import` option's goes on under --continue-on-error
      // (ImportStep.Fail answers FAIL); `ocikit import`, which takes no such flag, stops at the
      // first, and ends with `update failed` as Pulumi's importer does (deployment_executor.go
      // importResources: reportExecResult("failed") once the step executor errored).
      throw this.failures.stepFailed(meta, message, e);
    }
  }

  /**
   * `ocikit import`: a resource under the stack (or `parent`) with the default provider, or with a
   * provider of the stack (`--provider name=urn`, e.g. one in the DR plan's region). As Pulumi's
   * importer (importResources): one the stack already holds with the same id is left as it is
   * (a same step); a component is recorded without a read.
   */
  async importResource(imp: ImportSpec): Promise<StepOutcome> {
    // `--parent`: a resource of the stack, whose type and name then qualify the URN (as Pulumi's).
    // (A parent imported earlier in this run is in the state, or, in a preview, registered.)
    if (imp.parent && !this.registered.has(imp.parent) && !this.current.some((r) => r.urn === imp.parent && !r.delete))
      throw new StepError(`parent ${imp.parent} is not in the stack (ocikit stack --show-urns lists it)`);
    const parent = imp.parent ?? this.stackUrn;
    const urn = this.urn(imp.type, imp.name, parent);
    const old = this.olds.get(urn);
    if (old) {
      if ((old.importID ?? old.id ?? '') !== imp.id) throw new StepError(`${urn} is already in the stack`);
      this.registered.add(urn);
      const meta = stepMetadata('same', urn, imp.type, old, old);
      this.pre(meta);
      this.count('same');
      this.outputs(meta);
      return { urn, id: old.id ?? '', outputs: old.outputs };
    }
    if (imp.component) return this.importComponent(imp, urn, parent);
    let version = imp.version ?? '';
    if (imp.provider) {
      const p = this.current.find((r) => r.urn === imp.provider && !r.delete);
      if (!p) throw new StepError(`provider ${imp.provider} is not in the stack (ocikit stack --show-urns lists it)`);
      // A component (no id) or a resource of the stack named as the provider is no provider.
      if (!p.type.startsWith(providerPrefix) || !p.id) throw new StepError(`${imp.provider} is not a provider`);
      const ref = `${p.urn}::${p.id}`;
      const { plugin } = await this.providerFor(ref, imp.type, '');
      this.registered.add(urn);
      const reg = { ...importRegistration(imp, parent, ''), provider: ref };
      return this.importStep(reg, urn, plugin, ref, true, imp.properties);
    }
    // The stack's default provider of the package (the program's, e.g. default_4_20_0 from
    // @pulumi/oci) rather than a second, unversioned one that the next `up` would delete.
    const pkgProvider = `${providerPrefix}${imp.type.split(':')[0]}`;
    const existing = this.current.find((r) => r.type === pkgProvider && !r.delete && isDefaultProvider(r.urn));
    if (!version && typeof existing?.inputs.version === 'string') version = existing.inputs.version;
    const { plugin, ref } = await this.providerFor('', imp.type, version);
    this.registered.add(urn);
    return this.importStep(importRegistration(imp, parent, version), urn, plugin, ref, true, imp.properties);
  }

  /** An import file's `component: true`: recorded as a component (no id, no inputs), as Pulumi's ImportStep does. */
  private async importComponent(imp: ImportSpec, urn: string, parent: string): Promise<StepOutcome> {
    const now = goTimeJson();
    const next: ResourceState = {
      urn,
      custom: false,
      type: imp.type,
      inputs: {},
      outputs: {},
      parent,
      ...(imp.protect ? { protect: true } : {}),
      created: now,
      modified: now,
    };
    this.registered.add(urn);
    const meta = stepMetadata('import', urn, imp.type, undefined, next);
    this.pre(meta);
    this.put(undefined, next);
    await this.write();
    this.count('import');
    this.outputs(meta);
    return { urn, id: '', outputs: {} };
  }

  /** `Resource.get`: Read(id, state); an external resource, never deleted, only dropped from state. */
  async readResource(reg: Registration & { id: string }): Promise<StepOutcome> {
    this.guard();
    const urn = this.urn(reg.type, reg.name, reg.parent);
    const old = this.olds.get(urn);
    // --continue-on-error: a read that depends on a failed or skipped resource is skipped too
    // (handleSingleEvent skips read steps as any other); what the state holds for it stays.
    const skip = this.failures.skippedAfterFailure(urn, reg);
    if (skip) {
      this.registered.add(urn);
      return skip;
    }
    if (!reg.id || containsUnknowns(reg.id)) {
      // A preview whose id is known only after the update (Pulumi's ReadStep does nothing then):
      // the read is planned, and what the state holds for it stays (not discarded).
      this.registered.add(urn);
      const planned: ResourceState = {
        urn,
        custom: true,
        external: true,
        type: reg.type,
        inputs: reg.inputs,
        outputs: {},
      };
      const meta = stepMetadata('read', urn, reg.type, old, planned);
      this.pre(meta);
      this.outputs(meta);
      return { urn, id: '', outputs: {} };
    }
    this.registered.add(urn);
    const { plugin, ref } = await this.providerFor(reg.provider, reg.type, reg.version, reg.pluginDownloadURL);
    return this.step(async () => {
      const draft: ResourceState = {
        urn,
        custom: true,
        external: true,
        type: reg.type,
        id: reg.id,
        inputs: reg.inputs,
        outputs: {},
        ...(reg.parent ? { parent: reg.parent } : {}),
        ...(reg.dependencies.length ? { dependencies: reg.dependencies } : {}),
        provider: ref,
        ...(reg.additionalSecretOutputs.length ? { additionalSecretOutputs: reg.additionalSecretOutputs } : {}),
        ...(reg.sourcePosition ? { sourcePosition: reg.sourcePosition } : {}),
      };
      const meta = stepMetadata('read', urn, reg.type, old, draft);
      this.pre(meta);
      let read;
      try {
        read = await plugin.read(urn, reg.name, reg.type, reg.id, reg.inputs, reg.inputs);
      } catch (e) {
        throw this.failures.stepFailed(meta, `${urn}: reading failed: ${oneLine(e)}`, e);
      }
      if (!read.id) throw this.failures.stepFailed(meta, `${urn}: resource '${reg.id}' does not exist`);
      const outputs = withSecrets(reg, reg.inputs, read.properties);
      // As Pulumi's ReadStep.Apply: the state's times carry on, and `modified` moves when what was
      // read differs from what it held (a first read has neither).
      const changed = old && (!deepEqual(old.inputs, draft.inputs) || !deepEqual(old.outputs, outputs));
      const modified = changed ? goTimeJson() : old?.modified;
      const next: ResourceState = {
        ...draft,
        id: read.id,
        outputs,
        ...(old?.created ? { created: old.created } : {}),
        ...(modified ? { modified } : {}),
      };
      this.put(old, next);
      await this.write();
      // Pulumi's ShouldRecordReadStep: a read counts only when it changed what the state held.
      if (old?.outputs && changedKeys(old.outputs, next.outputs).length) this.count('read');
      this.outputs(stepMetadata('read', urn, reg.type, old, next));
      return { urn, id: read.id, outputs: next.outputs };
    });
  }

  async invoke(
    tok: string,
    args: Props,
    provider: string,
    version: string,
    pluginDownloadURL = '',
  ): Promise<{ result: Props; failures: Array<{ property: string; reason: string }> }> {
    this.guard();
    const { plugin } = await this.providerFor(provider, tok, version, pluginDownloadURL);
    return plugin.invoke(tok, args, this.o.preview);
  }

  // ----- deletes -----------------------------------------------------------------------------

  /** Old resources the program no longer declares, plus replaced copies, deleted dependents first. */
  async finish(): Promise<void> {
    if (this.targeting.constrained) this.pending.keepUnresentCreates();
    else await this.pending.reportUnresentCreates();
    // (A resource deleted to be replaced that the program no longer declares is only forgotten.)
    const unregistered = this.current.filter(
      (r) =>
        !r.delete &&
        (this.olds.get(r.urn) === r || r.pendingReplacement) &&
        !this.registered.has(r.urn) &&
        !this.deletedEarly.has(r),
    );
    const missing = this.missingTargets(this.targeting.targets);
    await this.deleteAll(
      this.failures.withoutFailedDependencies(
        this.current,
        this.targetedDeletes([
          ...unregistered,
          ...this.toDeleteLater.filter(
            (r) => (this.current.includes(r) || this.o.preview) && !this.deletedEarly.has(r),
          ),
        ]),
      ),
    );
    // As Pulumi's executor, the deletes that are allowed run before an unknown target fails the run.
    if (missing.length) throw new StepError(missing[0]);
  }

  /** `destroy`: every resource of the stack. */
  async destroyAll(): Promise<void> {
    const missing = this.missingTargets(this.targeting.targets);
    const targets = this.targetedDeletes([...this.current]);
    // Delete hooks are functions of the program, which destroy does not run. Pulumi refuses such a
    // destroy up front unless --run-program runs the program, which ocikit does not implement.
    const hooked = targets.filter((r) => r.resourceHooks?.before_delete || r.resourceHooks?.after_delete);
    if (hooked.length) {
      const message = `${hooked.map((r) => r.urn).join(', ')} ${hooked.length > 1 ? 'have' : 'has'} delete hooks, which need the program to run (Pulumi's destroy --run-program, which ocikit does not implement): remove the resources from the program and run up, then destroy`;
      this.o.events.diag('error', message, hooked[0].urn);
      throw new StepError(message);
    }
    await this.deleteAll(targets);
    if (missing.length) throw new StepError(missing[0]);
  }

  private async deleteAll(all: ResourceState[]): Promise<void> {
    let targets = all;
    if (targets.length === 0) return;
    // Refused before anything is deleted (Pulumi refuses at each protected resource's delete step,
    // after deleting the others: a half-deleted stack helps no one), unless the user asked for
    // that with --continue-on-error: then, as Pulumi's, each refusal is a failed step and the
    // others go on, but for what a protected resource depends on. As Pulumi's, each refused step
    // is announced (the plan shows its `-` line; the summary does not count it) and fails with
    // DeleteStep.Apply's words, line breaks included, which a preview reports as "Preview failed:
    // …" (diag.GetPreviewFailedError). The run's one-line error folds them.
    const protectedOnes = targets.filter((r) => r.protect && !r.delete && !r.external);
    if (protectedOnes.length && this.o.continueOnError && !this.o.preview) {
      for (const r of protectedOnes) {
        const meta = stepMetadata('delete', r.urn, r.type, r, undefined);
        this.pre(meta);
        this.failures.stepFailed(meta, protectedRefusal(r.urn));
      }
      targets = this.failures.withoutFailedDependencies(this.current, targets);
    } else if (protectedOnes.length) {
      const messages = protectedOnes.map((r) => {
        const meta = stepMetadata('delete', r.urn, r.type, r, undefined);
        const refusal = protectedRefusal(r.urn);
        this.pre(meta);
        // A failed delete step (DeleteStep.Apply), as any: the update ends with `update failed`.
        if (!this.o.preview) return this.failures.stepFailed(meta, refusal).message;
        const message = `Preview failed: ${refusal}`;
        // A preview's DeleteStep.Apply fails the step too (no failed row in a preview).
        this.failures.recordFailure(message);
        this.failures.reportFailure(meta, message, undefined, true);
        return message;
      });
      throw new StepError(messages[0]);
    }
    const waitFor = deleteWaits(targets);
    for (const t of targets) this.deletedUrns.add(t.urn);
    const done = new Map<ResourceState, Promise<void>>();
    const run = (t: ResourceState): Promise<void> => {
      let p = done.get(t);
      if (!p) {
        p = (async () => {
          await Promise.all(waitFor.get(t)!.map(run));
          this.guard();
          // An external resource (`Resource.get`) is only dropped from the state: Pulumi's read-discard step.
          await this.deleteOne(t, t.external ? 'discard' : t.delete ? 'delete-replaced' : 'delete');
        })();
        done.set(t, p);
      }
      return p;
    };
    // A target waiting for a delete that failed is not deleted (what still exists depends on it);
    // with --continue-on-error the others go on, and the run fails at the end.
    const results = await Promise.allSettled(targets.map(run));
    const failed = results.find((r) => r.status === 'rejected' && !(r.reason instanceof ContinuedStepError));
    if (failed) throw (failed as PromiseRejectedResult).reason;
  }

  private async deleteOne(r: ResourceState, op: OpType, plugin?: ProviderPlugin): Promise<void> {
    const meta = stepMetadata(op, r.urn, r.type, r, undefined);
    // deletedWith: the resource goes with its target, deleted in this run, so it is not deleted itself.
    const deletedWith = !!r.deletedWith && this.deletedUrns.has(r.deletedWith);
    const skipProvider = deleteSkipsProvider(r, deletedWith);
    const hookArgs = { urn: r.urn, id: r.id ?? '', name: urnName(r.urn), type: r.type, ...oldProps(r) };
    await (plugin ? (f: () => Promise<void>) => f() : (f: () => Promise<void>) => this.sem.run(f))(async () => {
      if (!plugin) this.guard(); // a delete that waited for a slot: a cancel or failure meanwhile stops it
      this.pre(meta);
      // Delete hooks run whether or not the provider is asked (retainOnDelete, deletedWith, components).
      await this.hook('before_delete', r.resourceHooks, hookArgs, meta);
      if (this.o.preview) {
        await this.hook('after_delete', r.resourceHooks, hookArgs, meta);
        if (op === 'delete' && !isDefaultProvider(r.urn)) this.count('delete');
        this.outputs(meta);
        return;
      }
      if (!skipProvider) {
        const p = plugin ?? (await this.providerFor(r.provider ?? '', r.type, '')).plugin;
        const done = await this.pending.begin(r, 'deleting');
        try {
          await this.withErrorHooks(r.resourceHooks, { ...hookArgs, failedOperation: 'delete' }, () =>
            p.delete(r.urn, urnName(r.urn), r.type, r.id!, r.outputs, r.inputs, r.customTimeouts?.delete),
          );
        } catch (e) {
          done();
          void this.write();
          throw this.failures.stepFailed(meta, `${r.urn}: deleting failed: ${oneLine(e)}`, e);
        }
        done();
      }
      // Deleted to be replaced (delete-before-replace), it stays in the state marked
      // pendingReplacement until its replacement exists, as Pulumi keeps it: what refers to it
      // still finds it if the run dies in between, and the next run knows to create it.
      this.put(r, op === 'delete-replaced' && !r.delete ? { ...r, pendingReplacement: true } : undefined);
      await this.write();
      await this.hook('after_delete', r.resourceHooks, hookArgs, meta);
      if (op === 'delete' && !r.external && !isDefaultProvider(r.urn)) this.count('delete');
      this.outputs(meta);
    });
  }

  // ----- refresh -----------------------------------------------------------------------------

  /**
   * Reads every custom resource back; records drift in the state, writes nothing to the cloud.
   * `refresh`, or the refresh that `up --refresh` runs before the program (`beforeUpdate`): then
   * nothing it finds is counted, and the update's steps diff against what was read. Pulumi counts
   * a refresh step only in a refresh operation, as its result (same, update, delete); elsewhere a
   * refresh step is not logical (RefreshStep.Logical) and goes uncounted (pkg/engine/update.go
   * OnResourceStepPost: `record` is `step.Logical()` unless `acts.Opts.isRefresh`).
   */
  async refresh(options: { beforeUpdate?: boolean } = {}): Promise<void> {
    const count = (kind: 'same' | 'update' | 'delete') => {
      if (!options.beforeUpdate) this.count(kind);
    };
    // Before an update, what was read becomes the old state the steps start from.
    const replaceOld = (r: ResourceState, next: ResourceState | undefined) =>
      options.beforeUpdate ? this.replaceOldState(r, next) : this.put(r, next);
    // Targets and excludes are checked first (a plain refresh), then select what is read.
    if (!options.beforeUpdate) {
      const missing = [...this.missingTargets(this.targeting.targets), ...this.missingTargets(this.targeting.excludes)];
      if (missing.length) throw new StepError(missing[0]);
    }
    const selected = this.targeting.refreshSelection(orderResources(this.current));
    const chosen = this.current.filter((r) => !selected || selected.has(r));
    // A resource deleted to be replaced is not read: it is known gone, and kept for its replacement.
    const targets = chosen.filter(
      (r) => r.custom && r.id && !r.type.startsWith(providerPrefix) && !r.pendingReplacement,
    );
    // Pulumi gives every resource a refresh step (deployment_executor.go refresh); the stack,
    // components and providers read nothing and come out unchanged (RefreshStep.Apply), counted
    // and shown as such. Default providers' steps are internal: neither shown nor counted.
    const read = new Set(targets);
    if (!options.beforeUpdate)
      for (const r of chosen)
        if (!read.has(r) && !isDefaultProvider(r.urn)) {
          const meta = stepMetadata('refresh', r.urn, r.type, r, r);
          this.pre(meta);
          count('same');
          this.outputs({ ...meta, refreshResult: 'same' });
        }
    const results = await Promise.allSettled(
      targets.map((r) =>
        this.sem.run(async () => {
          this.guard();
          const { plugin } = await this.providerFor(r.provider ?? '', r.type, '');
          const meta = stepMetadata('refresh', r.urn, r.type, r, r);
          this.pre(meta);
          let found: RefreshRead | undefined;
          try {
            found = await refreshRead(plugin, r);
          } catch (e) {
            // Reported, but the other reads go on (recorded as the run's failure below): Pulumi's
            // refresh runs its step executor ignoring errors (deployment_executor.go refresh,
            // newStepExecutor(..., true)), and a failed read (or Diff) keeps the old state
            // (NewRefreshStep; RefreshStep.Apply returns the error).
            const message = `${r.urn}: refreshing failed: ${oneLine(e)}`;
            this.failures.reportFailure(meta, message, e);
            throw new StepError(message);
          }
          if (!found) {
            replaceOld(r, undefined);
            await this.write();
            count('delete');
            this.outputs(stepMetadata('refresh', r.urn, r.type, r, undefined, { refreshResult: 'delete' }));
            return;
          }
          const { next, drift } = found;
          replaceOld(r, next);
          await this.write();
          const result = drift.changed ? 'update' : 'same';
          count(result);
          this.outputs(stepMetadata('refresh', r.urn, r.type, r, next, { ...drift.extra, refreshResult: result }));
        }),
      ),
    );
    if (this.dropDanglingReferences()) await this.write();
    const failed = results.find((x) => x.status === 'rejected');
    if (failed) {
      const reason = (failed as PromiseRejectedResult).reason as unknown;
      if (reason instanceof StepError) this.failures.recordFailure(reason.message);
      throw reason;
    }
  }

  /**
   * After a refresh removed resources it found gone, what the others recorded of them goes too
   * (danglingReferenceFixes). True if anything changed.
   */
  private dropDanglingReferences(): boolean {
    const fixes = danglingReferenceFixes(this.current, this.base);
    for (const [r, next] of fixes) this.replaceOldState(r, next);
    return fixes.length > 0;
  }

  // ----- pending operations left by an earlier run --------------------------------------------

  /**
   * Resolves pending operations of an interrupted run so this run converges (Pulumi asks the user;
   * we cannot ask, so): a pending update or delete is read back by id (gone → removed from the
   * state, present → its outputs refreshed); a pending import is reported. A pending create whose
   * id never came back is, in a run that may write to the cloud for every resource
   * (`completeCreates`: a whole update or destroy), finished: sent again as it was, with its key,
   * so OCI answers with the resource it made (or makes it now), which then takes its steps like
   * any other (kept, updated to the program's inputs, replaced, or deleted); a targeted run does
   * so for the resources it targets. Elsewhere (a refresh, an import, a resource a targeted run
   * leaves alone) it is kept until a run creates it (see create). A run that refreshes
   * (`refresh`, `--refresh`) does not read a pending update or delete back itself: its refresh
   * step reads the resource, still in the state, and shows and counts what it found, and the
   * operation is dropped, as Pulumi keeps only the pending creates of the base state
   * (pkg/backend/snapshot.go: "Track pending create operations from the base snapshot").
   */
  async resolvePending(opts: { completeCreates: boolean; adoptImports?: boolean; refreshes?: boolean }): Promise<void> {
    const ops = [...this.pending.list];
    if (ops.length === 0) return;
    // A targeted run finishes only the creates of resources it targets (and does not exclude).
    const complete = (urn: string) => opts.completeCreates && this.targeting.includes(urn);
    // An operation that could not be read back (OCI unreachable) stays on record for the next run.
    const unresolved: Snapshot['pendingOperations'] = [];
    for (const op of ops) {
      const r = op.resource;
      const existing = this.current.find((x) => x.urn === r.urn && x.id === r.id && !!r.id);
      if (op.type === 'creating' && !existing && r.created) {
        if (complete(r.urn) && (await this.completeInterruptedCreate(r))) continue;
        // Its create is sent again with the same key if this run creates it with the same inputs
        // (see create): OCI then answers with the resource it made. Said when that happens, or not.
        // Its pending operation stays on record until then: a run that fails first leaves it.
        this.pending.interruptedCreates.set(r.urn, { key: r.created, inputs: r.inputs, op });
        continue;
      }
      if (op.type === 'importing' && !existing && r.id && opts.adoptImports) {
        // `refresh --import-pending-creates`: the create made it under this id; the refresh reads it in.
        if (!(await this.adoptPendingImport(r))) unresolved.push(op);
        continue;
      }
      if (op.type === 'importing' && !existing) {
        // An import writes nothing to the cloud: the resource is there, only not in the state.
        this.o.events.diag(
          'warning',
          `${r.urn}: an earlier run was interrupted while importing ${r.id ?? 'it'}; it is not in the state: import it again`,
          r.urn,
        );
        continue;
      }
      if (op.type === 'creating' && !existing) {
        this.o.events.diag(
          'warning',
          `${r.urn}: an earlier run was interrupted while creating it; its id was never returned, so if it exists in the cloud it must be deleted or imported by hand`,
          r.urn,
        );
        continue;
      }
      if (!existing || !existing.custom || !existing.id || opts.refreshes) continue;
      try {
        const read = await this.readSettled(existing, op.type);
        this.replaceOldState(
          existing,
          read.id ? { ...existing, outputs: read.properties, inputs: read.inputs ?? existing.inputs } : undefined,
        );
        this.o.events.diag(
          'info',
          `${existing.urn}: resolved the interrupted ${op.type} of an earlier run (${read.id ? 'still exists' : 'gone'})`,
          existing.urn,
        );
      } catch (e) {
        unresolved.push(op);
        this.o.events.diag('warning', `${r.urn}: could not resolve the interrupted ${op.type}: ${oneLine(e)}`, r.urn);
      }
    }
    this.pending.list = [...unresolved, ...[...this.pending.interruptedCreates.values()].map((c) => c.op)];
    await this.write();
  }

  /**
   * A pending import with the id a user gave (`refresh --import-pending-creates`), read into the
   * state as the resource of its URN (or dropped, said, if there is none with that id). False (and
   * said) when it could not be read: it stays pending.
   */
  private async adoptPendingImport(r: ResourceState): Promise<boolean> {
    try {
      const read = await this.readSettled(r, 'importing');
      if (read.id) this.adoptMade({ ...r, id: read.id, outputs: read.properties, inputs: read.inputs ?? r.inputs });
      this.o.events.diag(
        read.id ? 'info' : 'warning',
        read.id
          ? `${r.urn}: its pending create is imported as ${read.id}`
          : `${r.urn}: no resource has the id ${r.id}; its pending create is dropped`,
        r.urn,
      );
      return true;
    } catch (e) {
      this.o.events.diag('warning', `${r.urn}: could not import its pending create: ${oneLine(e)}`, r.urn);
      return false;
    }
  }

  /**
   * Finishes a create an interrupted run sent without learning the id: the same create (inputs,
   * key, so the same OCI retry token) is sent again and OCI answers with the resource the first
   * one made, or makes it now. It enters the state as the run's old resource of its URN: a
   * replacement's original (create-before-delete) becomes a copy to delete, a resource deleted
   * to be replaced gives it its place. False (and said) when the create fails: it stays pending.
   */
  private async completeInterruptedCreate(r: ResourceState): Promise<boolean> {
    const name = urnName(r.urn);
    let made: ResourceState | undefined;
    try {
      const { plugin } = await this.providerFor(r.provider ?? '', r.type, '');
      const res = await plugin.create(r.urn, name, r.type, r.inputs, r.customTimeouts?.create, false, r.created);
      made = created(r, res.id, res.properties);
    } catch (e) {
      // Made but not initialised: recorded as a create's partial failure is, for its steps to mend.
      made = createdButFailed(r, e);
      if (!made) {
        this.o.events.diag(
          'warning',
          `${r.urn}: an earlier run was interrupted while creating it, before its id came back, and sending that create again failed: ${oneLine(e)}`,
          r.urn,
        );
        return false;
      }
    }
    this.adoptMade(made);
    if (r.created && retryTokenExpired(r.created))
      this.pending.untrackedCreate(r.urn, `${expiredToken(r.created)}; this run manages ${made.id}`);
    else
      this.o.events.diag(
        'info',
        `${r.urn}: an earlier run was interrupted while creating it, before its id came back; that create was sent again as it was and OCI answered with ${made.id}, which this run now manages`,
        r.urn,
      );
    return true;
  }

  /**
   * What an interrupted create made, now known (its create sent again, or its id given to
   * `refresh --import-pending-creates`), enters the state as the run's old resource of its URN:
   * it takes the place of a resource deleted to be replaced (pendingReplacement); beside a
   * create-before-delete replacement's original, that original becomes a copy to delete (at the
   * end of this run, as the interrupted run would have, or by the next `up` after a refresh), so
   * the URN is live once.
   */
  private adoptMade(made: ResourceState): void {
    const live = this.olds.get(made.urn);
    if (live?.pendingReplacement) this.replaceOldState(live, made);
    else if (live) {
      const original: ResourceState = { ...live, delete: true };
      this.replaceOldState(live, made);
      this.put(undefined, original);
      this.toDeleteLater.push(original);
    } else {
      this.put(undefined, made);
      this.olds.set(made.urn, made);
      this.base.push(made);
    }
  }

  /** readOnceSettled with the resource's provider. */
  private async readSettled(
    r: ResourceState,
    type: PendingKind,
  ): Promise<{ id: string; properties: Props; inputs?: Props }> {
    const { plugin } = await this.providerFor(r.provider ?? '', r.type, '');
    return readOnceSettled(plugin, r, type, () => this.canceled);
  }

  // ----- lifecycle ---------------------------------------------------------------------------

  async cancel(): Promise<void> {
    this.canceled = true;
    await this.providers.cancel();
  }

  /** Ends the run's plugins, or (`handover`) leaves them running for the command's next run. */
  async close(handover?: PluginHandover): Promise<void> {
    this.hooks.close();
    await this.providers.close(handover);
  }
}

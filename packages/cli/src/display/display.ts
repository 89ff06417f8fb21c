import type { EngineEvent, EngineResult, OpType, PropertyDiff, StepEventMetadata } from '../engine';
import { jsonEvent } from './json-event';
import { isDefaultProvider } from '../engine/default-provider';
import { isSecret, SECRET_SIG, SECRET_VALUE, stepDuration, summaryDuration } from './format';
import { propertyDiffText, propertyPathString, stackOutputsText, type PropertyOp } from './properties';
import { changedKeys, parsePath, pathContains, secretTokens } from '../engine/values';
import { urnName } from '../engine/urn';
import { APITYPE_MAPS, goJson } from '../go-json';
import { colourOn, type ColorMode } from './modes';

export type DisplayMode = 'update' | 'refresh' | 'destroy' | 'import';

export interface DisplayOptions {
  mode: DisplayMode;
  /** Plan only: steps are listed with their changes, nothing runs. */
  preview: boolean;
  stack: string;
  /** The project's name: the stack resource's is `<project>-<stack>` (its Diagnostics header before its URN is seen). */
  project?: string;
  /** Machine-readable: every engine event as one JSON line, nothing else on stdout. */
  json: boolean;
  out?: NodeJS.WriteStream;
  env?: NodeJS.ProcessEnv;
  /** Pulumi's --color (default auto). */
  color?: ColorMode;
  /** Pulumi's --show-sames: unchanged resources get a line too. */
  showSames?: boolean;
  /**
   * Pulumi's --diff, its diff view's rule for the rows: a replacement's create and delete (`++`,
   * `--`) show only with showReplacementSteps.
   */
  diff?: boolean;
  /** Pulumi's --show-replacement-steps: with --diff, a replacement's create and delete get rows too. */
  showReplacementSteps?: boolean;
  /** Pulumi's --suppress-outputs: the stack's outputs are not printed. */
  suppressOutputs?: boolean;
  /** Pulumi's -d, --debug: debug diagnostics (the provider plugin's log) are printed too. */
  showDebug?: boolean;
  /** Pulumi's --show-secrets: the stack's secret outputs in plain text (the engine's events carry the rest). */
  showSecrets?: boolean;
}

const SYMBOL: Partial<Record<OpType, string>> = {
  create: '+',
  update: '~',
  replace: '+-',
  'create-replacement': '++',
  'delete-replaced': '--',
  delete: '-',
  read: '>',
  import: '=',
  refresh: '~',
  discard: '-',
};
const COLOUR: Partial<Record<OpType, number>> = {
  create: 32,
  update: 33,
  replace: 35,
  'create-replacement': 35,
  'delete-replaced': 35,
  delete: 31,
  read: 36,
  import: 36,
  refresh: 33,
  discard: 31,
};
const PRESENT: Partial<Record<OpType, [string, string]>> = {
  create: ['creating', 'created'],
  update: ['updating', 'updated'],
  replace: ['replacing', 'replaced'],
  'create-replacement': ['creating replacement', 'created replacement'],
  'delete-replaced': ['deleting original', 'deleted original'],
  delete: ['deleting', 'deleted'],
  read: ['reading', 'read'],
  import: ['importing', 'imported'],
  refresh: ['refreshing', 'refreshed'],
  discard: ['discarding', 'discarded'],
};
/** A planned step's status, as Pulumi's getPreviewText words it (pkg/backend/display/progress.go); others say their op. */
const PLAN: Partial<Record<OpType, string>> = {
  'create-replacement': 'create replacement',
  'delete-replaced': 'delete original',
};
/** A replacement's non-logical steps (Pulumi's Step.Logical is false for them): its create and delete. */
const REPLACEMENT_STEPS: ReadonlySet<OpType> = new Set<OpType>(['create-replacement', 'delete-replaced']);
/** Steps whose `[diff: …]` falls back on their inputs' diff (a refresh's diffs outputs; others have no old and new). */
const INPUT_DIFF_OPS: ReadonlySet<OpType> = new Set<OpType>(['update', 'replace', 'create-replacement']);
/** A failed step's status, as Pulumi's getStepDoneDescription words it when failed (pkg/backend/display/progress.go). */
const FAILED: Record<OpType, string> = {
  same: 'failed',
  create: 'creating failed',
  'create-replacement': 'creating failed',
  update: 'updating failed',
  delete: 'deleting failed',
  'delete-replaced': 'deleting failed',
  replace: 'replacing failed',
  read: 'reading failed',
  refresh: 'refreshing failed',
  discard: 'discarding failed',
  import: 'importing failed',
};
/** deploy.Color of the ops a property line takes. */
const PROPERTY_COLOUR: Record<PropertyOp, number> = { same: 0, create: 32, delete: 31, update: 33 };
/** The summary's lines, in the order of Pulumi's deploy.StepOps (pkg/resource/deploy/step.go). */
const SUMMARY: Array<[OpType, string, string, string]> = [
  ['create', '+', 'to create', 'created'],
  ['update', '~', 'to update', 'updated'],
  ['delete', '-', 'to delete', 'deleted'],
  ['replace', '+-', 'to replace', 'replaced'],
  ['read', '>', 'to read', 'read'],
  ['refresh', '~', 'to refresh', 'refreshed'],
  ['import', '=', 'to import', 'imported'],
];

/**
 * Renders engine events as Pulumi does in its diff view: the plan (or the steps as they run, with
 * elapsed time and the plugin's progress messages), then the outputs and the summary of counts
 * (and, after an operation, its duration). Colour only on a terminal and never with NO_COLOR; on a terminal one status line,
 * rewritten every second, shows the steps in flight.
 */
export class Display {
  private readonly out: NodeJS.WriteStream;
  private readonly colour: boolean;
  private readonly live: boolean;
  /** Steps in flight: when each started and the plugin's latest progress message for it. */
  private readonly started = new Map<string, { meta: StepEventMetadata; at: number; progress?: string }>();
  private summary?: NonNullable<EngineEvent['summaryEvent']>;
  private status = '';
  /** How many events --json numbered (printed or not): their sequence numbers. */
  private stamped = 0;
  private timer?: NodeJS.Timeout;
  /** The first error reported, without its stack frames, and whether it was the program's exception. */
  private firstError?: { message: string; exception: boolean };

  private readonly debug: boolean;
  private readonly jsonColour: boolean;
  /** A destroy (or its preview) deletes the stack resource itself: its outputs go with it. */
  private stackDeleted = false;
  /** An event of the stack resource came (a step, a diagnostic under it): its outputs are printed. */
  private stackSeen = false;
  /** The stack's refresh step began: its outputs event (op same, RefreshStep.ResultOp) ends it. */
  private stackRefreshing = false;
  /** The stack resource's URN, once an event of it came. */
  private stackUrn?: string;
  /**
   * Each resource's diagnostics as shown, by URN ('' for the stack's and those without a URN), in
   * the order the first of each came: the Diagnostics section lists them at the end.
   */
  private readonly diagnostics = new Map<string, string[]>();

  constructor(private readonly options: DisplayOptions) {
    this.out = options.out ?? process.stdout;
    const env = options.env ?? process.env;
    this.debug = Boolean(env.OCIKIT_DEBUG);
    this.live = !options.json && Boolean(this.out.isTTY);
    const color = options.color ?? 'auto';
    this.colour = colourOn(color, this.live, env);
    // Pulumi's colorization (cmdutil.GetGlobalColorization) is never unless asked for (always,
    // raw) or auto on a terminal; --json's diagnostics then keep its colour directives (jsonEvent).
    this.jsonColour =
      color === 'always' || color === 'raw' || (color === 'auto' && Boolean(this.out.isTTY) && !env.NO_COLOR);
  }

  begin(): void {
    if (this.options.json) return;
    const verb = this.options.preview
      ? `Previewing ${this.options.mode}`
      : { update: 'Updating', refresh: 'Refreshing', destroy: 'Destroying', import: 'Importing' }[this.options.mode];
    this.line(this.bold(`${verb} (${this.options.stack}):`));
    if (this.live) this.timer = setInterval(() => this.drawStatus(), 1000).unref();
  }

  note(message: string): void {
    if (!this.options.json) this.line(message);
  }

  readonly onEvent = (event: EngineEvent): void => {
    if (this.options.json) {
      // Events as the engine sent them, but without terminal colour codes (Pulumi's directives
      // instead, unless the colorization is never: jsonEvent) and without an error's stack frames
      // (as without --json: never a stack trace for a user's mistake); its one line on stderr is
      // told as without --json.
      const d = event.diagnosticEvent;
      if (d) {
        const sent = d.message.replace(/\n+$/, '');
        const message = d.severity === 'error' ? withoutStackTrace(sent, this.debug) : stripAnsi(sent);
        if (d.severity === 'error') this.noteError(message, d.message);
        if (message !== sent) event = { ...event, diagnosticEvent: { ...d, message: `${message}\n` } };
      }
      // A preview reports a failed step as an error alone (previewActions.OnResourceStepPost).
      if (event.resOpFailedEvent && this.options.preview) return;
      // Numbered as Pulumi's display stamps the engine's events, before it drops the internal ones
      // (display.go ShowEvents: stampEvents, then FilterRead on !Internal()): a default provider's
      // steps are not printed but take their numbers.
      const sequence = this.stamped++;
      const shown = jsonEvent(event, this.jsonColour, this.options.mode === 'refresh');
      if (shown) this.out.write(goJson({ ...shown, sequence }, { maps: APITYPE_MAPS }) + '\n');
      return;
    }
    const pre = event.resourcePreEvent?.metadata;
    if (pre?.type === 'pulumi:pulumi:Stack' && pre.op === 'delete') this.stackDeleted = true;
    if (pre?.type === 'pulumi:pulumi:Stack' && pre.op === 'refresh') this.stackRefreshing = true;
    const urn = (event.resourcePreEvent ?? event.resOutputsEvent ?? event.resOpFailedEvent)?.metadata.urn;
    const stackUrn = urn ?? event.diagnosticEvent?.urn ?? '';
    if (urnType(stackUrn) === 'pulumi:pulumi:Stack') {
      this.stackSeen = true;
      this.stackUrn = stackUrn;
    }
    if (event.resourcePreEvent) this.pre(event.resourcePreEvent.metadata, Boolean(event.resourcePreEvent.planning));
    else if (event.resOutputsEvent)
      this.done(this.outputsStep(event.resOutputsEvent.metadata), Boolean(event.resOutputsEvent.planning));
    else if (event.resOpFailedEvent) this.failed(event.resOpFailedEvent.metadata);
    else if (event.diagnosticEvent) this.diagnostic(event.diagnosticEvent);
    else if (event.summaryEvent) this.summary = event.summaryEvent;
    else if (event.stdoutEvent) this.line(event.stdoutEvent.message.replace(/\n$/, ''));
    // (A cancelEvent is the stream's end marker; Pulumi's diff display renders it as nothing.)
  };

  /**
   * Outputs, then the summary, as Pulumi's ProgressDisplay.processEndSteps prints them (printOutputs:
   * the stack's outputs in its property notation, see stackOutputsText; then printSummary: renderSummaryEvent, pkg/backend/display): a line per kind of change, then
   * "N changes" when there were several kinds and "M unchanged", and, after an operation (not a
   * preview), the duration rounded up. Prints for humans only.
   */
  end(result: EngineResult): void {
    if (this.timer) clearInterval(this.timer);
    this.clearStatus();
    if (this.options.json) return;
    const planning = this.options.preview;
    this.printDiagnostics();
    // A destroy shows the stack's delete step, its old outputs against none (each `- k: v`); one
    // that keeps the stack (targets, a failure) has no stack step, so no outputs, as Pulumi's. A
    // run that failed before any event of the stack (an unknown --target) prints none either, as
    // Pulumi's printOutputs does without the stack's URN.
    const destroy = this.options.mode === 'destroy';
    const outputs =
      this.options.suppressOutputs || !this.stackSeen || (destroy && !this.stackDeleted)
        ? ''
        : stackOutputsText(
            {
              old: result.oldOutputs,
              outputs: destroy ? {} : result.outputs,
              planning,
              showSames: Boolean(this.options.showSames),
            },
            {
              showSecrets: Boolean(this.options.showSecrets),
              paint: (op, text) => this.paint(PROPERTY_COLOUR[op], text),
            },
          );
    if (outputs) {
      this.line(this.bold('Outputs:'));
      for (const line of outputs.replace(/\n$/, '').split('\n')) this.line(line);
      this.line('');
    }
    const counts = { ...(result.changes as Record<string, number>) };
    if (this.summary) Object.assign(counts, this.summary.resourceChanges);
    this.line(this.bold('Resources:'));
    let kinds = 0;
    let changed = 0;
    for (const [op, symbol, future, past] of SUMMARY) {
      const n = counts[op] ?? 0;
      if (!n) continue;
      kinds++;
      changed += n;
      this.line(`    ${this.paint(COLOUR[op] ?? 0, `${symbol} ${n} ${planning ? future : past}`)}`);
    }
    const pieces = [
      ...(kinds >= 2 ? [this.bold(`${changed} ${changed === 1 ? 'change' : 'changes'}`)] : []),
      ...(counts.same ? [`${counts.same} unchanged`] : []),
    ];
    if (pieces.length) this.line(`    ${pieces.join('. ')}`);
    if (!planning) {
      this.line('');
      this.line(`${this.bold('Duration:')} ${summaryDuration(result.durationMs)}`);
    }
    this.line('');
  }

  /**
   * Whether a step has a line, as Pulumi's shouldShow (pkg/backend/display/display.go) decides it:
   * a same step only when its protect changes or with --show-sames; a replacement's non-logical
   * create and delete (`++`, `--`) always in the progress view, which Pulumi's is without --diff
   * (up.go: DisplayProgress), and in the diff view (--diff) only with --show-replacement-steps
   * ("only show them during progress-style updates … or if it is requested explicitly"; the
   * logical `+-` replace stands for them). Default providers are internal to Pulumi and not shown;
   * explicit ones are. The stack always has its row, unchanged or refreshed too, as Pulumi's
   * displays always show the root stack (diff.go renderDiffResourcePreEvent and
   * renderDiffResourceOutputsEvent: shouldShow || isRootStack; progress.go processNormalEvent: a
   * row is hidden only when !shouldShow && !isRootEvent).
   */
  private shown(meta: StepEventMetadata): boolean {
    if (isDefaultProvider(meta.urn)) return false;
    if (meta.type === 'pulumi:pulumi:Stack') return true;
    if (meta.op === 'same') return protectChanges(meta) || Boolean(this.options.showSames);
    if (REPLACEMENT_STEPS.has(meta.op) && this.options.diff) return Boolean(this.options.showReplacementSteps);
    return true;
  }

  /**
   * The step a resource's outputs event ends. The stack's refresh reports its result (same) there,
   * as Pulumi's updateActions.OnResourceOutputs does (RefreshStep.ResultOp); its line is still the
   * refresh's, as Pulumi's diff display shows outputs after a refresh step it saw (renderDiffResourceOutputsEvent).
   */
  private outputsStep(meta: StepEventMetadata): StepEventMetadata {
    if (meta.type !== 'pulumi:pulumi:Stack' || meta.op !== 'same' || !this.stackRefreshing) return meta;
    return { ...meta, op: 'refresh' };
  }

  private pre(meta: StepEventMetadata, planning: boolean): void {
    if (!this.shown(meta)) return;
    // An unchanged resource (--show-sames): its line, with nothing to do. One whose protect changes
    // carries the lock Pulumi's step header shows (printStepHeader: 🔒, or 🔓 when unprotected).
    if (meta.op === 'same') return this.line(this.stepLine(meta, '').trimEnd() + lockMark(meta));
    if (planning || this.options.preview) {
      // A refresh's drift is known once the resource is read: its line comes with it (done).
      if (meta.op === 'refresh') return;
      // An update or replacement that also sets or clears protect carries the lock too.
      this.line(this.stepLine(meta, PLAN[meta.op] ?? meta.op) + retainMark(meta) + lockMark(meta));
      // A replacement's changes are listed once, under its `+-` row, unless its steps are asked for.
      if (!REPLACEMENT_STEPS.has(meta.op) || this.options.showReplacementSteps)
        for (const detail of this.diffLines(meta)) this.line(detail);
      return;
    }
    this.started.set(key(meta), { meta, at: Date.now() });
    const [doing] = PRESENT[meta.op] ?? [meta.op];
    this.line(`${this.stepLine(meta, doing)}${retainMark(meta)}${lockMark(meta)}${this.diffSuffix(meta)}`);
  }

  private done(meta: StepEventMetadata, planning: boolean): void {
    // A refresh that found the resource gone shows as its delete, as Pulumi shows it.
    const gone = meta.op === 'refresh' && !meta.new;
    // In a refresh operation a resource's row ends as what its refresh found (the outputs event's
    // op is RefreshStep.ResultOp there, pkg/engine/update.go): updated, or nothing said when it is
    // unchanged (progress.go getStepDoneDescription and getPreviewDoneText: OpSame is ""). Elsewhere
    // (up --refresh) it ends as the refresh itself: "refresh" (OpRefresh's done text).
    const result =
      meta.op === 'refresh' && this.options.mode === 'refresh' ? (meta.refreshResult ?? 'same') : undefined;
    const shownAs = gone
      ? { ...meta, op: 'delete' as const }
      : result === 'update' || result === 'same'
        ? { ...meta, op: result }
        : meta;
    if (planning || this.options.preview) {
      if (meta.op === 'refresh' && this.shown(meta)) {
        this.line(shownAs.op === 'same' ? this.stepLine(shownAs, '').trimEnd() : this.stepLine(shownAs, shownAs.op));
        if (!gone) for (const detail of this.diffLines(meta)) this.line(detail);
      }
      return;
    }
    const start = this.started.get(key(meta));
    if (!start) return;
    this.started.delete(key(meta));
    if (shownAs.op === 'same') return this.line(this.stepLine(shownAs, '').trimEnd());
    const did = meta.op === 'refresh' && shownAs.op === 'refresh' ? 'refresh' : (PRESENT[shownAs.op]?.[1] ?? meta.op);
    this.line(`${this.stepLine(shownAs, did)} (${stepDuration(Date.now() - start.at, true)})${retainMark(shownAs)}`);
    // What a refresh read differently from the state (its drift), as Pulumi shows it.
    if (meta.op === 'refresh' && !gone) for (const detail of this.diffLines(meta)) this.line(detail);
  }

  // No time after it, as Pulumi's: getStepDoneDescription adds one only once the step's outputs
  // event set its end (processNormalEvent; a failure sets none).
  // Worded and marked as Pulumi's (makeError: colors.SpecError + "**" + text + "**"); a
  // replacement's create and delete fail as a create and a delete.
  private failed(meta: StepEventMetadata): void {
    this.started.delete(key(meta));
    const doing = FAILED[meta.op];
    this.line(`${this.stepLine(meta, this.paint(31, `**${doing}**`))}${retainMark(meta)}`);
  }

  /**
   * What the program's exception says, when the first error reported was one ("Running program …
   * failed with an unhandled exception:" says where, not why): its `Error: …` line, or what
   * follows that heading for a thrown value that is not an Error.
   */
  exceptionDetail(): string | undefined {
    if (!this.firstError?.exception) return undefined;
    const lines = this.firstError.message.split('\n');
    // From the error's line on (a TSError's diagnostics follow it); "Error: why" says why, another
    // error's name stays ("TypeError: why").
    const at = lines.findIndex((l) => /\b\w*Error: /.test(l));
    const heading = lines.findIndex((l) => /failed with an unhandled exception/.test(l));
    const from = at >= 0 ? at : heading >= 0 ? heading + 1 : lines.length;
    const text = lines.slice(from).join(' ').replace(/\s+/g, ' ').trim();
    return text.replace(/^.*?\b(\w*Error): /, (_, name: string) => (name === 'Error' ? '' : `${name}: `)) || undefined;
  }

  private noteError(withoutFrames: string, message: string): void {
    this.firstError ??= { message: stripAnsi(withoutFrames), exception: isProgramException(message) };
  }

  private diagnostic(d: NonNullable<EngineEvent['diagnosticEvent']>): void {
    if (d.severity === 'debug' && !this.options.showDebug) return;
    if (d.ephemeral) return this.progress(d);
    const text = d.message.replace(/\n+$/, '');
    const raw = d.severity === 'error' ? withoutStackTrace(text, this.debug) : text;
    // Programs print with colour of their own; keep it only where we would colour too.
    const message = this.colour ? raw : stripAnsi(raw);
    if (!message) return;
    if (d.severity === 'error') this.noteError(raw, text);
    const ofStack = !d.urn || urnType(d.urn) === 'pulumi:pulumi:Stack';
    const key = ofStack ? '' : d.urn!;
    this.diagnostics.set(key, [...(this.diagnostics.get(key) ?? []), this.prefixed(d.severity, message)]);
    const who = d.urn ? `    ${urnType(d.urn)} ${urnName(d.urn)}: ` : '';
    if (d.severity === 'error' || d.severity === 'warning' || d.severity === 'debug')
      this.line(`${who}${this.prefixed(d.severity, message)}`);
    // A resource's info is dimmed under it; the program's own (the stack's) is printed as it is.
    else if (!ofStack) this.line(`${who}${this.dim(message)}`);
    else this.line(message);
  }

  /** A diagnostic with its severity's prefix, as Pulumi's sink words it (diag.Stringify: none for info). */
  private prefixed(severity: NonNullable<EngineEvent['diagnosticEvent']>['severity'], message: string): string {
    if (severity === 'error') return `${this.paint(31, 'error:')} ${message}`;
    if (severity === 'warning') return `${this.paint(33, 'warning:')} ${message}`;
    // --debug: prefixed as Pulumi's diagnostics prefix them (diag.Debug: "debug: ").
    if (severity === 'debug') return this.dim(`debug: ${message}`);
    return message;
  }

  /**
   * The run's diagnostics again, grouped by resource, before the outputs, as Pulumi's progress
   * display ends (processEndSteps, printDiagnostics): a `Diagnostics:` heading, then for each
   * resource that had any `  <type> (<name>):` (the type as simplifyTypeName shortens it; the
   * stack's own and those without a resource under the stack) and each diagnostic's lines four
   * columns in, then a blank line. Pulumi iterates its rows in a map's order; ocikit keeps the
   * order of each resource's first diagnostic.
   */
  private printDiagnostics(): void {
    if (this.diagnostics.size) this.line(this.bold('Diagnostics:'));
    const stack =
      this.stackUrn ??
      `urn:pulumi:${this.options.stack}::${this.options.project ?? ''}::pulumi:pulumi:Stack::${this.options.project ?? ''}-${this.options.stack}`;
    for (const [urn, messages] of this.diagnostics) {
      const of = urn || stack;
      this.line(`  ${this.paint(94, `${simplifyTypeName(urnType(of))} (${urnName(of)}):`)}`);
      for (const message of messages) for (const line of message.split('\n')) this.line(`    ${line.trimEnd()}`);
      this.line('');
    }
  }

  /**
   * A plugin's progress for a resource ("work request in_progress 40%"), sent ephemeral as
   * Pulumi's providers do: on a terminal it shows in the status line next to the step, as Pulumi
   * shows it in the resource's row; in a log, where nothing is redrawn, it is a line of its own.
   */
  private progress(d: NonNullable<EngineEvent['diagnosticEvent']>): void {
    const message = stripAnsi(d.message).trim().split('\n')[0];
    if (!d.urn || !message) return;
    for (const step of this.started.values()) if (step.meta.urn === d.urn) step.progress = message;
    if (this.live) this.drawStatus();
    else this.line(`    ${urnType(d.urn)} ${urnName(d.urn)}: ${message}`);
  }

  private stepLine(meta: StepEventMetadata, verb: string): string {
    const symbol = (SYMBOL[meta.op] ?? ' ').padEnd(3);
    const colour = COLOUR[meta.op] ?? 0;
    return ` ${this.paint(colour, symbol)} ${meta.type} ${this.bold(urnName(meta.urn))} ${this.paint(colour, verb)}`;
  }

  /**
   * The changed top-level properties, with their sign. A provider may report a map's keys as paths
   * (`freeformTags.env`, as pulumi-oci's bridge does): their property is changed (`~`). A Diff
   * answer that names no changed keys (only `replaces`) shows the inputs that changed, as Pulumi's
   * getDiffInfo (pkg/backend/display/rows.go) diffs the old and new inputs when the step has no
   * detailed diff and filters them only by the keys the provider named (none: Diffs is nil).
   */
  private changedKeys(meta: StepEventMetadata): Array<[string, string]> {
    if (!meta.detailedDiff || Object.keys(meta.detailedDiff).length === 0) {
      if (meta.diffs?.length) return meta.diffs.map((path) => [path, '~']);
      if (!INPUT_DIFF_OPS.has(meta.op) || !meta.old?.inputs || !meta.new?.inputs) return [];
      const [olds, news] = [meta.old.inputs, meta.new.inputs];
      // PropertyMap.Diff: a key null or missing before is added, null or missing after deleted.
      return changedKeys(olds, news).map((k) => [
        k,
        (olds[k] ?? null) === null ? '+' : (news[k] ?? null) === null ? '-' : '~',
      ]);
    }
    const byRoot = new Map<string, string>();
    for (const [path, d] of Object.entries(meta.detailedDiff)) {
      const root = /^[^.[]+/.exec(path)?.[0] ?? path;
      const sign = d.diffKind.startsWith('add') ? '+' : d.diffKind.startsWith('delete') ? '-' : '~';
      byRoot.set(root, root === path && !byRoot.has(root) ? sign : '~');
    }
    return [...byRoot.entries()];
  }

  /**
   * The info column's `[diff: …]`, as Pulumi's getDiffInfo writes it (writePropertyKeys): the
   * added keys after `+`, then the deleted after `-`, then the updated after `~`, each group sorted
   * and comma-separated (`[diff: +a-b~c,d]`).
   */
  private diffSuffix(meta: StepEventMetadata): string {
    const keys = this.changedKeys(meta);
    const groups = ['+', '-', '~'].flatMap((sign) => {
      const named = keys.filter(([, s]) => s === sign).map(([p]) => p);
      return named.length ? [sign + named.sort().join(',')] : [];
    });
    return groups.length ? ` [diff: ${groups.join('')}]` : '';
  }

  /**
   * The changed properties with old and new values, under the step, as Pulumi's diff display
   * prints them: translateDetailedDiff's diff (only what the provider named; the old side from the
   * old inputs, or the old outputs where the provider compared those, `inputDiff: false`: a
   * trigger's recorded counter, a refresh's drift), printed by printObjectDiff in Pulumi's property
   * notation, two columns in from the step's line. A property whose change forces the replacement
   * ends with ` # forces replacement` in the replace colour (object_diff.go writeReplaceAnnotation:
   * colors.SpecReplace, on the property's last line).
   */
  private diffLines(meta: StepEventMetadata): string[] {
    if (!['update', 'replace', 'create-replacement', 'refresh'].includes(meta.op)) return [];
    // A refresh without a diff (an external resource's: Pulumi diffs only managed ones) shows the
    // outputs that changed.
    const outputDrift = meta.op === 'refresh' && !meta.detailedDiff && !meta.diffs?.length;
    const detailed: Record<string, PropertyDiff> =
      meta.detailedDiff && Object.keys(meta.detailedDiff).length
        ? meta.detailedDiff
        : outputDrift
          ? Object.fromEntries(
              changedKeys(meta.old?.outputs ?? {}, meta.new?.outputs ?? {}).map((key) => [
                key,
                { diffKind: 'update', inputDiff: false },
              ]),
            )
          : Object.fromEntries((meta.diffs ?? []).map((key) => [key, { diffKind: 'update', inputDiff: true }]));
    const replaced = new Set<string>();
    // hideDiffs: a change under one of its paths is left out, and the path is listed as hidden
    // (printOldNewDiffs' IgnorePathFunc: PropertyPath.Contains; sorted and once each).
    const hidePaths = (meta.new?.hideDiffs ?? []).map(parsePath);
    const hidden = new Set<string>();
    const changes = Object.entries(detailed).flatMap(([path, d]) => {
      const parsed = parsePath(path);
      const hiding = hidePaths.find((h) => pathContains(h, parsed));
      if (hiding) {
        hidden.add(propertyPathString(hiding));
        return [];
      }
      if (d.diffKind.endsWith('replace')) replaced.add(String(parsed[0]));
      const olds = d.inputDiff === false ? meta.old?.outputs : meta.old?.inputs;
      return [{ path: parsed, kind: d.diffKind, olds: unmasked(olds ?? {}) }];
    });
    const news = unmasked((meta.op === 'refresh' ? meta.new?.outputs : meta.new?.inputs) ?? {});
    const text = propertyDiffText(
      changes,
      news,
      2,
      { showSecrets: false, paint: (op, piece) => this.paint(PROPERTY_COLOUR[op], piece) },
      (key) => (replaced.has(key) ? this.paint(COLOUR.replace ?? 0, ' # forces replacement') : ''),
      [...hidden].sort(),
    );
    return text
      .split('\n')
      .filter(Boolean)
      .map((line) => `  ${line}`);
  }

  private drawStatus(): void {
    if (!this.live || this.started.size === 0) return this.clearStatus();
    const now = Date.now();
    const items = [...this.started.values()].map(
      ({ meta, at, progress }) =>
        `${(PRESENT[meta.op] ?? [meta.op])[0]} ${urnName(meta.urn)} (${stepDuration(now - at, false)}${progress ? `: ${progress}` : ''})`,
    );
    const width = (this.out.columns || 100) - 1;
    let text = `    ${items.join(', ')}`;
    if (text.length > width) text = text.slice(0, width - 1) + '…';
    this.status = this.dim(text);
    this.out.write(`\r\x1b[2K${this.status}`);
  }

  private clearStatus(): void {
    if (this.status) this.out.write('\r\x1b[2K');
    this.status = '';
  }

  private line(text: string): void {
    const had = Boolean(this.status);
    this.clearStatus();
    this.out.write(text + '\n');
    if (had) this.drawStatus();
  }

  private paint(code: number, text: string): string {
    return this.colour && code ? `\x1b[${code}m${text}\x1b[0m` : text;
  }
  private bold(text: string): string {
    return this.colour ? `\x1b[1m${text}\x1b[0m` : text;
  }
  private dim(text: string): string {
    return this.colour ? `\x1b[2m${text}\x1b[0m` : text;
  }
}

// A line of a JavaScript stack trace: "    at fn (file:1:2)", "    at file:1:2", "    at new X (<anonymous>)".
const STACK_FRAME = /^\s+at \S.*(:\d+:\d+\)?|\(<anonymous>\)|\(native\))$/;

/**
 * An unhandled exception of the program: as cmd/run reports it while the program runs ("Running
 * program … failed with an unhandled exception:" and the stack), or as the bare stack its first
 * handler logs for one thrown after the program's main returned (a floating promise, an `apply`,
 * a timer).
 */
function isProgramException(message: string): boolean {
  return (
    /failed with an unhandled exception/.test(message) ||
    message.split('\n').some((l) => STACK_FRAME.test(stripAnsi(l)))
  );
}

/**
 * An error without its stack frames (and the error's fields printed after them): the user's
 * mistake is told in its message, never with a stack trace (OCIKIT_DEBUG=1 keeps them). Pulumi
 * prints them; the issue's contract does not want them.
 */
function withoutStackTrace(message: string, debug: boolean): string {
  if (debug) return message;
  // Node's inspect marks an error that refers to itself `<ref *1> Error: …`: not part of the reason.
  const lines = stripAnsi(message)
    .replace(/<ref \*\d+> /g, '')
    .split('\n');
  const frame = lines.findIndex((line) => STACK_FRAME.test(line));
  return (frame <= 0 ? lines : lines.slice(0, frame)).join('\n');
}

/** A step whose only change is `protect`: a same step Pulumi shows (display.go shouldShow). */
const protectChanges = (meta: StepEventMetadata) => Boolean(meta.old?.protect) !== Boolean(meta.new?.protect);
/**
 * printStepHeader's mark (pkg/backend/display), on a protect change of a resource that stays (a
 * same, update or replace step: old and new both there) only: 🔓 unprotects, 🔒 protects. A create,
 * import or delete has no lock here (its protect is not changed by the step).
 */
/**
 * Pulumi's addRetainStatusFlag (pkg/backend/display, which getStepStatus applies to every status of
 * the progress view): `[retain]` after the status of a delete or a replacement's step whose old
 * resource is retainOnDelete, since it leaves the resource untracked in the cloud.
 */
const RETAINED_OPS: ReadonlySet<OpType> = new Set<OpType>([
  'delete',
  'replace',
  'create-replacement',
  'delete-replaced',
]);
const retainMark = (meta: StepEventMetadata) =>
  meta.old?.retainOnDelete && RETAINED_OPS.has(meta.op) ? '[retain]' : '';
const lockMark = (meta: StepEventMetadata) =>
  !meta.old || !meta.new || !protectChanges(meta) ? '' : meta.new.protect ? ' 🔒' : ' 🔓';
/**
 * The event's values with each `[secret]` it was masked with a secret again, which the printer
 * prints so; its value is the secret's token (maskSecrets), so two secrets compare as their values do.
 */
function unmasked(v: Record<string, unknown>): Record<string, unknown> {
  const unmask = (x: unknown, token?: string): unknown => {
    if (x === '[secret]') return { [SECRET_SIG]: SECRET_VALUE, value: token };
    if (typeof x !== 'object' || x === null || isSecret(x)) return x;
    const tokens = (x as { [secretTokens]?: Record<string, string> })[secretTokens] ?? {};
    return Array.isArray(x)
      ? x.map((y, i) => unmask(y, tokens[i]))
      : Object.fromEntries(Object.entries(x).map(([k, y]) => [k, unmask(y, tokens[k])]));
  };
  return unmask(v) as Record<string, unknown>;
}
// eslint-disable-next-line no-control-regex
const stripAnsi = (text: string) => text.replace(/\x1b\[[0-9;]*m/g, '');
const key = (meta: StepEventMetadata) => `${meta.op} ${meta.urn}`;
const urnType = (urn: string) => (urn.split('::')[2] ?? '').split('$').pop() ?? '';
/**
 * Pulumi's simplifyTypeName (pkg/backend/display): `<pkg>:<module>/<file>:<Name>` without its
 * `/<file>` when that file is the name camel-cased (`oci:AiLanguage/endpoint:Endpoint` is
 * `oci:AiLanguage:Endpoint`).
 */
function simplifyTypeName(type: string): string {
  const parts = type.split(':');
  if (parts.length !== 3 || !parts[2]) return type;
  const [pkg, module, name] = parts;
  const slash = module.lastIndexOf('/');
  if (slash < 0 || module.slice(slash + 1) !== name[0].toLowerCase() + name.slice(1)) return type;
  return `${pkg}:${module.slice(0, slash)}:${name}`;
}

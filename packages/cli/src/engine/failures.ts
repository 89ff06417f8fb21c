// The run's failures, as Pulumi's step generator, step executor and deployment executor report
// them: a step that failed (an error under the resource and a resource-operation-failed event), an
// error before any step (a diagnostic on the resource, no row), a Check's failures, and, with
// --continue-on-error, what the run goes on from and what it then skips. The first failure is the
// run's: it is recorded once, and the runner stops the program (onFailure).
import type { EventSink } from './events';
import { resourceStatusAfter } from './provider-host';
import { registrationEdges, type Registration, type StepOutcome } from './registration';
import type { ResourceState } from './state';
import { checkFailureMessages, ContinuedStepError, errorText, oneLine, StepError } from './step-errors';
import { allDependencies, keptWithExcludes, UrnTargets } from './targets';
import type { ChangeKind, StepEventMetadata } from './types';
import type { Props } from './values';

export class Failures {
  /** The run's first failure: the run stops with it. */
  failure?: Error;
  /** Called once, on the first step failure (the runner then stops the program, as Pulumi cancels it). */
  onFailure: () => void = () => undefined;
  /** The first error a preview reported and went on from; the run fails with it at the end (sawError). */
  sawError?: string;
  /**
   * An update's `--target` refused its deletes (GenerateDeletes' bail). Pulumi's deployment
   * executor does not stop at that bail as at a registration's: it goes on to its end check, where
   * the step generator has errored, so the run ends with `update failed` (Execute: performDeletes,
   * then `ex.stepGen.Errored()`).
   */
  deletesRefused = false;
  /**
   * A step failed (Pulumi's stepExecutor.Errored()): the run then ends, once the stack's outputs
   * are final, with `update failed` (`preview failed`) under the stack. Set by reportFailure alone.
   */
  get stepErrored(): boolean {
    return this.errored;
  }
  private errored = false;
  /** --continue-on-error: the first step failure the run went on from (it fails at the end). */
  continuedPast?: string;
  /** --continue-on-error: URNs whose steps failed or were skipped (the deployment executor's `skipped`). */
  readonly skipped = new Set<string>();

  constructor(
    private readonly events: EventSink,
    private readonly continueOnError: boolean,
    /** A preview goes on past the step generator's errors (stepGeneratorErrors); an update stops. */
    private readonly preview: boolean,
    /** The run's step counts so far (a failed step's event carries their total). */
    private readonly changes: Partial<Record<ChangeKind, number>>,
  ) {}

  /**
   * A step that failed while it ran (its provider operation, a refused delete, or a hook). With
   * --continue-on-error, as Pulumi's step executor (cancelDueToError), it is reported but stops
   * nothing else: its registration answers FAIL, what depends on it is skipped, and the run fails
   * at the end. Without, it is the run's failure. The run's one-line reason (`message`) names the
   * resource and the operation.
   */
  stepFailed(metadata: StepEventMetadata, message: string, cause?: unknown): StepError {
    if (!this.continueOnError) {
      this.recordFailure(message);
      this.reportFailure(metadata, message, cause);
      return new StepError(message);
    }
    this.continuedPast ??= message;
    this.skipped.add(metadata.urn);
    this.reportFailure(metadata, message, cause);
    return new ContinuedStepError(message, metadata.urn);
  }

  /**
   * A step that failed, as Pulumi's OnResourceStepPost reports it: an error under the resource (a
   * provider's own words when it failed: GetResourceOperationFailedError is "%v" of its error) and,
   * but in a preview (previewActions: the error alone), a resOpFailedEvent with the resource's
   * status after the failure and the steps done so far. Only a step's failure comes here, so here
   * the step executor has errored (stepErrored); an error before any step does not.
   */
  reportFailure(metadata: StepEventMetadata, message: string, cause?: unknown, planning = false): void {
    this.errored = true;
    this.events.diag('error', cause === undefined ? message : errorText(cause), metadata.urn);
    if (planning) return;
    const steps = Object.values(this.changes).reduce((sum, n) => sum + (n ?? 0), 0);
    this.events.emit({ resOpFailedEvent: { metadata, status: resourceStatusAfter(cause), steps } });
  }

  /**
   * --continue-on-error: a registration that depends on a resource whose step failed or was
   * skipped is skipped too, with no step (deploymentExecutor.handleSingleEvent, doesStepDependOn):
   * an existing resource keeps its old state, a new one is not created.
   */
  skippedAfterFailure(urn: string, reg: Registration): StepOutcome | undefined {
    if (!allDependencies(registrationEdges(reg)).some((u) => this.skipped.has(u))) return undefined;
    this.skipped.add(urn);
    return { urn, id: '', outputs: {}, result: 'skip' };
  }

  /** --continue-on-error: nothing a failed or skipped resource depends on is deleted (performDeletes' erroredDeps). */
  withoutFailedDependencies(current: ResourceState[], targets: ResourceState[]): ResourceState[] {
    if (!this.skipped.size) return targets;
    const kept = keptWithExcludes(current, new UrnTargets([...this.skipped]), false);
    return targets.filter((r) => !kept.has(r.urn));
  }

  /**
   * A registration its provider's Check refused, reported as Pulumi's step generator reports it:
   * an error per failure, and no step (the resource is invalid: the plan shows no row for it).
   */
  checkFailed(
    urn: string,
    type: string,
    inputs: Props,
    failures: Array<{ property: string; reason: string }>,
  ): StepError {
    const messages = checkFailureMessages(type, urn, inputs, failures);
    this.recordFailure(messages[0]);
    for (const m of messages) this.events.diag('error', m, urn);
    return new StepError(messages[0]);
  }

  /**
   * A provider's Check or Diff that answered an error. Pulumi calls both in its step generator
   * (generateSteps, generateStepsFromDiff), before any step exists, and its deployment executor
   * reports the error as a diagnostic on the resource (Execute: reportError with
   * generateEventURN): no row, no resource-operation-failed event, nothing counted.
   */
  preStepFailed(urn: string, operation: string, cause: unknown): StepError {
    return this.refusedBeforeStep(urn, `${urn}: ${operation} failed: ${oneLine(cause)}`, errorText(cause));
  }

  /**
   * Refusals of Pulumi's step generator that are no step's failure (`--target` refusals, a protected
   * replace), each reported under its resource (the stack's when it has no URN). An update stops at
   * them once all are reported: the returned error is the run's. A preview goes on planning, so the
   * user hears about every problem, and fails at the end with the first (sawError): nothing is
   * returned.
   */
  stepGeneratorErrors(refusals: Array<{ message: string; urn?: string }>): StepError | undefined {
    for (const r of refusals) this.events.diag('error', r.message, r.urn);
    if (!refusals.length) return undefined;
    const first = refusals[0].message;
    if (this.preview) {
      this.sawError ??= first;
      return undefined;
    }
    this.recordFailure(first);
    return new StepError(first);
  }

  /** An error before any step (preStepFailed): the run's one line, and `diagnostic` under the resource. */
  refusedBeforeStep(urn: string, message: string, diagnostic = message): StepError {
    this.recordFailure(message);
    this.events.diag('error', diagnostic, urn);
    return new StepError(message);
  }

  recordFailure(message: string): void {
    if (!this.failure) {
      this.failure = new StepError(message);
      setImmediate(() => this.onFailure());
    }
  }

  /**
   * An error answering a registration that no step reported: Pulumi's step generator fails the
   * update on any such error, so the run stops here too instead of leaving the program to unwind.
   */
  registrationFailed(e: unknown): unknown {
    if (e instanceof StepError) return e;
    const message = oneLine(e);
    this.recordFailure(message);
    this.events.diag('error', message);
    return e;
  }
}

// How a step fails: the errors the engine answers registrations with, and Pulumi's words for the
// failures a user sees (step_generator.go, step.go, issueCheckFailures), one line each where the
// run reports them.
import { urnName } from './urn';
import { goPropertyValue, type Props } from './values';

/** How Pulumi's refusals to replace a protected resource end (step_generator.go), for ocikit. */
export const UNPROTECT =
  'To unprotect the resource, remove the `protect` flag from the resource in your Pulumi program and run `ocikit up`';

/**
 * The step generator's words for a protected dependent of a delete-before-replace
 * (continueStepsFromDiff), line break included. Pulumi quotes the URN in the command with %q; this
 * quotes it as DeleteStep.Apply does (URN.Quote's single quotes), so the command pastes into a shell
 * whose `$` (in a child's URN) would otherwise expand.
 */
export const protectedDependentRefusal = (dependent: string, replaced: string) =>
  `unable to replace resource "${dependent}" as part of replacing "${replaced}" as it is currently marked for protection. To unprotect the resource, remove the \`protect\` flag from the resource in your Pulumi program and run \`ocikit up\`, or use the command:\n\`ocikit state unprotect '${dependent}'\``;

/** DeleteStep.Apply's words for a protected resource, line breaks included. */
export const protectedRefusal = (urn: string) =>
  `resource "${urn}" cannot be deleted\nbecause it is protected. To unprotect the resource, either remove the \`protect\` flag from the resource in your Pulumi program and run \`ocikit up\`, or use the command:\n\`ocikit state unprotect '${urn}'\``;

/** A user-facing step failure: the message is already one line naming the resource. */
export class StepError extends Error {}

/**
 * A step that failed under --continue-on-error: reported, and the run goes on; its registration
 * answers FAIL (stepExecutor.cancelDueToError: step.Fail()).
 */
export class ContinuedStepError extends StepError {
  constructor(
    message: string,
    readonly urn: string,
  ) {
    super(message);
  }
}

export function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

export function oneLine(e: unknown): string {
  return errorText(e)
    .replace(/\s*\n\s*/g, ' ')
    .trim();
}

/**
 * A Check's failures in Pulumi's words (issueCheckFailures: diag.GetResourcePropertyInvalidValueError
 * and GetResourceInvalidError), the value as it printed it: the top-level input of that name.
 */
export function checkFailureMessages(
  type: string,
  urn: string,
  inputs: Props,
  failures: Array<{ property: string; reason: string }>,
): string[] {
  const name = urnName(urn);
  return failures.map((f) =>
    f.property
      ? `${type} resource '${name}'s property '${f.property}' value ${goPropertyValue(inputs[f.property])} has a problem: ${f.reason}`
      : `${type} resource '${name}' has a problem: ${f.reason}`,
  );
}

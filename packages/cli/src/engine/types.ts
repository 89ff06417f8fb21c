// The engine's public interface (the contract with the app half: /work/briefs/cli-contract.md).

import type { PrestartedProgram } from './program';
import type { PluginHandover } from './provider-host';

export type Operation = 'update' | 'refresh' | 'destroy';

/** Provided by the app (src/secrets/), used for state secrets. */
export interface Crypter {
  /** Returns Pulumi's "v1:<nonce>:<ciphertext>" form. */
  encrypt(plaintext: string): string;
  decrypt(ciphertext: string): string;
  /**
   * The crypter of another passphrase salt (same passphrase), for ciphertexts a state names that
   * salt for: Pulumi reads a deployment with the secrets provider it names.
   */
  forSalt?(salt: string): Crypter;
}

/**
 * A resource to adopt, as Pulumi's deploy.Import: protected unless `--protect=false`; read with
 * its provider (a provider URN of the stack) or the package's default provider (of `version` when
 * given); under `parent` (a URN of the stack, or of an earlier import). `properties` keeps only
 * those inputs; a `component` has no id and is recorded without a read.
 */
export interface ImportSpec {
  type: string;
  name: string;
  id: string;
  protect?: boolean;
  provider?: string;
  parent?: string;
  version?: string;
  properties?: string[];
  component?: boolean;
}

export interface EngineOptions {
  /** Folder that holds Pulumi.yaml. */
  programDir: string;
  project: { name: string; main?: string; runtimeOptions?: Record<string, unknown> };
  stack: string;
  operation: Operation;
  /** true: plan only; nothing written to the cloud or the state. */
  preview: boolean;
  /** Every stack config value in plain text: 'proj:key', 'oci:key'. */
  config: Record<string, string>;
  /** Which of those keys are secret. */
  secretKeys: string[];
  /** `ocikit import` (one on the command line, or `--file`'s), in order, parents first. */
  imports?: ImportSpec[];
  /** Default: Pulumi's default. */
  parallel?: number;
  /** `up --refresh`, `destroy --refresh`: read every resource from the cloud before the program's steps, or the deletes. */
  refresh?: boolean;
  /** `--replace`: URNs (with Pulumi's wildcards `*` and `**`) to replace whatever their diff says. */
  replace?: string[];
  /**
   * `--target` (URNs with Pulumi's wildcards): only these are created, updated, refreshed or
   * deleted; `targetDependents` widens them to what depends on them. `excludes` (`--exclude`) is
   * the inverse, `excludeDependents` widening it the same way.
   */
  targets?: string[];
  targetDependents?: boolean;
  excludes?: string[];
  excludeDependents?: boolean;
  /**
   * `--continue-on-error` (up, destroy): a failed step stops only what depends on it; the run
   * still fails at the end (Pulumi's UpdateOptions.ContinueOnError).
   */
  continueOnError?: boolean;
  /** Extra environment for the plugin process. */
  providerEnv?: Record<string, string>;
  /** From openStackState(). */
  state: StackState;
  /** Pulumi engine events. */
  onEvent(event: EngineEvent): void;
  /**
   * `--show-secrets`: the events carry secret values in plain text (else `[secret]`), as Pulumi's
   * engine filters them for its display and `--json`.
   */
  showSecrets?: boolean;
  /** `-d, --debug`: the program's debug messages are reported too (Pulumi's UpdateOptions.Debug). */
  debug?: boolean;
  /** Cancel (Ctrl-C): stop waits, record pending operations, exit cleanly. */
  signal?: AbortSignal;
  /**
   * Terminate (a second Ctrl-C): the run ends its event stream at once (the summary, then the
   * cancelEvent) and gives `onTerminated` what it has, before the caller exits.
   */
  terminate?: AbortSignal;
  onTerminated?: (result: EngineResult) => void;
  /** The program's process, started ahead of the run (as ocikit starts; `up`'s update's during its preview). */
  prestarted?: PrestartedProgram;
  /**
   * Plugin processes carried between the runs of one command: the run adopts what it holds, and
   * (`keepPlugins`, a preview with its operation to follow) leaves its own there when it ends.
   */
  plugins?: PluginHandover;
  keepPlugins?: boolean;
}

export type ChangeKind = 'create' | 'update' | 'replace' | 'delete' | 'same' | 'read' | 'import' | 'refresh';

export interface EngineResult {
  ok: boolean;
  /** One line, for the user. */
  error?: string;
  changes: Partial<Record<ChangeKind, number>>;
  /** The steps done, by operation: the summary's resourceChanges (Pulumi's updateActions.Ops). */
  resourceChanges?: Partial<Record<OpType, number>>;
  /** Stack outputs (secrets as Pulumi's secret sentinel objects). */
  outputs: Record<string, unknown>;
  /**
   * The stack's outputs before the run (an update, a destroy, a refresh, or their preview), what the
   * display compares them with (Pulumi's stack step `Old`); undefined for a stack with no previous state.
   */
  oldOutputs?: Record<string, unknown>;
  durationMs: number;
}

export interface StackState {
  /** Throws StackLockedError with a one-line message when held. */
  lock(): void;
  unlock(): void;
  /** What `ocikit stack export` prints: { version: 3, deployment: {...} }, or version 4 with its `features`. */
  exportDeployment(): unknown;
  /** Stack outputs, secrets still wrapped. */
  outputs(): Record<string, unknown>;
  /** Writes, synchronously, what a run recorded but has not written yet: only right before a hard exit. */
  flushSync(): void;
}

export class StackLockedError extends Error {
  override name = 'StackLockedError';
}

/** Step operations, as Pulumi's display names them (apitype.OpType). */
export type OpType =
  | 'same'
  | 'create'
  | 'update'
  | 'delete'
  | 'replace'
  | 'create-replacement'
  | 'delete-replaced'
  | 'read'
  | 'import'
  | 'refresh'
  | 'discard';

/** apitype.PropertyDiff */
export interface PropertyDiff {
  diffKind: 'add' | 'add-replace' | 'delete' | 'delete-replace' | 'update' | 'update-replace';
  inputDiff: boolean;
}

/** apitype.StepEventStateMetadata */
export interface StepEventStateMetadata {
  type: string;
  urn: string;
  custom?: boolean;
  delete?: boolean;
  id: string;
  parent: string;
  protect?: boolean;
  retainOnDelete?: boolean;
  /** The program's hideDiffs, for the display only (neither the state nor --json carries them). */
  hideDiffs?: string[];
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown>;
  provider: string;
  initErrors?: string[];
}

/** apitype.StepEventMetadata */
export interface StepEventMetadata {
  op: OpType;
  urn: string;
  type: string;
  old?: StepEventStateMetadata;
  new?: StepEventStateMetadata;
  keys?: string[];
  diffs?: string[];
  detailedDiff?: Record<string, PropertyDiff>;
  logical?: boolean;
  provider: string;
  /**
   * ocikit's, not apitype's (--json leaves it out): what a refresh step found, its
   * RefreshStep.ResultOp (same, update: drift, delete: gone), the op it is counted and printed as
   * in a refresh operation.
   */
  refreshResult?: 'same' | 'update' | 'delete';
}

/** apitype.EngineEvent: exactly one of the payload fields is set. */
export interface EngineEvent {
  sequence: number;
  timestamp: number;
  cancelEvent?: Record<string, never>;
  stdoutEvent?: { message: string; color: string };
  diagnosticEvent?: {
    urn?: string;
    prefix?: string;
    message: string;
    color: string;
    severity: 'debug' | 'info' | 'info#err' | 'warning' | 'error';
    streamID?: number;
    ephemeral?: boolean;
  };
  preludeEvent?: { config: Record<string, string> };
  summaryEvent?: {
    /** Newer apitype versions: whether the run was a preview. */
    isPreview?: boolean;
    maybeCorrupt: boolean;
    durationSeconds: number;
    resourceChanges: Partial<Record<OpType, number>>;
    /** PascalCase on the wire, as apitype.SummaryEvent's tag is (kept for compatibility there). */
    PolicyPacks: Record<string, string>;
  };
  resourcePreEvent?: { metadata: StepEventMetadata; planning?: boolean };
  resOutputsEvent?: { metadata: StepEventMetadata; planning?: boolean };
  resOpFailedEvent?: { metadata: StepEventMetadata; status: number; steps: number };
  progressEvent?: {
    type: 'plugin-download' | 'plugin-install';
    id: string;
    message: string;
    received: number;
    total: number;
    done: boolean;
  };
}

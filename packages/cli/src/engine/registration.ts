// What a registration is (the program's RegisterResource and ReadResource, decoded, or one the
// engine makes itself), and what the engine answers it with.
import type { HookBinding } from './hooks';
import type { Edges } from './targets';
import type { ImportSpec } from './types';
import type { Props } from './values';

/** What the program registers, already decoded from the gRPC request. */
export interface Registration {
  type: string;
  name: string;
  parent: string;
  custom: boolean;
  inputs: Props;
  provider: string;
  version: string;
  /** The hideDiffs option: property paths whose changes the display shows as `(hidden)`. */
  hideDiffs?: string[];
  /** The pluginDownloadURL option: its own default provider, as the version. */
  pluginDownloadURL?: string;
  dependencies: string[];
  propertyDependencies: Record<string, string[]>;
  protect?: boolean;
  retainOnDelete?: boolean;
  deleteBeforeReplace?: boolean;
  ignoreChanges: string[];
  replaceOnChanges: string[];
  additionalSecretOutputs: string[];
  customTimeouts?: { create?: number; update?: number; delete?: number };
  importId: string;
  aliases?: AliasSpec[];
  deletedWith?: string;
  replaceWith?: string[];
  replacementTrigger?: unknown;
  /** The `hooks` option: hook names by type. */
  hooks?: HookBinding;
  /** Where the program made it (source-position.ts), recorded in the state as Pulumi records it. */
  sourcePosition?: string;
}

/** One alias of a registration: an old URN, or the parts of one (unset parts are the resource's own). */
export interface AliasSpec {
  urn?: string;
  name?: string;
  type?: string;
  stack?: string;
  project?: string;
  parentUrn?: string;
  noParent?: boolean;
}

export interface StepOutcome {
  urn: string;
  id: string;
  outputs: Props;
  /** The registration's result when its step did not succeed (--continue-on-error): the program gets unknowns. */
  result?: 'fail' | 'skip';
}

export function registrationEdges(reg: Registration, provider?: string): Edges {
  return {
    parent: reg.parent || undefined,
    dependencies: reg.dependencies,
    propertyDependencies: reg.propertyDependencies,
    deletedWith: reg.deletedWith || undefined,
    replaceWith: reg.replaceWith,
    provider,
  };
}

/** A registration the engine makes itself (the stack, a default provider, `ocikit import`): no options of a program. */
export function engineRegistration(
  r: Pick<Registration, 'type' | 'name' | 'parent' | 'inputs' | 'version'> & Partial<Registration>,
): Registration {
  return {
    custom: true,
    provider: '',
    dependencies: [],
    propertyDependencies: {},
    ignoreChanges: [],
    replaceOnChanges: [],
    additionalSecretOutputs: [],
    importId: '',
    ...r,
  };
}

/** What `ocikit import` registers: the resource under its parent, nothing but its id to import. */
export function importRegistration(imp: ImportSpec, parent: string, version: string): Registration {
  return engineRegistration({
    type: imp.type,
    name: imp.name,
    parent,
    inputs: {},
    version,
    importId: imp.id,
    protect: imp.protect,
  });
}

// What `pulumi stack import` checks before it writes a deployment (pkg/cmd/pulumi/stack/io.go
// SaveSnapshot): every resource belongs to the target stack, and the snapshot is whole
// (deploy.Snapshot.VerifyIntegrity: providers, parents and dependencies come before their users,
// and no URN is there twice unless one copy is marked for deletion).
import type { ResourceState } from './state';

export interface SnapshotProblems {
  /** Resources from another stack: Pulumi's "is from a different stack" (an error unless --force). */
  otherStack: string[];
  /** Integrity errors: Pulumi's "state file contains errors" (an error unless --force). */
  integrity: string[];
}

const PROVIDER_TYPE = /^pulumi:providers:/;

/** The stack named in a URN (`urn:pulumi:<stack>::<project>::<type>::<name>`). */
export function urnStack(urn: string): string {
  return urn.slice('urn:pulumi:'.length).split('::')[0];
}

export function checkSnapshot(resources: ResourceState[], stack: string): SnapshotProblems {
  const problems: SnapshotProblems = { otherStack: [], integrity: [] };
  const allUrns = new Set(resources.map((r) => r.urn));
  const seen = new Set<string>();
  const providers = new Set<string>();
  // A reference to something defined later is out of order; one to nothing at all is missing.
  const refer = (urn: string, what: string, target: string) => {
    if (seen.has(target)) return;
    problems.integrity.push(
      allUrns.has(target)
        ? `resource ${urn}'s ${what} ${target} comes after it`
        : `resource ${urn} refers to unknown ${what} ${target}`,
    );
  };
  for (const r of resources) {
    if (typeof r.urn !== 'string' || !r.urn.startsWith('urn:pulumi:') || typeof r.type !== 'string') {
      problems.integrity.push(`a resource has no valid urn and type: ${JSON.stringify(r).slice(0, 120)}`);
      continue;
    }
    if (urnStack(r.urn) !== stack)
      problems.otherStack.push(`resource '${r.urn}' is from a different stack (${urnStack(r.urn)} != ${stack})`);
    if (r.provider && !providers.has(r.provider)) {
      const target = r.provider.slice(0, r.provider.lastIndexOf('::'));
      if (seen.has(target)) problems.integrity.push(`resource ${r.urn} refers to unknown provider ${r.provider}`);
      else refer(r.urn, 'provider', target);
    }
    if (r.parent) refer(r.urn, 'parent', r.parent);
    for (const dependency of r.dependencies ?? []) refer(r.urn, 'dependency', dependency);
    if (seen.has(r.urn) && !r.delete) problems.integrity.push(`duplicate resource ${r.urn} (not marked for deletion)`);
    seen.add(r.urn);
    if (PROVIDER_TYPE.test(r.type) && r.id !== undefined) providers.add(`${r.urn}::${r.id}`);
  }
  return problems;
}

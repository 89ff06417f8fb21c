// `stack graph <file>`: the stack's dependency graph in DOT, as Pulumi's (pkg/cmd/pulumi/stack/
// stack_graph.go: makeDependencyGraph builds it from the snapshot; sdk/pkg/graph/dotconv/print.go:
// Print writes it).
import { writeFileSync } from 'node:fs';
import type { ResourceState } from '../engine';
import { urnName } from '../engine/urn';
import { goPathError, UserError } from '../errors';
import { goOrder } from '../go-json';
import { goQuote } from '../go-quote';
import { openStack } from './context';
import type { GlobalOptions } from './options';

export interface GraphOptions {
  ignoreParentEdges?: boolean;
  ignoreDependencyEdges?: boolean;
  /** The edges' colors (the command's defaults: #246C60 and #AA6639); none when empty. */
  dependencyEdgeColor?: string;
  parentEdgeColor?: string;
  shortNodeName?: boolean;
  dotFragment?: string;
}

interface Vertex {
  resource: ResourceState;
  outs: Array<{ to: Vertex; color: string; label: string }>;
}

/**
 * The DOT text Pulumi writes for these resources (the snapshot's, in its order). A vertex for each
 * URN (the last resource of a URN held twice, as Pulumi's map keeps it); each resource, in order,
 * adds an edge from each of its dependencies to itself, labelled with its properties that depend on
 * it (sorted, `, `-joined), then one from itself to its parent. The vertices are printed by URN,
 * each with its edges after it, and numbered `Resource<n>` as they are first named.
 */
export function dependencyGraphDot(resources: ResourceState[], options: GraphOptions): string {
  const vertices = new Map<string, Vertex>();
  for (const resource of resources) vertices.set(resource.urn, { resource, outs: [] });
  for (const { urn } of resources) {
    const vertex = vertices.get(urn)!;
    const { dependencies, propertyDependencies = {}, parent } = vertex.resource;
    if (!options.ignoreDependencyEdges) {
      const blame = new Map<string, string[]>();
      for (const key of goOrder(Object.keys(propertyDependencies)))
        for (const dep of propertyDependencies[key] ?? []) blame.set(dep, [...(blame.get(dep) ?? []), key]);
      // (A dependency or parent the snapshot does not hold, which its integrity check refuses,
      // is left out: Pulumi's graph would hold a nil vertex there.)
      for (const dep of dependencies ?? [])
        vertices.get(dep)?.outs.push({
          to: vertex,
          color: options.dependencyEdgeColor ?? '',
          label: (blame.get(dep) ?? []).join(', '),
        });
    }
    const parentVertex = parent && !options.ignoreParentEdges ? vertices.get(parent) : undefined;
    if (parentVertex) vertex.outs.push({ to: parentVertex, color: options.parentEdgeColor ?? '', label: '' });
  }

  const ids = new Map<Vertex, string>();
  const id = (v: Vertex) => ids.get(v) ?? ids.set(v, `Resource${ids.size}`).get(v)!;
  const lines = ['strict digraph {'];
  if (options.dotFragment) lines.push(options.dotFragment);
  for (const urn of goOrder([...vertices.keys()])) {
    const v = vertices.get(urn)!;
    const label = options.shortNodeName ? urnName(urn) : urn;
    lines.push(`    ${id(v)}${label ? ` [label="${label}"]` : ''};`);
    for (const out of v.outs) {
      const attrs = [
        ...(out.color ? [`color = "${out.color}"`] : []),
        ...(out.label ? [`label = "${out.label}"`] : []),
      ];
      lines.push(`    ${id(v)} -> ${id(out.to)}${attrs.length ? ` [${attrs.join(', ')}]` : ''};`);
    }
  }
  return `${lines.join('\n')}\n}\n`;
}

/**
 * Writes the graph of the stack's last deployment to `file` and says so on stderr (cobra's
 * cmd.Printf), as Pulumi's newStackGraphCmd. A stack without one (only its Pulumi.<stack>.yaml so
 * far) fails in its words, which name the --stack given (`""` without it).
 */
export function stackGraph(options: GlobalOptions & GraphOptions, file: string): void {
  const { state } = openStack(options);
  // One read of the state file: a snapshot without a manifest is a stack with no deployment.
  const snapshot = state.load({ manifest: 'raw' });
  if (!snapshot.manifest) throw new UserError(`unable to find snapshot for stack ${goQuote(options.stack ?? '')}`);
  const dot = dependencyGraphDot(snapshot.resources, options);
  try {
    writeFileSync(file, dot);
  } catch (e) {
    throw new UserError(goPathError(e, file, 'open'));
  }
  process.stderr.write(`Wrote stack dependency graph to \`${file}\`\n`);
}

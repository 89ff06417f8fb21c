import assert from 'node:assert/strict';
import test from 'node:test';
import type { ResourceState } from '../engine';
import { dependencyGraphDot } from './stack-graph';

const urn = (type: string, name: string) => `urn:pulumi:dev::p::${type}::${name}`;
const STACK = urn('pulumi:pulumi:Stack', 'p-dev');
const ENDPOINT = urn('oci:AiLanguage/endpoint:Endpoint', 'ep');
const PLAN = urn('oci:DisasterRecovery/drPlan:DrPlan', 'plan');
const resources = [
  { urn: STACK, type: 'pulumi:pulumi:Stack' },
  { urn: ENDPOINT, type: 'oci:AiLanguage/endpoint:Endpoint', parent: STACK },
  {
    urn: PLAN,
    type: 'oci:DisasterRecovery/drPlan:DrPlan',
    parent: STACK,
    dependencies: [ENDPOINT],
    propertyDependencies: { type: [ENDPOINT], displayName: [ENDPOINT], compartmentId: null },
  },
] as ResourceState[];

// What Pulumi's makeDependencyGraph and dotconv.Print write for this snapshot, traced by hand: the
// vertices by URN, each numbered as it is first named; a dependency's edge to what depends on it,
// labelled with the properties that do (sorted), after the resource's edge to its parent.
test('the graph is the DOT text Pulumi writes: vertices by URN, dependency and parent edges', () => {
  const colors = { dependencyEdgeColor: '#246C60', parentEdgeColor: '#AA6639' };
  assert.equal(
    dependencyGraphDot(resources, colors),
    [
      'strict digraph {',
      `    Resource0 [label="${ENDPOINT}"];`,
      '    Resource0 -> Resource1 [color = "#AA6639"];',
      '    Resource0 -> Resource2 [color = "#246C60", label = "displayName, type"];',
      `    Resource2 [label="${PLAN}"];`,
      '    Resource2 -> Resource1 [color = "#AA6639"];',
      `    Resource1 [label="${STACK}"];`,
      '}',
      '',
    ].join('\n'),
  );
  assert.equal(
    dependencyGraphDot(resources, {
      ...colors,
      parentEdgeColor: '',
      ignoreDependencyEdges: true,
      shortNodeName: true,
      dotFragment: 'node [shape=box];',
    }),
    [
      'strict digraph {',
      'node [shape=box];',
      '    Resource0 [label="ep"];',
      '    Resource0 -> Resource1;',
      '    Resource2 [label="plan"];',
      '    Resource2 -> Resource1;',
      '    Resource1 [label="p-dev"];',
      '}',
      '',
    ].join('\n'),
  );
  assert.equal(
    dependencyGraphDot(resources, { ...colors, ignoreParentEdges: true }),
    [
      'strict digraph {',
      `    Resource0 [label="${ENDPOINT}"];`,
      '    Resource0 -> Resource1 [color = "#246C60", label = "displayName, type"];',
      `    Resource1 [label="${PLAN}"];`,
      `    Resource2 [label="${STACK}"];`,
      '}',
      '',
    ].join('\n'),
  );
});

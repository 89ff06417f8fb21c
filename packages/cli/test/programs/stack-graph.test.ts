import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inlineProgram, program, startCloud, type Cloud } from '../support/programs';

// `stack graph` of a stack a program made: the DOT text Pulumi's stack_graph.go writes for it.
let cloud: Cloud;
before(async () => {
  cloud = await startCloud();
});
after(() => cloud?.close());

test("stack graph writes the stack's dependency graph in DOT, as Pulumi's", async () => {
  const index = `import * as pulumi from '@pulumi/pulumi';
import * as oci from '@ocikit/oci';
const config = new pulumi.Config();
const args = { compartmentId: config.require('compartmentId'), modelId: config.require('textModelId') };
const group = new pulumi.ComponentResource('my:x:Group', 'group');
const ep = new oci.ailanguage.Endpoint('ep', { ...args, displayName: 'first' }, { parent: group });
new oci.ailanguage.Endpoint('ep2', { ...args, displayName: ep.displayName.apply((n) => n + '-2') });
`;
  const p = program(inlineProgram('graphs', index), { ...cloud.env, PULUMI_NODEJS_TRANSPILE_ONLY: 'true' });
  p.setConfig({
    ...cloud.ociConfig,
    'graphs:compartmentId': cloud.sandbox.compartmentId,
    'graphs:textModelId': cloud.sandbox.textModelId,
  });
  // A stack with no deployment yet: Pulumi's words, naming the --stack given.
  const none = await p.run(['stack', 'graph', 'g.dot', '--stack', 'dev']);
  assert.equal(none.code, 1);
  assert.equal(none.stderr, 'error: unable to find snapshot for stack "dev"\n');
  assert.equal((await p.run(['up', '--yes', '--skip-preview'])).code, 0);

  const r = await p.run(['stack', 'graph', 'g.dot']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, '');
  assert.equal(r.stderr, 'Wrote stack dependency graph to `g.dot`\n');
  const state = JSON.parse((await p.run(['stack', 'export'])).stdout) as {
    deployment: { resources: Array<{ urn: string; type: string; parent?: string }> };
  };
  const provider = state.deployment.resources.find((res) => res.type === 'pulumi:providers:oci')!;
  const urn = (type: string, name: string) => `urn:pulumi:dev::graphs::${type}::${name}`;
  const STACK = urn('pulumi:pulumi:Stack', 'graphs-dev');
  const providerEdge = provider.parent ? [`    Resource4 -> Resource3 [color = "#AA6639"];`] : [];
  assert.equal(
    readFileSync(join(p.dir, 'g.dot'), 'utf8'),
    [
      'strict digraph {',
      `    Resource0 [label="${urn('my:x:Group$oci:AiLanguage/endpoint:Endpoint', 'ep')}"];`,
      '    Resource0 -> Resource1 [color = "#AA6639"];',
      '    Resource0 -> Resource2 [color = "#246C60", label = "displayName"];',
      `    Resource1 [label="${urn('my:x:Group', 'group')}"];`,
      '    Resource1 -> Resource3 [color = "#AA6639"];',
      `    Resource2 [label="${urn('oci:AiLanguage/endpoint:Endpoint', 'ep2')}"];`,
      '    Resource2 -> Resource3 [color = "#AA6639"];',
      `    Resource4 [label="${provider.urn}"];`,
      ...providerEdge,
      `    Resource3 [label="${STACK}"];`,
      '}',
      '',
    ].join('\n'),
  );

  // The flags: names for labels, no parent edges, another color, a fragment first.
  const flags = await p.run([
    'stack',
    'graph',
    'short.dot',
    '--short-node-name',
    '--ignore-parent-edges',
    '--dependency-edge-color',
    'red',
    '--dot-fragment',
    'rankdir=LR;',
  ]);
  assert.equal(flags.code, 0, flags.stderr);
  assert.equal(
    readFileSync(join(p.dir, 'short.dot'), 'utf8'),
    [
      'strict digraph {',
      'rankdir=LR;',
      '    Resource0 [label="ep"];',
      '    Resource0 -> Resource1 [color = "red", label = "displayName"];',
      '    Resource2 [label="group"];',
      '    Resource1 [label="ep2"];',
      `    Resource3 [label="${provider.urn.split('::').slice(3).join('::')}"];`,
      '    Resource4 [label="graphs-dev"];',
      '}',
      '',
    ].join('\n'),
  );
});

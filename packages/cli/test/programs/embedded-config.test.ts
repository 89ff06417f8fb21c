import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { FIXTURES, inlineProgram, ok, program } from '../support/programs';

// With the embedded emulator, `oci.config.region` and `oci.config.tenancyOcid` answer the
// emulator's home region and sandbox tenancy, as they would with a configured tenancy; a region
// the stack file sets wins.
test('a pulumi-oci program reads the embedded cloud as its oci:region and oci:tenancyOcid', async () => {
  const p = program(join(FIXTURES, 'provider-config'));
  ok(await p.run(['up', '--yes']));
  const out = JSON.parse(ok(await p.run(['stack', 'output', '--json'])).stdout);
  assert.match(out.tenancyOcid, /^ocid1\.tenancy\./);
  assert.equal(typeof out.region, 'string');

  p.setConfig({ 'oci:region': 'eu-frankfurt-1' });
  ok(await p.run(['up', '--yes']));
  const again = JSON.parse(ok(await p.run(['stack', 'output', '--json'])).stdout);
  assert.equal(again.region, 'eu-frankfurt-1');
  assert.equal(again.tenancyOcid, out.tenancyOcid);
});

// An `oci:` key the provider does not have (a typo) stops the run at the provider's check, as
// pulumi-oci's bridge does, where it was silently ignored; pulumi-oci's keys ocikit does not serve pass,
// with a warning when set to anything but their default.
test('an unknown oci: config key is one line naming the key and the one it may be a typo of', async () => {
  const p = program(
    inlineProgram(
      'unknown-key',
      [
        "import * as pulumi from '@pulumi/pulumi';",
        "import * as oci from '@pulumi/oci';",
        "const sandbox = new pulumi.Config('ocikit');",
        "new oci.ailanguage.Endpoint('e', {",
        "  compartmentId: sandbox.require('sandboxCompartmentId'),",
        "  modelId: sandbox.require('sandboxTextClassificationModelId'),",
        '});',
        '',
      ].join('\n'),
    ),
    { PULUMI_NODEJS_TRANSPILE_ONLY: 'true' },
  );
  p.setConfig({ 'oci:regoin': 'us-ashburn-1', 'oci:realmSpecificServiceEndpointTemplateEnabled': false });
  const result = await p.run(['preview']);
  assert.equal(result.code, 1);
  assert.equal(result.stderr.trimEnd().split('\n').length, 1, result.stderr);
  assert.match(
    result.stderr,
    /^error: pulumi:providers:oci resource 'default_4_20_0' has a problem: `oci:regoin` is not a valid configuration key for the oci provider\. Did you mean `oci:region`\?/,
  );
  assert.doesNotMatch(result.stdout + result.stderr, /realmSpecific|^\s+at \S/m);
  p.setConfig({ 'oci:realmSpecificServiceEndpointTemplateEnabled': false });
  ok(await p.run(['preview']));
  // A served-by-pulumi-oci setting that would change something here passes with a warning that
  // says it has no effect; one left at its default (above) says nothing.
  p.setConfig({
    'oci:retriesConfigFile': '/etc/oci/retries.json',
    'oci:realmSpecificServiceEndpointTemplateEnabled': false,
  });
  const warned = ok(await p.run(['preview']));
  assert.match(
    warned.stdout,
    /^ {4}pulumi:providers:oci default_4_20_0: warning: `oci:retriesConfigFile` is not served by ocikit's oci provider and has no effect$/m,
  );
  assert.doesNotMatch(warned.stdout, /realmSpecific/);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { FIXTURES, ok, program } from '../support/programs';

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

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyProjectConfig, parseProjectConfig } from './project-config';
import { ProjectError } from './project-error';

// Pulumi.yaml's `config:` block, with Pulumi's rules and messages (pkg/workspace project.go, config.go).
const parse = (raw: unknown) => parseProjectConfig('Pulumi.yaml', 'shop', raw);
const stack = (values: Record<string, string>, secretKeys: string[] = [], objects: string[] = []) => ({
  values,
  secretKeys,
  objects: new Set(objects),
});

test('short forms: a project key gives a default, another namespace a value; stack values win', () => {
  const config = parse({ size: 't3', replicas: 2, 'oci:region': 'us-ashburn-1', zones: ['a', 'b'] });
  assert.deepEqual(config, {
    size: { default: 't3' },
    replicas: { default: 2 },
    'oci:region': { value: 'us-ashburn-1' },
    zones: { default: ['a', 'b'] },
  });
  assert.deepEqual(applyProjectConfig('shop', config, 'dev', stack({ 'shop:size': 'm5' })), {
    'shop:size': 'm5',
    'shop:replicas': '2',
    'oci:region': 'us-ashburn-1',
    'shop:zones': '["a","b"]',
  });
});

test('a project key without a default must be set on the stack; Pulumi names the missing ones', () => {
  const config = parse({ a: { type: 'string' }, c: { description: 'c' }, b: { type: 'integer' }, d: 1 });
  // A ProjectError: the CLI prints it as one line.
  assert.throws(() => applyProjectConfig('shop', config, 'prod', stack({})), ProjectError);
  assert.throws(
    () => applyProjectConfig('shop', config, 'prod', stack({})),
    /^Error: Stack 'prod' is missing configuration values 'a', 'b' and 'c'$/,
  );
  assert.throws(
    () => applyProjectConfig('shop', config, 'prod', stack({ 'shop:a': 'x', 'shop:c': 'y' })),
    /^Error: Stack 'prod' is missing configuration value 'b'$/,
  );
  assert.equal(
    applyProjectConfig('shop', config, 'prod', stack({ 'shop:a': 'x', 'shop:b': '3', 'shop:c': 'y' }))['shop:d'],
    '1',
  );
});

test('typed keys: integers, booleans and arrays are checked; secret keys must be encrypted', () => {
  const config = parse({
    count: { type: 'integer' },
    on: { type: 'boolean', default: false },
    names: { type: 'array', items: { type: 'string' } },
    token: { type: 'string', secret: true },
  });
  const ok = stack({ 'shop:count': '-4', 'shop:names': '["x"]', 'shop:token': 's' }, ['shop:token'], ['shop:names']);
  assert.equal(applyProjectConfig('shop', config, 'dev', ok)['shop:on'], 'false');
  const fails = (
    values: Record<string, string>,
    message: RegExp,
    secretKeys = ['shop:token'],
    objects = ['shop:names'],
  ) =>
    assert.throws(
      () => applyProjectConfig('shop', config, 'dev', stack({ ...ok.values, ...values }, secretKeys, objects)),
      message,
    );
  fails({ 'shop:count': 'four' }, /^Error: Stack 'dev' with configuration key 'count' must be of type 'integer'$/);
  fails({ 'shop:on': 'yes' }, /with configuration key 'on' must be of type 'boolean'$/);
  fails({ 'shop:names': '[1]' }, /with configuration key 'names' must be of type 'array<string>'$/);
  fails({ 'shop:names': 'x' }, /with configuration key 'names' must be of type 'array<string>'$/, ['shop:token'], []);
  fails({}, /^Error: Stack 'dev' with configuration key 'token' must be encrypted as it's secret$/, []);
});

test("Pulumi.yaml's own mistakes, with Pulumi's messages", () => {
  const rejects = (raw: unknown, message: RegExp) => assert.throws(() => parse(raw), message);
  rejects({ a: { default: 1, value: 2 } }, /project config 'a' cannot have both a 'default' and 'value' attribute/);
  rejects({ a: { type: 'array' } }, /'a' declares an array but does not specify the underlying type via the 'items'/);
  rejects(
    { a: { type: 'integer', default: 'x' } },
    /default value specified for configuration key 'a' is not of the expected type 'integer'/,
  );
  rejects(
    { 'oci:region': { type: 'string', value: 'x' } },
    /'oci:region' is not namespaced by the project and should not define a type/,
  );
  rejects({ 'oci:region': { default: 'x' } }, /Did you mean to use the 'value' attribute instead of 'default'\?/);
  rejects({ 'oci:region': { description: 'x' } }, /'oci:region' is namespaced and must provide an attribute 'value'/);
  rejects({ a: { typ: 'string' } }, /config 'a': unknown attribute 'typ'/);
  rejects({ a: { type: 'number' } }, /config 'a': type must be one of string, integer, boolean, array/);
  // Typed defaults Pulumi accepts: integer strings, whole numbers, "true".
  assert.ok(parse({ a: { type: 'integer', default: '7' }, b: { type: 'boolean', default: 'true' } }));
  assert.equal(parse(undefined), undefined);
});

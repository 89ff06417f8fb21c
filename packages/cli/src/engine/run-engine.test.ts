import { test } from 'node:test';
import assert from 'node:assert/strict';
import { availableParallelism } from 'node:os';
import { defaultParallel, pluginEnv } from './run-engine';
import type { EngineOptions } from './types';

test("a preview alone tells its plugins so (they leave the OCI services' SDK unloaded); other runs do not", () => {
  const base = { programDir: '.', project: { name: 'p' }, stack: 's', config: {}, secretKeys: [], onEvent() {} };
  const run = (o: Partial<EngineOptions>) =>
    pluginEnv({ ...base, operation: 'update', preview: false, ...o } as EngineOptions).OCIKIT_PREVIEW_ONLY;
  assert.equal(run({ preview: true }), '1', '`preview`');
  assert.equal(run({ preview: true, operation: 'destroy' }), '1', '`destroy --preview-only`');
  assert.equal(run({ preview: true, keepPlugins: true }), undefined, "`up`'s preview: its plugins serve the update");
  assert.equal(run({ preview: true, refresh: true }), undefined, '`preview --refresh` reads');
  assert.equal(run({ preview: true, operation: 'refresh' }), undefined, '`refresh --preview-only` reads');
  assert.equal(run({ preview: true, imports: [{ type: 't', name: 'n', id: 'i' }] }), undefined, 'an import reads');
  process.env.OCIKIT_PREVIEW_ONLY = '1';
  try {
    assert.equal(run({}), undefined, 'an update, whatever the environment says');
  } finally {
    delete process.env.OCIKIT_PREVIEW_ONLY;
  }
  assert.equal(run({ preview: true, providerEnv: { X: 'y' } }), '1');
});

test("--parallel's default is PULUMI_PARALLEL when it is a positive integer, else four per CPU, as Pulumi's", () => {
  const perCpu = availableParallelism() * 4;
  assert.equal(defaultParallel({ PULUMI_PARALLEL: '3' }), 3);
  assert.equal(defaultParallel({ PULUMI_PARALLEL: '+64' }), 64);
  assert.equal(defaultParallel({}), perCpu);
  for (const bad of ['', '0', '-2', '1.5', 'abc', '1e3', ' 8'])
    assert.equal(defaultParallel({ PULUMI_PARALLEL: bad }), perCpu, bad);
});

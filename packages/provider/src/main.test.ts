import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { engineAddressOf } from './main';

test("the engine's address is its last argument, after the engine's own flags", () => {
  assert.equal(engineAddressOf(['127.0.0.1:5']), '127.0.0.1:5');
  assert.equal(engineAddressOf(['--logtostderr', '-v=9', '--tracing', '127.0.0.1:9', '127.0.0.1:5']), '127.0.0.1:5');
  assert.equal(engineAddressOf([]), undefined);
});

test('after protectStdout no console method writes to stdout', () => {
  const main = JSON.stringify(path.join(__dirname, 'main.ts'));
  const script = `require(${main}).protectStdout(); console.log('l'); console.info('i'); console.debug('d');
    console.dir({ a: 1 }); console.table([1]); console.count(); console.group('g'); console.timeLog('t');`;
  const r = spawnSync(process.execPath, ['--import', 'tsx', '-e', script], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, /l\n[\s\S]*d\n/);
});

test("a plugin for a preview alone does not load the OCI services' SDK ahead; any other does", () => {
  const server = JSON.stringify(path.join(__dirname, 'server.ts'));
  const script = `for (const step of require(${server}).warmUpSteps()) step();
    const loaded = (m) => Object.keys(require.cache).some((f) => f.includes('/node_modules/' + m + '/'));
    console.log(JSON.stringify(['oci-common', 'oci-disasterrecovery', 'oci-ailanguage'].map(loaded)));`;
  const loaded = (env: Record<string, string>) => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', '-e', script], {
      encoding: 'utf8',
      env: { ...process.env, ...env },
    });
    assert.equal(r.status, 0, r.stderr);
    return JSON.parse(r.stdout) as boolean[];
  };
  assert.deepEqual(loaded({ OCIKIT_PREVIEW_ONLY: '1' }), [true, false, false]);
  assert.deepEqual(loaded({ OCIKIT_PREVIEW_ONLY: '' }), [true, true, true]);
});

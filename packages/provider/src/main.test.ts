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

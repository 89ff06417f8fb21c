// A Ctrl-C as a run starts stops its prestarted program before the program has read the run's
// arguments from its gate: the gate's socket then fails (ECONNRESET), and ocikit must not die of it
// as an unhandled 'error' event (a Node stack trace, the stack's lock left behind).
import { after, it } from 'node:test';
import assert from 'node:assert/strict';
import { PrestartedProgram } from '../../src/engine/program';
import { makeProgram } from './support/harness';

const prog = makeProgram(`export const x = 1;\n`);
after(() => prog.remove());

it('a prestarted program stopped right after its start leaves no unhandled socket error', async () => {
  const errors: unknown[] = [];
  const onError = (e: unknown) => errors.push(e);
  // Collected here instead of failing the test process with the first one.
  process.prependListener('uncaughtException', onError);
  try {
    for (let i = 0; i < 5; i++) {
      const project = { name: 'enginetest', runtimeOptions: { typescript: true } };
      const early = new PrestartedProgram({ programDir: prog.dir, project, config: {}, secretKeys: [] });
      const run = early.start({
        programDir: prog.dir,
        project,
        stack: 'dev',
        monitorAddress: '127.0.0.1:1',
        engineAddress: '127.0.0.1:1',
        dryRun: true,
        parallel: 1,
        config: {},
        secretKeys: [],
        onStdout: () => undefined,
        onStderr: () => undefined,
      });
      // As the run's abort listener does (run-engine.ts), before the process reads its gate.
      run.child.kill('SIGTERM');
      await run.exit;
      await new Promise((r) => setTimeout(r, 100));
    }
  } finally {
    process.removeListener('uncaughtException', onError);
  }
  assert.deepEqual(errors.map(String), []);
});

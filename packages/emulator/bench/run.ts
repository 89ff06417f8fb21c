/**
 * `npm run bench`: the emulator's speed and memory, reported as ratios to a yardstick measured
 * on the same machine in the same run. Never asserted in tests.
 *
 * 1. Disaster Recovery: GetDrPlan and ListDrPlans with 10,000 plans stored, side by side with a
 *    bare fastify JSON route serving the same payloads; the emulator's memory with those plans.
 * 2. AI Language: endpoint create-to-ACTIVE as the official SDK waiter observes it (zero
 *    transition delay), as a ratio to one GetEndpoint round trip; inference throughput for a
 *    100-document batch.
 * 3. Start-up: spawn to first line of `ocikit-emulator` (bench/startup.ts).
 *
 * The SQLite driver is the running Node's (node:sqlite on 22.13+/24, better-sqlite3 on 20), or
 * the one `OCIKIT_SQLITE` forces. Env: BENCH_PLANS, BENCH_SECONDS (load per phase), BENCH_AI=0
 * skips AI Language, BENCH_JSON=<file> also writes the key numbers as JSON (bench/runtimes.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import * as common from 'oci-common';
import { AIServiceLanguageClient, models } from 'oci-ailanguage';
import { AdminClient, startEmulator } from '../src';
import { sqliteDriverName } from '../src/store/sqlite-driver';
import { identityFromConfig, signedHeaders, type SigningIdentity } from '../test/support/signed-fetch';
import { load, median, type LoadResult } from './load';
import { measureStartup } from './startup';

const PLANS = Number(process.env.BENCH_PLANS ?? 10_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONCURRENCY = 8;
/** Requests signed ahead of each phase and replayed: the load generator's RSA cost stays out of the measurement. */
const PRESIGNED = 256;
const AUTH_ROUNDS = 10;

/** Several load rounds as one: total requests over total time, p50 the median of the rounds' p50s, p99 the worst round's. */
function combine(results: LoadResult[]): LoadResult {
  const requests = results.reduce((sum, r) => sum + r.requests, 0);
  const seconds = results.reduce((sum, r) => sum + r.requests / r.perSecond, 0);
  return {
    requests,
    perSecond: requests / seconds,
    p50Ms: median(results.map((r) => r.p50Ms)),
    p99Ms: Math.max(...results.map((r) => r.p99Ms)),
  };
}

function startChild(args: string[], pattern: RegExp): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${args[0]} exited with ${code}`)));
    createInterface({ input: child.stdout! }).once('line', (line) => {
      const match = pattern.exec(line);
      if (match) resolve({ child, url: match[1] });
      else reject(new Error(`unexpected first line: ${line}`));
    });
  });
}

function memoryOf(pid: number): { rssMiB: number; peakMiB: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)![1]);
  return { rssMiB: kib('VmRSS') / 1024, peakMiB: kib('VmHWM') / 1024 };
}

async function json<T = unknown>(identity: SigningIdentity, url: string, init: RequestInit = {}): Promise<T> {
  const body = typeof init.body === 'string' ? init.body : undefined;
  const headers = await signedHeaders(identity, url, { method: init.method, body });
  const response = await fetch(url, { ...init, headers });
  const text = await response.text();
  if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${url}: ${response.status} ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

const row = (name: string, r: LoadResult) =>
  `| ${name} | ${r.perSecond.toFixed(0)} | ${r.p50Ms.toFixed(2)} | ${r.p99Ms.toFixed(2)} |`;

interface DrNumbers {
  plans: number;
  getPerSecond: number;
  listPerSecond: number;
  getRatio: number;
  listRatio: number;
  /** GetDrPlan throughput with signature verification / with `--auth none`. */
  authRatio: number;
  rssAfterLoadMiB: number;
}

/** GetDrPlan throughput against a running emulator, with pre-signed requests replayed. */
async function getLoad(
  identity: SigningIdentity,
  urlOf: (i: number) => string,
  seconds = SECONDS,
): Promise<LoadResult> {
  const headers = await Promise.all(Array.from({ length: PRESIGNED }, (_, i) => signedHeaders(identity, urlOf(i))));
  return load({
    url: (i) => urlOf(i % PRESIGNED),
    headers: (i) => headers[i % PRESIGNED],
    concurrency: CONCURRENCY,
    seconds,
  });
}

async function benchDisasterRecovery(): Promise<{ lines: string[]; numbers: DrNumbers }> {
  // File-backed, as users run it (`--data`), in a scratch directory.
  const scratch = mkdtempSync(join(tmpdir(), 'ocikit-bench-'));
  const dataDir = join(scratch, 'data');
  const startEmulatorProcess = (auth: 'signature' | 'none', data = dataDir) =>
    startChild(
      [
        join(__dirname, '../src/main.ts'),
        '--data',
        data,
        '--seed',
        'sandbox',
        '--transition-delay',
        '0',
        '--auth',
        auth,
      ],
      /listening on (http:\S+)/,
    );
  let emulator = await startEmulatorProcess('signature');
  let noAuth: { child: ChildProcess; url: string } | undefined;
  const baselineFile = join(scratch, 'payloads.json');
  try {
    const identity = identityFromConfig(join(dataDir, 'config'));
    const token = readFileSync(join(dataDir, 'admin-token'), 'utf8').trim();
    const sandbox = await new AdminClient(emulator.url, token).sandbox();
    const standby = sandbox.disasterRecovery.standbyProtectionGroupId;
    const apiOf = (url: string) => `${url}/r/${sandbox.disasterRecovery.standbyRegion}/20220125`;
    const api = apiOf(emulator.url);
    const idleMemory = memoryOf(emulator.child.pid!);

    const loadStarted = performance.now();
    const ids: string[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (next < PLANS) {
          const n = next++;
          const plan = await json<{ id: string }>(identity, `${api}/drPlans`, {
            method: 'POST',
            body: JSON.stringify({
              displayName: `bench-plan-${String(n).padStart(5, '0')}`,
              type: 'SWITCHOVER',
              drProtectionGroupId: standby,
            }),
          });
          ids.push(plan.id);
        }
      }),
    );
    const createSeconds = (performance.now() - loadStarted) / 1000;
    const loadedMemory = memoryOf(emulator.child.pid!);

    const item = await json(identity, `${api}/drPlans/${ids[0]}`);
    const page = await json(identity, `${api}/drPlans?drProtectionGroupId=${standby}&limit=100`);
    writeFileSync(baselineFile, JSON.stringify({ item, page }));
    const baseline = await startChild([join(__dirname, 'baseline-server.ts'), baselineFile], /listening on (http:\S+)/);
    try {
      const pick = (i: number) => ids[(i * 7919) % ids.length];
      const getPlan = await getLoad(identity, (i) => `${api}/drPlans/${pick(i)}`);
      const getBase = await load({
        url: (i) => `${baseline.url}/item/${pick(i)}`,
        concurrency: CONCURRENCY,
        seconds: SECONDS,
      });
      const listPlans = await getLoad(
        identity,
        (i) =>
          `${api}/drPlans?drProtectionGroupId=${standby}&limit=100&sortBy=${i % 2 ? 'displayName' : 'timeCreated'}`,
      );
      const listBase = await load({ url: () => `${baseline.url}/list`, concurrency: CONCURRENCY, seconds: SECONDS });
      const afterMemory = memoryOf(emulator.child.pid!);

      // Signature verification's cost: the same signed GetDrPlan requests to the same data with
      // `--auth none` (a copy of the data directory: one emulator per directory). Both run at
      // once and are measured in alternating short rounds, so the shared machine's load drifts
      // over both alike.
      await stopChild(emulator.child);
      const noAuthDir = join(scratch, 'data-no-auth');
      cpSync(dataDir, noAuthDir, { recursive: true });
      emulator = await startEmulatorProcess('signature');
      const unverified = await startEmulatorProcess('none', noAuthDir);
      noAuth = unverified;
      const rounds = { on: [] as LoadResult[], off: [] as LoadResult[] };
      const on = apiOf(emulator.url);
      const off = apiOf(unverified.url);
      const measure = (api: string) =>
        getLoad(identity, (i) => `${api}/drPlans/${pick(i)}`, (2 * SECONDS) / AUTH_ROUNDS);
      // Both processes are fresh: one unmeasured round each first, so JIT warm-up and the first
      // reads of the data are not counted against whichever side happens to go first.
      await measure(on);
      await measure(off);
      for (let round = 0; round < AUTH_ROUNDS; round++) {
        // Each round is a pair measured back to back, in alternating order (a fixed order let
        // whatever the shared machine did between the two halves bias every pair the same way).
        if (round % 2 === 0) {
          rounds.on.push(await measure(on));
          rounds.off.push(await measure(off));
        } else {
          rounds.off.push(await measure(off));
          rounds.on.push(await measure(on));
        }
      }
      const getVerified = combine(rounds.on);
      const getNoAuth = combine(rounds.off);

      const numbers: DrNumbers = {
        plans: ids.length,
        getPerSecond: getPlan.perSecond,
        listPerSecond: listPlans.perSecond,
        getRatio: getPlan.perSecond / getBase.perSecond,
        listRatio: listPlans.perSecond / listBase.perSecond,
        // The median of the pairs' ratios: one disturbed round moves it less than the totals' ratio.
        authRatio: median(rounds.on.map((r, i) => r.perSecond / rounds.off[i].perSecond)),
        rssAfterLoadMiB: afterMemory.rssMiB,
      };
      const lines = [
        `### Disaster Recovery: ${ids.length} plans stored (created in ${createSeconds.toFixed(1)} s, ${(ids.length / createSeconds).toFixed(0)} signed creates/s)`,
        '',
        `Plan JSON ${JSON.stringify(item).length} bytes; list page of 100 summaries ${JSON.stringify(page).length} bytes; ${CONCURRENCY} concurrent clients, ${SECONDS} s each; ${PRESIGNED} requests signed by oci-common ahead of each phase and replayed.`,
        '',
        '| operation | req/s | p50 ms | p99 ms |',
        '|---|---|---|---|',
        row('GetDrPlan (emulator, signatures verified)', getPlan),
        row(`GetDrPlan, ${AUTH_ROUNDS} rounds alternating: signatures verified`, getVerified),
        row(`GetDrPlan, ${AUTH_ROUNDS} rounds alternating: --auth none`, getNoAuth),
        row('same JSON, bare fastify', getBase),
        row('ListDrPlans limit=100 (emulator, signatures verified)', listPlans),
        row('same JSON, bare fastify', listBase),
        '',
        `Signature verification: GetDrPlan throughput with verification / with \`--auth none\` = ${numbers.authRatio.toFixed(2)} (median of the ${AUTH_ROUNDS} rounds' ratios; totals ${(getVerified.perSecond / getNoAuth.perSecond).toFixed(2)}; goal ≥ 0.9).`,
        '',
        `Throughput ratio emulator / bare fastify: GetDrPlan ${numbers.getRatio.toFixed(2)}, ListDrPlans ${numbers.listRatio.toFixed(2)}.`,
        '',
        `Emulator memory: RSS ${idleMemory.rssMiB.toFixed(0)} MiB idle after seeding; ${loadedMemory.rssMiB.toFixed(0)} MiB with ${ids.length} plans; ${afterMemory.rssMiB.toFixed(0)} MiB after the load (peak ${afterMemory.peakMiB.toFixed(0)} MiB).`,
      ];
      return { lines, numbers };
    } finally {
      baseline.child.kill();
    }
  } finally {
    await stopChild(emulator.child);
    if (noAuth) await stopChild(noAuth.child);
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Stops a child and waits for it to exit (the data directory's lock is released at exit). */
function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill();
  return exited;
}

async function benchAiLanguage(): Promise<string[]> {
  const emulator = await startEmulator({
    inMemory: true,
    seed: 'sandbox',
    transitionDelaySeconds: 0,
    trainingDurationSeconds: 0,
  });
  const client = new AIServiceLanguageClient(
    {
      authenticationDetailsProvider: new common.ConfigFileAuthenticationDetailsProvider(emulator.configFile, 'DEFAULT'),
    },
    {
      circuitBreaker: new common.CircuitBreaker({ disableClientCircuitBreaker: true } as ConstructorParameters<
        typeof common.CircuitBreaker
      >[0]),
    },
  );
  client.endpoint = emulator.url;
  try {
    const sandbox = emulator.sandbox!;
    const ai = sandbox.aiLanguage;
    const waiters = client.createWaiters(); // the SDK's default waiter configuration
    const createToActive: number[] = [];
    const getRoundTrip: number[] = [];
    for (let i = 0; i < 15; i++) {
      const started = performance.now();
      const created = await client.createEndpoint({
        createEndpointDetails: {
          compartmentId: sandbox.compartmentId,
          modelId: ai.pretrainedModelIds.sentimentAnalysis,
        },
      });
      await waiters.forEndpoint({ endpointId: created.endpoint.id }, models.Endpoint.LifecycleState.Active);
      createToActive.push(performance.now() - started);
      const getStarted = performance.now();
      await client.getEndpoint({ endpointId: created.endpoint.id });
      getRoundTrip.push(performance.now() - getStarted);
    }

    // ~150 characters a document: 100 of them stay under OCI's 20,000 characters per request.
    const text =
      'The new release is fast and reliable, but the installer was confusing. Overall we are happy with Oracle Cloud in Frankfurt.';
    const documents = Array.from({ length: 100 }, (_, i) => ({
      key: `doc-${i}`,
      text: `${text} Ticket ${i}.`,
      languageCode: 'en',
    }));
    const lines: string[] = [];
    const operations: Array<[string, string, (endpointId: string) => Promise<unknown>]> = [
      [
        'batchDetectLanguageSentiments',
        ai.pretrainedModelIds.sentimentAnalysis,
        (endpointId) =>
          client.batchDetectLanguageSentiments({ batchDetectLanguageSentimentsDetails: { endpointId, documents } }),
      ],
      [
        'batchDetectLanguageTextClassification',
        ai.customModelIds.textClassification,
        (endpointId) =>
          client.batchDetectLanguageTextClassification({
            batchDetectLanguageTextClassificationDetails: { endpointId, documents },
          }),
      ],
      [
        'batchDetectLanguageEntities',
        ai.customModelIds.namedEntityRecognition,
        (endpointId) =>
          client.batchDetectLanguageEntities({ batchDetectLanguageEntitiesDetails: { endpointId, documents } }),
      ],
      [
        'batchDetectDominantLanguage',
        ai.pretrainedModelIds.languageDetection,
        (endpointId) =>
          client.batchDetectDominantLanguage({ batchDetectDominantLanguageDetails: { endpointId, documents } }),
      ],
      [
        'batchDetectLanguageKeyPhrases',
        ai.pretrainedModelIds.keyPhraseExtraction,
        (endpointId) =>
          client.batchDetectLanguageKeyPhrases({ batchDetectLanguageKeyPhrasesDetails: { endpointId, documents } }),
      ],
    ];
    for (const [name, modelId, call] of operations) {
      const created = await client.createEndpoint({
        createEndpointDetails: { compartmentId: sandbox.compartmentId, modelId },
      });
      await waiters.forEndpoint({ endpointId: created.endpoint.id }, models.Endpoint.LifecycleState.Active);
      const times: number[] = [];
      for (let i = 0; i < 20; i++) {
        const started = performance.now();
        await call(created.endpoint.id);
        times.push(performance.now() - started);
      }
      lines.push(`| ${name} | ${median(times).toFixed(1)} | ${(100 / (median(times) / 1000)).toFixed(0)} |`);
    }
    const ratio = median(createToActive) / median(getRoundTrip);
    return [
      '### AI Language',
      '',
      `Endpoint create-to-ACTIVE through \`createWaiters().forEndpoint\` (default waiter settings, zero transition delay): median ${median(createToActive).toFixed(1)} ms over 15 runs; one GetEndpoint round trip median ${median(getRoundTrip).toFixed(2)} ms; ratio ${ratio.toFixed(1)}.`,
      '',
      '| 100-document batch | median ms | documents/s |',
      '|---|---|---|',
      ...lines,
    ];
  } finally {
    client.close();
    await emulator.close();
  }
}

async function main() {
  const driver = sqliteDriverName();
  const out = [
    '## Benchmark results',
    '',
    `Node ${process.version}, SQLite through ${driver === 'node' ? 'node:sqlite' : 'better-sqlite3'}, ${new Date().toISOString().slice(0, 10)}, command: \`npm run bench\``,
    '',
  ];
  const dr = await benchDisasterRecovery();
  out.push(...dr.lines, '');
  const startup = await measureStartup();
  out.push(
    '### Start-up',
    '',
    `First line printed by \`ocikit-emulator\`, median of 5 (\`node -e 0\`: ${startup.nodeMs.toFixed(0)} ms): ` +
      `${startup.existingDataMs.toFixed(0)} ms on an existing data directory, ` +
      `${startup.inMemorySeedMs.toFixed(0)} ms for \`--in-memory --seed sandbox\`.`,
    '',
  );
  if (process.env.BENCH_AI !== '0') out.push(...(await benchAiLanguage()));
  console.log(out.join('\n'));
  if (process.env.BENCH_JSON) {
    writeFileSync(process.env.BENCH_JSON, JSON.stringify({ node: process.version, driver, ...dr.numbers, ...startup }));
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

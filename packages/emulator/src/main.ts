#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import { validateFault, type FaultSpec } from './http/faults';
import { startEmulator } from './server';

const nonNegative = (name: string) => (value: string) => {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) throw new InvalidArgumentError(`${name} must be a non-negative number.`);
  return n;
};

/** Reads a --faults file: a fault object, an array of them, or `{"items": [...]}` as GET /_ocikit/faults answers. */
function readFaults(file: string): FaultSpec[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new InvalidArgumentError(`cannot read --faults file ${file}: ${(error as Error).message}`);
  }
  const items = Array.isArray(parsed)
    ? parsed
    : parsed && typeof parsed === 'object' && Array.isArray((parsed as { items?: unknown }).items)
      ? (parsed as { items: unknown[] }).items
      : [parsed];
  return items.map((item, i) => {
    try {
      return validateFault(item, `fault ${i + 1}`);
    } catch (error) {
      throw new InvalidArgumentError(`--faults ${file}: ${(error as Error).message}`);
    }
  });
}

const positive = (name: string) => (value: string) => {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError(`${name} must be a positive number.`);
  return n;
};

const { version } = JSON.parse(readFileSync(join(__dirname, '../package.json'), 'utf8')) as { version: string };

const program = new Command()
  .name('ocikit-emulator')
  .version(version)
  .description('A local OCI control plane for Full Stack Disaster Recovery and AI Language.')
  .option('--port <port>', 'TCP port (0 = any free port)', nonNegative('--port'), 0)
  .option('--host <host>', 'interface to listen on', '127.0.0.1')
  .option('--data <dir>', 'data directory (database, OCI config file)', '.ocikit')
  .option('--in-memory', 'keep everything in memory; nothing is written but the config file')
  .option('--region <region>', 'home region of unprefixed requests', 'us-ashburn-1')
  .option('--seed <seed>', 'seed on start: sandbox')
  .option(
    '--transition-delay <seconds>',
    'how long CREATING/UPDATING/DELETING last',
    nonNegative('--transition-delay'),
    1,
  )
  .option(
    '--training-duration <seconds>',
    'how long a custom AI Language model trains',
    nonNegative('--training-duration'),
    5,
  )
  .option(
    '--deleted-retention <seconds>',
    'how long deleted resources read as DELETED before 404',
    nonNegative('--deleted-retention'),
    3600,
  )
  .option(
    '--rate-limit <rps>',
    'requests per second per tenancy before 429 TooManyRequests (default: no limit)',
    positive('--rate-limit'),
  )
  .option('--auth <mode>', 'signature (verify OCI request signatures) or none (accept any request)', 'signature')
  .option('--faults <file>', 'JSON file of faults to arm at start: one fault object or an array of them')
  .option('--admin-token <token>', 'bearer token of the /_ocikit admin API (default: a random one)')
  .action(async (opts) => {
    if (opts.auth !== 'signature' && opts.auth !== 'none')
      throw new InvalidArgumentError(`unknown --auth mode '${opts.auth}' (known: signature, none)`);
    if (opts.seed !== undefined && opts.seed !== 'sandbox')
      throw new InvalidArgumentError(`unknown seed '${opts.seed}' (known: sandbox)`);
    // SIGINT/SIGTERM close the server and the database, then exit 0, also when they arrive
    // while starting; a second signal during shutdown exits at once (committed data is in the WAL).
    let close: (() => Promise<void>) | undefined;
    let stopping = false;
    const stop = () => {
      if (stopping) process.exit(0);
      stopping = true;
      if (close) shutDown(close);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
    const emulator = await startEmulator({
      port: opts.port,
      host: opts.host,
      dataDir: opts.data,
      inMemory: opts.inMemory,
      region: opts.region,
      seed: opts.seed,
      transitionDelaySeconds: opts.transitionDelay,
      trainingDurationSeconds: opts.trainingDuration,
      deletedRetentionSeconds: opts.deletedRetention,
      rateLimit: opts.rateLimit,
      auth: opts.auth,
      adminToken: opts.adminToken,
      faults: opts.faults === undefined ? undefined : readFaults(opts.faults),
    });
    // The first line is a contract: tools wait for it to learn the URL.
    console.log(`ocikit emulator listening on ${emulator.url}`);
    // The second line says whether signatures are checked; the third carries the admin token.
    console.log(
      emulator.auth === 'none'
        ? 'authentication: none (--auth none): request signatures are NOT verified; every request is accepted'
        : 'authentication: OCI request signatures are verified (--auth none turns this off)',
    );
    console.log(`admin token: ${emulator.adminToken}`);
    console.log(`OCI config file: ${emulator.configFile} (profile DEFAULT, region ${emulator.region})`);
    console.log(
      'serving Disaster Recovery (/20220125) and AI Language (/20221001) for the home region, ' +
        `any other region under ${emulator.url}/r/<region>/…, and the admin API under /_ocikit`,
    );
    if (emulator.sandbox) console.log(`sandbox: ${JSON.stringify(emulator.sandbox, null, 2)}`);
    close = () => emulator.close();
    if (stopping) shutDown(close);
  });

function shutDown(close: () => Promise<void>): void {
  close().then(
    () => process.exit(0),
    (error: Error) => {
      console.error(`ocikit-emulator: stopping failed: ${error.message}`);
      process.exit(1);
    },
  );
}

program.parseAsync().catch((error: Error) => {
  console.error(`ocikit-emulator: ${error.message}`);
  process.exit(1);
});

import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import * as common from 'oci-common';
import { DisasterRecoveryClient } from 'oci-disasterrecovery';
import { AdminClient, startEmulator } from '../src';
import { fastRetry } from './support/emulator';

// The installed command, as users run it; `npm ci` builds dist/ (the root `prepare` script).
const BIN = join(__dirname, '../bin/ocikit-emulator.js');

/**
 * Runs `ocikit-emulator --data <dir>` with the Node running this test (CI runs the suite on
 * Node 20 and Node 24), makes a few signed requests, sends `signal`, and returns how it ended.
 */
async function runAndStop(dataDir: string, signal: NodeJS.Signals) {
  assert.ok(existsSync(join(__dirname, '../dist/main.js')), 'dist/ is missing: run `npm run build` first');
  const child = spawn(process.execPath, [BIN, '--data', dataDir, '--seed', 'sandbox', '--transition-delay', '0'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const url = await new Promise<string>((resolve, reject) => {
    void exited.then(({ code }) => reject(new Error(`emulator exited early with ${code}: ${stderr}`)));
    createInterface({ input: child.stdout }).once('line', (line) => {
      const match = /^ocikit emulator listening on (http:\/\/\S+)$/.exec(line);
      if (match) resolve(match[1]);
      else reject(new Error(`unexpected first line: ${line}`));
    });
  });
  child.stdout.resume();

  // The admin token is written to the data directory at start.
  const token = readFileSync(join(dataDir, 'admin-token'), 'utf8').trim();
  const sandbox = await new AdminClient(url, token).sandbox();
  const client = new DisasterRecoveryClient(
    {
      authenticationDetailsProvider: new common.ConfigFileAuthenticationDetailsProvider(
        join(dataDir, 'config'),
        'DEFAULT',
      ),
    },
    { retryConfiguration: fastRetry, circuitBreaker: new common.CircuitBreaker({ disableClientCircuitBreaker: true }) },
  );
  const dr = sandbox.disasterRecovery as { standbyProtectionGroupId: string; standbyRegion: string };
  client.endpoint = `${url}/r/${dr.standbyRegion}`;
  let planId: string;
  try {
    const created = await client.createDrPlan({
      createDrPlanDetails: {
        displayName: `stopped-by-${signal}`,
        type: 'SWITCHOVER' as never,
        drProtectionGroupId: dr.standbyProtectionGroupId,
      },
    });
    planId = created.drPlan.id;
    await client.getDrPlan({ drPlanId: planId });
    await client.listDrPlans({ drProtectionGroupId: dr.standbyProtectionGroupId });
  } finally {
    client.close();
  }

  child.kill(signal);
  return { ...(await exited), stderr, planId, region: dr.standbyRegion };
}

describe('ocikit-emulator stops cleanly on a signal', () => {
  const dirs: string[] = [];
  after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`exits 0 on ${signal} with a file-backed data directory, keeping its data and releasing it`, async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'ocikit-signal-'));
      dirs.push(dataDir);
      const stopped = await runAndStop(dataDir, signal);
      // No abort ("Assertion failed", core dump), no warning of any kind on stderr.
      assert.deepEqual(
        { code: stopped.code, signal: stopped.signal, stderr: stopped.stderr },
        {
          code: 0,
          signal: null,
          stderr: '',
        },
      );

      // The database is closed and unlocked: the next emulator opens it and finds the plan.
      const again = await startEmulator({ dataDir, transitionDelaySeconds: 0 });
      try {
        const client = new DisasterRecoveryClient(
          { authenticationDetailsProvider: new common.ConfigFileAuthenticationDetailsProvider(again.configFile) },
          { retryConfiguration: fastRetry },
        );
        client.endpoint = `${again.url}/r/${stopped.region}`;
        const { drPlan } = await client.getDrPlan({ drPlanId: stopped.planId });
        assert.equal(drPlan.displayName, `stopped-by-${signal}`);
        client.close();
      } finally {
        await again.close();
      }
    });
  }
});

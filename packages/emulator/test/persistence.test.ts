import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import * as common from 'oci-common';
import { DisasterRecoveryClient } from 'oci-disasterrecovery';
import { startEmulator } from '../src';
import { fastRetry, fastWaiter } from './support/emulator';
import { identityFromConfig } from './support/signed-fetch';

const createPg = (client: DisasterRecoveryClient, compartmentId: string, displayName: string) =>
  client.createDrProtectionGroup({
    createDrProtectionGroupDetails: { compartmentId, displayName, logLocation: { namespace: 'ns', bucket: 'logs' } },
  });

function clientFor(url: string, configFile: string): DisasterRecoveryClient {
  const client = new DisasterRecoveryClient(
    { authenticationDetailsProvider: new common.ConfigFileAuthenticationDetailsProvider(configFile, 'DEFAULT') },
    {
      retryConfiguration: fastRetry,
      circuitBreaker: new common.CircuitBreaker({ disableClientCircuitBreaker: true } as ConstructorParameters<
        typeof common.CircuitBreaker
      >[0]),
    },
  );
  client.endpoint = url;
  return client;
}

/** Starts `ocikit-emulator` as a child process and resolves with its URL (the first line it prints). */
function spawnEmulator(dataDir: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(__dirname, '../src/main.ts'), '--data', dataDir, '--transition-delay', '0'],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`emulator exited early with ${code}`)));
    createInterface({ input: child.stdout! }).once('line', (line) => {
      const match = /^ocikit emulator listening on (http:\/\/\S+)$/.exec(line);
      if (match) resolve({ child, url: match[1] });
      else reject(new Error(`unexpected first line: ${line}`));
    });
  });
}

describe('persistence', () => {
  const dirs: string[] = [];
  const tempDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'ocikit-persist-'));
    dirs.push(dir);
    return dir;
  };
  after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  it('keeps resources, credentials and the sandbox across a restart of the same data directory', async () => {
    const dataDir = tempDir();
    const first = await startEmulator({ dataDir, transitionDelaySeconds: 0, seed: 'sandbox' });
    const client = clientFor(first.url, first.configFile);
    const created = await createPg(client, first.sandbox!.compartmentId, 'survives-restart');
    client.close();
    await first.close();

    const second = await startEmulator({ dataDir, transitionDelaySeconds: 0 });
    try {
      // The same key still signs: the config file names the same user and fingerprint.
      const again = clientFor(second.url, second.configFile);
      const read = await again.getDrProtectionGroup({ drProtectionGroupId: created.drProtectionGroup.id });
      assert.equal(read.drProtectionGroup.displayName, 'survives-restart');
      assert.equal(read.drProtectionGroup.lifecycleState, 'ACTIVE');
      const sandbox = (await second.admin.sandbox()) as { compartmentId: string };
      assert.equal(sandbox.compartmentId, first.sandbox!.compartmentId);
      again.close();
    } finally {
      await second.close();
    }
  });

  // Time never goes back for a client: what was stamped and scheduled after POST /_ocikit/clock
  // still comes due after a restart, whose clock continues from the moved time.
  it('keeps the admin clock across a restart: work stopped mid-way finishes, times do not go back', async () => {
    const dataDir = tempDir();
    const first = await startEmulator({ dataDir, transitionDelaySeconds: 1 });
    const compartmentId = identityFromConfig(first.configFile).tenancyId;
    await first.admin.advanceClock(3600);
    let client = clientFor(first.url, first.configFile);
    const before = await createPg(client, compartmentId, 'stopped-while-creating');
    assert.equal(before.drProtectionGroup.lifecycleState, 'CREATING');
    client.close();
    await first.close();

    const second = await startEmulator({ dataDir, transitionDelaySeconds: 1 });
    client = clientFor(second.url, second.configFile);
    try {
      const waiters = client.createWaiters(fastWaiter(1000));
      const work = await waiters.forWorkRequest({ workRequestId: before.opcWorkRequestId });
      assert.equal(work?.workRequest.status, 'SUCCEEDED');
      assert.equal(work?.workRequest.percentComplete, 100);
      assert.ok(work?.workRequest.timeFinished);
      const id = before.drProtectionGroup.id;
      const group = await waiters.forDrProtectionGroup({ drProtectionGroupId: id }, 'ACTIVE' as never);
      assert.equal(group?.drProtectionGroup.lifecycleState, 'ACTIVE');
      const after = await createPg(client, compartmentId, 'created-after-restart');
      assert.ok(after.drProtectionGroup.timeCreated! > before.drProtectionGroup.timeCreated!);
      // Newest first, as OCI lists them by default.
      const listed = await client.listDrProtectionGroups({ compartmentId });
      assert.deepEqual(
        listed.drProtectionGroupCollection.items.map((g) => g.displayName),
        ['created-after-restart', 'stopped-while-creating'],
      );
    } finally {
      client.close();
      await second.close();
    }
  });

  // A transition ends at a time stored with the resource, not after a span of the emulator's running:
  // a restart with a longer --transition-delay does not stretch what was already started.
  it('ends a transition started before a restart when it was due, whatever the new transition delay', async () => {
    const dataDir = tempDir();
    const first = await startEmulator({ dataDir, transitionDelaySeconds: 1 });
    const compartmentId = identityFromConfig(first.configFile).tenancyId;
    let client = clientFor(first.url, first.configFile);
    const created = await createPg(client, compartmentId, 'started-before-restart');
    assert.equal(created.drProtectionGroup.lifecycleState, 'CREATING');
    client.close();
    await first.close();

    const second = await startEmulator({ dataDir, transitionDelaySeconds: 3600 });
    client = clientFor(second.url, second.configFile);
    try {
      const waiters = client.createWaiters(fastWaiter(1000));
      const id = created.drProtectionGroup.id;
      const group = await waiters.forDrProtectionGroup({ drProtectionGroupId: id }, 'ACTIVE' as never);
      assert.equal(group?.drProtectionGroup.lifecycleState, 'ACTIVE');
      // What starts now takes the new delay.
      const later = await createPg(client, compartmentId, 'started-after-restart');
      const read = await client.getDrProtectionGroup({ drProtectionGroupId: later.drProtectionGroup.id });
      assert.equal(read.drProtectionGroup.lifecycleState, 'CREATING');
    } finally {
      client.close();
      await second.close();
    }
  });

  it('leaves the data directory free when a start fails, for the next start in the same process', async () => {
    const dataDir = tempDir();
    const failed = [{ rateLimit: -1 }, { adminToken: 'has spaces' }, { faults: [{ kind: 'no-such-kind' } as never] }];
    for (const options of failed) {
      await assert.rejects(startEmulator({ dataDir, ...options }), JSON.stringify(options));
      const next = await startEmulator({ dataDir });
      await next.close();
    }
  });

  it('refuses an apiKeyFile that holds no private key in one line naming it, and does not remember it', async () => {
    const dataDir = tempDir();
    const notAKey = join(dataDir, 'not-a-key.pem');
    writeFileSync(notAKey, 'not a key\n');
    await assert.rejects(
      startEmulator({ dataDir, apiKeyFile: notAKey }),
      (error: Error) =>
        error.message.startsWith(`the API key file ${notAKey} holds no private key (`) && !error.message.includes('\n'),
    );
    // The data directory did not take it: the next start without the option makes its own key.
    const next = await startEmulator({ dataDir });
    assert.ok(readFileSync(next.configFile, 'utf8').includes(`key_file=${join(dataDir, 'oci_api_key.pem')}`));
    await next.close();
  });

  // ocikit's embedded emulator keeps its key in a file of the user's: nothing in the data
  // directory (a program's .ocikit/emulator/) holds a private key, the one it held before included.
  it('keeps the API key in apiKeyFile, out of the data directory, and remembers the file', async () => {
    const keyFile = join(tempDir(), 'keys', 'embedded_api_key.pem');
    const holdsAKey = (dir: string) =>
      readdirSync(dir).filter((f) => readFileSync(join(dir, f)).includes('PRIVATE KEY'));
    // A data directory made before, with its key in its database and beside it.
    const dataDir = tempDir();
    const before = await startEmulator({ dataDir, transitionDelaySeconds: 0, seed: 'sandbox' });
    const client = clientFor(before.url, before.configFile);
    const created = await createPg(client, before.sandbox!.compartmentId, 'kept');
    client.close();
    await before.close();
    assert.deepEqual(holdsAKey(dataDir).sort(), ['emulator.db', 'oci_api_key.pem']);

    for (const options of [{ apiKeyFile: keyFile }, {}]) {
      const emulator = await startEmulator({ dataDir, transitionDelaySeconds: 0, ...options });
      try {
        assert.match(readFileSync(emulator.configFile, 'utf8'), new RegExp(`^key_file=${keyFile}$`, 'm'));
        assert.equal(statSync(keyFile).mode & 0o777, 0o600);
        const signed = clientFor(emulator.url, emulator.configFile);
        const read = await signed.getDrProtectionGroup({ drProtectionGroupId: created.drProtectionGroup.id });
        assert.equal(read.drProtectionGroup.displayName, 'kept');
        signed.close();
      } finally {
        await emulator.close();
      }
      assert.deepEqual(holdsAKey(dataDir), [], 'no private key left in the data directory');
    }
    // Another data directory takes the same file, and so the same key.
    const other = await startEmulator({ dataDir: tempDir(), transitionDelaySeconds: 0, apiKeyFile: keyFile });
    try {
      const fingerprint = (config: string) => /^fingerprint=(.*)$/m.exec(readFileSync(config, 'utf8'))?.[1];
      assert.ok(fingerprint(other.configFile));
      assert.equal(fingerprint(other.configFile), fingerprint(join(dataDir, 'config')));
      const signed = clientFor(other.url, other.configFile);
      await createPg(signed, (await other.admin.sandbox(true)).compartmentId, 'other');
      signed.close();
    } finally {
      await other.close();
    }
  });

  // The database holds the API private key (meta 'credentials') and every tenancy's data.
  it(
    'keeps the data directory it makes and every file in it readable by their owner only',
    { skip: process.platform === 'win32' },
    async () => {
      const dataDir = join(tempDir(), 'made', 'here');
      const modes = () => readdirSync(dataDir).map((f) => [f, (statSync(join(dataDir, f)).mode & 0o777).toString(8)]);
      const first = await spawnEmulator(dataDir);
      const killed = new Promise((resolve) => first.child.once('exit', resolve));
      try {
        assert.equal((statSync(dataDir).mode & 0o777).toString(8), '700');
        assert.deepEqual(modes().sort(), [
          ['admin-token', '600'],
          ['config', '600'],
          ['emulator.db', '600'],
          ['emulator.db-wal', '600'],
          ['oci_api_key.pem', '600'],
        ]);
      } finally {
        // Killed, so that its -wal stays behind.
        first.child.kill('SIGKILL');
        await killed;
      }
      // Files an older emulator left readable by all are tightened.
      for (const file of ['emulator.db', 'emulator.db-wal']) chmodSync(join(dataDir, file), 0o644);
      const second = await spawnEmulator(dataDir);
      try {
        assert.deepEqual(
          modes().filter(([, mode]) => mode !== '600'),
          [],
        );
      } finally {
        second.child.kill('SIGTERM');
      }
    },
  );

  it('loses no acknowledged write when killed with SIGKILL during concurrent creates', async () => {
    const dataDir = tempDir();
    const { child, url } = await spawnEmulator(dataDir);
    const configFile = join(dataDir, 'config');
    const client = clientFor(url, configFile);
    const compartmentId = identityFromConfig(configFile).tenancyId;
    const acknowledged: string[] = [];
    let killed = false;
    const exited = new Promise((resolve) => child.once('exit', resolve));

    // Eight workers create protection groups until the process dies under them.
    const worker = async (w: number) => {
      for (let i = 0; !killed; i++) {
        try {
          const response = await createPg(client, compartmentId, `w${w}-${i}`);
          acknowledged.push(response.drProtectionGroup.id);
          if (acknowledged.length === 150) {
            killed = true;
            child.kill('SIGKILL');
          }
        } catch {
          return; // the connection died with the process: this write was never acknowledged
        }
      }
    };
    await Promise.all(Array.from({ length: 8 }, (_, w) => worker(w)));
    await exited;
    client.close();
    assert.ok(acknowledged.length >= 150);

    const restarted = await spawnEmulator(dataDir);
    const reader = clientFor(restarted.url, configFile);
    try {
      const missing: string[] = [];
      for (const id of acknowledged) {
        try {
          await reader.getDrProtectionGroup({ drProtectionGroupId: id });
        } catch {
          missing.push(id);
        }
      }
      assert.deepEqual(missing, [], `${missing.length} of ${acknowledged.length} acknowledged creates were lost`);
    } finally {
      reader.close();
      restarted.child.kill('SIGTERM');
    }
  });
});

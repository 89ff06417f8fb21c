import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import * as common from 'oci-common';
import { AIServiceLanguageClient } from 'oci-ailanguage';
import { DisasterRecoveryClient } from 'oci-disasterrecovery';
import { AdminClient } from '../src';
import { openSqlite } from '../src/store/sqlite-driver';
import { fastRetry } from './support/emulator';

const BIN = join(__dirname, '../bin/ocikit-emulator.js');
const CLIENTS = 50;
const LOAD_MS = 5_000;

interface Started {
  child: ChildProcess;
  url: string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts the installed `ocikit-emulator` command on `dataDir` (signature verification on, the default). */
async function startProcess(dataDir: string): Promise<Started> {
  assert.ok(existsSync(join(__dirname, '../dist/main.js')), 'dist/ is missing: run `npm run build` first');
  const child = spawn(process.execPath, [BIN, '--data', dataDir, '--seed', 'sandbox', '--transition-delay', '0'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const url = await new Promise<string>((resolve, reject) => {
    void exited.then(({ code }) => reject(new Error(`emulator exited early with ${code}: ${stderr}`)));
    createInterface({ input: child.stdout! }).once('line', (line) => {
      const match = /^ocikit emulator listening on (http:\/\/\S+)$/.exec(line);
      if (match) resolve(match[1]);
      else reject(new Error(`unexpected first line: ${line}`));
    });
  });
  child.stdout!.resume();
  return { child, url, exited };
}

/** What a client was told was written, and what it had in flight when the process died. */
interface Written {
  kind: 'plan' | 'endpoint';
  id: string;
  /** Display names the resource may show: the acknowledged one, plus one in flight (it may have committed). */
  names: Set<string>;
  deleted: 'no' | 'maybe' | 'yes';
}

describe('load: 50 signed clients, SIGKILL, restart', () => {
  const dirs: string[] = [];
  after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  it('keeps every acknowledged write and an intact database across SIGKILL', { timeout: 60_000 }, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'ocikit-load-'));
    dirs.push(dataDir);
    const first = await startProcess(dataDir);
    const token = readFileSync(join(dataDir, 'admin-token'), 'utf8').trim();
    const sandbox = await new AdminClient(first.url, token).sandbox();
    const dr = sandbox.disasterRecovery as { standbyProtectionGroupId: string; standbyRegion: string };
    const modelId = Object.values(sandbox.aiLanguage.customModelIds)[0] as string;
    const provider = new common.ConfigFileAuthenticationDetailsProvider(join(dataDir, 'config'), 'DEFAULT');
    const configuration = {
      retryConfiguration: fastRetry,
      circuitBreaker: new common.CircuitBreaker({ disableClientCircuitBreaker: true } as ConstructorParameters<
        typeof common.CircuitBreaker
      >[0]),
    };
    const makeClients = (url: string) => {
      const drClient = new DisasterRecoveryClient({ authenticationDetailsProvider: provider }, configuration);
      drClient.endpoint = `${url}/r/${dr.standbyRegion}`;
      const language = new AIServiceLanguageClient({ authenticationDetailsProvider: provider }, configuration);
      language.endpoint = url;
      return { drClient, language };
    };

    const written: Written[] = [];
    let stop = false;
    let acknowledged = 0;
    const worker = async (n: number) => {
      const { drClient, language } = makeClients(first.url);
      try {
        for (let i = 0; !stop; i++) {
          const kind = (n + i) % 2 === 0 ? 'plan' : 'endpoint';
          const name = `load-${n}-${i}`;
          const id =
            kind === 'plan'
              ? (
                  await drClient.createDrPlan({
                    createDrPlanDetails: {
                      displayName: name,
                      type: 'SWITCHOVER' as never,
                      drProtectionGroupId: dr.standbyProtectionGroupId,
                    },
                  })
                ).drPlan.id
              : (
                  await language.createEndpoint({
                    createEndpointDetails: { compartmentId: sandbox.compartmentId, modelId, displayName: name },
                  })
                ).endpoint.id;
          const record: Written = { kind, id, names: new Set([name]), deleted: 'no' };
          written.push(record);
          acknowledged++;
          if (stop) break;
          const renamed = `${name}-updated`;
          record.names.add(renamed);
          if (kind === 'plan') {
            await drClient.updateDrPlan({ drPlanId: id, updateDrPlanDetails: { displayName: renamed } });
          } else {
            await language.updateEndpoint({ endpointId: id, updateEndpointDetails: { displayName: renamed } });
          }
          record.names = new Set([renamed]);
          acknowledged++;
          if (stop || i % 3 !== 0) continue;
          record.deleted = 'maybe';
          if (kind === 'plan') await drClient.deleteDrPlan({ drPlanId: id });
          else await language.deleteEndpoint({ endpointId: id });
          record.deleted = 'yes';
          acknowledged++;
        }
      } catch (error) {
        // Only the SIGKILL may end a worker early.
        if (!stop) throw error;
      } finally {
        drClient.close();
        language.close();
      }
    };
    const workers = Array.from({ length: CLIENTS }, (_, n) => worker(n));
    await new Promise((resolve) => setTimeout(resolve, LOAD_MS));
    // Kill while writes are in flight: their outcome is unknown, acknowledged ones must survive.
    stop = true;
    first.child.kill('SIGKILL');
    await Promise.all(workers);
    assert.equal((await first.exited).signal, 'SIGKILL');
    assert.ok(acknowledged > CLIENTS, `only ${acknowledged} writes were acknowledged`);

    const second = await startProcess(dataDir);
    try {
      const { drClient, language } = makeClients(second.url);
      try {
        const queue = [...written];
        const check = async () => {
          for (let record = queue.pop(); record; record = queue.pop()) {
            let found: { displayName?: string; lifecycleState?: string } | undefined;
            try {
              found =
                record.kind === 'plan'
                  ? (await drClient.getDrPlan({ drPlanId: record.id })).drPlan
                  : (await language.getEndpoint({ endpointId: record.id })).endpoint;
            } catch (error) {
              if (!(error instanceof common.OciError) || error.statusCode !== 404) throw error;
            }
            const gone = !found || found.lifecycleState === 'DELETED' || found.lifecycleState === 'DELETING';
            if (record.deleted === 'yes') {
              assert.ok(gone, `${record.id} was acknowledged deleted but is ${found?.lifecycleState}`);
              continue;
            }
            if (record.deleted === 'no') assert.ok(!gone, `${record.id} was acknowledged but is missing`);
            if (found) {
              assert.ok(
                record.names.has(found.displayName ?? ''),
                `${record.id} shows ${found.displayName}, expected one of ${[...record.names].join(', ')}`,
              );
            }
          }
        };
        await Promise.all(Array.from({ length: 10 }, check));
      } finally {
        drClient.close();
        language.close();
      }
    } finally {
      second.child.kill('SIGTERM');
      assert.equal((await second.exited).code, 0);
    }

    // The emulator is stopped and its exclusive lock released: check the file itself.
    const db = openSqlite(join(dataDir, 'emulator.db'));
    try {
      // Rows compared by value: node:sqlite answers null-prototype objects, better-sqlite3 plain ones.
      const rows = db.prepare('PRAGMA integrity_check').all() as Array<{ integrity_check: string }>;
      assert.deepEqual(
        rows.map((row) => row.integrity_check),
        ['ok'],
      );
    } finally {
      db.close();
    }
  });
});

import { afterEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
  mkdirSync,
  symlinkSync,
} from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileStackState, listStacks, openStackState, type ResourceState } from './state';
import { StackLockedError } from './types';
import { makeSecret, secretSig, sigKey } from './values';
import { readProject } from '../project/project';
import { StackConfigFile } from '../project/stack-config';
import { stackCrypter } from '../secrets/stack-crypter';

const crypter = {
  encrypt: (p: string) => `v1:bm9uY2U=:${Buffer.from(p).toString('base64')}`,
  decrypt: (c: string) => Buffer.from(c.split(':')[2], 'base64').toString('utf8'),
};

describe('stack state', () => {
  const dirs: string[] = [];
  const dir = () => {
    const d = mkdtempSync(join(tmpdir(), 'ocikit-state-'));
    dirs.push(d);
    return d;
  };
  afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

  it('writes a Pulumi checkpoint with secrets as ciphertext, reads them back, exports a deployment', () => {
    const d = dir();
    writeFileSync(join(d, 'Pulumi.dev.yaml'), 'encryptionsalt: v1:c2FsdA==:v1:abc:def\n');
    const s = new FileStackState(d, 'dev', crypter);
    const stack = {
      urn: 'urn:pulumi:dev::p::pulumi:pulumi:Stack::p-dev',
      custom: false,
      type: 'pulumi:pulumi:Stack',
      inputs: {},
      outputs: { token: makeSecret('s3cr3t'), n: 1 },
    };
    s.save({ resources: [stack], pendingOperations: [] });
    const text = readFileSync(join(d, '.ocikit/stacks/dev.json'), 'utf8');
    assert.ok(!text.includes('s3cr3t'));
    const cp = JSON.parse(text);
    assert.equal(cp.version, 3);
    assert.equal(cp.checkpoint.stack, 'dev');
    assert.deepEqual(cp.checkpoint.latest.secrets_providers, {
      type: 'passphrase',
      state: { salt: 'v1:c2FsdA==:v1:abc:def' },
    });
    const token = cp.checkpoint.latest.resources[0].outputs.token;
    assert.equal(token[sigKey], secretSig);
    assert.match(token.ciphertext, /^v1:/);
    assert.deepEqual(s.load().resources[0].outputs, stack.outputs);
    assert.deepEqual(s.outputs(), stack.outputs);
    const exported = s.exportDeployment() as {
      version: number;
      deployment: { resources: unknown[]; manifest: unknown };
    };
    assert.equal(exported.version, 3);
    assert.equal(exported.deployment.resources.length, 1);
    assert.ok(exported.deployment.manifest);
    s.backup();
    assert.ok(existsSync(join(d, '.ocikit/stacks/dev.json.bak')));
    // As the DIY backend summarises it: the manifest's time (RFC 5424, milliseconds, as `stack ls
    // --json` prints it) and the deployment's length; no updateInProgress.
    const [listed] = listStacks(d);
    assert.deepEqual(Object.keys(listed), ['name', 'lastUpdate', 'resourceCount']);
    assert.match(listed.lastUpdate!, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.deepEqual([listed.name, listed.resourceCount], ['dev', 1]);
  });

  // Pulumi's snapshot writers take the manifest's time as time.Now() (pkg/backend/snapshot.go), in
  // the local zone, and Go's MarshalJSON writes it as time.RFC3339Nano: with the zone's offset,
  // the fraction's trailing zeros trimmed. ocikit wrote toISOString(): UTC, always 3 digits.
  it("writes the manifest's time as Pulumi does: Go's RFC 3339 with nanoseconds, in the local zone", () => {
    const d = dir();
    const s = new FileStackState(d, 'dev', crypter);
    const tz = process.env.TZ;
    try {
      process.env.TZ = 'Asia/Kolkata';
      const before = Date.now();
      s.save({ resources: [], pendingOperations: [] });
      const { time } = JSON.parse(readFileSync(join(d, '.ocikit/stacks/dev.json'), 'utf8')).checkpoint.latest.manifest;
      assert.match(time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d*[1-9])?\+05:30$/);
      assert.ok(Date.parse(time) >= before - 1 && Date.parse(time) <= Date.now(), time);
      // Read back, by `stack ls` as by Pulumi: the same instant.
      assert.equal(Date.parse(listStacks(d)[0].lastUpdate!), Date.parse(time));
    } finally {
      if (tz === undefined) delete process.env.TZ;
      else process.env.TZ = tz;
    }
  });

  // Go's encoder writes DeploymentV3's fields as declared (sdk/go/common/apitype/core.go: manifest,
  // secrets_providers, resources, pending_operations, metadata), `metadata` always: a struct
  // (SnapshotMetadataV1), which `omitempty` does not leave out. ocikit wrote pending_operations
  // before resources and no metadata; `stack export` re-encodes an older file in that order too.
  it("writes a deployment's fields in DeploymentV3's order, with its metadata", () => {
    const d = dir();
    const s = new FileStackState(d, 'dev', crypter);
    const group = { urn: 'urn:pulumi:dev::p::my:index:Group::g', custom: false, type: 'my:index:Group' };
    const resource = { ...group, inputs: {}, outputs: { size: 1 } };
    s.save({ resources: [resource], pendingOperations: [{ type: 'creating', resource }] });
    const file = join(d, '.ocikit/stacks/dev.json');
    // (No secrets_providers: this stack has no salt.)
    const order = ['manifest', 'resources', 'pending_operations', 'metadata'];
    const checkpoint = JSON.parse(readFileSync(file, 'utf8'));
    assert.deepEqual(Object.keys(checkpoint.checkpoint.latest), order);
    assert.deepEqual(checkpoint.checkpoint.latest.metadata, {});
    const exported = () => (s.exportDeployment() as { deployment: Record<string, unknown> }).deployment;
    assert.deepEqual(Object.keys(exported()), order);
    // A file an older ocikit wrote (pending operations first, no metadata), and one with Pulumi's
    // integrity error metadata, which is kept.
    const { metadata, resources, ...rest } = checkpoint.checkpoint.latest;
    assert.deepEqual(metadata, {});
    checkpoint.checkpoint.latest = { ...rest, resources };
    writeFileSync(file, JSON.stringify(checkpoint));
    assert.deepEqual(Object.keys(exported()), order);
    const integrity = { integrity_error: { version: 'v3.140.0', command: 'pulumi up', error: 'x' } };
    checkpoint.checkpoint.latest = { metadata: integrity, ...rest, resources };
    writeFileSync(file, JSON.stringify(checkpoint));
    assert.deepEqual(Object.keys(exported()), order);
    assert.deepEqual(exported().metadata, integrity);
  });

  // Pulumi's ResourceV3 and DeploymentV3 leave out empty inputs, outputs and resources
  // (sdk/go/common/apitype/core.go `omitempty`; SerializeDeployment's slice.Prealloc is nil for none).
  it('leaves out empty inputs, outputs and resources, as Pulumi writes them, and reads them back empty', async () => {
    const d = dir();
    const s = new FileStackState(d, 'dev', crypter);
    const group = { urn: 'urn:pulumi:dev::p::my:index:Group::g', custom: false, type: 'my:index:Group' };
    const resource = { ...group, inputs: {}, outputs: {} };
    const written = () => JSON.parse(readFileSync(join(d, '.ocikit/stacks/dev.json'), 'utf8')).checkpoint.latest;
    s.save({ resources: [resource], pendingOperations: [{ type: 'creating', resource }] });
    assert.deepEqual(written().resources, [group]);
    assert.deepEqual(written().pending_operations, [{ type: 'creating', resource: group }]);
    assert.deepEqual(s.load().resources, [resource]);
    await s.requestSave(() => ({ resources: [resource], pendingOperations: [] }));
    assert.deepEqual(written().resources, [group]);
    for (const save of [
      () => s.save({ resources: [], pendingOperations: [] }),
      () => s.requestSave(() => ({ resources: [], pendingOperations: [] })),
    ]) {
      await save();
      assert.deepEqual(Object.keys(written()), ['manifest', 'metadata']);
      assert.deepEqual(Object.keys((s.exportDeployment() as { deployment: object }).deployment), [
        'manifest',
        'metadata',
      ]);
      assert.deepEqual(s.load().resources, []);
      assert.equal(listStacks(d)[0].resourceCount, 0);
    }
  });

  // A run killed while it backs the state up must not leave half a backup: the new one is a
  // temporary file renamed over the old, which stays whole until then (a reader holding it open
  // still reads it all, where a copy in place truncated it under the reader).
  it('replaces the backup whole, by a rename, and leaves no temporary file', () => {
    const d = dir();
    const s = new FileStackState(d, 'dev', crypter);
    const stack = { urn: 'urn:pulumi:dev::p::pulumi:pulumi:Stack::p-dev', custom: false, type: 'pulumi:pulumi:Stack' };
    s.save({ resources: [{ ...stack, inputs: {}, outputs: { n: 1 } }], pendingOperations: [] });
    s.backup();
    const bak = join(d, '.ocikit/stacks/dev.json.bak');
    const first = readFileSync(bak, 'utf8');
    const held = openSync(bak, 'r');
    try {
      s.save({
        resources: [{ ...stack, inputs: {}, outputs: { n: 2, more: 'x'.repeat(100) } }],
        pendingOperations: [],
      });
      s.backup();
      assert.match(readFileSync(bak, 'utf8'), /"more"/);
      assert.equal(readFileSync(held, 'utf8'), first, 'the previous backup, whole, to whoever holds it');
    } finally {
      closeSync(held);
    }
    assert.deepEqual(
      readdirSync(join(d, '.ocikit/stacks')).filter((f) => f.endsWith('.tmp')),
      [],
    );
  });

  it("requested writes: each resolves once its change is on disk, in Pulumi's indented JSON", async () => {
    const d = dir();
    writeFileSync(join(d, 'Pulumi.dev.yaml'), 'encryptionsalt: v1:c2FsdA==:v1:abc:def\n');
    const s = new FileStackState(d, 'dev', crypter);
    const file = join(d, '.ocikit/stacks/dev.json');
    const resources: ResourceState[] = [];
    const snapshot = () => ({ resources: [...resources], pendingOperations: [] });
    const checks: Array<Promise<void>> = [];
    for (let i = 0; i < 30; i++) {
      resources.push({
        urn: `urn:pulumi:dev::p::t:m:R::r${i}`,
        custom: true,
        type: 't:m:R',
        inputs: { n: i, nested: { list: [i, 'x'] } },
        outputs: { n: i, token: makeSecret(`s3cr3t-${i}`) },
      });
      checks.push(
        s.requestSave(snapshot).then(() => {
          const cp = JSON.parse(readFileSync(file, 'utf8'));
          assert.ok(cp.checkpoint.latest.resources.length >= i + 1, `write ${i} is on disk`);
        }),
      );
      // Some changes arrive while a write is in flight.
      if (i % 7 === 0) await new Promise((r) => setImmediate(r));
    }
    await Promise.all(checks);
    await s.flush();
    const text = readFileSync(file, 'utf8');
    assert.ok(!text.includes('s3cr3t'));
    assert.equal(text, JSON.stringify(JSON.parse(text), null, 4) + '\n');
    assert.deepEqual(
      s.load().resources.map((r) => r.outputs),
      resources.map((r) => r.outputs),
    );
    // A change to the resources is seen by the next write (nothing stale is reused).
    resources.splice(3, 1, { ...resources[3], outputs: { n: 'changed' } });
    await s.requestSave(snapshot);
    assert.deepEqual(s.load().resources[3].outputs, { n: 'changed' });
    s.save({ resources: [], pendingOperations: [] });
    assert.equal(readFileSync(file, 'utf8'), JSON.stringify(JSON.parse(readFileSync(file, 'utf8')), null, 4) + '\n');
  });

  it('a stack of more resources than one vectored write takes is written whole, as the synchronous write writes it', async () => {
    const d = dir();
    const s = new FileStackState(d, 'dev', crypter);
    const file = join(d, '.ocikit/stacks/dev.json');
    const resources: ResourceState[] = Array.from({ length: 600 }, (_, i) => ({
      urn: `urn:pulumi:dev::p::t:m:R::r${i}`,
      custom: true,
      type: 't:m:R',
      inputs: { n: i },
      outputs: { n: i, text: 'é'.repeat(i % 7) },
    }));
    await s.requestSave(() => ({ resources, pendingOperations: [] }));
    const written = readFileSync(file, 'utf8');
    assert.equal(JSON.parse(written).checkpoint.latest.resources.length, 600);
    s.save({ resources, pendingOperations: [] });
    // The same bytes but the manifest's time.
    const withoutTime = (t: string) => t.replace(/"time": "[^"]*"/, '');
    assert.equal(withoutTime(written), withoutTime(readFileSync(file, 'utf8')));
  });

  // A write the disk refuses (here its temporary file is /dev/full: ENOSPC) fails with the system's
  // one-line error, keeps the last whole state, and leaves no half-written temporary file, as
  // Pulumi's DIY backend (gocloud's fileblob writer removes its temporary file on Close).
  it(
    'a failed write keeps the last state and leaves no temporary file',
    { skip: !existsSync('/dev/full') },
    async () => {
      const d = dir();
      const s = new FileStackState(d, 'dev', crypter);
      const stacks = join(d, '.ocikit/stacks');
      const stack = {
        urn: 'urn:pulumi:dev::p::pulumi:pulumi:Stack::p-dev',
        custom: false,
        type: 'pulumi:pulumi:Stack',
      };
      s.save({ resources: [{ ...stack, inputs: {}, outputs: { n: 1 } }], pendingOperations: [] });
      const last = readFileSync(join(stacks, 'dev.json'), 'utf8');
      const next = { resources: [{ ...stack, inputs: {}, outputs: { n: 2 } }], pendingOperations: [] };
      symlinkSync('/dev/full', join(stacks, `dev.json.${process.pid}.tmp`));
      await assert.rejects(
        s.requestSave(() => next),
        /^Error: ENOSPC: no space left on device, write$/,
      );
      await assert.rejects(s.flush(), /ENOSPC/);
      symlinkSync('/dev/full', join(stacks, `dev.json.${process.pid}.sync.tmp`));
      assert.throws(() => s.save(next), /ENOSPC/);
      assert.equal(readFileSync(join(stacks, 'dev.json'), 'utf8'), last);
      assert.deepEqual(readdirSync(stacks).sort(), ['dev.json']);
    },
  );

  it('a hard exit writes what was requested but not yet written (flushSync)', async () => {
    const d = dir();
    const s = new FileStackState(d, 'dev');
    const file = join(d, '.ocikit/stacks/dev.json');
    const r = { urn: 'urn:pulumi:dev::p::t:m:R::r', custom: true, type: 't:m:R', inputs: {}, outputs: {} };
    const written = s.requestSave(() => ({ resources: [r], pendingOperations: [] }));
    s.flushSync();
    assert.equal(JSON.parse(readFileSync(file, 'utf8')).checkpoint.latest.resources[0].urn, r.urn);
    await written;
  });

  it('refuses a second lock with a one-line message and takes over the lock of a dead process', () => {
    const d = dir();
    const a = openStackState({ programDir: d, stack: 'dev' });
    const b = openStackState({ programDir: d, stack: 'dev' });
    a.lock();
    assert.throws(
      () => b.lock(),
      (e: Error) => e instanceof StackLockedError && /locked by process/.test(e.message) && !e.message.includes('\n'),
    );
    a.unlock();
    b.lock();
    b.unlock();
    // A lock whose process is gone (same host) is stale.
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString();
    mkdirSync(join(d, '.ocikit/stacks'), { recursive: true });
    writeFileSync(
      join(d, '.ocikit/stacks/dev.lock'),
      JSON.stringify({ pid: Number(dead), host: hostname(), time: 'then' }),
    );
    // While another run takes the stale lock over (its guard), this one does not remove it too.
    const guard = join(d, '.ocikit/stacks/dev.lock.takeover');
    mkdirSync(guard);
    assert.throws(
      () => a.lock(),
      (e: Error) => e instanceof StackLockedError && e.message.includes(`delete ${guard}`),
    );
    assert.equal(JSON.parse(readFileSync(join(d, '.ocikit/stacks/dev.lock'), 'utf8')).pid, Number(dead));
    rmSync(guard, { recursive: true });
    // A dead run's half-written state file goes when the lock is taken; a live one's stays.
    const deadWrite = join(d, `.ocikit/stacks/dev.json.${dead}.tmp`);
    const deadBackup = join(d, `.ocikit/stacks/dev.json.${dead}.bak.tmp`);
    const liveWrite = join(d, `.ocikit/stacks/dev.json.${process.ppid}.sync.tmp`);
    writeFileSync(deadWrite, '{');
    writeFileSync(deadBackup, '{');
    writeFileSync(liveWrite, '{');
    a.lock();
    assert.equal(JSON.parse(readFileSync(join(d, '.ocikit/stacks/dev.lock'), 'utf8')).pid, process.pid);
    assert.equal(existsSync(guard), false);
    assert.deepEqual([existsSync(deadWrite), existsSync(deadBackup), existsSync(liveWrite)], [false, false, true]);
    a.unlock();
  });
  // Pulumi reads a deployment with the secrets provider it names (DeserializeDeploymentV3): a
  // state written before Pulumi.<stack>.yaml was made again, with a new salt, still reads.
  it("reads secrets with the salt the state names, and writes them again with the stack file's", () => {
    const d = dir();
    writeFileSync(join(d, 'Pulumi.yaml'), 'name: p\nruntime: nodejs\n');
    const env = { PULUMI_CONFIG_PASSPHRASE: 'same passphrase' };
    const open = () => {
      const file = StackConfigFile.open(readProject(d), 'dev');
      return { file, state: new FileStackState(d, 'dev', stackCrypter(file, env), file.path) };
    };
    const stack = {
      urn: 'urn:pulumi:dev::p::pulumi:pulumi:Stack::p-dev',
      custom: false,
      type: 'pulumi:pulumi:Stack',
      inputs: {},
      outputs: { token: makeSecret('s3cr3t') },
    };
    const first = open();
    first.state.save({ resources: [stack], pendingOperations: [] });
    const saltA = first.file.encryptionSalt!;
    assert.ok(saltA);

    rmSync(join(d, 'Pulumi.dev.yaml'));
    const second = open();
    second.file.encryptionSalt = undefined;
    second.state.save(second.state.load()); // no salt in the file yet: the write makes one
    const saltB = StackConfigFile.open(readProject(d), 'dev').encryptionSalt!;
    assert.ok(saltB && saltB !== saltA);
    const text = readFileSync(join(d, '.ocikit/stacks/dev.json'), 'utf8');
    assert.equal(JSON.parse(text).checkpoint.latest.secrets_providers.state.salt, saltB);
    assert.ok(!text.includes('s3cr3t'));

    // Now the reverse: the state names salt B, the file another salt C.
    rmSync(join(d, 'Pulumi.dev.yaml'));
    const third = open();
    third.state.save({ resources: [], pendingOperations: [] }); // nothing secret: no salt yet
    writeFileSync(join(d, '.ocikit/stacks/dev.json'), text);
    third.file.encryptionSalt = undefined;
    assert.deepEqual(third.state.load().resources[0].outputs, stack.outputs);
    assert.deepEqual(third.state.outputs(), stack.outputs);
    const shown = third.state.exportDeployment({ showSecrets: true }) as {
      deployment: { resources: Array<{ outputs: { token: { plaintext: string } } }> };
    };
    assert.equal(shown.deployment.resources[0].outputs.token.plaintext, '"s3cr3t"');
    const wrong = new FileStackState(
      d,
      'dev',
      stackCrypter(StackConfigFile.open(readProject(d), 'dev'), { PULUMI_CONFIG_PASSPHRASE: 'other' }),
    );
    assert.throws(() => wrong.load(), /incorrect passphrase/);
  });
});

// The plugin contract and the provider-level RPCs: start-up, signals, schema, configuration,
// Check failures, engine logging.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as grpc from '@grpc/grpc-js';
import {
  BIN,
  checkFailures,
  configure,
  create,
  del,
  DRPLAN,
  Empty,
  endpointRoundTrip,
  js,
  ENDPOINT,
  pb,
  providerArgs,
  startEnv,
  startInstance,
  startPlugin,
  struct,
  type Env,
  type Plugin,
  urn,
} from './support/harness';
import type * as engine from '@pulumi/pulumi/proto/engine_pb';
import { PluginAttach } from '@pulumi/pulumi/proto/plugin_pb';

describe('plugin contract', () => {
  it('prints only the port, serves on 127.0.0.1, and ends within a second on SIGTERM and SIGINT', async () => {
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      const p = await startPlugin({ engine: '127.0.0.1:1' });
      assert.ok(p.port > 0);
      const info = await p.call<{ getVersion(): string }>('getPluginInfo', new Empty());
      assert.equal(info.getVersion(), JSON.parse(fs.readFileSync(`${__dirname}/../package.json`, 'utf8')).version);
      const started = Date.now();
      const exited = new Promise<number | null>((r) => p.child.once('exit', (code) => r(code)));
      p.child.kill(signal);
      const code = await exited;
      assert.ok(Date.now() - started < 1000, `${signal} ends it within a second`);
      assert.equal(code, 0);
      p.client.close();
    }
  });

  // One version everywhere the Pulumi CLI and the SDK look for it: the package version the
  // specification names (2.31.0, §9). A Pulumi program's @ocikit/oci asks for this plugin version.
  it("the plugin, its schema and the SDK carry one package version, the specification's", () => {
    const read = (file: string) => JSON.parse(fs.readFileSync(`${__dirname}/../../${file}`, 'utf8'));
    const versions = [
      read('provider/package.json').version,
      read('provider/schema.json').version,
      read('sdk/package.json').version,
      read('sdk/package.json').pulumi.version,
      read('sdk/pulumi-plugin.json').version,
    ];
    assert.deepEqual(versions, Array(versions.length).fill('2.31.0'));
  });

  it('ends by itself when the process that started it goes away (no orphaned plugins)', async () => {
    const { spawnSync } = await import('node:child_process');
    const script = `const c = require('child_process').spawn(process.execPath, [${JSON.stringify(BIN)}, '127.0.0.1:1'], { stdio: ['ignore', 'pipe', 'ignore'] });
      c.stdout.once('data', () => { console.log(c.pid); process.exit(0); });`;
    const pid = Number(spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' }).stdout.trim());
    assert.ok(pid > 0);
    const alive = (): boolean => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    for (let i = 0; i < 100 && alive(); i++) await new Promise((r) => setTimeout(r, 100));
    assert.equal(alive(), false);
  });

  it('GetSchema returns schema.json; Handshake accepts secrets; other RPCs are UNIMPLEMENTED', async () => {
    const p = await startPlugin();
    try {
      const res = await p.call<pb.GetSchemaResponse>('getSchema', new pb.GetSchemaRequest());
      const schema = JSON.parse(res.getSchema());
      assert.equal(schema.name, 'oci');
      assert.ok(schema.resources[DRPLAN] && schema.resources[ENDPOINT]);
      const hs = await p.call<pb.ProviderHandshakeResponse>('handshake', new pb.ProviderHandshakeRequest());
      assert.equal(hs.getAcceptSecrets(), true);
      await assert.rejects(
        p.call('construct', new pb.ConstructRequest()),
        (e: grpc.ServiceError) => e.code === grpc.status.UNIMPLEMENTED,
      );
      await assert.rejects(
        p.call('getMapping', new pb.GetMappingRequest()),
        (e: grpc.ServiceError) => e.code === grpc.status.UNIMPLEMENTED,
      );
    } finally {
      await p.close();
    }
  });
});

describe('configuration', () => {
  let env: Env;
  before(async () => {
    env = await startEnv();
  });
  after(() => env?.close());

  it('CheckConfig: one failure per bad key', async () => {
    const p = await startPlugin();
    try {
      const res = await p.call<pb.CheckResponse>(
        'checkConfig',
        new pb.CheckRequest().setUrn('urn:pulumi:s::p::pulumi:providers:oci::default').setNews(
          struct({
            endpoint: 'ftp://nope',
            region: 'mars-north-1',
            privateKeyPath: '/no/such/key.pem',
            auth: 'InstancePrincipal',
            retryDurationSeconds: 'soon',
            disableAutoRetries: 'maybe',
            version: '4.20.0',
          }),
        ),
      );
      const byKey = Object.fromEntries(res.getFailuresList().map((f) => [f.getProperty(), f.getReason()]));
      assert.deepEqual(Object.keys(byKey).sort(), [
        'auth',
        'disableAutoRetries',
        'endpoint',
        'privateKeyPath',
        'region',
        'retryDurationSeconds',
      ]);
      assert.match(byKey.endpoint, /http\(s\) URL/);
      assert.match(byKey.region, /mars-north-1/);
      assert.match(byKey.auth, /not supported yet/);
      assert.equal(res.getFailuresList().length, 6);
      const ok = await p.call<pb.CheckResponse>(
        'checkConfig',
        new pb.CheckRequest().setNews(struct({ endpoint: env.emulator.url, region: 'us-phoenix-1', ...env.creds })),
      );
      assert.equal(ok.getFailuresList().length, 0);
    } finally {
      await p.close();
    }
  });

  it('accepts configuration as oci:config:<key> variables only', async () => {
    const p = await startPlugin();
    try {
      const req = new pb.ConfigureRequest();
      const vars = { endpoint: env.emulator.url, region: env.sandbox.homeRegion, ...env.creds };
      for (const [k, v] of Object.entries(vars)) req.getVariablesMap().set(`oci:config:${k}`, v);
      const res = await p.call<pb.ConfigureResponse>('configure', req);
      assert.deepEqual(
        [res.getAcceptsecrets(), res.getAcceptresources(), res.getSupportspreview()],
        [true, false, true],
      );
      const c = await create(p, ENDPOINT, 'vars', {
        compartmentId: env.sandbox.compartmentId,
        modelId:
          env.sandbox.aiLanguage.pretrainedModelIds.sentimentAnalysis ??
          Object.values(env.sandbox.aiLanguage.pretrainedModelIds)[0],
      });
      assert.equal(c.outputs.state, 'ACTIVE');
      await del(p, ENDPOINT, 'vars', c.id, c.outputs);
    } finally {
      await p.close();
    }
  });

  it('takes the CLI environment (OCIKIT_ENDPOINT, OCI_*) as defaults; another region is <endpoint>/r/<region>', async () => {
    const p = await startPlugin({
      env: {
        OCIKIT_ENDPOINT: env.emulator.url,
        OCI_REGION: env.sandbox.homeRegion,
        OCI_TENANCY_OCID: env.creds.tenancyOcid,
        OCI_USER_OCID: env.creds.userOcid,
        OCI_FINGERPRINT: env.creds.fingerprint,
        OCI_PRIVATE_KEY_PATH: env.creds.privateKeyPath,
      },
    });
    try {
      // An explicit provider overriding only the region reaches the standby region of the same emulator.
      await p.call(
        'configure',
        new pb.ConfigureRequest().setArgs(struct({ region: env.sandbox.disasterRecovery.standbyRegion })),
      );
      const dr = env.sandbox.disasterRecovery;
      const c = await create(p, DRPLAN, 'envplan', {
        displayName: 'envplan',
        drProtectionGroupId: dr.standbyProtectionGroupId,
        type: 'SWITCHOVER',
      });
      const got = await env.dr(dr.standbyRegion).getDrPlan({ drPlanId: c.id });
      assert.equal(got.drPlan.displayName, 'envplan');
      await del(p, DRPLAN, 'envplan', c.id, c.outputs);
    } finally {
      await p.close();
    }
  });

  it('an inline privateKey written on one line with \\n escapes signs, as pulumi-oci reads it', async () => {
    // A CI secret or an env file holds the PEM on one line: Terraform's provider turns each "\n"
    // into a newline before parsing it.
    const oneLine = fs.readFileSync(env.creds.privateKeyPath, 'utf8').trim().split('\n').join('\\n');
    const { privateKeyPath: _, ...creds } = env.creds;
    const p = await startPlugin({ env: { OCI_PRIVATE_KEY: oneLine } });
    try {
      const args = { endpoint: env.emulator.url, region: env.sandbox.homeRegion, ...creds };
      await p.call('configure', new pb.ConfigureRequest().setArgs(struct(args)));
      assert.equal(await endpointRoundTrip(p, env, 'oneline'), 'ACTIVE');
    } finally {
      await p.close();
    }
  });

  it('Handshake and Configure decline resource references, so the engine sends their ids (as to pulumi-oci)', async () => {
    // A Resource passed as an input reaches the engine as a reference; pulumi/pulumi rpc.go
    // MarshalPropertyValue hands a provider that does not accept them the id instead, which is
    // what Check expects of modelId or drProtectionGroupId (a reference fails "must be a string").
    const p = await startPlugin();
    try {
      const hs = await p.call<pb.ProviderHandshakeResponse>('handshake', new pb.ProviderHandshakeRequest());
      assert.equal(hs.getAcceptResources(), false);
      const res = await p.call<pb.ConfigureResponse>(
        'configure',
        new pb.ConfigureRequest()
          .setArgs(struct(providerArgs(env, env.sandbox.homeRegion)))
          .setAcceptsecrets(true)
          .setAcceptresources(true),
      );
      assert.equal(res.getAcceptresources(), false);
      assert.equal(res.getAcceptsecrets(), true);
    } finally {
      await p.close();
    }
  });

  it('Configure rejects a bad key with one clear line', async () => {
    const p = await startPlugin();
    try {
      await assert.rejects(
        p.call('configure', new pb.ConfigureRequest().setArgs(struct({ endpoint: 'not a url' }))),
        (e: grpc.ServiceError) => /endpoint must be an http\(s\) URL/.test(e.details),
      );
    } finally {
      await p.close();
    }
  });
});

describe('Check failures', () => {
  let p: Plugin;
  before(async () => {
    p = await startPlugin();
  });
  after(() => p?.close());

  it('DrPlan: one failure per kind of bad input, naming the property', async () => {
    const missing = await checkFailures(p, DRPLAN, {});
    assert.deepEqual(missing.map((f) => f.property).sort(), ['displayName', 'drProtectionGroupId', 'type']);
    // An empty string is unset for Terraform's SDK (so for pulumi-oci); the reason says so.
    assert.deepEqual(
      await checkFailures(p, DRPLAN, { displayName: '', drProtectionGroupId: 'g', type: 'SWITCHOVER' }),
      [
        {
          property: 'displayName',
          reason: "missing required property 'displayName' (an empty string counts as unset)",
        },
      ],
    );
    const wrongType = await checkFailures(p, DRPLAN, {
      displayName: 3,
      drProtectionGroupId: 'g',
      type: 'SWITCHOVER',
      refreshTrigger: 'x',
    });
    assert.deepEqual(wrongType.map((f) => f.property).sort(), ['displayName', 'refreshTrigger']);
    // As pulumi-oci's bridge converts them: a numeric string for a number, numbers in a tag map.
    const converted = await p.call<pb.CheckResponse>(
      'check',
      new pb.CheckRequest()
        .setUrn(urn(ENDPOINT, 'x'))
        .setNews(struct({ compartmentId: 'c', modelId: 'm', inferenceUnits: '2', freeformTags: { n: 2, b: true } })),
    );
    assert.deepEqual(converted.getFailuresList(), []);
    assert.deepEqual(
      [js(converted.getInputs()).inferenceUnits, js(converted.getInputs()).freeformTags],
      [2, { n: '2', b: 'true' }],
    );
    assert.deepEqual(
      (await checkFailures(p, ENDPOINT, { compartmentId: 'c', modelId: 'm', inferenceUnits: 'two' })).map(
        (f) => f.reason,
      ),
      ['inferenceUnits must be an integer'],
    );
    const badType = await checkFailures(p, DRPLAN, { displayName: 'a', drProtectionGroupId: 'g', type: 'SIDEWAYS' });
    assert.deepEqual(
      badType.map((f) => f.property),
      ['type'],
    );
    assert.match(badType[0].reason, /SWITCHOVER/);
    const badTag = await checkFailures(p, DRPLAN, {
      displayName: 'a',
      drProtectionGroupId: 'g',
      type: 'FAILOVER',
      definedTags: { nodot: 'x' },
    });
    assert.deepEqual(
      badTag.map((f) => f.property),
      ['definedTags'],
    );
    // One dot only: pulumi-oci refuses "invalid key structure found Operations.Cost.Center" (Terraform's
    // MapToDefinedTags splits on every dot), where OCI would have read it as key "Cost.Center".
    const dottedTag = await checkFailures(p, DRPLAN, {
      displayName: 'a',
      drProtectionGroupId: 'g',
      type: 'FAILOVER',
      definedTags: { 'Operations.Cost.Center': 'x', 'Operations.CostCenter': 'y' },
    });
    assert.deepEqual(dottedTag, [
      {
        property: 'definedTags',
        reason: 'defined tag key "Operations.Cost.Center" must have the form <namespace>.<key>',
      },
    ]);
    const unknownProp = await checkFailures(p, DRPLAN, {
      displayName: 'a',
      drProtectionGroupId: 'g',
      type: 'FAILOVER',
      colour: 'red',
    });
    assert.deepEqual(
      unknownProp.map((f) => f.property),
      ['colour'],
    );
    const unknowns = await checkFailures(p, DRPLAN, {
      displayName: '04da6b54-80e4-46f7-96ec-b56ff0331ba9',
      drProtectionGroupId: '04da6b54-80e4-46f7-96ec-b56ff0331ba9',
      type: '04da6b54-80e4-46f7-96ec-b56ff0331ba9',
    });
    assert.deepEqual(unknowns, [], 'unknown values pass');
  });

  it('Endpoint: required inputs and inferenceUnits bounds', async () => {
    const missing = await checkFailures(p, ENDPOINT, {});
    assert.deepEqual(missing.map((f) => f.property).sort(), ['compartmentId', 'modelId']);
    for (const units of [0, 11]) {
      const f = await checkFailures(p, ENDPOINT, { compartmentId: 'c', modelId: 'm', inferenceUnits: units });
      assert.deepEqual(
        f.map((x) => x.property),
        ['inferenceUnits'],
      );
      assert.match(f[0].reason, /between 1 and 10/);
    }
    const frac = await checkFailures(p, ENDPOINT, { compartmentId: 'c', modelId: 'm', inferenceUnits: 1.5 });
    assert.match(frac[0].reason, /integer/);
    // Every problem at once: a wrong type or a missing input does not hide a value out of range.
    const both = await checkFailures(p, ENDPOINT, { modelId: 'm', inferenceUnits: 11, description: 5 });
    assert.deepEqual(
      both.map((f) => f.property),
      ['compartmentId', 'description', 'inferenceUnits'],
    );
    const plan = await checkFailures(p, DRPLAN, { displayName: 3, drProtectionGroupId: 'g', type: 'SIDEWAYS' });
    assert.deepEqual(
      plan.map((f) => f.property),
      ['displayName', 'type'],
    );
    const once = await checkFailures(p, DRPLAN, {
      displayName: 'a',
      drProtectionGroupId: 'g',
      type: 'FAILOVER',
      definedTags: ['nodot'],
    });
    assert.equal(once.length, 1, JSON.stringify(once));
  });
});

/** An Engine service that records what the plugin logs, on a loopback port. */
async function recordingEngine(): Promise<{
  address: string;
  messages: Array<{ urn: string; message: string; ephemeral: boolean; severity: number }>;
  close(): void;
}> {
  const messages: Array<{ urn: string; message: string; ephemeral: boolean; severity: number }> = [];
  const services = require('@pulumi/pulumi/proto/engine_grpc_pb');
  const server = new grpc.Server();
  server.addService(services.EngineService, {
    log: (call: { request: engine.LogRequest }, cb: (e: null, r: Empty) => void) => {
      const r = call.request;
      messages.push({
        urn: r.getUrn(),
        message: r.getMessage(),
        ephemeral: r.getEphemeral(),
        severity: r.getSeverity(),
      });
      cb(null, new Empty());
    },
  });
  const port = await new Promise<number>((r, j) =>
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (e, p) => (e ? j(e) : r(p))),
  );
  return { address: `127.0.0.1:${port}`, messages, close: () => server.forceShutdown() };
}

describe('engine log', () => {
  /**
   * A plugin started for one engine and pointed at another by `point` (as an engine's next run, or
   * an attached engine, does): a plan's progress reaches the other engine only.
   */
  async function progressGoesWhereSent(name: string, point: (p: Plugin, address: string) => Promise<void>) {
    const env = await startEnv({ transitionDelaySeconds: 1 });
    const [started, pointed] = [await recordingEngine(), await recordingEngine()];
    const p = await startPlugin({ engine: started.address });
    try {
      await point(p, pointed.address);
      await configure(p, env, env.sandbox.disasterRecovery.standbyRegion);
      const dr = env.sandbox.disasterRecovery;
      const c = await create(p, DRPLAN, name, {
        displayName: name,
        drProtectionGroupId: dr.standbyProtectionGroupId,
        type: 'SWITCHOVER',
      });
      assert.ok(
        pointed.messages.some((m) => m.urn === urn(DRPLAN, name)),
        JSON.stringify(pointed.messages),
      );
      assert.deepEqual(started.messages, []);
      await del(p, DRPLAN, name, c.id, c.outputs);
    } finally {
      await p.close();
      started.close();
      pointed.close();
      await env.close();
    }
  }

  it("logs to the engine Handshake names, not the one the plugin was started with (an engine's next run)", () =>
    progressGoesWhereSent('handed-over', async (p, address) => {
      await p.call('handshake', new pb.ProviderHandshakeRequest().setEngineAddress(address));
    }));

  // pulumi/pulumi provider_plugin.go NewProvider: for PULUMI_DEBUG_PROVIDERS=oci:<port> the engine
  // dials the running plugin, shakes hands, then calls Attach and fails the run on any error.
  it('answers Attach, as an engine attached through PULUMI_DEBUG_PROVIDERS calls it, and logs to that engine', () =>
    progressGoesWhereSent('attached', async (p, address) => {
      await p.call('handshake', new pb.ProviderHandshakeRequest().setEngineAddress(address));
      await p.call('attach', new PluginAttach().setAddress(address));
    }));

  it('sends progress to a reachable engine; an unreachable one never blocks', async () => {
    const env = await startEnv({ transitionDelaySeconds: 1 });
    const engineServer = await recordingEngine();
    const { messages } = engineServer;
    const p = await startPlugin({ engine: engineServer.address });
    try {
      await configure(p, env, env.sandbox.disasterRecovery.standbyRegion);
      const dr = env.sandbox.disasterRecovery;
      const c = await create(p, DRPLAN, 'logged', {
        displayName: 'logged',
        drProtectionGroupId: dr.standbyProtectionGroupId,
        type: 'SWITCHOVER',
      });
      // Progress is ephemeral and tied to the resource's URN (the engine shows it with the resource).
      const progress = messages.filter((m) => m.urn === urn(DRPLAN, 'logged'));
      assert.ok(
        progress.some((m) => /^work request (accepted|in_progress)( \d+%)?$/.test(m.message)),
        JSON.stringify(messages),
      );
      assert.ok(
        progress.every((m) => m.ephemeral),
        JSON.stringify(progress),
      );
      await del(p, DRPLAN, 'logged', c.id, c.outputs);
    } finally {
      await p.close();
      engineServer.close();
      await env.close();
    }
  });
  // pulumi-oci's settings this provider does not serve are accepted (a pulumi-oci stack runs
  // unchanged), and each one set to anything but its default is a warning that it has no effect.
  it("warns of each unserved pulumi-oci setting CheckConfig is given, in the key's own words", async () => {
    const engineServer = await recordingEngine();
    const p = await startPlugin({ engine: engineServer.address });
    const check = (name: string, news: Record<string, unknown>) =>
      p.call<pb.CheckResponse>(
        'checkConfig',
        new pb.CheckRequest().setUrn(`urn:pulumi:s::p::pulumi:providers:oci::${name}`).setNews(struct(news)),
      );
    try {
      const off = { dualStackEndpointEnabled: 'false', realmSpecificServiceEndpointTemplateEnabled: false };
      const answers = [
        await check('default_4_20_0', { ...off, retriesConfigFile: '/etc/oci/retries.json', version: '4.20.0' }),
        await check('phx', { ...off, tokenExchangeClientId: 'id' }),
      ];
      for (const a of answers) assert.deepEqual(a.getFailuresList(), []);
      const expected = [
        {
          urn: 'urn:pulumi:s::p::pulumi:providers:oci::default_4_20_0',
          message: "`oci:retriesConfigFile` is not served by ocikit's oci provider and has no effect",
        },
        {
          urn: 'urn:pulumi:s::p::pulumi:providers:oci::phx',
          message: "`tokenExchangeClientId` is not served by ocikit's oci provider and has no effect",
        },
      ];
      // Logging is fire-and-forget: wait (bounded) for the two messages to arrive.
      for (let i = 0; i < 200 && engineServer.messages.length < expected.length; i++)
        await new Promise((r) => setTimeout(r, 10));
      const got = engineServer.messages.map(({ urn: u, message, severity }) => ({ urn: u, message, severity }));
      got.sort((a, b) => a.urn.localeCompare(b.urn));
      // pulumirpc.LogSeverity WARNING
      assert.deepEqual(
        got,
        expected.map((m) => ({ ...m, severity: 2 })),
      );
    } finally {
      await p.close();
      engineServer.close();
    }
  });
});

describe('provider instances (ocikit: StartProvider)', () => {
  it('serves another provider on its own port, configured on its own, in the same process', async () => {
    const env = await startEnv();
    const p = await startPlugin();
    try {
      const standby = await startInstance(p);
      assert.notEqual(standby.port, p.port);
      // Each is configured for its own region, as the default provider and a `new oci.Provider`.
      await configure(p, env, env.sandbox.homeRegion);
      await configure(standby, env, env.sandbox.disasterRecovery.standbyRegion);
      const endpoint = {
        compartmentId: env.sandbox.compartmentId,
        modelId: env.sandbox.aiLanguage.customModelIds.textClassification,
        displayName: 'instances',
      };
      // The model lives in the home region: the home instance creates there, the standby one
      // asks its own region, which has no such model.
      const made = await create(p, ENDPOINT, 'home', endpoint);
      const inHome = await env.language(env.sandbox.homeRegion).getEndpoint({ endpointId: made.id });
      assert.equal(inHome.endpoint.displayName, 'instances');
      await assert.rejects(create(standby, ENDPOINT, 'standby', endpoint), (e: grpc.ServiceError) =>
        /404|NotAuthorizedOrNotFound|not found/i.test(e.details),
      );
      // One process: stopping it ends both.
      const exited = new Promise<number | null>((r) => p.child.once('exit', (code) => r(code)));
      p.child.kill('SIGTERM');
      assert.equal(await exited, 0);
      await assert.rejects(standby.call('getPluginInfo', new Empty()));
      standby.client.close();
    } finally {
      await p.close();
      await env.close();
    }
  });
});

describe('credentials', () => {
  it('missing credentials are one clear line naming what is missing', async () => {
    const p = await startPlugin({ env: { HOME: '/nonexistent', OCI_CONFIG_FILE: '/nonexistent/config' } });
    try {
      await p.call(
        'configure',
        new pb.ConfigureRequest().setArgs(struct({ endpoint: 'http://127.0.0.1:9', region: 'us-ashburn-1' })),
      );
      await assert.rejects(
        create(p, DRPLAN, 'nocreds', { displayName: 'n', drProtectionGroupId: 'g', type: 'SWITCHOVER' }),
        (e: grpc.ServiceError) =>
          /missing tenancyOcid, userOcid, fingerprint, privateKey or privateKeyPath/.test(e.details) &&
          !/internal error/.test(e.details),
      );
    } finally {
      await p.close();
    }
  });
});

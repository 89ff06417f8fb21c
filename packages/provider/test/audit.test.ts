// Acceptance-audit findings (issue 7's exact plugin contract), each driven over gRPC with the
// generated stubs against the built plugin and checked with the OCI SDK.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { DisasterRecoveryClient } from 'oci-disasterrecovery';
import {
  configuredPlugin,
  create,
  createPair,
  DRPLAN,
  ENDPOINT,
  initFailure,
  invoke,
  js,
  pb,
  read,
  SECRET_MARK,
  SECRET_SIG,
  startEnv,
  startPlugin,
  struct,
  UNKNOWN,
  urn,
  type Env,
  type Pair,
  type Plugin,
  type Props,
} from './support/harness';

/** pulumi's output value: `value` absent means unknown; `secret: true` means secret. */
const OUTPUT_MARK = 'd0e6a833031e9bbcd3f4e8bde6ca49a4';
const output = (o: { value?: unknown; secret?: boolean } = {}): Props => ({ [SECRET_SIG]: OUTPUT_MARK, ...o });

describe('audit: output values', () => {
  let env: Env;
  let plugin: Plugin;
  let pair: Pair;
  let sdk: DisasterRecoveryClient;
  before(async () => {
    env = await startEnv();
    pair = await createPair(env);
    sdk = pair.peer;
    plugin = await configuredPlugin(env, env.sandbox.disasterRecovery.standbyRegion);
  });
  after(async () => {
    await plugin?.close();
    await env?.close();
  });

  const checkDrPlan = async (news: Props) => {
    const res = await plugin.call<pb.CheckResponse>(
      'check',
      new pb.CheckRequest().setUrn(urn(DRPLAN, 'ov')).setNews(struct(news)),
    );
    return { inputs: js(res.getInputs()), failures: res.getFailuresList().map((f) => f.getProperty()) };
  };

  it('Check: an unknown output value passes as unknown, in any property and inside maps', async () => {
    const c = await checkDrPlan({
      displayName: output(),
      drProtectionGroupId: output(),
      type: 'SWITCHOVER',
      freeformTags: { a: output() },
      definedTags: output(),
    });
    assert.deepEqual(c.failures, []);
    assert.equal(c.inputs.displayName, UNKNOWN);
    assert.deepEqual(c.inputs.freeformTags, { a: UNKNOWN });
  });

  it('preview Create with an unknown output value writes nothing and answers unknown', async () => {
    const before = (await sdk.listDrPlans({ drProtectionGroupId: pair.standbyId })).drPlanCollection.items.length;
    const res = await plugin.call<pb.CreateResponse>(
      'create',
      new pb.CreateRequest()
        .setUrn(urn(DRPLAN, 'ov'))
        .setProperties(struct({ displayName: output(), drProtectionGroupId: pair.standbyId, type: 'SWITCHOVER' }))
        .setPreview(true),
    );
    assert.equal(js(res.getProperties()).displayName, UNKNOWN);
    const now = (await sdk.listDrPlans({ drProtectionGroupId: pair.standbyId })).drPlanCollection.items.length;
    assert.equal(now, before);
  });

  it('Create: known output values reach OCI as their values, and a secret one stays secret', async () => {
    const news = {
      displayName: output({ value: 'from-output', secret: true }),
      drProtectionGroupId: output({ value: pair.standbyId }),
      type: 'SWITCHOVER',
      freeformTags: { team: output({ value: 'dr' }) },
    };
    const checked = await checkDrPlan(news);
    assert.deepEqual(checked.failures, []);
    const res = await plugin.call<pb.CreateResponse>(
      'create',
      new pb.CreateRequest().setUrn(urn(DRPLAN, 'ov')).setProperties(struct(checked.inputs)),
    );
    const outputs = js(res.getProperties());
    assert.deepEqual(outputs.displayName, { [SECRET_SIG]: SECRET_MARK, value: 'from-output' });
    const plan = (await sdk.getDrPlan({ drPlanId: res.getId() })).drPlan;
    assert.equal(plan.displayName, 'from-output');
    assert.deepEqual(plan.freeformTags, { team: 'dr' });
  });

  it('a Create, Update or Invoke without preview that carries unknowns sends nothing to OCI', async () => {
    const count = async () =>
      (await sdk.listDrPlans({ drProtectionGroupId: pair.standbyId })).drPlanCollection.items.length;
    const before = await count();
    const inputs = { displayName: 'known', drProtectionGroupId: pair.standbyId, type: 'SWITCHOVER' };
    await assert.rejects(
      plugin.call(
        'create',
        new pb.CreateRequest()
          .setUrn(urn(DRPLAN, 'unknowns'))
          .setProperties(struct({ ...inputs, displayName: UNKNOWN, freeformTags: { a: output() } })),
      ),
      (e: { details: string }) =>
        /^DrPlan "unknowns": Create got unknown values for displayName, freeformTags/.test(e.details),
    );
    assert.equal(await count(), before);
    const created = await plugin.call<pb.CreateResponse>(
      'create',
      new pb.CreateRequest().setUrn(urn(DRPLAN, 'unknowns')).setProperties(struct(inputs)),
    );
    const outputs = js(created.getProperties());
    await assert.rejects(
      plugin.call(
        'update',
        new pb.UpdateRequest()
          .setUrn(urn(DRPLAN, 'unknowns'))
          .setId(created.getId())
          .setOlds(struct(outputs))
          .setOldInputs(struct(inputs))
          .setNews(struct({ ...inputs, displayName: output() })),
      ),
      (e: { details: string }) => /Update got unknown values for displayName/.test(e.details),
    );
    assert.equal((await sdk.getDrPlan({ drPlanId: created.getId() })).drPlan.displayName, 'known');
    const inv = await plugin.call<pb.InvokeResponse>(
      'invoke',
      new pb.InvokeRequest()
        .setTok('oci:DisasterRecovery/getDrPlans:getDrPlans')
        .setArgs(struct({ drProtectionGroupId: UNKNOWN })),
    );
    assert.deepEqual(
      inv.getFailuresList().map((f) => f.getProperty()),
      ['drProtectionGroupId'],
    );
  });

  // pulumi-oci's outputs come from Terraform's plugin SDK, which holds "", 0, false, [] for what
  // the service left out; its output types are not optional, so programs read them as such.
  it("what OCI leaves out is pulumi-oci's zero value in outputs and invoke results, not in imported inputs", async () => {
    const created = await create(plugin, DRPLAN, 'zeros', {
      displayName: 'zeros',
      drProtectionGroupId: pair.standbyId,
      type: 'SWITCHOVER',
    });
    const plan = (await sdk.getDrPlan({ drPlanId: created.id })).drPlan;
    assert.equal(plan.lifecycleSubState, undefined, 'OCI leaves it out of an ACTIVE plan');
    const stepFields = Object.keys(
      JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'schema.json'), 'utf8')).types[
        'oci:DisasterRecovery/DrPlanPlanGroupStep:DrPlanPlanGroupStep'
      ].properties,
    ).sort();
    const check = (outputs: Props) => {
      assert.equal(outputs.lifecycleSubState, '');
      assert.equal(outputs.lifeCycleDetails ?? '', outputs.lifeCycleDetails);
      const steps = (outputs.planGroups as Props[]).flatMap((g) => g.steps as Props[]);
      assert.ok(steps.length > 0);
      for (const step of steps) assert.deepEqual(Object.keys(step).sort(), stepFields);
      assert.ok(steps.some((step) => Array.isArray(step.userDefinedSteps) && step.userDefinedSteps.length === 0));
      assert.ok(steps.every((step) => typeof step.refreshStatus === 'string'));
      // An input the program did not set reads as its zero value too (pulumi-oci: Output<string>).
      assert.equal(outputs.sourcePlanId, '');
    };
    check(created.outputs);
    const imported = await read(plugin, DRPLAN, 'zeros', created.id);
    check(imported.outputs);
    // Not as an input, though: import gives the inputs the program set; and an imported plan has
    // no recorded trigger counter (its first value is only a baseline): null, not left out.
    assert.equal(imported.outputs.refreshTrigger, null);
    assert.deepEqual(Object.keys(imported.inputs).sort(), ['displayName', 'drProtectionGroupId', 'type']);
    const got = await invoke(plugin, 'oci:DisasterRecovery/getDrPlan:getDrPlan', { drPlanId: created.id });
    assert.equal(got.result.lifecycleSubState, '');
  });

  it("an invoke's OCI error names the function, the OCI operation, status, code and request id", async () => {
    await assert.rejects(
      plugin.call(
        'invoke',
        new pb.InvokeRequest()
          .setTok('oci:DisasterRecovery/getDrPlan:getDrPlan')
          .setArgs(struct({ drPlanId: `${pair.standbyId.replace('drprotectiongroup', 'drplan')}` })),
      ),
      (e: { details: string }) => {
        assert.match(
          e.details,
          /^getDrPlan: GetDrPlan failed: OCI 404 NotAuthorizedOrNotFound: .+ \(opc-request-id: \S+\)$/,
        );
        return true;
      },
    );
  });
});

describe('audit: a delete whose work request fails', () => {
  let env: Env;
  let plugin: Plugin;
  let pair: Pair;
  before(async () => {
    env = await startEnv();
    pair = await createPair(env);
    plugin = await configuredPlugin(env, env.sandbox.disasterRecovery.standbyRegion);
  });
  after(async () => {
    await plugin?.close();
    await env?.close();
  });

  it('ends with the service reasons (not a wait for DELETED until the timeout); a retry deletes', async () => {
    const created = await create(plugin, DRPLAN, 'undeletable', {
      displayName: 'undeletable',
      drProtectionGroupId: pair.standbyId,
      type: 'SWITCHOVER',
    });
    await env.emulator.admin!.injectFault({ operation: 'DeleteDrPlan', kind: 'fail-work-request' });
    const del = () =>
      plugin.call(
        'delete',
        new pb.DeleteRequest()
          .setUrn(urn(DRPLAN, 'undeletable'))
          .setId(created.id)
          .setProperties(struct(created.outputs))
          .setTimeout(20),
      );
    await assert.rejects(del(), (e: { details: string }) => {
      assert.match(e.details, /^DrPlan "undeletable": DeleteDrPlan work request \S+ ended FAILED: \S/);
      return true;
    });
    const plan = (await pair.peer.getDrPlan({ drPlanId: created.id })).drPlan;
    assert.notEqual(plan.lifecycleState, 'DELETED', 'the plan is still there, so the error is right');
    await del();
    const after = (await pair.peer.getDrPlan({ drPlanId: created.id }).catch(() => undefined))?.drPlan;
    assert.ok(!after || after.lifecycleState === 'DELETED');
  });
});

describe('audit: a delete that outlives customTimeouts', () => {
  let env: Env;
  before(async () => {
    env = await startEnv({ transitionDelaySeconds: 30 });
  });
  after(() => env?.close());

  it('is one clear line naming the resource and customTimeouts, not an internal error', async () => {
    const dr = env.sandbox.disasterRecovery;
    const plugin = await configuredPlugin(env, dr.standbyRegion);
    try {
      const inputs = {
        displayName: 'slow-delete',
        drProtectionGroupId: dr.standbyProtectionGroupId,
        type: 'SWITCHOVER',
      };
      const init = await create(plugin, DRPLAN, 'slow-delete', inputs, { timeout: 1 }).then(
        () => assert.fail('expected a timeout'),
        (e) => initFailure(e),
      );
      assert.ok(init, 'the create is a partial failure carrying the id');
      await env.emulator.admin!.advanceClock(60);
      const del = plugin.call(
        'delete',
        new pb.DeleteRequest().setUrn(urn(DRPLAN, 'slow-delete')).setId(init.id).setTimeout(1),
      );
      await assert.rejects(del, (e: { details: string }) => {
        assert.match(e.details, /^timed out after 1 s waiting for DrPlan "slow-delete" to be DELETED/);
        assert.doesNotMatch(e.details, /internal error/);
        return true;
      });
      assert.doesNotMatch(plugin.stderr(), /internal error/);
    } finally {
      await plugin.close();
    }
  });
});

describe('audit: provider configuration', () => {
  const PROVIDER = 'urn:pulumi:test::proj::pulumi:providers:oci::default';
  const checkConfig = async (plugin: Plugin, news: Props) => {
    const res = await plugin.call<pb.CheckResponse>(
      'checkConfig',
      new pb.CheckRequest().setUrn(PROVIDER).setNews(struct(news)),
    );
    return {
      inputs: js(res.getInputs()),
      failures: res.getFailuresList().map((f) => ({ property: f.getProperty(), reason: f.getReason() })),
    };
  };

  // The keys pulumi-oci's schema marks secret (its Provider wraps them in pulumi.secret), the
  // unserved tokenExchangeClientSecret included: the engine keeps them in the state.
  it('CheckConfig returns privateKey, privateKeyPassword and tokenExchangeClientSecret secret even when set in plain text', async () => {
    const plugin = await startPlugin();
    try {
      const c = await checkConfig(plugin, {
        region: 'us-ashburn-1',
        privateKey: 'PEM',
        privateKeyPassword: 'pw',
        tokenExchangeClientSecret: 'cs',
      });
      assert.deepEqual(c.failures, []);
      assert.deepEqual(c.inputs, {
        region: 'us-ashburn-1',
        privateKey: { [SECRET_SIG]: SECRET_MARK, value: 'PEM' },
        privateKeyPassword: { [SECRET_SIG]: SECRET_MARK, value: 'pw' },
        tokenExchangeClientSecret: { [SECRET_SIG]: SECRET_MARK, value: 'cs' },
      });
    } finally {
      await plugin.close();
    }
  });

  it('a refused typed value is shown as written, not JSON-encoded a second time (the SDKs send it encoded)', async () => {
    const plugin = await startPlugin();
    try {
      const c = await checkConfig(plugin, { retryDurationSeconds: '"abc"', disableAutoRetries: '"maybe"' });
      assert.deepEqual(c.failures.map((f) => f.reason).sort(), [
        'disableAutoRetries must be true or false, got "maybe"',
        'retryDurationSeconds must be a whole number of seconds, got "abc"',
      ]);
    } finally {
      await plugin.close();
    }
  });

  it("takes Terraform's TF_VAR_<key> names as environment defaults, and a negative retryDurationSeconds", async () => {
    const plugin = await startPlugin({
      env: { OCI_REGION: undefined, TF_VAR_region: 'mars-1', TF_VAR_retry_duration_seconds: '-1' },
    });
    try {
      const c = await checkConfig(plugin, {});
      assert.deepEqual(
        c.failures.map((f) => f.property),
        ['region'],
        'TF_VAR_region is read (and checked); -1 seconds is accepted',
      );
      assert.match(c.failures[0].reason, /mars-1/);
    } finally {
      await plugin.close();
    }
  });

  it('auth: a pulumi-oci value ocikit lacks is "not supported yet"; anything else is not an auth type', async () => {
    const plugin = await startPlugin();
    try {
      const [known] = (await checkConfig(plugin, { auth: 'InstancePrincipal' })).failures;
      assert.match(known.reason, /not supported yet/);
      const [oke] = (await checkConfig(plugin, { auth: 'okeworkloadidentity' })).failures;
      assert.match(oke.reason, /"okeworkloadidentity" is not supported yet/);
      const [bogus] = (await checkConfig(plugin, { auth: 'Bogus' })).failures;
      assert.equal(bogus.property, 'auth');
      assert.match(bogus.reason, /"Bogus" is not an OCI auth type: use one of ApiKey, InstancePrincipal/);
      assert.deepEqual((await checkConfig(plugin, { auth: 'apikey' })).failures, []);
    } finally {
      await plugin.close();
    }
  });

  it("an unknown key is a failure worded as pulumi-oci's; pulumi-oci's other keys and the engine's are accepted", async () => {
    const plugin = await startPlugin();
    try {
      const c = await checkConfig(plugin, {
        regoin: 'us-ashburn-1',
        realmDomainComponent: 'oraclecloud.com',
        realmSpecificServiceEndpointTemplateEnabled: 'false',
        tokenExchangeClientId: 'id',
        version: '4.20.0',
      });
      assert.deepEqual(c.failures, [
        {
          property: '',
          reason:
            '`oci:realmDomainComponent` is not a valid configuration key for the oci provider. If the key is not intended for the provider, please choose a different namespace from `oci:`.',
        },
        {
          property: '',
          reason:
            '`oci:regoin` is not a valid configuration key for the oci provider. Did you mean `oci:region`? If the key is not intended for the provider, please choose a different namespace from `oci:`.',
        },
      ]);
      const explicit = await plugin.call<pb.CheckResponse>(
        'checkConfig',
        new pb.CheckRequest()
          .setUrn('urn:pulumi:test::proj::pulumi:providers:oci::mine')
          .setNews(struct({ regoin: 'us-ashburn-1' })),
      );
      assert.deepEqual(
        explicit.getFailuresList().map((f) => f.getReason()),
        ["could not validate provider configuration: Invalid or unknown key. Examine values at 'mine.regoin'."],
      );
      // A provider whose name starts with `default` is worded as the default provider, as pulumi-oci's
      // bridge tells them apart (isExplicitProvider: !strings.HasPrefix(urn.Name(), "default")).
      const prefixed = await plugin.call<pb.CheckResponse>(
        'checkConfig',
        new pb.CheckRequest()
          .setUrn('urn:pulumi:test::proj::pulumi:providers:oci::default-phx')
          .setNews(struct({ regoin: 'us-phoenix-1' })),
      );
      assert.match(prefixed.getFailuresList()[0].getReason(), /^`oci:regoin` is not a valid configuration key/);
    } finally {
      await plugin.close();
    }
  });

  it('a configFileProfile missing from ~/.oci/config is one CheckConfig failure naming the key', async () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'ocikit-home-'));
    fs.mkdirSync(path.join(home, '.oci'));
    fs.writeFileSync(path.join(home, '.oci', 'config'), '[DEFAULT]\nregion=us-ashburn-1\n');
    const plugin = await startPlugin({ env: { HOME: home } });
    try {
      const c = await checkConfig(plugin, { configFileProfile: 'NOPE' });
      assert.deepEqual(
        c.failures.map((f) => f.property),
        ['configFileProfile'],
      );
      assert.match(c.failures[0].reason, /configFileProfile "NOPE": no such profile in .*\.oci\/config/);
      assert.deepEqual((await checkConfig(plugin, { configFileProfile: 'DEFAULT' })).failures, []);
    } finally {
      await plugin.close();
      fs.rmSync(home, { recursive: true, force: true });
    }
  });

  it('without ~/.oci/config the credentials come from the file OCI_CONFIG_FILE names, as the OCI SDKs read it', async () => {
    const env = await startEnv();
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'ocikit-home-'));
    const plugin = await startPlugin({ env: { HOME: home, OCI_CONFIG_FILE: env.emulator.configFile } });
    try {
      // Only where and which region: tenancy, user, fingerprint and key are the file's.
      const args = { endpoint: env.emulator.url, region: env.sandbox.homeRegion };
      assert.deepEqual((await checkConfig(plugin, args)).failures, []);
      await plugin.call('configure', new pb.ConfigureRequest().setArgs(struct(args)).setAcceptsecrets(true));
      const made = await create(plugin, ENDPOINT, 'fromfile', {
        compartmentId: env.sandbox.compartmentId,
        modelId: env.sandbox.aiLanguage.customModelIds.textClassification,
        displayName: 'from-file',
      });
      assert.equal((await env.language().getEndpoint({ endpointId: made.id })).endpoint.displayName, 'from-file');
      // A profile the file lacks is named with the file it was looked for in.
      const [missing] = (await checkConfig(plugin, { ...args, configFileProfile: 'NOPE' })).failures;
      assert.equal(missing?.reason, `configFileProfile "NOPE": no such profile in ${env.emulator.configFile}`);
    } finally {
      await plugin.close();
      await env.close();
      fs.rmSync(home, { recursive: true, force: true });
    }
  });
});

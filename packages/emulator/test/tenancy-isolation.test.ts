import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { NewTenancyIdentity, SandboxIds } from '../src';
import { startTestEmulator, type TestEmulator } from './support/emulator';
import { signedFetch, type SigningIdentity } from './support/signed-fetch';

interface Answer {
  status: number;
  code?: string;
  body: Record<string, unknown>;
  workRequestId: string | null;
}

describe('tenancy isolation', () => {
  let t: TestEmulator;
  let sandbox: SandboxIds;
  let b: NewTenancyIdentity;
  let bCompartment: string;
  let planId: string;
  let planWorkRequestId: string;
  let endpointId: string;

  const call = async (who: SigningIdentity, method: string, path: string, body?: unknown): Promise<Answer> => {
    const response = await signedFetch(who, `${t.url}${path}`, {
      method,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    const parsed = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    return {
      status: response.status,
      code: typeof parsed.code === 'string' ? parsed.code : undefined,
      body: parsed,
      workRequestId: response.headers.get('opc-work-request-id'),
    };
  };
  const dr = (region: string, path: string) => `${region === t.emulator.region ? '' : `/r/${region}`}/20220125${path}`;
  const lang = (path: string) => `/20221001${path}`;
  const assertHidden = (answer: Answer, what: string) =>
    assert.deepEqual(
      [answer.status, answer.code],
      [404, 'NotAuthorizedOrNotFound'],
      `${what}: ${JSON.stringify(answer.body)}`,
    );
  const assertRefused = (answer: Answer, what: string) =>
    assert.ok(
      (answer.status === 404 && answer.code === 'NotAuthorizedOrNotFound') ||
        (answer.status === 400 && answer.code === 'RelatedResourceNotAuthorizedOrNotFound'),
      `${what}: ${answer.status} ${JSON.stringify(answer.body)}`,
    );

  before(async () => {
    t = await startTestEmulator({ seed: 'sandbox' });
    sandbox = t.emulator.sandbox!;
    b = await t.emulator.admin.createTenancy('b');
    bCompartment = (await t.emulator.admin.createCompartment(b.tenancyId, 'apps')).compartmentId;
    const d = sandbox.disasterRecovery;
    const plan = await call(t.identity, 'POST', dr(d.standbyRegion, '/drPlans'), {
      displayName: 'a-plan',
      type: 'SWITCHOVER',
      drProtectionGroupId: d.standbyProtectionGroupId,
    });
    assert.equal(plan.status, 200, JSON.stringify(plan.body));
    planId = String(plan.body.id);
    planWorkRequestId = String(plan.workRequestId);
    const endpoint = await call(t.identity, 'POST', lang('/endpoints'), {
      compartmentId: sandbox.compartmentId,
      modelId: sandbox.aiLanguage.customModelIds.textClassification,
    });
    assert.equal(endpoint.status, 200, JSON.stringify(endpoint.body));
    endpointId = String(endpoint.body.id);
  });
  after(() => t.close());

  it("B cannot get, update, delete, move or act on A's plans and protection groups", async () => {
    const d = sandbox.disasterRecovery;
    const region = d.standbyRegion;
    assertHidden(await call(b, 'GET', dr(region, `/drPlans/${planId}`)), 'GetDrPlan');
    assertHidden(await call(b, 'PUT', dr(region, `/drPlans/${planId}`), { displayName: 'x' }), 'UpdateDrPlan');
    assertHidden(
      await call(b, 'POST', dr(region, `/drPlans/${planId}/actions/refresh`), { type: 'DEFAULT' }),
      'RefreshDrPlan',
    );
    assertHidden(
      await call(b, 'POST', dr(region, `/drPlans/${planId}/actions/verify`), { type: 'DEFAULT' }),
      'VerifyDrPlan',
    );
    assertHidden(await call(b, 'DELETE', dr(region, `/drPlans/${planId}`)), 'DeleteDrPlan');
    const group = d.standbyProtectionGroupId;
    assertHidden(await call(b, 'GET', dr(region, `/drProtectionGroups/${group}`)), 'GetDrProtectionGroup');
    assertHidden(
      await call(b, 'PUT', dr(region, `/drProtectionGroups/${group}`), { displayName: 'x' }),
      'UpdateDrProtectionGroup',
    );
    assertHidden(
      await call(b, 'POST', dr(region, `/drProtectionGroups/${group}/actions/changeCompartment`), {
        compartmentId: bCompartment,
      }),
      'ChangeDrProtectionGroupCompartment',
    );
    assertHidden(await call(b, 'DELETE', dr(region, `/drProtectionGroups/${group}`)), 'DeleteDrProtectionGroup');
    assertHidden(await call(b, 'GET', dr(region, `/workRequests/${planWorkRequestId}`)), 'GetWorkRequest');
    // A's resources are untouched.
    const plan = await call(t.identity, 'GET', dr(region, `/drPlans/${planId}`));
    assert.equal(plan.body.displayName, 'a-plan');
  });

  it("B never sees A's plans or groups in a list; listing by A's compartment or group is 404", async () => {
    const d = sandbox.disasterRecovery;
    assertHidden(
      await call(b, 'GET', dr(d.standbyRegion, `/drPlans?drProtectionGroupId=${d.standbyProtectionGroupId}`)),
      'ListDrPlans by A group',
    );
    assertHidden(
      await call(b, 'GET', dr(d.primaryRegion, `/drProtectionGroups?compartmentId=${sandbox.compartmentId}`)),
      'ListDrProtectionGroups in A compartment',
    );
    assertHidden(
      await call(b, 'GET', dr(d.primaryRegion, `/workRequests?compartmentId=${sandbox.compartmentId}`)),
      'ListWorkRequests',
    );
    // DR's ListWorkRequests takes no compartment: B's list (any filter) holds none of A's.
    for (const query of ['', `?resourceId=${planId}`, '?limit=1']) {
      const listed = await call(b, 'GET', dr(d.standbyRegion, `/workRequests${query}`));
      assert.deepEqual([listed.status, listed.body.items], [200, []], `ListWorkRequests${query}`);
    }
    // A's pages of one, with B's work requests between A's: each of A's once, in order, none of B's.
    for (const name of ['b-1', 'b-2'])
      assert.equal(
        (
          await call(b, 'POST', dr(d.standbyRegion, '/drProtectionGroups'), {
            compartmentId: bCompartment,
            displayName: name,
            logLocation: { namespace: 'ns', bucket: 'logs' },
          })
        ).status,
        200,
      );
    await call(t.identity, 'POST', dr(d.standbyRegion, '/drPlans'), {
      displayName: 'a-plan-2',
      type: 'FAILOVER',
      drProtectionGroupId: d.standbyProtectionGroupId,
    });
    const whole = await call(t.identity, 'GET', dr(d.standbyRegion, '/workRequests?limit=1000'));
    const paged: string[] = [];
    let next: string | null = '';
    while (next !== null) {
      const response = await signedFetch(
        t.identity,
        `${t.url}${dr(d.standbyRegion, `/workRequests?limit=1${next ? `&page=${encodeURIComponent(next)}` : ''}`)}`,
      );
      const items = ((await response.json()) as { items: Array<{ id: string }> }).items;
      paged.push(...items.map((w) => w.id));
      next = response.headers.get('opc-next-page');
    }
    assert.deepEqual(
      paged,
      (whole.body.items as Array<{ id: string }>).map((w) => w.id),
    );
    assert.ok((whole.body.items as Array<{ compartmentId: string }>).every((w) => w.compartmentId !== bCompartment));
    const mine = await call(t.identity, 'GET', dr(d.standbyRegion, `/workRequests?resourceId=${planId}`));
    assert.ok(
      (mine.body.items as Array<{ id: string }>).some((w) => w.id === planWorkRequestId),
      'A still lists its own',
    );
    const own = await call(b, 'GET', dr(d.primaryRegion, `/drProtectionGroups?compartmentId=${b.tenancyId}`));
    assert.deepEqual(own.body.items, []);
    const byId = await call(
      b,
      'GET',
      dr(
        d.standbyRegion,
        `/drProtectionGroups?compartmentId=${bCompartment}&drProtectionGroupId=${d.standbyProtectionGroupId}`,
      ),
    );
    assert.deepEqual(byId.body.items, []);
  });

  it("B cannot reference A's protection group as a peer or create in A's compartment", async () => {
    const d = sandbox.disasterRecovery;
    const created = await call(b, 'POST', dr(d.primaryRegion, '/drProtectionGroups'), {
      compartmentId: bCompartment,
      displayName: 'b-group',
      logLocation: { namespace: 'ns', bucket: 'logs' },
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    assertRefused(
      await call(b, 'POST', dr(d.primaryRegion, `/drProtectionGroups/${String(created.body.id)}/actions/associate`), {
        role: 'PRIMARY',
        peerId: d.standbyProtectionGroupId,
        peerRegion: d.standbyRegion,
      }),
      'AssociateDrProtectionGroup with A peer',
    );
    assertHidden(
      await call(b, 'POST', dr(d.primaryRegion, '/drProtectionGroups'), {
        compartmentId: sandbox.compartmentId,
        displayName: 'intruder',
        logLocation: { namespace: 'ns', bucket: 'logs' },
      }),
      'CreateDrProtectionGroup in A compartment',
    );
    assertHidden(
      await call(b, 'POST', dr(d.primaryRegion, '/drProtectionGroups'), {
        compartmentId: 'ocid1.compartment.oc1..unknown',
        displayName: 'nowhere',
        logLocation: { namespace: 'ns', bucket: 'logs' },
      }),
      'CreateDrProtectionGroup in an unknown compartment',
    );
  });

  it("B cannot get, list, update, delete or reference A's projects, models and endpoints", async () => {
    const l = sandbox.aiLanguage;
    const modelId = l.customModelIds.textClassification;
    assertHidden(await call(b, 'GET', lang(`/projects/${l.projectId}`)), 'GetProject');
    assertHidden(await call(b, 'PUT', lang(`/projects/${l.projectId}`), { displayName: 'x' }), 'UpdateProject');
    assertHidden(await call(b, 'GET', lang(`/models/${modelId}`)), 'GetModel');
    assertHidden(await call(b, 'PUT', lang(`/models/${modelId}`), { displayName: 'x' }), 'UpdateModel');
    assertHidden(await call(b, 'GET', lang(`/endpoints/${endpointId}`)), 'GetEndpoint');
    assertHidden(await call(b, 'PUT', lang(`/endpoints/${endpointId}`), { displayName: 'x' }), 'UpdateEndpoint');
    assertHidden(
      await call(b, 'POST', lang(`/endpoints/${endpointId}/actions/changeCompartment`), {
        compartmentId: bCompartment,
      }),
      'ChangeEndpointCompartment',
    );
    assertHidden(await call(b, 'DELETE', lang(`/endpoints/${endpointId}`)), 'DeleteEndpoint');
    assertHidden(await call(b, 'DELETE', lang(`/models/${modelId}`)), 'DeleteModel');
    assertHidden(await call(b, 'DELETE', lang(`/projects/${l.projectId}`)), 'DeleteProject');
    for (const list of ['projects', 'models', 'endpoints'])
      assertHidden(await call(b, 'GET', lang(`/${list}?compartmentId=${sandbox.compartmentId}`)), `List ${list}`);
    for (const list of ['projects', 'models', 'endpoints'])
      assert.deepEqual((await call(b, 'GET', lang(`/${list}?compartmentId=${bCompartment}`))).body.items, [], list);

    assertRefused(
      await call(b, 'POST', lang('/endpoints'), { compartmentId: bCompartment, modelId }),
      "CreateEndpoint with A's model",
    );
    assertRefused(
      await call(b, 'POST', lang('/models'), {
        compartmentId: bCompartment,
        projectId: l.projectId,
        modelDetails: { modelType: 'PRE_TRAINED_SENTIMENT_ANALYSIS' },
      }),
      "CreateModel in A's project",
    );
    assertRefused(
      await call(b, 'POST', lang('/actions/batchDetectLanguageTextClassification'), {
        endpointId,
        documents: [{ key: '1', text: 'my invoice is wrong' }],
      }),
      "inference through A's endpoint",
    );
    // A still has everything.
    assert.equal((await call(t.identity, 'GET', lang(`/endpoints/${endpointId}`))).status, 200);
    assert.equal((await call(t.identity, 'GET', lang(`/models/${modelId}`))).status, 200);
  });
});

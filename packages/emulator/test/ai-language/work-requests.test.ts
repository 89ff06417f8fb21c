import { models, requests } from 'oci-ailanguage';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fastWaiter, ociError } from '../support/emulator';
import { createModel, createProject, languageSuite, newCompartmentId, pretrained } from './support';

describe('AI Language work requests', () => {
  const env = languageSuite();

  it('records the nine operation types, each finished with a resource entry naming its action', async () => {
    const compartmentId = await newCompartmentId();
    const project = await createProject(env.client, compartmentId);
    await env.client.updateProject({ projectId: project.id, updateProjectDetails: { description: 'x' } });
    const model = await createModel(env.client, {
      compartmentId,
      projectId: project.id,
      modelDetails: pretrained('PRE_TRAINED_SENTIMENT_ANALYSIS'),
    });
    await env.client.updateModel({ modelId: model.id, updateModelDetails: { description: 'x' } });
    const { endpoint } = await env.client.createEndpoint({
      createEndpointDetails: { compartmentId, modelId: model.id },
    });
    await env.client.updateEndpoint({ endpointId: endpoint.id, updateEndpointDetails: { description: 'x' } });
    await env.client.deleteEndpoint({ endpointId: endpoint.id });
    await env.client.deleteModel({ modelId: model.id });
    await env.client.deleteProject({ projectId: project.id });

    const { workRequestSummaryCollection } = await env.client.listWorkRequests({ compartmentId });
    const items = workRequestSummaryCollection.items;
    assert.deepEqual(items.map((wr) => wr.operationType).sort(), [
      'CREATE_ENDPOINT',
      'CREATE_MODEL',
      'CREATE_PROJECT',
      'DELETE_ENDPOINT',
      'DELETE_MODEL',
      'DELETE_PROJECT',
      'UPDATE_ENDPOINT',
      'UPDATE_MODEL',
      'UPDATE_PROJECT',
    ]);
    const expected: Record<string, { word: string; action: string; id: string }> = {
      CREATE_PROJECT: { word: 'project', action: 'CREATED', id: project.id },
      UPDATE_PROJECT: { word: 'project', action: 'UPDATED', id: project.id },
      DELETE_PROJECT: { word: 'project', action: 'DELETED', id: project.id },
      CREATE_MODEL: { word: 'model', action: 'CREATED', id: model.id },
      UPDATE_MODEL: { word: 'model', action: 'UPDATED', id: model.id },
      DELETE_MODEL: { word: 'model', action: 'DELETED', id: model.id },
      CREATE_ENDPOINT: { word: 'endpoint', action: 'CREATED', id: endpoint.id },
      UPDATE_ENDPOINT: { word: 'endpoint', action: 'UPDATED', id: endpoint.id },
      DELETE_ENDPOINT: { word: 'endpoint', action: 'DELETED', id: endpoint.id },
    };
    for (const wr of items) {
      const want = expected[wr.operationType];
      assert.equal(wr.status, 'SUCCEEDED');
      assert.equal(wr.percentComplete, 100);
      assert.ok(wr.timeFinished, `${wr.operationType} has timeFinished`);
      assert.equal(wr.compartmentId, compartmentId);
      const entry = wr.resources!.find((r) => r.entityType.toLowerCase().includes(want.word));
      assert.ok(entry, `${wr.operationType} names the ${want.word}`);
      assert.equal(entry.actionType, want.action);
      assert.equal(entry.identifier, want.id);
    }

    const forEndpoint = await env.client.listWorkRequests({ compartmentId, resourceId: endpoint.id });
    assert.deepEqual(forEndpoint.workRequestSummaryCollection.items.map((wr) => wr.operationType).sort(), [
      'CREATE_ENDPOINT',
      'DELETE_ENDPOINT',
      'UPDATE_ENDPOINT',
    ]);
    const one = await env.client.listWorkRequests({ compartmentId, workRequestId: items[0].id });
    assert.deepEqual(
      one.workRequestSummaryCollection.items.map((wr) => wr.id),
      [items[0].id],
    );

    const pageOne = await env.client.listWorkRequests({ compartmentId, limit: 4 });
    assert.equal(pageOne.workRequestSummaryCollection.items.length, 4);
    assert.ok(pageOne.opcNextPage);
    const pageTwo = await env.client.listWorkRequests({ compartmentId, limit: 4, page: pageOne.opcNextPage });
    assert.equal(pageTwo.workRequestSummaryCollection.items.length, 4);
    const pageThree = await env.client.listWorkRequests({ compartmentId, limit: 4, page: pageTwo.opcNextPage });
    assert.equal(pageThree.workRequestSummaryCollection.items.length, 1);
    assert.equal(pageThree.opcNextPage, undefined);
  });

  it('serves a work request with its etag, logs, and no errors when it succeeded', async () => {
    const compartmentId = await newCompartmentId();
    const { opcWorkRequestId } = await env.client.createProject({ createProjectDetails: { compartmentId } });
    const got = await env.client.getWorkRequest({ workRequestId: opcWorkRequestId });
    assert.ok(got.etag);
    assert.equal(got.workRequest.id, opcWorkRequestId);
    const logs = await env.client.listWorkRequestLogs({ workRequestId: opcWorkRequestId });
    assert.ok(logs.workRequestLogCollection.items.length >= 2);
    assert.ok(logs.workRequestLogCollection.items.every((l) => l.message && l.timestamp));
    const errors = await env.client.listWorkRequestErrors({ workRequestId: opcWorkRequestId });
    assert.deepEqual(errors.workRequestErrorCollection.items, []);
  });

  it('requires compartmentId to list and answers 404 for an unknown work request', async () => {
    const missing = await ociError(() => env.client.listWorkRequests({} as never));
    assert.equal(missing.statusCode, 400);
    assert.equal(missing.serviceCode, 'MissingParameter');
    const unknown = await ociError(() =>
      env.client.getWorkRequest({ workRequestId: 'ocid1.ailanguageworkrequest.oc1.iad.amaaaaaanope' }),
    );
    assert.equal(unknown.statusCode, 404);
    assert.equal(unknown.serviceCode, 'NotAuthorizedOrNotFound');
  });
});

describe('AI Language work request progress on the clock', () => {
  const env = languageSuite({ transitionDelaySeconds: 10 });

  it('goes ACCEPTED → IN_PROGRESS → SUCCEEDED with timeStarted and timeFinished, and the waiter returns it finished', async () => {
    const { opcWorkRequestId } = await env.client.createProject({
      createProjectDetails: { compartmentId: await newCompartmentId() },
    });
    const accepted = (await env.client.getWorkRequest({ workRequestId: opcWorkRequestId })).workRequest;
    assert.equal(accepted.status, 'ACCEPTED');
    assert.equal(accepted.percentComplete, 0);
    assert.equal(accepted.timeStarted, undefined);
    assert.equal(accepted.timeFinished, undefined);
    assert.equal(accepted.resources![0].actionType, 'IN_PROGRESS');

    await env.t.advance(5);
    const running = (await env.client.getWorkRequest({ workRequestId: opcWorkRequestId })).workRequest;
    assert.equal(running.status, 'IN_PROGRESS');
    assert.ok(running.timeStarted);
    assert.equal(running.timeFinished, undefined);

    await env.t.advance(5);
    const waited = await env.client.createWaiters(fastWaiter()).forWorkRequest({ workRequestId: opcWorkRequestId });
    assert.equal(waited.workRequest.status, 'SUCCEEDED');
    assert.ok(waited.workRequest.timeFinished);
    assert.equal(waited.workRequest.resources![0].actionType, 'CREATED');
  });

  it('lists logs newest first by default (sortBy timeCreated), oldest first by displayName or ASC, and pages them', async () => {
    const compartmentId = await newCompartmentId();
    const { opcWorkRequestId } = await env.client.createProject({ createProjectDetails: { compartmentId } });
    await env.t.advance(10);
    const SortBy = requests.ListWorkRequestLogsRequest.SortBy;
    const messages = async (query: {
      sortBy?: requests.ListWorkRequestLogsRequest.SortBy;
      sortOrder?: models.SortOrder;
    }) =>
      (
        await env.client.listWorkRequestLogs({ workRequestId: opcWorkRequestId, ...query })
      ).workRequestLogCollection.items.map((l) => l.message.split(' ')[0]);
    // The API: "Default order for timeCreated is descending. Default order for displayName is
    // ascending. If no value is specified timeCreated is default."
    assert.deepEqual(await messages({}), ['Succeeded:', 'Started', 'Accepted']);
    assert.deepEqual(await messages({ sortBy: SortBy.TimeCreated }), ['Succeeded:', 'Started', 'Accepted']);
    assert.deepEqual(await messages({ sortBy: SortBy.DisplayName }), ['Accepted', 'Started', 'Succeeded:']);
    assert.deepEqual(await messages({ sortOrder: models.SortOrder.Asc }), ['Accepted', 'Started', 'Succeeded:']);
    assert.deepEqual(await messages({ sortBy: SortBy.DisplayName, sortOrder: models.SortOrder.Desc }), [
      'Succeeded:',
      'Started',
      'Accepted',
    ]);

    // Work requests likewise: newest first, and oldest first with sortBy=displayName.
    const second = (await env.client.createProject({ createProjectDetails: { compartmentId } })).opcWorkRequestId;
    const ids = async (sortBy?: requests.ListWorkRequestsRequest.SortBy) =>
      (await env.client.listWorkRequests({ compartmentId, sortBy })).workRequestSummaryCollection.items.map(
        (w) => w.id,
      );
    assert.deepEqual(await ids(), [second, opcWorkRequestId]);
    assert.deepEqual(await ids(requests.ListWorkRequestsRequest.SortBy.DisplayName), [opcWorkRequestId, second]);

    const first = await env.client.listWorkRequestLogs({ workRequestId: opcWorkRequestId, limit: 2 });
    assert.equal(first.workRequestLogCollection.items.length, 2);
    const rest = await env.client.listWorkRequestLogs({
      workRequestId: opcWorkRequestId,
      limit: 2,
      page: first.opcNextPage,
    });
    assert.equal(rest.workRequestLogCollection.items.length, 1);
  });

  it("pages a running work request's logs newest first without repeating one when an entry is logged between pages", async () => {
    const { opcWorkRequestId: workRequestId } = await env.client.createProject({
      createProjectDetails: { compartmentId: await newCompartmentId() },
    });
    await env.t.advance(5);
    const first = await env.client.listWorkRequestLogs({ workRequestId, limit: 1 });
    await env.t.advance(5); // the work ends: "Succeeded" is logged before the next page is read
    const messages = first.workRequestLogCollection.items.map((l) => l.message.split(' ')[0]);
    for (let page = first.opcNextPage; page;) {
      const next = await env.client.listWorkRequestLogs({ workRequestId, limit: 1, page });
      messages.push(...next.workRequestLogCollection.items.map((l) => l.message.split(' ')[0]));
      page = next.opcNextPage;
    }
    assert.deepEqual(messages, ['Started', 'Accepted']);
    const fresh = await env.client.listWorkRequestLogs({ workRequestId, limit: 1 });
    assert.deepEqual(
      fresh.workRequestLogCollection.items.map((l) => l.message.split(' ')[0]),
      ['Succeeded:'],
    );
  });
});

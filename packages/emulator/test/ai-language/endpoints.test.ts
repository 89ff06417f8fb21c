import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { models, requests } from 'oci-ailanguage';
import { fastWaiter, ociError, type TestEmulator } from '../support/emulator';
import { allPages, createModel, createProject, languageSuite, newCompartmentId, pretrained } from './support';

describe('AI Language endpoints through the official SDK', () => {
  const env = languageSuite();
  let compartmentId: string;
  let project: models.Project;
  let model: models.Model;
  before(async () => {
    compartmentId = await newCompartmentId();
    project = await createProject(env.client, compartmentId);
    model = await createModel(env.client, {
      compartmentId,
      projectId: project.id,
      modelDetails: pretrained('PRE_TRAINED_SENTIMENT_ANALYSIS'),
    });
  });

  it('creates an endpoint: projectId from the model, one inference unit, generated name, location, etag and work request', async () => {
    const elsewhere = await newCompartmentId();
    const created = await env.client.createEndpoint({
      createEndpointDetails: { compartmentId: elsewhere, modelId: model.id },
    });
    const endpoint = created.endpoint;
    assert.match(endpoint.id, /^ocid1\.ailanguageendpoint\.oc1\.iad\./);
    assert.equal(endpoint.lifecycleState, 'CREATING');
    assert.equal(endpoint.projectId, project.id);
    assert.equal(endpoint.modelId, model.id);
    assert.equal(endpoint.compartmentId, elsewhere, 'the endpoint may live in another compartment than its model');
    assert.equal(endpoint.inferenceUnits, 1);
    assert.match(endpoint.displayName, /^ailanguageendpoint\d{14}$/);
    assert.equal(endpoint.alias, undefined);
    assert.equal(created.location, `/20221001/endpoints/${endpoint.id}`);
    assert.ok(created.etag);
    assert.match(created.opcWorkRequestId, /^ocid1\.ailanguageworkrequest\./);

    const waited = await env.client
      .createWaiters(fastWaiter())
      .forEndpoint({ endpointId: endpoint.id }, models.Endpoint.LifecycleState.Active);
    assert.equal(waited!.endpoint.lifecycleState, 'ACTIVE');
    const got = await env.client.getEndpoint({ endpointId: endpoint.id });
    assert.ok(got.etag);
    assert.ok(got.endpoint.timeUpdated);
    const wr = await env.client.createWaiters(fastWaiter()).forWorkRequest({ workRequestId: created.opcWorkRequestId });
    const entry = wr.workRequest.resources!.find((r) => r.entityType.toLowerCase().includes('endpoint'));
    assert.equal(entry?.actionType, 'CREATED');
    assert.equal(entry?.identifier, endpoint.id);
  });

  it('keeps every given field', async () => {
    const { endpoint } = await env.client.createEndpoint({
      createEndpointDetails: {
        compartmentId,
        modelId: model.id,
        displayName: 'reviews',
        alias: 'keeps-fields',
        description: 'review sentiment',
        inferenceUnits: 3,
        freeformTags: { env: 'test' },
        definedTags: { ops: { owner: 'me' } },
      },
    });
    assert.equal(endpoint.displayName, 'reviews');
    assert.equal(endpoint.alias, 'keeps-fields');
    assert.equal(endpoint.description, 'review sentiment');
    assert.equal(endpoint.inferenceUnits, 3);
    assert.deepEqual(endpoint.freeformTags, { env: 'test' });
    assert.deepEqual(endpoint.definedTags, { ops: { owner: 'me' } });
  });

  it('refuses inference units outside 1..10 with a 400 naming the field and the bounds', async () => {
    for (const inferenceUnits of [0, 11, -1]) {
      const error = await ociError(() =>
        env.client.createEndpoint({ createEndpointDetails: { compartmentId, modelId: model.id, inferenceUnits } }),
      );
      assert.equal(error.statusCode, 400);
      assert.equal(error.serviceCode, 'InvalidParameter');
      assert.match(error.message, /inferenceUnits/);
      assert.match(error.message, /1 to 10/);
    }
    const { endpoint } = await env.client.createEndpoint({
      createEndpointDetails: { compartmentId, modelId: model.id, inferenceUnits: 10 },
    });
    const error = await ociError(() =>
      env.client.updateEndpoint({ endpointId: endpoint.id, updateEndpointDetails: { inferenceUnits: 12 } }),
    );
    assert.equal(error.serviceCode, 'InvalidParameter');
    assert.match(error.message, /inferenceUnits/);
  });

  it('requires an existing model: 400 RelatedResourceNotAuthorizedOrNotFound', async () => {
    const error = await ociError(() =>
      env.client.createEndpoint({
        createEndpointDetails: { compartmentId, modelId: 'ocid1.ailanguagemodel.oc1.iad.amaaaaaanope' },
      }),
    );
    assert.equal(error.statusCode, 400);
    assert.equal(error.serviceCode, 'RelatedResourceNotAuthorizedOrNotFound');
    const missing = await ociError(() =>
      env.client.createEndpoint({ createEndpointDetails: { compartmentId } as never }),
    );
    assert.equal(missing.statusCode, 400);
    assert.equal(missing.serviceCode, 'MissingParameter');
  });

  it('keeps aliases unique per tenancy and region; an update with unchanged values succeeds', async () => {
    const first = (
      await env.client.createEndpoint({
        createEndpointDetails: {
          compartmentId,
          modelId: model.id,
          alias: 'unique-alias',
          displayName: 'first',
          inferenceUnits: 2,
        },
      })
    ).endpoint;
    const taken = await ociError(async () =>
      env.client.createEndpoint({
        createEndpointDetails: { compartmentId: await newCompartmentId(), modelId: model.id, alias: 'unique-alias' },
      }),
    );
    assert.equal(taken.statusCode, 409);
    assert.equal(taken.serviceCode, 'Conflict');
    assert.match(taken.message, /unique-alias/);

    // Terraform sends every known value on each update, whether or not it changed.
    const same = await env.client.updateEndpoint({
      endpointId: first.id,
      updateEndpointDetails: {
        alias: 'unique-alias',
        displayName: 'first',
        modelId: model.id,
        inferenceUnits: 2,
        description: first.description,
        freeformTags: first.freeformTags,
        definedTags: first.definedTags,
      },
    });
    assert.ok(same.opcWorkRequestId);
    const afterSame = (await env.client.getEndpoint({ endpointId: first.id })).endpoint;
    assert.equal(afterSame.lifecycleState, 'ACTIVE');
    assert.equal(afterSame.alias, 'unique-alias');

    const second = (
      await env.client.createEndpoint({
        createEndpointDetails: { compartmentId, modelId: model.id, alias: 'other-alias' },
      })
    ).endpoint;
    const steal = await ociError(() =>
      env.client.updateEndpoint({ endpointId: second.id, updateEndpointDetails: { alias: 'unique-alias' } }),
    );
    assert.equal(steal.serviceCode, 'Conflict');

    // Another region has its own aliases.
    const phoenix = env.t.language('us-phoenix-1');
    const phxProject = await createProject(phoenix, compartmentId);
    const phxModel = await createModel(phoenix, {
      compartmentId,
      projectId: phxProject.id,
      modelDetails: pretrained('PRE_TRAINED_SENTIMENT_ANALYSIS'),
    });
    const phx = await phoenix.createEndpoint({
      createEndpointDetails: { compartmentId, modelId: phxModel.id, alias: 'unique-alias' },
    });
    assert.equal(phx.endpoint.alias, 'unique-alias');

    // A DELETED endpoint gives its alias up.
    await env.client.deleteEndpoint({ endpointId: first.id });
    await env.client.updateEndpoint({ endpointId: second.id, updateEndpointDetails: { alias: 'unique-alias' } });
    assert.equal((await env.client.getEndpoint({ endpointId: second.id })).endpoint.alias, 'unique-alias');
  });

  it('updates the model (and with it the project), name, description, units and tags', async () => {
    const otherProject = await createProject(env.client, compartmentId);
    const otherModel = await createModel(env.client, {
      compartmentId,
      projectId: otherProject.id,
      modelDetails: pretrained('PRE_TRAINED_KEYPHRASE_EXTRACTION'),
    });
    const { endpoint } = await env.client.createEndpoint({
      createEndpointDetails: { compartmentId, modelId: model.id },
    });
    const updated = await env.client.updateEndpoint({
      endpointId: endpoint.id,
      updateEndpointDetails: {
        modelId: otherModel.id,
        displayName: 'moved',
        description: 'd',
        inferenceUnits: 4,
        freeformTags: { x: 'y' },
      },
    });
    const wr = (await env.client.getWorkRequest({ workRequestId: updated.opcWorkRequestId })).workRequest;
    assert.equal(wr.operationType, 'UPDATE_ENDPOINT');
    const now = (await env.client.getEndpoint({ endpointId: endpoint.id })).endpoint;
    assert.equal(now.modelId, otherModel.id);
    assert.equal(now.projectId, otherProject.id);
    assert.equal(now.displayName, 'moved');
    assert.equal(now.description, 'd');
    assert.equal(now.inferenceUnits, 4);
    assert.deepEqual(now.freeformTags, { x: 'y' });
    const noModel = await ociError(() =>
      env.client.updateEndpoint({
        endpointId: endpoint.id,
        updateEndpointDetails: { modelId: 'ocid1.ailanguagemodel.oc1.iad.amaaaaaanope' },
      }),
    );
    assert.equal(noModel.serviceCode, 'RelatedResourceNotAuthorizedOrNotFound');
  });

  it('refuses a stale if-match with 412 NoEtagMatch', async () => {
    const { endpoint, etag } = await env.client.createEndpoint({
      createEndpointDetails: { compartmentId, modelId: model.id },
    });
    const error = await ociError(() =>
      env.client.updateEndpoint({
        endpointId: endpoint.id,
        updateEndpointDetails: { displayName: 'x' },
        ifMatch: etag,
      }),
    );
    assert.equal(error.statusCode, 412, 'the create etag was for CREATING; the endpoint is ACTIVE now');
    assert.equal(error.serviceCode, 'NoEtagMatch');
    const current = await env.client.getEndpoint({ endpointId: endpoint.id });
    await env.client.updateEndpoint({
      endpointId: endpoint.id,
      updateEndpointDetails: { displayName: 'x' },
      ifMatch: current.etag,
    });
    const moved = await ociError(async () =>
      env.client.changeEndpointCompartment({
        endpointId: endpoint.id,
        changeEndpointCompartmentDetails: { compartmentId: await newCompartmentId() },
        ifMatch: current.etag,
      }),
    );
    assert.equal(moved.statusCode, 412);
  });

  it('replays a create with the same opc-retry-token', async () => {
    const details = { compartmentId: await newCompartmentId(), modelId: model.id, displayName: 'idempotent' };
    const first = await env.client.createEndpoint({
      createEndpointDetails: details,
      opcRetryToken: 'endpoint-token-1',
    });
    const again = await env.client.createEndpoint({
      createEndpointDetails: details,
      opcRetryToken: 'endpoint-token-1',
    });
    assert.equal(again.endpoint.id, first.endpoint.id);
    assert.equal(
      (await env.client.listEndpoints({ compartmentId: details.compartmentId })).endpointCollection.items.length,
      1,
    );
  });

  it('lists with every filter, sorting and paging; summaries have no timeUpdated', async () => {
    const listCompartment = await newCompartmentId();
    const otherProject = await createProject(env.client, compartmentId);
    const otherModel = await createModel(env.client, {
      compartmentId,
      projectId: otherProject.id,
      modelDetails: pretrained('PRE_TRAINED_LANGUAGE_DETECTION'),
    });
    const ids: Record<string, string> = {};
    for (const [name, modelId] of [
      ['c', model.id],
      ['a', otherModel.id],
      ['e', model.id],
      ['b', model.id],
      ['d', otherModel.id],
    ] as const) {
      ids[name] = (
        await env.client.createEndpoint({
          createEndpointDetails: { compartmentId: listCompartment, modelId, displayName: name },
        })
      ).endpoint.id;
    }
    const all = (
      await env.client.listEndpoints({
        compartmentId: listCompartment,
        sortBy: requests.ListEndpointsRequest.SortBy.DisplayName,
      })
    ).endpointCollection.items;
    assert.deepEqual(
      all.map((e) => e.displayName),
      ['a', 'b', 'c', 'd', 'e'],
    );
    assert.equal('timeUpdated' in (all[0] as object), false);
    const desc = (
      await env.client.listEndpoints({
        compartmentId: listCompartment,
        sortBy: requests.ListEndpointsRequest.SortBy.DisplayName,
        sortOrder: models.SortOrder.Desc,
      })
    ).endpointCollection.items;
    assert.deepEqual(
      desc.map((e) => e.displayName),
      ['e', 'd', 'c', 'b', 'a'],
    );
    const byTime = (
      await env.client.listEndpoints({
        compartmentId: listCompartment,
        sortBy: requests.ListEndpointsRequest.SortBy.TimeCreated,
        sortOrder: models.SortOrder.Asc,
      })
    ).endpointCollection.items;
    assert.deepEqual(
      byTime.map((e) => e.displayName),
      ['c', 'a', 'e', 'b', 'd'],
    );

    const names = async (
      filters: Partial<{
        endpointId: string;
        projectId: string;
        modelId: string;
        displayName: string;
        lifecycleState: string;
      }>,
    ) =>
      (
        await env.client.listEndpoints({
          compartmentId: listCompartment,
          sortBy: requests.ListEndpointsRequest.SortBy.DisplayName,
          ...filters,
        })
      ).endpointCollection.items.map((e) => e.displayName);
    assert.deepEqual(await names({ modelId: otherModel.id }), ['a', 'd']);
    assert.deepEqual(await names({ projectId: project.id }), ['b', 'c', 'e']);
    assert.deepEqual(await names({ endpointId: ids.e }), ['e']);
    assert.deepEqual(await names({ displayName: 'b' }), ['b']);
    assert.deepEqual(await names({ lifecycleState: 'ACTIVE' }), ['a', 'b', 'c', 'd', 'e']);
    await env.client.deleteEndpoint({ endpointId: ids.c });
    assert.deepEqual(await names({ lifecycleState: 'DELETED' }), ['c']);

    const paged = await allPages(async (page) => {
      const response = await env.client.listEndpoints({
        compartmentId: listCompartment,
        sortBy: requests.ListEndpointsRequest.SortBy.DisplayName,
        limit: 2,
        page,
      });
      return { items: response.endpointCollection.items, opcNextPage: response.opcNextPage };
    });
    assert.equal(paged.pages, 3);
    assert.deepEqual(
      paged.items.map((e) => e.displayName),
      ['a', 'b', 'c', 'd', 'e'],
    );

    const missing = await ociError(() => env.client.listEndpoints({ modelId: model.id } as never));
    assert.equal(missing.statusCode, 400);
    assert.equal(missing.serviceCode, 'MissingParameter');
  });

  it('moves an endpoint to another compartment at once, without a work request', async () => {
    const { endpoint } = await env.client.createEndpoint({
      createEndpointDetails: { compartmentId, modelId: model.id },
    });
    const to = await newCompartmentId();
    const response = await fetchChangeCompartment(env.t, endpoint.id, to);
    assert.equal(response.status, 202);
    assert.equal(response.headers.get('opc-work-request-id'), null);
    assert.ok(response.headers.get('opc-request-id'));
    const moved = (await env.client.getEndpoint({ endpointId: endpoint.id })).endpoint;
    assert.equal(moved.compartmentId, to);
    assert.equal(moved.lifecycleState, 'ACTIVE');
    await env.client.changeEndpointCompartment({
      endpointId: endpoint.id,
      changeEndpointCompartmentDetails: { compartmentId },
    });
    assert.equal((await env.client.getEndpoint({ endpointId: endpoint.id })).endpoint.compartmentId, compartmentId);
  });

  it('refuses to delete a model while endpoints serve it and a project while models or endpoints remain (409 Conflict)', async () => {
    const own = await createProject(env.client, compartmentId);
    const ownModel = await createModel(env.client, {
      compartmentId,
      projectId: own.id,
      modelDetails: pretrained('PRE_TRAINED_SENTIMENT_ANALYSIS'),
    });
    const { endpoint } = await env.client.createEndpoint({
      createEndpointDetails: { compartmentId, modelId: ownModel.id },
    });

    const modelBusy = await ociError(() => env.client.deleteModel({ modelId: ownModel.id }));
    assert.equal(modelBusy.statusCode, 409);
    assert.equal(modelBusy.serviceCode, 'Conflict');
    assert.match(modelBusy.message, /endpoint/);
    const projectBusy = await ociError(() => env.client.deleteProject({ projectId: own.id }));
    assert.equal(projectBusy.statusCode, 409);
    assert.equal(projectBusy.serviceCode, 'Conflict');

    await env.client.deleteEndpoint({ endpointId: endpoint.id });
    await env.client.deleteModel({ modelId: ownModel.id });
    await env.client.deleteProject({ projectId: own.id });
    assert.equal((await env.client.getProject({ projectId: own.id })).project.lifecycleState, 'DELETED');
  });

  it('keeps endpoints per region: one created under /r/us-phoenix-1 is not visible from the home region', async () => {
    const phoenix = env.t.language('us-phoenix-1');
    const phxCompartment = await newCompartmentId();
    const phxProject = await createProject(phoenix, phxCompartment);
    const phxModel = await createModel(phoenix, {
      compartmentId: phxCompartment,
      projectId: phxProject.id,
      modelDetails: pretrained('PRE_TRAINED_SENTIMENT_ANALYSIS'),
    });
    const { endpoint } = await phoenix.createEndpoint({
      createEndpointDetails: { compartmentId: phxCompartment, modelId: phxModel.id },
    });
    assert.match(endpoint.id, /^ocid1\.ailanguageendpoint\.oc1\.phx\./);
    assert.equal((await phoenix.getEndpoint({ endpointId: endpoint.id })).endpoint.lifecycleState, 'ACTIVE');
    const error = await ociError(() => env.client.getEndpoint({ endpointId: endpoint.id }));
    assert.equal(error.statusCode, 404);
    assert.equal(
      (await env.client.listEndpoints({ compartmentId: phxCompartment })).endpointCollection.items.length,
      0,
    );
    assert.equal((await phoenix.listEndpoints({ compartmentId: phxCompartment })).endpointCollection.items.length, 1);
    const crossRegion = await ociError(() =>
      env.client.createEndpoint({ createEndpointDetails: { compartmentId: phxCompartment, modelId: phxModel.id } }),
    );
    assert.equal(
      crossRegion.serviceCode,
      'RelatedResourceNotAuthorizedOrNotFound',
      'a model serves only in its own region',
    );
  });
});

/**
 * Calls ChangeEndpointCompartment through the SDK (requests must be signed) and returns the raw
 * HTTP response, to check headers the SDK's response type does not expose.
 */
async function fetchChangeCompartment(t: TestEmulator, endpointId: string, compartmentId: string): Promise<Response> {
  const client = t.language();
  let captured: Response | undefined;
  // The SDK keeps its HTTP client private; the test reads the raw response through it.
  const http = (client as unknown as { _httpClient: { send: (...args: unknown[]) => Promise<unknown> } })._httpClient;
  const original = http.send.bind(http);
  http.send = async (...args: unknown[]) => {
    captured = (await original(...args)) as Response;
    return captured;
  };
  await client.changeEndpointCompartment({ endpointId, changeEndpointCompartmentDetails: { compartmentId } });
  return captured!;
}

describe('AI Language endpoint lifecycle on the clock', () => {
  const env = languageSuite({ transitionDelaySeconds: 10, deletedRetentionSeconds: 120 });

  it('goes CREATING → ACTIVE, UPDATING → ACTIVE, DELETING → DELETED (readable) → 404', async () => {
    const compartmentId = await newCompartmentId();
    const { project } = await env.client.createProject({ createProjectDetails: { compartmentId } });
    const early = await ociError(() =>
      env.client.createModel({
        createModelDetails: {
          compartmentId,
          projectId: project.id,
          modelDetails: pretrained('PRE_TRAINED_SENTIMENT_ANALYSIS'),
        },
      }),
    );
    assert.equal(early.serviceCode, 'IncorrectState', 'a CREATING project takes models once ACTIVE');
    await env.t.advance(10);
    const { model } = await env.client.createModel({
      createModelDetails: {
        compartmentId,
        projectId: project.id,
        modelDetails: pretrained('PRE_TRAINED_SENTIMENT_ANALYSIS'),
      },
    });
    await env.t.advance(10);

    const { endpoint } = await env.client.createEndpoint({
      createEndpointDetails: { compartmentId, modelId: model.id },
    });
    assert.equal((await env.client.getEndpoint({ endpointId: endpoint.id })).endpoint.lifecycleState, 'CREATING');
    const creating = await ociError(() =>
      env.client.updateEndpoint({ endpointId: endpoint.id, updateEndpointDetails: { displayName: 'x' } }),
    );
    assert.equal(creating.statusCode, 409);
    assert.equal(creating.serviceCode, 'IncorrectState');
    await env.t.advance(10);
    assert.equal((await env.client.getEndpoint({ endpointId: endpoint.id })).endpoint.lifecycleState, 'ACTIVE');

    await env.client.updateEndpoint({ endpointId: endpoint.id, updateEndpointDetails: { inferenceUnits: 2 } });
    const updating = (await env.client.getEndpoint({ endpointId: endpoint.id })).endpoint;
    assert.equal(updating.lifecycleState, 'UPDATING');
    assert.equal(updating.inferenceUnits, 2);
    const twice = await ociError(() => env.client.deleteEndpoint({ endpointId: endpoint.id }));
    assert.equal(twice.serviceCode, 'IncorrectState');
    await env.t.advance(10);
    assert.equal((await env.client.getEndpoint({ endpointId: endpoint.id })).endpoint.lifecycleState, 'ACTIVE');

    const deleted = await env.client.deleteEndpoint({ endpointId: endpoint.id });
    assert.equal((await env.client.getEndpoint({ endpointId: endpoint.id })).endpoint.lifecycleState, 'DELETING');
    const blocked = await ociError(() => env.client.deleteModel({ modelId: model.id }));
    assert.equal(
      blocked.serviceCode,
      'IncorrectState',
      'only DELETING endpoints remain: they end DELETED by themselves',
    );
    await env.t.advance(10);
    const wr = await env.client.getWorkRequest({ workRequestId: deleted.opcWorkRequestId });
    assert.equal(wr.workRequest.status, 'SUCCEEDED');
    assert.equal(wr.workRequest.resources![0].actionType, 'DELETED');
    const gone = await env.client
      .createWaiters(fastWaiter())
      .forEndpoint({ endpointId: endpoint.id }, models.Endpoint.LifecycleState.Deleted);
    assert.equal(gone!.endpoint.lifecycleState, 'DELETED');
    const update = await ociError(() =>
      env.client.updateEndpoint({ endpointId: endpoint.id, updateEndpointDetails: { displayName: 'y' } }),
    );
    // The one lifecycle rule: a DELETED resource is still readable, so changing it is 409 Conflict.
    assert.deepEqual([update.statusCode, update.serviceCode], [409, 'Conflict']);

    await env.client.deleteModel({ modelId: model.id });
    await env.t.advance(120);
    const notFound = await ociError(() => env.client.getEndpoint({ endpointId: endpoint.id }));
    assert.equal(notFound.statusCode, 404);
    assert.equal(notFound.serviceCode, 'NotAuthorizedOrNotFound');
  });
});

import { models, requests } from 'oci-ailanguage';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ociError } from '../support/emulator';
import { allPages, createProject, languageSuite, newCompartmentId } from './support';

describe('AI Language projects through the official SDK', () => {
  const env = languageSuite();

  it('creates a project: CREATING body with etag and work request, then ACTIVE', async () => {
    const compartmentId = await newCompartmentId();
    const created = await env.client.createProject({
      createProjectDetails: {
        compartmentId,
        displayName: 'reviews',
        description: 'Customer reviews',
        freeformTags: { team: 'nlp' },
        definedTags: { ops: { costCenter: '42' } },
      },
    });
    assert.match(created.project.id, /^ocid1\.ailanguageproject\.oc1\.iad\./);
    assert.equal(created.project.lifecycleState, 'CREATING');
    assert.equal(created.project.displayName, 'reviews');
    assert.deepEqual(created.project.freeformTags, { team: 'nlp' });
    assert.deepEqual(created.project.definedTags, { ops: { costCenter: '42' } });
    assert.ok(created.etag);
    assert.match(created.opcWorkRequestId, /^ocid1\.ailanguageworkrequest\./);
    assert.ok(created.opcRequestId);

    const got = await env.client.getProject({ projectId: created.project.id });
    assert.equal(got.project.lifecycleState, 'ACTIVE');
    assert.equal(got.project.description, 'Customer reviews');
    assert.match(String(got.project.timeCreated), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/, 'RFC 3339');
    assert.ok(got.etag);
    assert.notEqual(got.etag, created.etag, 'the etag follows the lifecycle change');
  });

  it('names a project without displayName as the console does, and omits absent optional fields', async () => {
    const { project } = await env.client.createProject({
      createProjectDetails: { compartmentId: await newCompartmentId() },
    });
    assert.match(project.displayName, /^ailanguageproject\d{14}$/);
    const raw = (await env.client.getProject({ projectId: project.id })).project as unknown as Record<string, unknown>;
    assert.equal('description' in raw, false);
    assert.equal('lifecycleDetails' in raw, false);
    assert.equal(Object.values(raw).includes(null), false);
  });

  it('updates name, description and tags through a work request (202 + opc-work-request-id)', async () => {
    const project = await createProject(env.client, await newCompartmentId(), 'before');
    const updated = await env.client.updateProject({
      projectId: project.id,
      updateProjectDetails: { displayName: 'after', description: 'new text', freeformTags: { a: 'b' } },
    });
    assert.match(updated.opcWorkRequestId, /^ocid1\.ailanguageworkrequest\./);
    const { project: now } = await env.client.getProject({ projectId: project.id });
    assert.equal(now.displayName, 'after');
    assert.equal(now.description, 'new text');
    assert.deepEqual(now.freeformTags, { a: 'b' });
    assert.equal(now.lifecycleState, 'ACTIVE');
    assert.ok(now.timeUpdated);
    const wr = await env.client.getWorkRequest({ workRequestId: updated.opcWorkRequestId });
    assert.equal(wr.workRequest.operationType, 'UPDATE_PROJECT');
    assert.equal(wr.workRequest.status, 'SUCCEEDED');
  });

  it('refuses a stale if-match with 412 and accepts the current etag', async () => {
    const project = await createProject(env.client, await newCompartmentId());
    const { etag } = await env.client.getProject({ projectId: project.id });
    await env.client.updateProject({
      projectId: project.id,
      updateProjectDetails: { displayName: 'one' },
      ifMatch: etag,
    });
    const error = await ociError(() =>
      env.client.updateProject({ projectId: project.id, updateProjectDetails: { displayName: 'two' }, ifMatch: etag }),
    );
    assert.equal(error.statusCode, 412);
    assert.equal(error.serviceCode, 'NoEtagMatch');
    const stale = await ociError(() => env.client.deleteProject({ projectId: project.id, ifMatch: etag }));
    assert.equal(stale.statusCode, 412);
    const current = await env.client.getProject({ projectId: project.id });
    await env.client.deleteProject({ projectId: project.id, ifMatch: current.etag });
  });

  it('replays a create with the same opc-retry-token and refuses the token for a different request', async () => {
    const compartmentId = await newCompartmentId();
    const first = await env.client.createProject({
      createProjectDetails: { compartmentId, displayName: 'once' },
      opcRetryToken: 'project-token-1',
    });
    const again = await env.client.createProject({
      createProjectDetails: { compartmentId, displayName: 'once' },
      opcRetryToken: 'project-token-1',
    });
    assert.equal(again.project.id, first.project.id);
    assert.equal(again.opcWorkRequestId, first.opcWorkRequestId);
    const listed = await env.client.listProjects({ compartmentId });
    assert.equal(listed.projectCollection.items.length, 1);
    const error = await ociError(() =>
      env.client.createProject({
        createProjectDetails: { compartmentId, displayName: 'other' },
        opcRetryToken: 'project-token-1',
      }),
    );
    assert.equal(error.statusCode, 409);
    assert.equal(error.serviceCode, 'InvalidatedRetryToken');
  });

  it('lists with filters, sorting and paging across pages', async () => {
    const compartmentId = await newCompartmentId();
    for (const name of ['delta', 'alpha', 'echo', 'charlie', 'bravo'])
      await createProject(env.client, compartmentId, name);
    await createProject(env.client, await newCompartmentId(), 'alpha'); // another compartment: never listed

    const byName = await env.client.listProjects({
      compartmentId,
      sortBy: requests.ListProjectsRequest.SortBy.DisplayName,
    });
    assert.deepEqual(
      byName.projectCollection.items.map((p) => p.displayName),
      ['alpha', 'bravo', 'charlie', 'delta', 'echo'],
    );
    const desc = await env.client.listProjects({
      compartmentId,
      sortBy: requests.ListProjectsRequest.SortBy.DisplayName,
      sortOrder: models.SortOrder.Desc,
    });
    assert.equal(desc.projectCollection.items[0].displayName, 'echo');
    const newestFirst = await env.client.listProjects({ compartmentId });
    assert.equal(
      newestFirst.projectCollection.items[0].displayName,
      'bravo',
      'default order is timeCreated, newest first',
    );

    const paged = await allPages(async (page) => {
      const response = await env.client.listProjects({
        compartmentId,
        sortBy: requests.ListProjectsRequest.SortBy.DisplayName,
        limit: 2,
        page,
      });
      return { items: response.projectCollection.items, opcNextPage: response.opcNextPage };
    });
    assert.equal(paged.pages, 3);
    assert.deepEqual(
      paged.items.map((p) => p.displayName),
      ['alpha', 'bravo', 'charlie', 'delta', 'echo'],
    );

    const filtered = await env.client.listProjects({ compartmentId, displayName: 'charlie' });
    assert.equal(filtered.projectCollection.items.length, 1);
    const byId = await env.client.listProjects({ compartmentId, projectId: filtered.projectCollection.items[0].id });
    assert.equal(byId.projectCollection.items[0].displayName, 'charlie');
    const creating = await env.client.listProjects({ compartmentId, lifecycleState: 'CREATING' });
    assert.equal(creating.projectCollection.items.length, 0);
    const active = await env.client.listProjects({ compartmentId, lifecycleState: 'ACTIVE' });
    assert.equal(active.projectCollection.items.length, 5);
  });

  it('requires compartmentId to list and rejects unknown enum values', async () => {
    const missing = await ociError(() => env.client.listProjects({} as never));
    assert.equal(missing.statusCode, 400);
    assert.equal(missing.serviceCode, 'MissingParameter');
    const bad = await ociError(async () =>
      env.client.listProjects({ compartmentId: await newCompartmentId(), lifecycleState: 'SLEEPING' as never }),
    );
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.serviceCode, 'InvalidParameter');
  });

  it('a description is at most 400 characters, as the console allows (displayName 255)', async () => {
    const compartmentId = await newCompartmentId();
    const ok = await env.client.createProject({
      createProjectDetails: { compartmentId, description: 'd'.repeat(400) },
    });
    assert.equal(ok.project.description?.length, 400);
    for (const [field, value] of [
      ['description', 'd'.repeat(401)],
      ['displayName', 'n'.repeat(256)],
    ]) {
      const e = await ociError(() =>
        env.client.createProject({ createProjectDetails: { compartmentId, [field]: value } }),
      );
      assert.deepEqual([e.statusCode, e.serviceCode], [400, 'InvalidParameter'], field);
      assert.match(e.message, new RegExp(`'${field}'`));
    }
  });

  it('moves a project to another compartment at once, without a work request', async () => {
    const from = await newCompartmentId();
    const to = await newCompartmentId();
    const project = await createProject(env.client, from);
    const moved = await env.client.changeProjectCompartment({
      projectId: project.id,
      changeProjectCompartmentDetails: { compartmentId: to },
    });
    assert.ok(moved.opcRequestId);
    const { project: now } = await env.client.getProject({ projectId: project.id });
    assert.equal(now.compartmentId, to);
    assert.equal(now.lifecycleState, 'ACTIVE');
    assert.equal((await env.client.listProjects({ compartmentId: from })).projectCollection.items.length, 0);
    assert.equal((await env.client.listProjects({ compartmentId: to })).projectCollection.items.length, 1);
  });

  it('answers 404 NotAuthorizedOrNotFound for an unknown project', async () => {
    const error = await ociError(() =>
      env.client.getProject({ projectId: 'ocid1.ailanguageproject.oc1.iad.amaaaaaanope' }),
    );
    assert.equal(error.statusCode, 404);
    assert.equal(error.serviceCode, 'NotAuthorizedOrNotFound');
  });

  it('keeps projects per region: one created under /r/us-phoenix-1 is invisible from the home region', async () => {
    const compartmentId = await newCompartmentId();
    const phoenix = env.t.language('us-phoenix-1');
    const { project } = await phoenix.createProject({ createProjectDetails: { compartmentId } });
    assert.match(project.id, /^ocid1\.ailanguageproject\.oc1\.phx\./);
    assert.equal((await phoenix.getProject({ projectId: project.id })).project.lifecycleState, 'ACTIVE');
    const error = await ociError(() => env.client.getProject({ projectId: project.id }));
    assert.equal(error.statusCode, 404);
    assert.equal((await env.client.listProjects({ compartmentId })).projectCollection.items.length, 0);
    assert.equal((await phoenix.listProjects({ compartmentId })).projectCollection.items.length, 1);
  });
});

describe('AI Language project deletion lifecycle', () => {
  const env = languageSuite({ transitionDelaySeconds: 10, deletedRetentionSeconds: 60 });

  it('goes CREATING → ACTIVE, UPDATING → ACTIVE and DELETING → DELETED → 404 on the clock', async () => {
    const { project } = await env.client.createProject({
      createProjectDetails: { compartmentId: await newCompartmentId() },
    });
    assert.equal((await env.client.getProject({ projectId: project.id })).project.lifecycleState, 'CREATING');
    const busy = await ociError(() =>
      env.client.updateProject({ projectId: project.id, updateProjectDetails: { displayName: 'x' } }),
    );
    assert.equal(busy.statusCode, 409);
    assert.equal(busy.serviceCode, 'IncorrectState');
    await env.t.advance(10);
    assert.equal((await env.client.getProject({ projectId: project.id })).project.lifecycleState, 'ACTIVE');

    await env.client.updateProject({ projectId: project.id, updateProjectDetails: { displayName: 'renamed' } });
    const updating = (await env.client.getProject({ projectId: project.id })).project;
    assert.equal(updating.lifecycleState, 'UPDATING');
    assert.equal(updating.displayName, 'renamed');
    await env.t.advance(10);
    assert.equal((await env.client.getProject({ projectId: project.id })).project.lifecycleState, 'ACTIVE');

    await env.client.deleteProject({ projectId: project.id });
    assert.equal((await env.client.getProject({ projectId: project.id })).project.lifecycleState, 'DELETING');
    await env.t.advance(10);
    assert.equal((await env.client.getProject({ projectId: project.id })).project.lifecycleState, 'DELETED');
    // The one lifecycle rule: deleting a DELETED resource again is a no-op, without a work request.
    const again = await env.client.deleteProject({ projectId: project.id });
    assert.equal(again.opcWorkRequestId, undefined);
    await env.t.advance(60);
    const gone = await ociError(() => env.client.getProject({ projectId: project.id }));
    assert.equal(gone.statusCode, 404);
    assert.equal(gone.serviceCode, 'NotAuthorizedOrNotFound');
  });
});

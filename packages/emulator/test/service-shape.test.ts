import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ociError } from './support/emulator';
import { createProject, languageSuite, newCompartmentId, pretrained } from './ai-language/support';

// The rules both services share (services/common/lifecycle-policy.ts, http/responses.ts), seen
// where AI Language used to differ from Disaster Recovery.
describe('one service shape', () => {
  const env = languageSuite({ transitionDelaySeconds: 10 });

  it('answers 409 Conflict to a change of a DELETING resource, as for every state that never becomes usable again', async () => {
    const project = await createProject(env.client, await newCompartmentId());
    await env.t.advance(10);
    await env.client.deleteProject({ projectId: project.id });
    assert.equal((await env.client.getProject({ projectId: project.id })).project.lifecycleState, 'DELETING');
    const refused = await ociError(() =>
      env.client.updateProject({ projectId: project.id, updateProjectDetails: { displayName: 'x' } }),
    );
    assert.equal(refused.statusCode, 409);
    assert.equal(refused.serviceCode, 'Conflict');
  });

  it('names a resource created in another region by its /r/<region> location, as Disaster Recovery does', async () => {
    const region = 'us-phoenix-1';
    const client = env.t.language(region);
    const project = await createProject(client, await newCompartmentId());
    await env.t.advance(10);
    const created = await client.createModel({
      createModelDetails: {
        compartmentId: project.compartmentId,
        projectId: project.id,
        modelDetails: pretrained('PRE_TRAINED_SENTIMENT_ANALYSIS'),
      },
    });
    assert.equal(created.location, `/r/${region}/20221001/models/${created.model.id}`);
  });
});

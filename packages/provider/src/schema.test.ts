// How the plugin shapes OCI's answers into pulumi-oci's outputs (shapeObject): what a program
// reads, and what the state records, for any answer OCI may give.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { packageSchema, shapeObject } from './schema';

const schema = packageSchema();
const DRPLAN = schema.resources['oci:DisasterRecovery/drPlan:DrPlan'];
const GET_ENDPOINT = schema.functions['oci:AiLanguage/getEndpoint:getEndpoint'];

// A DrPlan as the OCI SDK returns it: dates as Dates, tags nested by namespace, nulls, a single
// userDefinedStep object, fields the schema does not know.
const answer = () => ({
  id: 'ocid1.drplan.oc1..p',
  displayName: 'plan',
  type: 'SWITCHOVER',
  lifecycleState: 'ACTIVE',
  lifecycleSubState: null,
  timeCreated: new Date(Date.UTC(2026, 0, 2, 3, 4, 5)),
  definedTags: { Ops: { owner: 'me', cost: 12 } },
  freeformTags: {},
  somethingNewFromOci: { a: 1 },
  planGroups: [
    {
      id: 'g1',
      isPauseEnabled: null,
      steps: [
        {
          id: 's1',
          timeout: 3600,
          isEnabled: true,
          userDefinedStep: { stepType: 'RUN_LOCAL_SCRIPT', scriptCommand: 'x.sh', functionRegion: null },
          extra: 'dropped',
        },
      ],
    },
    null,
  ],
});

test('a DrPlan answer shapes to pulumi-oci outputs: singular blocks as lists, state, tags flat, zero values', () => {
  const out = shapeObject(answer(), DRPLAN, Object.keys(DRPLAN.inputProperties))!;
  const zeroStep = {
    displayName: '',
    errorMode: '',
    groupId: '',
    memberId: '',
    refreshStatus: '',
    type: '',
    typeDisplayName: '',
  };
  assert.equal(
    JSON.stringify(out),
    JSON.stringify({
      definedTags: { 'Ops.owner': 'me', 'Ops.cost': '12' },
      displayName: 'plan',
      freeformTags: {},
      planGroups: [
        {
          id: 'g1',
          steps: [
            {
              id: 's1',
              isEnabled: true,
              timeout: 3600,
              userDefinedSteps: [
                {
                  scriptCommand: 'x.sh',
                  stepType: 'RUN_LOCAL_SCRIPT',
                  functionId: '',
                  functionRegion: '',
                  objectStorageScriptLocations: [],
                  requestBody: '',
                  runAsUser: '',
                  runOnInstanceId: '',
                  runOnInstanceRegion: '',
                },
              ],
              ...zeroStep,
            },
          ],
          displayName: '',
          isPauseEnabled: false,
          refreshStatus: '',
          type: '',
        },
      ],
      state: 'ACTIVE',
      timeCreated: '2026-01-02T03:04:05.000Z',
      type: 'SWITCHOVER',
      compartmentId: '',
      lifeCycleDetails: '',
      lifecycleSubState: '',
      peerDrProtectionGroupId: '',
      peerRegion: '',
      systemTags: {},
      timeUpdated: '',
    }),
  );
  // The inputs the program did not give stay absent (not zero), so no diff appears on them.
  for (const input of ['sourcePlanId', 'refreshTrigger', 'verifyTrigger', 'drProtectionGroupId'])
    assert.equal(input in out, false, input);
});

test('each shaped answer has zero values of its own: changing one does not change the next', () => {
  const first = shapeObject({}, DRPLAN, [])!;
  (first.systemTags as Record<string, string>).x = 'y';
  (first.planGroups as unknown[]).push('z');
  const second = shapeObject({}, DRPLAN, [])!;
  assert.deepEqual([second.systemTags, second.planGroups], [{}, []]);
});

test("an invoke's output: the function's arguments stay as given, non-strings in string fields become strings", () => {
  const out = shapeObject(
    { id: 'ocid1.ep', inferenceUnits: 2, alias: 7, description: { a: 1 }, lifecycleState: 'ACTIVE', timeUpdated: null },
    GET_ENDPOINT.outputs,
    Object.keys(GET_ENDPOINT.inputs.properties),
  )!;
  assert.deepEqual(
    [out.id, out.inferenceUnits, out.alias, out.description, out.state, out.timeUpdated, out.freeformTags],
    ['ocid1.ep', 2, '7', '{"a":1}', 'ACTIVE', '', {}],
  );
  // Not an object: no outputs.
  assert.equal(shapeObject(null, GET_ENDPOINT.outputs), undefined);
  assert.equal(shapeObject('x', GET_ENDPOINT.outputs), undefined);
});

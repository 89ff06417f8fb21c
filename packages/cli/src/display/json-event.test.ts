import { test } from 'node:test';
import assert from 'node:assert/strict';
import { jsonEvent } from './json-event';
import type { EngineEvent, StepEventMetadata } from '../engine/types';

const URN = 'urn:pulumi:dev::p::oci:AiLanguage/endpoint:Endpoint::e';
const state = (outputs: Record<string, unknown>) => ({
  type: 'oci:AiLanguage/endpoint:Endpoint',
  urn: URN,
  custom: true,
  delete: false,
  id: 'ocid1.x',
  parent: 'urn:pulumi:dev::p::pulumi:pulumi:Stack::p-dev',
  protect: false,
  retainOnDelete: false,
  inputs: {},
  outputs,
  provider: 'urn:pulumi:dev::p::pulumi:providers:oci::default_2_31_0::1',
});
const outputsEvent = (metadata: StepEventMetadata): EngineEvent => ({
  sequence: 0,
  timestamp: 0,
  resOutputsEvent: { metadata },
});

test("--json prints step events in apitype's shape: old/new always, empty fields left out, a refresh's result op", () => {
  const refresh = (extra: Partial<StepEventMetadata>) =>
    jsonEvent(
      outputsEvent({
        op: 'refresh',
        urn: URN,
        type: state({}).type,
        provider: '',
        old: state({ a: 1 }),
        new: state({ a: 2 }),
        ...extra,
      }),
      false,
      true,
    )!.resOutputsEvent!.metadata;
  const drifted = refresh({
    diffs: ['a'],
    detailedDiff: { a: { diffKind: 'update', inputDiff: false } },
    refreshResult: 'update',
  });
  assert.equal(drifted.op, 'update');
  assert.deepEqual(Object.keys(drifted), ['op', 'urn', 'type', 'old', 'new', 'diffs', 'detailedDiff', 'provider']);
  assert.equal(refresh({}).detailedDiff, null, 'no detailed diff: null, as apitype prints it');
  assert.deepEqual(Object.keys(drifted.old!), [
    'type',
    'urn',
    'custom',
    'id',
    'parent',
    'inputs',
    'outputs',
    'provider',
  ]);
  assert.equal(refresh({ diffs: [], detailedDiff: {}, refreshResult: 'same' }).op, 'same');
  // The op is the step's result, which the summary counts: a Diff that answered "some changes"
  // without naming a key is an update all the same (RefreshStep.ResultOp: Changes != DiffNone).
  assert.equal(refresh({ diffs: [], detailedDiff: {}, refreshResult: 'update' }).op, 'update');
  const gone = refresh({ new: undefined, refreshResult: 'delete' });
  assert.equal(gone.diffs, undefined);
  assert.deepEqual([gone.op, gone.new], ['delete', null]);

  const create = jsonEvent({
    sequence: 0,
    timestamp: 0,
    resourcePreEvent: { metadata: { op: 'create', urn: URN, type: 't', provider: '', new: state({}), logical: true } },
  })!.resourcePreEvent!.metadata;
  assert.equal(create.old, null);
  assert.equal(create.logical, true);
});

test('--json leaves out the steps of default providers, as Pulumi does for internal steps', () => {
  const provider = 'urn:pulumi:dev::p::pulumi:providers:oci::default_2_31_0';
  assert.equal(
    jsonEvent(outputsEvent({ op: 'same', urn: provider, type: 'pulumi:providers:oci', provider: '' })),
    undefined,
  );
  const diag: EngineEvent = {
    sequence: 0,
    timestamp: 0,
    diagnosticEvent: { message: 'x\n', color: 'never', severity: 'info' },
  };
  assert.equal(jsonEvent(diag), diag);
});

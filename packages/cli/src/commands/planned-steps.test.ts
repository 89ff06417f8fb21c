import { test } from 'node:test';
import assert from 'node:assert/strict';
import { plannedSteps } from './planned-steps';
import type { EngineEvent } from '../engine/types';

const pre = (op: string, type: string, name: string, retainOnDelete = false): EngineEvent =>
  ({
    resourcePreEvent: {
      metadata: { op, type, urn: `urn:pulumi:dev::p::${type}::${name}`, old: { retainOnDelete } },
    },
  }) as unknown as EngineEvent;

test("before asking, an update or destroy lists the retained resources it leaves untracked (Pulumi's PreviewThenPrompt)", () => {
  const planned = plannedSteps();
  planned.note(pre('same', 'pulumi:pulumi:Stack', 'p-dev'));
  planned.note(pre('delete', 'oci:AiLanguage/endpoint:Endpoint', 'keep', true));
  planned.note(pre('replace', 'oci:DisasterRecovery/drPlan:DrPlan', 'plan', true));
  planned.note(pre('delete', 'oci:AiLanguage/endpoint:Endpoint', 'gone'));
  const notice =
    'info: This update will leave 2 resource(s) untracked in your environment:\n' +
    '    - oci:AiLanguage/endpoint:Endpoint keep\n' +
    '    - oci:DisasterRecovery/drPlan:DrPlan plan\n\n';
  assert.equal(planned.notices('update'), notice);
  assert.equal(planned.notices('destroy'), notice);
  assert.equal(planned.notices('refresh'), '');
});

test('before asking, an update of a stack with no resource says so', () => {
  const planned = plannedSteps();
  planned.note(pre('create', 'pulumi:pulumi:Stack', 'p-dev'));
  assert.equal(
    planned.notices('update'),
    'info: There are no resources in your stack (other than the stack resource).\n\n',
  );
  assert.equal(planned.notices('destroy'), '');
});

import assert from 'node:assert/strict';
import * as enums from '../enums';
import { sdkValues } from './fixtures';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { models } from 'oci-disasterrecovery';

// ---------------------------------------------------------------------------------------------
// enums.ts
// ---------------------------------------------------------------------------------------------

describe('enums', () => {
  const pairs: Array<[string, readonly string[], object]> = [
    ['DrPlanType', enums.DR_PLAN_TYPES, models.DrPlanType],
    ['DrPlanLifecycleState', enums.DR_PLAN_LIFECYCLE_STATES, models.DrPlanLifecycleState],
    ['DrPlanLifecycleSubState', enums.DR_PLAN_LIFECYCLE_SUB_STATES, models.DrPlanLifecycleSubState],
    ['DrPlanGroupType', enums.DR_PLAN_GROUP_TYPES, models.DrPlanGroupType],
    ['DrPlanStepType', enums.DR_PLAN_STEP_TYPES, models.DrPlanStepType],
    ['DrPlanStepErrorMode', enums.DR_PLAN_STEP_ERROR_MODES, models.DrPlanStepErrorMode],
    ['DrPlanGroupRefreshStatus', enums.DR_PLAN_GROUP_REFRESH_STATUSES, models.DrPlanGroupRefreshStatus],
    ['DrPlanStepRefreshStatus', enums.DR_PLAN_STEP_REFRESH_STATUSES, models.DrPlanStepRefreshStatus],
    ['DrProtectionGroupRole', enums.DR_PROTECTION_GROUP_ROLES, models.DrProtectionGroupRole],
    [
      'DrProtectionGroupLifecycleState',
      enums.DR_PROTECTION_GROUP_LIFECYCLE_STATES,
      models.DrProtectionGroupLifecycleState,
    ],
    [
      'DrProtectionGroupLifecycleSubState',
      enums.DR_PROTECTION_GROUP_LIFECYCLE_SUB_STATES,
      models.DrProtectionGroupLifecycleSubState,
    ],
    ['DrProtectionGroupMemberType', enums.DR_PROTECTION_GROUP_MEMBER_TYPES, models.DrProtectionGroupMemberType],
    ['OperationType', enums.OPERATION_TYPES, models.OperationType],
    ['OperationStatus', enums.OPERATION_STATUSES, models.OperationStatus],
    ['ActionType', enums.ACTION_TYPES, models.ActionType],
    ['SortOrder', enums.SORT_ORDERS, models.SortOrder],
  ];
  for (const [name, ours, sdk] of pairs) {
    it(`${name} matches the SDK's values, in order, without UNKNOWN_VALUE`, () => {
      assert.deepEqual([...ours], sdkValues(sdk));
      assert.ok(!ours.includes('UNKNOWN_VALUE'));
    });
  }

  it('DrPlanStepType has the 126 wire values', () => {
    assert.equal(enums.DR_PLAN_STEP_TYPES.length, 126);
    assert.equal(new Set(enums.DR_PLAN_STEP_TYPES).size, 126);
  });

  it('user-defined stepType values are exactly the discriminator cases of the SDK model', () => {
    const source = readFileSync(require.resolve('oci-disasterrecovery/lib/model/dr-plan-user-defined-step.js'), 'utf8');
    const cases = new Set([...source.matchAll(/case "([A-Z_]+)":/g)].map((m) => m[1]));
    assert.deepEqual(new Set(enums.DR_PLAN_USER_DEFINED_STEP_TYPES), cases);
    assert.equal(enums.DR_PLAN_USER_DEFINED_STEP_TYPES.length, 9);
  });

  it('isOneOf accepts members only', () => {
    assert.equal(enums.isOneOf(enums.DR_PLAN_TYPES, 'FAILOVER'), true);
    assert.equal(enums.isOneOf(enums.DR_PLAN_TYPES, 'failover'), false);
    assert.equal(enums.isOneOf(enums.DR_PLAN_TYPES, 'UNKNOWN_VALUE'), false);
    assert.equal(enums.isOneOf(enums.DR_PLAN_TYPES, 3), false);
    assert.equal(enums.isOneOf(enums.DR_PLAN_TYPES, undefined), false);
  });
});

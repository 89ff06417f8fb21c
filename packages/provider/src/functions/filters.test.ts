// pulumi-oci's `filters` on a list invoke's items (applyFilters), as terraform-provider-oci's
// tfresource ApplyFiltersInCollection and orComparator (tfresource/filters.go) apply them: by the
// kind of the item's value.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyFilters } from './index';

const items = [
  {
    id: 'a',
    displayName: 'first',
    inferenceUnits: 2,
    isQuickMode: true,
    labels: ['x', 'y'],
    freeformTags: { team: 'dr' },
    planGroups: [{ id: 'g' }],
  },
  { id: 'b', displayName: 'second', inferenceUnits: 10, isQuickMode: false, labels: [] },
];
const ids = (filters: Parameters<typeof applyFilters>[1]) => applyFilters(items, filters).map((i) => i.id);

test('a string equals a value, or with regex matches it; snake_case or camelCase names', () => {
  assert.deepEqual(ids([{ name: 'display_name', values: ['second', 'none'] }]), ['b']);
  assert.deepEqual(ids([{ name: 'displayName', values: ['^f'], regex: true }]), ['a']);
  assert.deepEqual(ids([{ name: 'display_name', values: ['[', 'nd$'], regex: true }]), ['b']);
  assert.deepEqual(ids([{ name: 'labels', values: ['y'] }]), ['a']);
});

test('a whole number is compared as ParseInt reads the value, never as a regex', () => {
  assert.deepEqual(ids([{ name: 'inference_units', values: ['+2'] }]), ['a']);
  assert.deepEqual(ids([{ name: 'inference_units', values: ['010'] }]), ['b']);
  assert.deepEqual(ids([{ name: 'inference_units', values: ['^1'], regex: true }]), []);
  // A value ParseInt refuses fails the filter there: the values after it are not tried.
  assert.deepEqual(ids([{ name: 'inference_units', values: ['two', '2'] }]), []);
  assert.deepEqual(ids([{ name: 'inference_units', values: ['2', 'two'] }]), ['a']);
});

test('a boolean is compared as ParseBool reads the value', () => {
  assert.deepEqual(ids([{ name: 'is_quick_mode', values: ['True'] }]), ['a']);
  assert.deepEqual(ids([{ name: 'is_quick_mode', values: ['0'] }]), ['b']);
  assert.deepEqual(ids([{ name: 'is_quick_mode', values: ['yes', 'true'] }]), []);
});

test('a map, a list of objects or a missing property never passes', () => {
  assert.deepEqual(ids([{ name: 'freeform_tags', values: ['.*'], regex: true }]), []);
  assert.deepEqual(ids([{ name: 'freeform_tags', values: ['{"team":"dr"}'] }]), []);
  assert.deepEqual(ids([{ name: 'plan_groups', values: ['.'], regex: true }]), []);
  assert.deepEqual(ids([{ name: 'description', values: ['', '.*'], regex: true }]), []);
});

test('every filter must pass', () => {
  assert.deepEqual(
    ids([
      { name: 'id', values: ['a', 'b'] },
      { name: 'display_name', values: ['second'] },
    ]),
    ['b'],
  );
  assert.deepEqual(ids([]), ['a', 'b']);
});

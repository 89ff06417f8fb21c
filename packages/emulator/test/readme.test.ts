import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { supportTable } from '../src/coverage';

describe('README', () => {
  it('shows the support table the services actually declare (regenerate with npm run support-table)', () => {
    const readme = readFileSync(join(__dirname, '../../../README.md'), 'utf8');
    const table = /<!-- support-table:start -->\n([\s\S]*?)\n<!-- support-table:end -->/.exec(readme);
    assert.ok(table, 'README.md lacks the support-table markers');
    assert.equal(table[1], supportTable());
  });
});

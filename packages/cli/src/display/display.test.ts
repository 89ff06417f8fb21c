import { mock, test } from 'node:test';
import assert from 'node:assert/strict';
import type { EngineEvent, StepEventMetadata } from '../engine';
import { jsonEvent } from './json-event';
import { Display } from './display';
import type { ColorMode } from './modes';
import { SECRET_SIG, SECRET_VALUE, UNKNOWN } from './format';

/** The escape character that starts ANSI colour sequences. */
const ESC = '\u001b';

function stream(isTTY: boolean) {
  const chunks: string[] = [];
  const out = { isTTY, columns: 120, write: (s: string) => chunks.push(s) > 0 } as unknown as NodeJS.WriteStream;
  return { out, text: () => chunks.join('') };
}

const TYPE = 'oci:AiLanguage/endpoint:Endpoint';
const meta = (
  op: StepEventMetadata['op'],
  name: string,
  extra: Partial<StepEventMetadata> = {},
): StepEventMetadata => ({
  op,
  urn: `urn:pulumi:dev::proj::${TYPE}::${name}`,
  type: TYPE,
  provider: '',
  // As the engine marks them (Pulumi's Step.Logical): all but a replacement's create and delete.
  ...(op === 'create-replacement' || op === 'delete-replaced' ? {} : { logical: true }),
  ...extra,
});
let sequence = 0;
const event = (payload: Partial<EngineEvent>): EngineEvent => ({ sequence: sequence++, timestamp: 0, ...payload });
/** The stack's outputs event, without which a display prints no outputs (Pulumi's printOutputs needs the stack's URN). */
const stackOutputs = (): EngineEvent =>
  event({
    resOutputsEvent: {
      metadata: meta('same', 'proj-dev', {
        type: 'pulumi:pulumi:Stack',
        urn: 'urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev',
      }),
    },
  });
const result = {
  ok: true,
  changes: {},
  outputs: { id: 'ocid1.x', token: { [SECRET_SIG]: SECRET_VALUE, value: 'p' } },
  durationMs: 3200,
};

test('a preview lists each step with its symbol, type and name, and the changed properties', () => {
  const { out, text } = stream(false);
  const display = new Display({ mode: 'update', preview: true, stack: 'dev', json: false, out, env: {} });
  display.begin();
  display.onEvent(event({ resourcePreEvent: { metadata: meta('create', 'a'), planning: true } }));
  display.onEvent(
    event({
      resourcePreEvent: {
        metadata: meta('update', 'b', {
          old: { inputs: { inferenceUnits: 1 } } as never,
          new: { inputs: { inferenceUnits: 2 } } as never,
          detailedDiff: { inferenceUnits: { diffKind: 'update', inputDiff: true } },
        }),
        planning: true,
      },
    }),
  );
  display.onEvent(
    event({
      resourcePreEvent: {
        metadata: meta('replace', 'c', {
          old: { inputs: { modelId: 'm1' } } as never,
          new: { inputs: { modelId: UNKNOWN } } as never,
          detailedDiff: { modelId: { diffKind: 'update-replace', inputDiff: true } },
        }),
        planning: true,
      },
    }),
  );
  display.onEvent(event({ resourcePreEvent: { metadata: meta('delete', 'd'), planning: true } }));
  display.onEvent(event({ resourcePreEvent: { metadata: meta('same', 'e'), planning: true } }));
  display.onEvent(
    event({
      summaryEvent: {
        maybeCorrupt: false,
        durationSeconds: 3,
        resourceChanges: { create: 1, update: 1, replace: 1, delete: 1, same: 1 },
        PolicyPacks: {},
      },
    }),
  );
  display.onEvent(stackOutputs());
  display.end(result);
  const lines = text();
  assert.match(lines, /^Previewing update \(dev\):/);
  assert.match(lines, / \+ {3}oci:AiLanguage\/endpoint:Endpoint a create\n/);
  assert.match(lines, / ~ {3}oci:AiLanguage\/endpoint:Endpoint b update\n {8}~ inferenceUnits: 1 => 2\n/);
  assert.match(
    lines,
    / \+- {2}oci:AiLanguage\/endpoint:Endpoint c replace\n {8}~ modelId: "m1" => \[unknown\] # forces replacement\n/,
  );
  assert.match(lines, / - {3}oci:AiLanguage\/endpoint:Endpoint d delete\n/);
  assert.doesNotMatch(lines, / e /);
  // As Pulumi's progress display ends (processEndSteps): the outputs, then the summary
  // (renderSummaryEvent: the kinds in deploy.StepOps order, the total when there are several kinds,
  // and no duration for a preview), then a blank line.
  assert.match(
    lines,
    / d delete\nOutputs:\n {4}id {3}: "ocid1.x"\n {4}token: \[secret\]\n\nResources:\n {4}\+ 1 to create\n {4}~ 1 to update\n {4}- 1 to delete\n {4}\+- 1 to replace\n {4}4 changes\. 1 unchanged\n\n$/,
  );
  assert.doesNotMatch(lines, /Duration/);
  assert.doesNotMatch(lines, new RegExp(`${ESC}\\[`), 'no colour off a terminal');
});

test('the outputs are listed as Pulumi lists them: in key order, names aligned, nothing shown for an empty value', () => {
  const { out, text } = stream(false);
  const display = new Display({ mode: 'update', preview: false, stack: 'dev', json: false, out, env: {} });
  display.begin();
  const outputs = { zone: 'z', empty: '', none: [], nothing: {}, count: 0, off: false, token: result.outputs.token };
  display.onEvent(stackOutputs());
  display.end({ ...result, outputs });
  assert.match(
    text(),
    /\nOutputs:\n {4}count {2}: 0\n {4}off {4}: false\n {4}token {2}: \[secret\]\n {4}zone {3}: "z"\n\nResources:/,
  );
});

/** The Outputs section a display prints at the end of a run, from the stack's outputs before and after. */
function outputsSection(
  preview: boolean,
  oldOutputs: Record<string, unknown> | undefined,
  outputs: Record<string, unknown>,
  options: { showSames?: boolean; showSecrets?: boolean } = {},
): string {
  const { out, text } = stream(false);
  const display = new Display({ mode: 'update', preview, stack: 'dev', json: false, out, env: {}, ...options });
  display.onEvent(stackOutputs());
  display.end({ ...result, outputs, ...(oldOutputs ? { oldOutputs } : {}) });
  return /(Outputs:\n[\s\S]*?\n\n)?Resources:/.exec(text())?.[1] ?? '';
}

const before = { name: 'a', kept: 'k', gone: true, later: 'x', tags: { env: 'dev', team: 'x' }, list: ['a'] };
const after = { name: 'b', kept: 'k', added: 1, later: UNKNOWN, tags: { env: 'prod', team: 'x' }, list: ['a', 'b'] };
/** How `list`, `name` and `tags` change from `before` to `after`, in Pulumi's diff notation. */
const CHANGED = [
  '  ~ list : [',
  '        [0]: "a"',
  '      + [1]: "b"',
  '    ]',
  '  ~ name : "a" => "b"',
  '  ~ tags : {',
  '      ~ env : "dev" => "prod"',
  '        team: "x"',
  '    }\n\n',
].join('\n');

test("a preview of a stack with a previous state shows only the outputs that change, as Pulumi's planning display", () => {
  // getResourceOutputsPropertiesString (planning): the diff against the old outputs, without the
  // sames, and without an output that becomes unknown (massageStackPreviewOutputDiff).
  assert.equal(outputsSection(true, before, after), 'Outputs:\n' + '  + added: 1\n' + '  - gone : true\n' + CHANGED);
  // --show-sames lists the unchanged ones too.
  assert.match(outputsSection(true, before, after, { showSames: true }), /\n {4}kept : "k"\n/);
  // Nothing changes: no Outputs section at all (unless --show-sames).
  assert.equal(outputsSection(true, before, before), '');
  assert.match(outputsSection(true, before, before, { showSames: true }), /^Outputs:\n {4}gone : true\n/);
  // A new output whose value is not known yet is an add.
  assert.match(outputsSection(true, before, { ...before, id: UNKNOWN }), /^Outputs:\n {2}\+ id {3}: \[unknown\]\n\n$/);
});

test('a preview of a new stack lists every output, those not known yet as [unknown]', () => {
  assert.equal(
    outputsSection(true, undefined, { name: 'n', id: UNKNOWN }),
    'Outputs:\n    id  : [unknown]\n    name: "n"\n\n',
  );
});

test('after an update every output is listed, those changed since the previous state marked as Pulumi marks them', () => {
  assert.equal(
    outputsSection(false, before, { ...after, later: 'y' }),
    'Outputs:\n' + '  + added: 1\n' + '  - gone : true\n' + '    kept : "k"\n' + '  ~ later: "x" => "y"\n' + CHANGED,
  );
  // Unchanged: the plain list. A value of another kind is removed and added; one emptied, removed.
  assert.match(outputsSection(false, before, before), /^Outputs:\n {4}gone : true\n {4}kept : "k"\n/);
  assert.equal(
    outputsSection(false, { s: 'x' }, { s: { a: 1 } }),
    'Outputs:\n  - s: "x"\n  + s: {\n      + a: 1\n    }\n\n',
  );
  assert.equal(outputsSection(false, { s: 'x' }, { s: '' }), 'Outputs:\n  - s: "x"\n\n');
  // A string of several lines changes line by line.
  assert.equal(
    outputsSection(false, { t: 'a\nb\nc' }, { t: 'a\nB\nc' }),
    'Outputs:\n  ~ t: \n        a\n      - b\n      + B\n        c\n\n',
  );
});

test('a destroy that deletes the stack lists its old outputs as removed; one that keeps it, none', () => {
  // printOutputs prints the stack row's last step: its delete (Old the outputs, no New), so every
  // output is a delete, in the preview and in the destroy. No stack step (targets): no outputs.
  const stack = meta('delete', 'proj-dev', {
    type: 'pulumi:pulumi:Stack',
    urn: 'urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev',
  });
  for (const preview of [true, false]) {
    for (const deleted of [true, false]) {
      const { out, text } = stream(false);
      const display = new Display({ mode: 'destroy', preview, stack: 'dev', json: false, out, env: {} });
      if (deleted) display.onEvent(event({ resourcePreEvent: { metadata: stack, planning: preview || undefined } }));
      display.end({ ...result, outputs: deleted ? {} : { a: 'x' }, oldOutputs: { a: 'x', n: { k: 1 } } });
      const section = /(Outputs:\n[\s\S]*?\n\n)?Resources:/.exec(text())?.[1] ?? '';
      assert.equal(section, deleted ? 'Outputs:\n  - a: "x"\n  - n: {\n      - k: 1\n    }\n\n' : '');
    }
  }
});

test("nested values print in Pulumi's property notation, not as JSON", () => {
  const secret = { [SECRET_SIG]: SECRET_VALUE, value: 's' };
  const outputs = { obj: { b: [1, { c: 'x' }], a: secret }, json: '{"k":[1,2]}', frac: 0.00001, multi: 'l1\nl2' };
  assert.equal(
    outputsSection(false, undefined, outputs),
    'Outputs:\n' +
      '    frac : 1e-05\n' +
      '    json : (json) {\n' +
      '        k: [\n' +
      '            [0]: 1\n' +
      '            [1]: 2\n' +
      '        ]\n' +
      '    }\n' +
      '\n' +
      '    multi: "l1\\nl2"\n' +
      '    obj  : {\n' +
      '        a: [secret]\n' +
      '        b: [\n' +
      '            [0]: 1\n' +
      '            [1]: {\n' +
      '                c: "x"\n' +
      '            }\n' +
      '        ]\n' +
      '    }\n\n',
  );
  assert.match(outputsSection(false, undefined, outputs, { showSecrets: true }), /\n {8}a: "s"\n/);
});

test("strings and numbers print as Go's %q and %.f print them: what is not printable escaped, a negative zero signed", () => {
  // strconv.Quote escapes what unicode.IsPrint refuses: spacing other than ' ' (no-break space),
  // format characters (zero-width space, soft hyphen), controls; it keeps letters, marks, symbols.
  const outputs = { s: 'a\u00a0b\u200bc\u00add\u0085e\u{e0001}f "q" \\ é 日本 🎉\t', z: -0 };
  assert.equal(
    outputsSection(false, undefined, outputs),
    'Outputs:\n' +
      '    s: "a\\u00a0b\\u200bc\\u00add\\u0085e\\U000e0001f \\"q\\" \\\\ é 日本 🎉\\t"\n' +
      '    z: -0\n\n',
  );
});

test('a YAML string is shown as its structure only when translateYAMLValue would take it: keys strings or numbers', () => {
  const outputs = { list: '? [1]\n: x', flag: 'true: 1\nb: 2', nums: '1: a\n2.5: b' };
  assert.equal(
    outputsSection(false, undefined, outputs),
    'Outputs:\n' +
      '    flag: "true: 1\\nb: 2"\n' +
      '    list: "? [1]\\n: x"\n' +
      // A decoded value's line ends twice (printPropertyValue inside printPropertyValue), as in Pulumi.
      '    nums: (yaml) {\n        1  : "a"\n        2.5: "b"\n    }\n\n\n',
  );
});

test("a JSON string is decoded as Go's json.Decoder reads it: its first value, then More(); a number beyond a float64 is not", () => {
  const outputs = { closed: '[1] ]', extra: '[1] x', huge: '[1e999]', obj: '{"a":"]"}}' };
  assert.equal(
    outputsSection(false, undefined, outputs),
    'Outputs:\n' +
      '    closed: (json) [\n        [0]: 1\n    ]\n\n' +
      '    extra : "[1] x"\n' +
      '    huge  : "[1e999]"\n' +
      '    obj   : (json) {\n        a: "]"\n    }\n\n\n',
  );
});

test('changed outputs are coloured as Pulumi colours them: added green, removed red, changed yellow, same plain', () => {
  const { out, text } = stream(false);
  const display = new Display({
    mode: 'update',
    preview: false,
    stack: 'dev',
    json: false,
    out,
    env: {},
    color: 'always',
  });
  display.onEvent(stackOutputs());
  display.end({ ...result, oldOutputs: { a: 1, b: 1, d: 4 }, outputs: { b: 2, c: 3, d: 4 } });
  const paint = (code: number, t: string) => `${ESC}[${code}m${t}${ESC}[0m`;
  // A same output is in the terminal's own colour, not dimmed (deploy.Color(OpSame): colors.SpecUnimportant).
  assert.ok(text().includes(`\n    d: 4\n`));
  assert.ok(text().includes(`${paint(31, '  - a: ')}${paint(31, '1')}\n`));
  assert.ok(text().includes(`${paint(33, '  ~ b: ')}${paint(31, '1')}${paint(33, ' => ')}${paint(32, '2')}\n`));
  assert.ok(text().includes(`${paint(32, '  + c: ')}${paint(32, '3')}\n`));
});

test("an update's summary ends with its duration, rounded up as Pulumi's; one kind of change has no total", () => {
  for (const [durationMs, shown] of [
    [3200, '4s'],
    [65_000, '1m5s'],
    [3_603_000, '1h0m3s'],
  ] as const) {
    const { out, text } = stream(false);
    const display = new Display({ mode: 'update', preview: false, stack: 'dev', json: false, out, env: {} });
    display.begin();
    display.end({ ...result, outputs: {}, changes: { create: 2, same: 1 }, durationMs });
    assert.match(
      text(),
      new RegExp(`\\):\\nResources:\\n {4}\\+ 2 created\\n {4}1 unchanged\\n\\nDuration: ${shown}\\n\\n$`),
    );
  }
});

// Pulumi shows a detailed diff's old value from the old inputs, or from the old outputs where the
// provider compared those (`inputDiff: false`); a refresh's drift is old outputs against new.
test('a changed property shows the old value the provider compared (input, or output: a trigger, drift); a map its keys', () => {
  const { out, text } = stream(false);
  const display = new Display({ mode: 'update', preview: true, stack: 'dev', json: false, out, env: {} });
  display.begin();
  display.onEvent(
    event({
      resourcePreEvent: {
        metadata: meta('update', 'plan', {
          // After a refused Refresh: the new counter is recorded as input, the applied one as output.
          old: {
            inputs: { refreshTrigger: 2, displayName: 'a' },
            outputs: { refreshTrigger: 1, displayName: 'a' },
          } as never,
          new: { inputs: { refreshTrigger: 2, displayName: 'b' } } as never,
          detailedDiff: {
            refreshTrigger: { diffKind: 'update', inputDiff: false },
            displayName: { diffKind: 'update', inputDiff: true },
          },
        }),
        planning: true,
      },
    }),
  );
  // The engine knows a refresh's drift once it has read the resource: on its outputs event.
  const drift = meta('refresh', 'ep', {
    old: { inputs: { inferenceUnits: 1 }, outputs: { inferenceUnits: 1 } } as never,
    new: { inputs: { inferenceUnits: 1 }, outputs: { inferenceUnits: 3 } } as never,
    detailedDiff: { inferenceUnits: { diffKind: 'update', inputDiff: false } },
    refreshResult: 'update',
  });
  display.onEvent(event({ resourcePreEvent: { metadata: meta('refresh', 'ep'), planning: true } }));
  display.onEvent(event({ resOutputsEvent: { metadata: drift, planning: true } }));
  display.onEvent(
    event({
      resourcePreEvent: {
        metadata: meta('update', 'tags', {
          old: { inputs: { freeformTags: { team: 'a', gone: 'x' } } } as never,
          new: { inputs: { freeformTags: { team: 'b', 'cost.center': 'y' } } } as never,
          detailedDiff: { freeformTags: { diffKind: 'update', inputDiff: true } },
        }),
        planning: true,
      },
    }),
  );
  // The plugin reports a map's keys as paths (pulumi-oci's bridge does): the same lines.
  display.onEvent(
    event({
      resourcePreEvent: {
        metadata: meta('update', 'paths', {
          old: { inputs: { freeformTags: { team: 'a', gone: 'x' } } } as never,
          new: { inputs: { freeformTags: { team: 'b', 'cost.center': 'y' } } } as never,
          detailedDiff: {
            'freeformTags["cost.center"]': { diffKind: 'add', inputDiff: true },
            'freeformTags.gone': { diffKind: 'delete', inputDiff: true },
            'freeformTags.team': { diffKind: 'update', inputDiff: true },
          },
        }),
        planning: true,
      },
    }),
  );
  // Keys the provider does not name (ignoreDefinedTags, Oracle's own tags) are not drawn as changes.
  display.onEvent(
    event({
      resourcePreEvent: {
        metadata: meta('update', 'ignored', {
          old: { inputs: { definedTags: { 'Operations.CostCenter': '1', 'Oracle-Tags.CreatedBy': 'me' } } } as never,
          new: { inputs: { definedTags: { 'Ops.Env': 'x' } } } as never,
          detailedDiff: { 'definedTags["Ops.Env"]': { diffKind: 'add', inputDiff: true } },
        }),
        planning: true,
      },
    }),
  );
  display.end(result);
  const lines = text();
  // As Pulumi's printObjectDiff prints them: keys as they are, padded to the longest.
  assert.ok(
    lines.includes('Endpoint ignored update\n        ~ definedTags: {\n            + Ops.Env: "x"\n          }\n'),
    lines,
  );
  const tagLines = [
    '        ~ freeformTags: {',
    '            + cost.center: "y"',
    '            - gone       : "x"',
    '            ~ team       : "a" => "b"',
    '          }',
  ].join('\n');
  assert.ok(lines.includes(`Endpoint paths update\n${tagLines}`), lines);
  // A map shows its changed keys, as Pulumi shows an object's.
  assert.ok(lines.includes(`Endpoint tags update\n${tagLines}`), lines);
  assert.match(lines, /~ refreshTrigger: 1 => 2\n/);
  assert.match(lines, /~ displayName {3}: "a" => "b"\n/);
  assert.match(lines, / ~ +oci:AiLanguage\/endpoint:Endpoint ep refresh\n +~ inferenceUnits: 1 => 3\n/);
  assert.equal(lines.match(/Endpoint ep refresh/g)?.length, 1);

  // Applied (refresh --yes): the drift under the row, which ends as what the refresh found
  // (progress.go getStepDoneDescription of RefreshStep.ResultOp): updated.
  const applied = stream(false);
  const run = new Display({ mode: 'refresh', preview: false, stack: 'dev', json: false, out: applied.out, env: {} });
  run.begin();
  run.onEvent(event({ resourcePreEvent: { metadata: meta('refresh', 'ep') } }));
  run.onEvent(event({ resOutputsEvent: { metadata: drift } }));
  run.end(result);
  assert.match(
    applied.text(),
    / ~ +oci:AiLanguage\/endpoint:Endpoint ep updated \([\d.]+s\)\n +~ inferenceUnits: 1 => 3\n/,
  );

  // An external resource's refresh (a `.get`) has no diff, as Pulumi's: its changed outputs show.
  const external = stream(false);
  const read = new Display({ mode: 'refresh', preview: false, stack: 'dev', json: false, out: external.out, env: {} });
  read.begin();
  read.onEvent(event({ resourcePreEvent: { metadata: meta('refresh', 'got') } }));
  const { detailedDiff, ...withoutDiff } = drift;
  void detailedDiff;
  read.onEvent(
    event({ resOutputsEvent: { metadata: { ...withoutDiff, urn: withoutDiff.urn.replace('::ep', '::got') } } }),
  );
  read.end(result);
  assert.match(external.text(), /Endpoint got updated \([\d.]+s\)\n +~ inferenceUnits: 1 => 3\n/);
});

// A refresh row's end, as Pulumi's progress display words it (progress.go getStepDoneDescription,
// getPreviewDoneText): in a refresh operation the outputs event's op is RefreshStep.ResultOp
// (updated; unchanged says nothing), with up --refresh it stays OpRefresh ("refresh").
test('a refresh row ends as what the refresh found in a refresh, as "refresh" with up --refresh', () => {
  const found = (refreshResult: 'same' | 'update') =>
    meta('refresh', 'ep', {
      old: { inputs: { inferenceUnits: 1 }, outputs: { inferenceUnits: 1 } } as never,
      new: { inputs: { inferenceUnits: 1 }, outputs: { inferenceUnits: refreshResult === 'update' ? 3 : 1 } } as never,
      detailedDiff: refreshResult === 'update' ? { inferenceUnits: { diffKind: 'update', inputDiff: false } } : {},
      refreshResult,
    });
  const rows = (mode: 'refresh' | 'update', preview: boolean, refreshResult: 'same' | 'update') => {
    const { out, text } = stream(false);
    const display = new Display({ mode, preview, stack: 'dev', json: false, out, env: {} });
    display.begin();
    display.onEvent(event({ resourcePreEvent: { metadata: meta('refresh', 'ep'), planning: preview } }));
    display.onEvent(event({ resOutputsEvent: { metadata: found(refreshResult), planning: preview } }));
    display.end(result);
    return text();
  };
  assert.match(
    rows('refresh', false, 'update'),
    /\n ~ +oci:AiLanguage\/endpoint:Endpoint ep updated \([\d.]+s\)\n +~ inferenceUnits: 1 => 3\n/,
  );
  assert.match(rows('refresh', false, 'same'), /refreshing\n {5}oci:AiLanguage\/endpoint:Endpoint ep\n/);
  assert.match(
    rows('refresh', true, 'update'),
    /^ ~ +oci:AiLanguage\/endpoint:Endpoint ep update\n +~ inferenceUnits: 1 => 3\n/m,
  );
  assert.match(rows('refresh', true, 'same'), /^ {5}oci:AiLanguage\/endpoint:Endpoint ep\n/m);
  assert.match(
    rows('update', false, 'update'),
    /\n ~ +oci:AiLanguage\/endpoint:Endpoint ep refresh \([\d.]+s\)\n +~ inferenceUnits: 1 => 3\n/,
  );
  assert.match(rows('update', true, 'update'), /^ ~ +oci:AiLanguage\/endpoint:Endpoint ep refresh\n/m);
  assert.doesNotMatch(rows('update', false, 'same'), /refreshed/);
});

// printObjectDiff / printPropertyValueDiff (pkg/backend/display/object_diff.go) for a step's
// changed inputs: an object's keys (the unchanged ones too, when the provider names the whole
// property), an array's elements by index, values in Pulumi's notation, not JSON.
test("a step's nested inputs print in Pulumi's property notation: objects, arrays, secrets", () => {
  const { out, text } = stream(false);
  const display = new Display({ mode: 'update', preview: true, stack: 'dev', json: false, out, env: {} });
  display.onEvent(
    event({
      resourcePreEvent: {
        metadata: meta('update', 'plan', {
          old: {
            inputs: {
              freeformTags: { team: 'dr', env: 'dev' },
              definedTags: { 'Ops.Env': 'dev' },
              members: [{ id: 'a', role: 'PRIMARY' }, { id: 'b' }],
              key: '[secret]',
            },
          } as never,
          new: {
            inputs: {
              freeformTags: { team: 'dr', env: 'prod' },
              definedTags: { 'Ops.Env': 'dev', 'Ops.Team': 'x' },
              members: [{ id: 'a', role: 'STANDBY' }],
              key: '[secret]',
            },
          } as never,
          detailedDiff: {
            freeformTags: { diffKind: 'update', inputDiff: true },
            'definedTags["Ops.Team"]': { diffKind: 'add', inputDiff: true },
            members: { diffKind: 'update-replace', inputDiff: true },
            key: { diffKind: 'update', inputDiff: true },
          },
        }),
        planning: true,
      },
    }),
  );
  assert.equal(
    text(),
    [
      ` ~   ${TYPE} plan update`,
      '        ~ definedTags : {',
      '            + Ops.Team: "x"',
      '          }',
      '        ~ freeformTags: {',
      '            ~ env : "dev" => "prod"',
      '              team: "dr"',
      '          }',
      '        ~ key         : [secret] => [secret]',
      '        ~ members     : [',
      '            ~ [0]: {',
      '                      id  : "a"',
      '                    ~ role: "PRIMARY" => "STANDBY"',
      '                  }',
      '            - [1]: {',
      '                    - id: "b"',
      '                  }',
      '          ] # forces replacement',
      '',
    ].join('\n'),
  );
});

test("a finished step's time prints as Pulumi's: to the hundredth under a second, else whole seconds", () => {
  mock.timers.enable({ apis: ['Date'], now: 0 });
  try {
    const { out, text } = stream(false);
    const display = new Display({ mode: 'update', preview: false, stack: 'dev', json: false, out, env: {} });
    display.begin();
    for (const [name, ms] of [
      ['quick', 420],
      ['slow', 75_600],
    ] as const) {
      display.onEvent(event({ resourcePreEvent: { metadata: meta('create', name) } }));
      mock.timers.tick(ms);
      display.onEvent(event({ resOutputsEvent: { metadata: meta('create', name) } }));
    }
    assert.match(text(), /Endpoint quick created \(0\.42s\)\n/);
    assert.match(text(), /Endpoint slow created \(75s\)\n/);
  } finally {
    mock.timers.reset();
  }
});

test('an update shows each step starting and finishing with its time, plugin messages, failures and errors', () => {
  const { out, text } = stream(false);
  const display = new Display({ mode: 'update', preview: false, stack: 'dev', json: false, out, env: {} });
  display.begin();
  display.onEvent(event({ resourcePreEvent: { metadata: meta('create', 'a') } }));
  display.onEvent(
    event({
      diagnosticEvent: {
        urn: meta('create', 'a').urn,
        message: 'work request 50%\n',
        color: 'never',
        severity: 'info',
      },
    }),
  );
  display.onEvent(event({ resOutputsEvent: { metadata: meta('create', 'a') } }));
  display.onEvent(event({ resourcePreEvent: { metadata: meta('create', 'b') } }));
  display.onEvent(event({ resOpFailedEvent: { metadata: meta('create', 'b'), status: 1, steps: 1 } }));
  display.onEvent(
    event({
      diagnosticEvent: {
        urn: meta('create', 'b').urn,
        message: '429 TooManyRequests',
        color: 'never',
        severity: 'error',
      },
    }),
  );
  display.end({ ok: false, changes: { create: 1 }, outputs: {}, durationMs: 1000 });
  const lines = text();
  assert.match(lines, /^Updating \(dev\):/);
  assert.match(lines, / \+ {3}oci:AiLanguage\/endpoint:Endpoint a creating\n/);
  assert.match(lines, /oci:AiLanguage\/endpoint:Endpoint a: work request 50%\n/);
  assert.match(lines, / \+ {3}oci:AiLanguage\/endpoint:Endpoint a created \([\d.]+s\)\n/);
  assert.match(lines, /b \*\*creating failed\*\*\n/, 'no time after a failure, as Pulumi');
  assert.match(lines, /b: error: 429 TooManyRequests/);
  assert.match(lines, /\+ 1 created/);
});

test("a run's diagnostics are listed again at its end, grouped by resource, before the outputs, as Pulumi's", () => {
  const { out, text } = stream(false);
  const display = new Display({
    mode: 'update',
    preview: false,
    stack: 'dev',
    project: 'proj',
    json: false,
    out,
    env: {},
  });
  const diag = (severity: 'error' | 'warning' | 'info' | 'debug', message: string, urn?: string, ephemeral = false) =>
    event({ diagnosticEvent: { urn, message, color: 'never', severity, ...(ephemeral ? { ephemeral } : {}) } });
  const stack = 'urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev';
  display.begin();
  display.onEvent(
    event({ resourcePreEvent: { metadata: meta('create', 'proj-dev', { type: 'pulumi:pulumi:Stack', urn: stack }) } }),
  );
  display.onEvent(diag('info', 'hello from the program\n', stack));
  display.onEvent(event({ resourcePreEvent: { metadata: meta('create', 'b') } }));
  display.onEvent(diag('info', 'state CREATING\n', meta('create', 'b').urn, true));
  display.onEvent(diag('debug', 'not without --debug\n', meta('create', 'b').urn));
  display.onEvent(diag('warning', 'careful\n', meta('create', 'b').urn));
  display.onEvent(event({ resOpFailedEvent: { metadata: meta('create', 'b'), status: 1, steps: 1 } }));
  display.onEvent(
    diag('error', 'Endpoint "b": CreateEndpoint failed: OCI 429\nsecond line\n\n', meta('create', 'b').urn),
  );
  display.onEvent(diag('error', 'update failed\n'));
  display.onEvent(stackOutputs());
  display.end({ ...result, ok: false, changes: {}, durationMs: 1000 });
  const [, end] = text().split(/^Diagnostics:\n/m);
  assert.ok(end, text());
  assert.equal(
    end.split('Outputs:\n')[0],
    [
      '  pulumi:pulumi:Stack (proj-dev):',
      '    hello from the program',
      '    error: update failed',
      '',
      '  oci:AiLanguage:Endpoint (b):',
      '    warning: careful',
      '    error: Endpoint "b": CreateEndpoint failed: OCI 429',
      '    second line',
      '',
      '',
    ].join('\n'),
  );
  assert.match(end, /Outputs:\n[^]*Resources:\n[^]*Duration: 1s\n/);
  // Said as it happens too, and only once in the section.
  assert.match(text().split('Diagnostics:')[0], /b: error: Endpoint "b": CreateEndpoint failed/);
});

test('a run without diagnostics has no Diagnostics section; one before the stack is known names it by project and stack', () => {
  const run = (events: EngineEvent[]) => {
    const { out, text } = stream(false);
    const display = new Display({
      mode: 'update',
      preview: true,
      stack: 'dev',
      project: 'proj',
      json: false,
      out,
      env: {},
    });
    display.begin();
    for (const e of events) display.onEvent(e);
    display.end({ ...result, changes: {} });
    return text();
  };
  assert.doesNotMatch(
    run([event({ resourcePreEvent: { metadata: meta('create', 'a'), planning: true } })]),
    /Diagnostics/,
  );
  const early = run([
    event({ diagnosticEvent: { message: 'no stack named here\n', color: 'never', severity: 'error' } }),
  ]);
  assert.match(early, /^Diagnostics:\n {2}pulumi:pulumi:Stack \(proj-dev\):\n {4}error: no stack named here\n\n/m);
});

test("a failed step's row reads as Pulumi's: **<verb> failed**, a replacement's create and delete as a create and a delete", () => {
  const { out, text } = stream(false);
  const display = new Display({ mode: 'update', preview: false, stack: 'dev', json: false, out, env: {} });
  display.begin();
  for (const [op, name] of [
    ['create-replacement', 'a'],
    ['delete-replaced', 'b'],
    ['update', 'c'],
    ['refresh', 'd'],
  ] as const) {
    display.onEvent(event({ resourcePreEvent: { metadata: meta(op, name) } }));
    display.onEvent(event({ resOpFailedEvent: { metadata: meta(op, name), status: 0, steps: 0 } }));
  }
  display.end({ ok: false, changes: {}, outputs: {}, durationMs: 1000 });
  const rows = text()
    .split('\n')
    .filter((l) => l.includes('failed'))
    .map((l) => l.split(`${TYPE} `)[1]);
  assert.deepEqual(rows, [
    'a **creating failed**',
    'b **deleting failed**',
    'c **updating failed**',
    'd **refreshing failed**',
  ]);
});

test("the plugin's progress (ephemeral) shows next to its step on a terminal, as its own line in a log", () => {
  const run = (isTTY: boolean) => {
    const { out, text } = stream(isTTY);
    const display = new Display({ mode: 'update', preview: false, stack: 'dev', json: false, out, env: {} });
    display.begin();
    display.onEvent(event({ resourcePreEvent: { metadata: meta('create', 'a') } }));
    display.onEvent(event({ resourcePreEvent: { metadata: meta('create', 'b') } }));
    const progress = { urn: meta('create', 'a').urn, color: 'never', severity: 'info' as const, ephemeral: true };
    display.onEvent(event({ diagnosticEvent: { ...progress, message: 'state CREATING\n' } }));
    display.onEvent(event({ diagnosticEvent: { ...progress, message: 'work request in_progress 40%\n' } }));
    const during = text();
    display.onEvent(event({ resOutputsEvent: { metadata: meta('create', 'a') } }));
    display.onEvent(event({ resOutputsEvent: { metadata: meta('create', 'b') } }));
    display.end({ ok: true, changes: { create: 2 }, outputs: {}, durationMs: 0 });
    return { during, all: text() };
  };
  // A terminal: the status line is redrawn with the latest message; no line of its own.
  const terminal = run(true);
  const status = terminal.during.split('\r').pop()!;
  assert.match(status, /creating a \(0s: work request in_progress 40%\), creating b \(0s\)/);
  assert.doesNotMatch(terminal.all, /: work request in_progress 40%\n/);
  // A log: each message once, under the resource, in order.
  const log = run(false).all;
  assert.match(
    log,
    new RegExp(`b creating\\n {4}${TYPE} a: state CREATING\\n {4}${TYPE} a: work request in_progress 40%\\n`),
  );
  assert.doesNotMatch(log, /\r/);
});

test('colour on a terminal only, and never with NO_COLOR', () => {
  const run = (isTTY: boolean, env: NodeJS.ProcessEnv) => {
    const { out, text } = stream(isTTY);
    const display = new Display({ mode: 'update', preview: true, stack: 'dev', json: false, out, env });
    display.begin();
    display.onEvent(event({ resourcePreEvent: { metadata: meta('create', 'a'), planning: true } }));
    display.end({ ok: true, changes: { create: 1 }, outputs: {}, durationMs: 0 });
    return text();
  };
  assert.match(run(true, {}), new RegExp(`${ESC}\\[32m`));
  assert.doesNotMatch(run(true, { NO_COLOR: '1' }), new RegExp(`${ESC}\\[3\\dm`));
  assert.doesNotMatch(run(false, {}), new RegExp(`${ESC}\\[`));
});

test("--json prints every engine event as one JSON object a line and nothing else, in apitype's shape", () => {
  const { out, text } = stream(true);
  const display = new Display({ mode: 'update', preview: false, stack: 'dev', json: true, out, env: {} });
  display.begin();
  const events = [
    event({ resourcePreEvent: { metadata: meta('create', 'a') } }),
    event({ resOutputsEvent: { metadata: meta('create', 'a') } }),
  ];
  events.forEach(display.onEvent);
  display.end(result);
  assert.deepEqual(
    text()
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l)),
    events.map((e, i) => ({ ...jsonEvent(e), sequence: i })),
  );
});

test("--json numbers the events as Pulumi stamps them: a default provider's steps are not printed but take their numbers", () => {
  const { out, text } = stream(true);
  const display = new Display({ mode: 'update', preview: false, stack: 'dev', json: true, out, env: {} });
  display.begin();
  const provider = {
    ...meta('create', 'default_2_31_0'),
    urn: 'urn:pulumi:dev::proj::pulumi:providers:oci::default_2_31_0',
    type: 'pulumi:providers:oci',
  };
  display.onEvent(event({ preludeEvent: { config: {} } }));
  display.onEvent(event({ resourcePreEvent: { metadata: provider } }));
  display.onEvent(event({ resOutputsEvent: { metadata: provider } }));
  display.onEvent(event({ resourcePreEvent: { metadata: meta('create', 'a') } }));
  display.end(result);
  const printed = text()
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l) as EngineEvent);
  assert.deepEqual(
    printed.map((e) => [e.sequence, e.resourcePreEvent?.metadata.urn.split('::').pop() ?? 'prelude']),
    [
      [0, 'prelude'],
      [3, 'a'],
    ],
  );
});

test("--json: a refresh's result op only when the operation is a refresh, not with up --refresh or preview --refresh", () => {
  const drifted = meta('refresh', 'a', {
    old: { outputs: { a: 1 } } as never,
    new: { outputs: { a: 2 } } as never,
    diffs: ['a'],
    refreshResult: 'update',
  });
  for (const [mode, preview, op] of [
    ['refresh', false, 'update'],
    ['refresh', true, 'update'],
    ['update', false, 'refresh'],
    ['update', true, 'refresh'],
    ['destroy', false, 'refresh'],
  ] as const) {
    const { out, text } = stream(true);
    const display = new Display({ mode, preview, stack: 'dev', json: true, out, env: {} });
    display.begin();
    display.onEvent(event({ resourcePreEvent: { metadata: drifted } }));
    display.onEvent(event({ resOutputsEvent: { metadata: drifted } }));
    display.end(result);
    const ops = text()
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as EngineEvent)
      .map((e) => (e.resourcePreEvent ?? e.resOutputsEvent)?.metadata.op);
    assert.deepEqual(ops, ['refresh', op], `${mode}, preview ${preview}`);
  }
});

test('--json: a preview reports a failed step as its error alone; an update also as a resOpFailedEvent', () => {
  for (const preview of [true, false]) {
    const { out, text } = stream(true);
    const display = new Display({ mode: 'update', preview, stack: 'dev', json: true, out, env: {} });
    display.begin();
    display.onEvent(event({ resourcePreEvent: { metadata: meta('create', 'b') } }));
    display.onEvent(event({ resOpFailedEvent: { metadata: meta('create', 'b'), status: 2, steps: 0 } }));
    display.end(result);
    const printed = text()
      .trimEnd()
      .split('\n')
      .map((l) => Object.keys(JSON.parse(l)).find((k) => k.endsWith('Event')));
    assert.deepEqual(printed, preview ? ['resourcePreEvent'] : ['resourcePreEvent', 'resOpFailedEvent']);
  }
});

test("--json diagnostics carry no colour codes, and an error neither its stack frames nor inspect's <ref *1>", () => {
  const { out, text } = stream(false);
  const display = new Display({
    mode: 'update',
    preview: true,
    stack: 'dev',
    json: true,
    color: 'never',
    out,
    env: {},
  });
  const urn = 'urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev';
  display.onEvent(
    event({
      diagnosticEvent: {
        urn,
        severity: 'error',
        color: 'never',
        message: `Running program failed with an unhandled exception:\n${ESC}[36m<ref *1>${ESC}[39m Error: bad id\n    at main (/p/index.ts:3:9)\n`,
      },
    }),
  );
  display.onEvent(
    event({ diagnosticEvent: { urn, severity: 'info', color: 'never', message: `${ESC}[1mhello${ESC}[0m\n` } }),
  );
  assert.ok(!text().includes('\\u001b'), text());
  const messages = text()
    .trim()
    .split('\n')
    .map((line) => (JSON.parse(line) as EngineEvent).diagnosticEvent!.message);
  assert.deepEqual(messages, ['Running program failed with an unhandled exception:\nError: bad id\n', 'hello\n']);
  assert.equal(display.exceptionDetail(), 'bad id');
});

// logJSONEvent (pkg/backend/display/display.go) takes the colour directives of the engine's
// diagnostics (eventSink.Stringify; diagEvent: color raw) out only when the colorization is never.
test("--json diagnostics keep Pulumi's colour directives, color raw, unless the colorization is never", () => {
  const run = (color: ColorMode | undefined, isTTY = false, env: NodeJS.ProcessEnv = {}) => {
    const { out, text } = stream(isTTY);
    const display = new Display({ mode: 'update', preview: false, stack: 'dev', json: true, color, out, env });
    display.onEvent(
      event({ diagnosticEvent: { severity: 'warning', prefix: 'warning: ', color: 'never', message: 'careful\n' } }),
    );
    display.onEvent(
      event({ diagnosticEvent: { severity: 'info', color: 'never', message: `${ESC}[1mhello${ESC}[0m\n` } }),
    );
    return text()
      .trim()
      .split('\n')
      .map((line) => {
        const { prefix, message, color } = (JSON.parse(line) as EngineEvent).diagnosticEvent!;
        return { prefix, message, color };
      });
  };
  const raw = [
    { prefix: '<{%fg 3%}>warning: <{%reset%}>', message: '<{%reset%}>careful<{%reset%}>\n', color: 'raw' },
    { prefix: undefined, message: '<{%reset%}>hello<{%reset%}>\n', color: 'raw' },
  ];
  const never = [
    { prefix: 'warning: ', message: 'careful\n', color: 'never' },
    { prefix: undefined, message: 'hello\n', color: 'never' },
  ];
  assert.deepEqual(run('always'), raw);
  assert.deepEqual(run('raw'), raw);
  assert.deepEqual(run('auto', true), raw, 'auto on a terminal is always');
  assert.deepEqual(run('never', true), never);
  assert.deepEqual(run(undefined), never, 'auto without a terminal is never');
  assert.deepEqual(run('auto', true, { NO_COLOR: '1' }), never);
});

// Pulumi's shouldShow (display.go): its progress view, the default, shows a replacement's create
// and delete (`++`, `--`, not logical) as rows of their own, worded as progress.go's
// getPreviewText and getStep{InProgress,Done}Description word them; its diff view (--diff) shows
// only the logical `+-` row unless --show-replacement-steps.
test("a replacement's ++ and -- rows show in the plan and in the update; with --diff only with --show-replacement-steps", () => {
  const replaced = {
    old: { inputs: { modelId: 'm1' } } as never,
    new: { inputs: { modelId: 'm2' } } as never,
    detailedDiff: { modelId: { diffKind: 'update-replace' as const, inputDiff: true } },
  };
  const run = (preview: boolean, flags: { diff?: boolean; showReplacementSteps?: boolean } = {}) => {
    const { out, text } = stream(false);
    const display = new Display({ mode: 'update', preview, stack: 'dev', json: false, out, env: {}, ...flags });
    display.begin();
    // In the engine's order (Pulumi's create-before-delete chain): the create, the replace, then
    // (at the end) the old one's delete, each step's events before the next.
    for (const op of ['create-replacement', 'replace', 'delete-replaced'] as const) {
      const metadata = meta(op, 'c', op === 'delete-replaced' ? { old: replaced.old } : replaced);
      display.onEvent(event({ resourcePreEvent: { metadata, planning: preview || undefined } }));
      display.onEvent(event({ resOutputsEvent: { metadata, planning: preview || undefined } }));
    }
    display.end({ ok: true, changes: { replace: 1 }, outputs: {}, durationMs: 0 });
    return text();
  };
  const rows = (text: string) =>
    text
      .split('\n')
      .filter((l) => l.includes(` ${TYPE} c `) || l.includes('modelId'))
      .map((l) => l.replace(/ \([\d.]+s\)$/, '').trim());
  const detail = '~ modelId: "m1" => "m2" # forces replacement';
  // The plan: the changes once, under the `+-` row.
  assert.deepEqual(rows(run(true)), [
    `++  ${TYPE} c create replacement`,
    `+-  ${TYPE} c replace`,
    detail,
    `--  ${TYPE} c delete original`,
  ]);
  assert.match(run(true), /\+- 1 to replace/);
  // The update: the create's row while the new copy is created, before the `+-` row.
  assert.deepEqual(rows(run(false)), [
    `++  ${TYPE} c creating replacement [diff: ~modelId]`,
    `++  ${TYPE} c created replacement`,
    `+-  ${TYPE} c replacing [diff: ~modelId]`,
    `+-  ${TYPE} c replaced`,
    `--  ${TYPE} c deleting original`,
    `--  ${TYPE} c deleted original`,
  ]);
  // --diff: the logical row alone, as Pulumi's diff view shows it.
  assert.deepEqual(rows(run(true, { diff: true })), [`+-  ${TYPE} c replace`, detail]);
  assert.deepEqual(rows(run(false, { diff: true })), [
    `+-  ${TYPE} c replacing [diff: ~modelId]`,
    `+-  ${TYPE} c replaced`,
  ]);
  // --diff --show-replacement-steps: all three, each with its changes.
  assert.deepEqual(rows(run(true, { diff: true, showReplacementSteps: true })), [
    `++  ${TYPE} c create replacement`,
    detail,
    `+-  ${TYPE} c replace`,
    detail,
    `--  ${TYPE} c delete original`,
  ]);
});

// object_diff.go writeReplaceAnnotation: the note after the property's last line, in the replace colour.
test('a property that forces a replacement ends with " # forces replacement" in the replace colour', () => {
  const { out, text } = stream(false);
  const display = new Display({
    mode: 'update',
    preview: true,
    stack: 'dev',
    json: false,
    out,
    env: {},
    color: 'always',
  });
  display.begin();
  const metadata = meta('replace', 'c', {
    old: { inputs: { modelId: 'm1' } } as never,
    new: { inputs: { modelId: 'm2' } } as never,
    detailedDiff: { modelId: { diffKind: 'update-replace', inputDiff: true } },
  });
  display.onEvent(event({ resourcePreEvent: { metadata, planning: true } }));
  assert.ok(text().includes(`${ESC}[32m"m2"${ESC}[0m${ESC}[35m # forces replacement${ESC}[0m\n`), text());
});

// printStepHeader marks any step whose protect changes, an update or a replacement too.
test('an update or replacement that sets or clears protect has the lock on its row', () => {
  const { out, text } = stream(false);
  const display = new Display({ mode: 'update', preview: true, stack: 'dev', json: false, out, env: {} });
  display.begin();
  const state = (modelId: string, protect?: boolean) => ({ inputs: { modelId }, protect }) as never;
  const step = (op: 'update' | 'replace', name: string, old?: boolean, next?: boolean) =>
    display.onEvent(
      event({
        resourcePreEvent: {
          metadata: meta(op, name, { old: state('m1', old), new: state('m2', next) }),
          planning: true,
        },
      }),
    );
  step('update', 'u', undefined, true);
  step('replace', 'r', true, false);
  step('update', 'plain');
  // A step that does not keep the resource (a protected one's delete, a protected import) changes
  // no protect: no lock (it was 🔓 on such a delete).
  const once = (op: 'delete' | 'import', name: string, metadata: object) =>
    display.onEvent(event({ resourcePreEvent: { metadata: meta(op, name, metadata), planning: true } }));
  once('delete', 'gone', { old: state('m1', true) });
  once('import', 'adopted', { new: state('m1', true) });
  display.end({ ok: true, changes: { update: 2, replace: 1 }, outputs: {}, durationMs: 0 });
  const lines = text();
  assert.match(lines, new RegExp(`^ ~ {3}${TYPE} u update 🔒$`, 'm'));
  assert.match(lines, new RegExp(`^ \\+- {2}${TYPE} r replace 🔓$`, 'm'));
  assert.match(lines, new RegExp(`^ ~ {3}${TYPE} plain update$`, 'm'));
  assert.match(lines, new RegExp(`^ - {3}${TYPE} gone delete$`, 'm'));
  assert.match(lines, new RegExp(`^ = {3}${TYPE} adopted import$`, 'm'));
});

// shouldShow: a same step is shown when its protect changes; the diff view's step header marks it
// (printStepHeader: 🔒, 🔓 when unprotected) and prints no property diff.
test('a step whose only change is protect has its row with the lock; an unchanged one has none', () => {
  const { out, text } = stream(false);
  const display = new Display({ mode: 'update', preview: true, stack: 'dev', json: false, out, env: {} });
  display.begin();
  const state = (protect?: boolean) => ({ inputs: { modelId: 'm1' }, protect }) as never;
  const same = (name: string, old?: boolean, next?: boolean) =>
    display.onEvent(
      event({
        resourcePreEvent: { metadata: meta('same', name, { old: state(old), new: state(next) }), planning: true },
      }),
    );
  same('locked', undefined, true);
  same('unlocked', true, false);
  same('kept', true, true);
  same('plain');
  display.end({ ok: true, changes: { same: 4 }, outputs: {}, durationMs: 0 });
  const lines = text();
  assert.match(lines, new RegExp(`^ {5}${TYPE} locked 🔒$`, 'm'));
  assert.match(lines, new RegExp(`^ {5}${TYPE} unlocked 🔓$`, 'm'));
  assert.doesNotMatch(lines, / kept| plain|modelId/);
  assert.match(lines, /Resources:\n {4}4 unchanged\n/);
});

test("a refresh shows the stack's row, in the preview and in the run, as a refresh that changed nothing", () => {
  // The engine reports the stack's refresh step (resourcePreEvent op refresh) and ends it with its
  // result (op same: RefreshStep.ResultOp); the root stack is shown whatever its step (isRootStack).
  const stack = { type: 'pulumi:pulumi:Stack', urn: 'urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev' };
  const outputs = { a: 'x' };
  const refresh = (preview: boolean, showSames: boolean): string => {
    const { out, text } = stream(false);
    const display = new Display({ mode: 'refresh', preview, stack: 'dev', json: false, out, env: {}, showSames });
    const state = { inputs: {}, outputs } as never;
    display.onEvent(
      event({
        resourcePreEvent: {
          metadata: meta('refresh', 'proj-dev', { ...stack, old: state, new: state }),
          planning: preview,
        },
      }),
    );
    display.onEvent(
      event({
        resOutputsEvent: {
          metadata: meta('same', 'proj-dev', { ...stack, old: state, new: state }),
          planning: preview,
        },
      }),
    );
    display.end({ ok: true, changes: { same: 1 }, outputs, oldOutputs: outputs, durationMs: 10 });
    return text();
  };
  assert.match(
    refresh(true, true),
    /^ {5}pulumi:pulumi:Stack proj-dev\nOutputs:\n {4}a: "x"\n\nResources:\n {4}1 unchanged\n/,
  );
  assert.match(
    refresh(false, true),
    /^ ~ +pulumi:pulumi:Stack proj-dev refreshing\n {5}pulumi:pulumi:Stack proj-dev\nOutputs:\n {4}a: "x"\n/,
  );
  // Without --show-sames: the row still; the outputs only after the run (getResourceOutputsPropertiesString).
  assert.match(refresh(true, false), /^ {5}pulumi:pulumi:Stack proj-dev\nResources:\n {4}1 unchanged\n/);
  assert.match(
    refresh(false, false),
    /^ ~ +pulumi:pulumi:Stack proj-dev refreshing\n {5}pulumi:pulumi:Stack proj-dev\nOutputs:\n {4}a: "x"\n\nResources:\n/,
  );
});

// Pulumi's displays always show the root stack: diff.go renderDiffResourcePreEvent (shouldShow ||
// isRootStack), progress.go processNormalEvent (hidden only when !shouldShow && !isRootEvent).
test("the stack's row shows when it is unchanged, in a preview and an update, without --show-sames", () => {
  for (const preview of [true, false]) {
    const { out, text } = stream(false);
    const display = new Display({ mode: 'update', preview, stack: 'dev', json: false, out, env: {} });
    display.begin();
    const stack = { type: 'pulumi:pulumi:Stack', urn: 'urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev' };
    display.onEvent(event({ resourcePreEvent: { metadata: meta('same', 'proj-dev', stack), planning: preview } }));
    display.onEvent(event({ resourcePreEvent: { metadata: meta('same', 'a'), planning: preview } }));
    display.end({ ...result, changes: { same: 2 } });
    assert.match(text(), /\n {5}pulumi:pulumi:Stack proj-dev\n/, text());
    assert.doesNotMatch(text(), / a\n/, 'another same resource stays hidden');
  }
});

// addRetainStatusFlag, which Pulumi's progress view applies to every step status (getStepStatus):
// a delete or a replacement of a retainOnDelete resource leaves it untracked in the cloud.
test("a retained resource's delete or replacement has [retain] after its status; its update none", () => {
  const retained = { inputs: { modelId: 'm1' }, retainOnDelete: true } as never;
  const preview = stream(false);
  let display = new Display({ mode: 'update', preview: true, stack: 'dev', json: false, out: preview.out, env: {} });
  display.begin();
  const planned = (op: 'delete' | 'replace' | 'update', name: string) =>
    display.onEvent(event({ resourcePreEvent: { metadata: meta(op, name, { old: retained }), planning: true } }));
  planned('delete', 'gone');
  planned('replace', 'swapped');
  planned('update', 'changed');
  display.end({ ok: true, changes: { delete: 1, replace: 1, update: 1 }, outputs: {}, durationMs: 0 });
  assert.match(preview.text(), new RegExp(`^ - {3}${TYPE} gone delete\\[retain\\]$`, 'm'));
  assert.match(preview.text(), new RegExp(`^ \\+- {2}${TYPE} swapped replace\\[retain\\]$`, 'm'));
  assert.match(preview.text(), new RegExp(`^ ~ {3}${TYPE} changed update$`, 'm'));

  const update = stream(false);
  display = new Display({ mode: 'update', preview: false, stack: 'dev', json: false, out: update.out, env: {} });
  display.begin();
  const step = meta('delete', 'gone', { old: retained });
  display.onEvent(event({ resourcePreEvent: { metadata: step, planning: false } }));
  display.onEvent(event({ resOutputsEvent: { metadata: step, planning: false } }));
  display.end({ ok: true, changes: { delete: 1 }, outputs: {}, durationMs: 0 });
  assert.match(update.text(), new RegExp(`^ - {3}${TYPE} gone deleting\\[retain\\]$`, 'm'));
  assert.match(update.text(), new RegExp(`^ - {3}${TYPE} gone deleted \\([\\d.]+s\\)\\[retain\\]$`, 'm'));
});

// hideDiffs (Pulumi's printOldNewDiffs and PrintObjectDiff): a change under one of its paths is not
// shown; the path is, first, as `~ <path> (hidden)` (PropertyPath.String, sorted, once each).
test('a change under a hideDiffs path shows as the path, hidden, before the changes still shown', () => {
  const { out, text } = stream(false);
  const display = new Display({ mode: 'update', preview: true, stack: 'dev', json: false, out, env: {} });
  display.begin();
  const metadata = meta('update', 'u', {
    old: { inputs: { displayName: 'a', freeformTags: { env: 'p', team: 'x' }, description: 'd1' } } as never,
    new: {
      inputs: { displayName: 'b', freeformTags: { env: 'q', team: 'y' }, description: 'd2' },
      hideDiffs: ['freeformTags', 'displayName', 'freeformTags.*'],
    } as never,
    detailedDiff: {
      displayName: { diffKind: 'update', inputDiff: true },
      'freeformTags.env': { diffKind: 'update', inputDiff: true },
      'freeformTags.team': { diffKind: 'update', inputDiff: true },
      description: { diffKind: 'update', inputDiff: true },
    },
  });
  display.onEvent(event({ resourcePreEvent: { metadata, planning: true } }));
  display.end({ ok: true, changes: { update: 1 }, outputs: {}, durationMs: 0 });
  const lines = text().split('\n');
  const at = lines.findIndex((l) => l.includes(`${TYPE} u update`));
  assert.deepEqual(lines.slice(at + 1, at + 4), [
    '        ~ displayName (hidden)',
    '        ~ freeformTags (hidden)',
    '        ~ description: "d1" => "d2"',
  ]);
  assert.ok(!text().includes('"x"') && !text().includes('"q"'), text());
});

// Pulumi's getDiffInfo (pkg/backend/display/rows.go): with no detailed diff it diffs the step's old
// and new inputs, filtered only by the keys the provider named (a Diff answer with only `replaces`
// names none), and writePropertyKeys writes the added, deleted and updated keys in groups.
test("a running step's [diff: …] names the inputs that changed when the provider named only replaces, grouped as Pulumi's", () => {
  const { out, text } = stream(false);
  const display = new Display({ mode: 'update', preview: false, stack: 'dev', json: false, out, env: {} });
  display.begin();
  const steps = [
    meta('replace', 'onlyReplaces', {
      old: { inputs: { value: 'a', gone: 1, same: 's' } } as never,
      new: { inputs: { value: 'b', added: true, same: 's' } } as never,
      keys: ['value'],
      diffs: [],
    }),
    meta('update', 'detailed', {
      old: { inputs: {} } as never,
      new: { inputs: {} } as never,
      detailedDiff: {
        zeta: { diffKind: 'update', inputDiff: true },
        alpha: { diffKind: 'update', inputDiff: true },
        extra: { diffKind: 'add', inputDiff: true },
        old: { diffKind: 'delete', inputDiff: true },
      },
    }),
  ];
  for (const metadata of steps) display.onEvent(event({ resourcePreEvent: { metadata } }));
  const rows = text()
    .split('\n')
    .filter((l) => l.includes('[diff:'))
    .map((l) => l.split(`${TYPE} `)[1]);
  assert.deepEqual(rows, [
    'onlyReplaces replacing [diff: +added-gone~value]',
    'detailed updating [diff: +extra-old~alpha,zeta]',
  ]);
});

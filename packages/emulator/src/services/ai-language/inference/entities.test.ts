import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DATA_FILES, readDataFile } from './data-files';
import { buildEntityDictionary, createEntityMatcher, detectPretrainedEntities, type DetectedEntity } from './entities';
import { parseTrainingData } from './training';

function find(entities: DetectedEntity[], text: string): DetectedEntity | undefined {
  return entities.find((entity) => entity.text === text);
}

function assertOffsets(text: string, entities: DetectedEntity[]): void {
  for (const entity of entities) {
    assert.equal(text.slice(entity.offset, entity.offset + entity.length), entity.text, JSON.stringify(entity));
    assert.ok(entity.score > 0 && entity.score <= 1);
  }
  for (let i = 1; i < entities.length; i++) {
    assert.ok(entities[i]!.offset >= entities[i - 1]!.offset + entities[i - 1]!.length, 'entities must not overlap');
  }
}

describe('detectPretrainedEntities', () => {
  it('finds emails, URLs, phone numbers and dates with exact offsets', () => {
    const text =
      'Write to support@acme.example.com or call +1 (650) 506-7000 before March 5, 2024; details at https://acme.example.com/help.';
    const entities = detectPretrainedEntities(text);
    assertOffsets(text, entities);
    assert.deepEqual(find(entities, 'support@acme.example.com'), {
      offset: 9,
      length: 24,
      text: 'support@acme.example.com',
      type: 'EMAIL',
      score: 0.99,
    });
    assert.equal(find(entities, '+1 (650) 506-7000')?.type, 'PHONE_NUMBER');
    assert.equal(find(entities, 'March 5, 2024')?.type, 'DATE');
    assert.equal(find(entities, 'https://acme.example.com/help')?.type, 'URL');
  });

  it('types money, percentages, units and numbers as QUANTITY subtypes', () => {
    const text =
      'Revenue grew 12% to $4.5 million, we shipped 250 units and the disk holds 512 GB; ISO date 2024-01-31.';
    const entities = detectPretrainedEntities(text);
    assertOffsets(text, entities);
    assert.deepEqual([find(entities, '12%')?.type, find(entities, '12%')?.subType], ['QUANTITY', 'PERCENTAGE']);
    assert.equal(find(entities, '$4.5 million')?.subType, 'CURRENCY');
    assert.equal(find(entities, '250 units')?.subType, 'UNIT');
    assert.equal(find(entities, '512 GB')?.subType, 'UNIT');
    assert.equal(find(entities, '2024-01-31')?.type, 'DATE');
  });

  it('types capitalised names as organisations, people and places', () => {
    const text =
      'Acme Widgets Inc. hired Dr. Maria Lopez in Berlin, and Satya Nadella said Microsoft will open an office near Lake Tahoe.';
    const entities = detectPretrainedEntities(text);
    assertOffsets(text, entities);
    assert.equal(find(entities, 'Acme Widgets Inc')?.type, 'ORGANIZATION');
    assert.equal(find(entities, 'Maria Lopez')?.type, 'PERSON');
    assert.deepEqual([find(entities, 'Berlin')?.type, find(entities, 'Berlin')?.subType], ['LOCATION', 'GPE']);
    assert.equal(find(entities, 'Satya Nadella')?.type, 'PERSON');
    assert.equal(find(entities, 'Microsoft')?.type, 'ORGANIZATION');
    assert.deepEqual(
      [find(entities, 'Lake Tahoe')?.type, find(entities, 'Lake Tahoe')?.subType],
      ['LOCATION', 'NON_GPE'],
    );
  });

  it('does not take a sentence-initial word for a name', () => {
    const text = 'The invoice is attached. Please call Oracle tomorrow.';
    const entities = detectPretrainedEntities(text);
    assert.equal(find(entities, 'The'), undefined);
    assert.equal(find(entities, 'Please'), undefined);
    assert.equal(find(entities, 'Oracle')?.type, 'ORGANIZATION');
    assert.equal(find(entities, 'tomorrow')?.type, 'DATE');
  });

  it('is deterministic', () => {
    const text = 'On Monday, Jane Smith from IBM visited Paris.';
    assert.deepEqual(detectPretrainedEntities(text), detectPretrainedEntities(text));
  });
});

describe('custom entity dictionary', () => {
  const examples = parseTrainingData('NAMED_ENTITY_RECOGNITION', [
    { name: DATA_FILES.sandboxProductsNer, content: readDataFile(DATA_FILES.sandboxProductsNer) },
  ]);
  const artifact = buildEntityDictionary(examples);

  it('learns surface forms, types and purity scores from the shipped data', () => {
    assert.deepEqual(artifact.labels, ['COMPONENT', 'PRODUCT']);
    const nimbus = artifact.entries.find((entry) => entry.surface === 'nimbus x2 pro');
    assert.equal(nimbus?.type, 'PRODUCT');
    assert.equal(nimbus?.score, 1);
    assert.equal(artifact.entries.find((entry) => entry.surface === 'charging port')?.type, 'COMPONENT');
    // JSON-serialisable: survives a round trip unchanged.
    assert.deepEqual(JSON.parse(JSON.stringify(artifact)), artifact);
  });

  it('detects by longest case-insensitive whole-word match', () => {
    const match = createEntityMatcher(artifact);
    const text =
      'My NIMBUS X2 PRO has a loose charging port, the Nimbus X2 battery is fine, but batteryless parts are not.';
    const entities = match(text);
    assertOffsets(text, entities);
    assert.deepEqual(
      entities.map((entity) => [entity.text, entity.type]),
      [
        ['NIMBUS X2 PRO', 'PRODUCT'],
        ['charging port', 'COMPONENT'],
        ['Nimbus X2', 'PRODUCT'],
        ['battery', 'COMPONENT'],
      ],
    );
  });

  it('scores a form by label purity and by how often it is labelled', () => {
    const dictionary = buildEntityDictionary([
      { text: 'Apple makes the phone', entities: [{ offset: 0, length: 5, type: 'ORG' }] },
      { text: 'Apple released a laptop', entities: [{ offset: 0, length: 5, type: 'ORG' }] },
      { text: 'Apple pie is sweet', entities: [{ offset: 0, length: 5, type: 'FOOD' }] },
      { text: 'I ate an apple and an Apple tart', entities: [] },
    ]);
    const apple = dictionary.entries.find((entry) => entry.surface === 'apple');
    assert.equal(apple?.type, 'ORG');
    assert.deepEqual(apple?.counts, { FOOD: 1, ORG: 2 });
    assert.equal(apple?.occurrences, 5);
    // purity 2/3 × labelled share 3/5
    assert.equal(apple?.score, 0.4);
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DATA_FILES, readDataFile } from './data-files';
import { pretrainedClassifier } from './pretrained-classifier';
import { classifyText, labelPosteriors, trainNaiveBayes } from './text-classification';
import { parseTrainingData } from './training';

const tickets = parseTrainingData('TEXT_CLASSIFICATION', [
  { name: DATA_FILES.sandboxSupportTickets, content: readDataFile(DATA_FILES.sandboxSupportTickets) },
]);

describe('naive Bayes (MULTI_CLASS)', () => {
  const model = trainNaiveBayes(tickets, 'MULTI_CLASS');

  it('labels unseen support tickets', () => {
    const unseen: [string, string][] = [
      ['I was billed twice this month and want my money back', 'billing'],
      ['Please send the invoice with our company VAT number', 'billing'],
      ['The application crashes with an error when I upload a photo', 'technical'],
      ['Sync is broken and the app is very slow since the update', 'technical'],
      ['I cannot log in, the password reset link does not work', 'account'],
      ['How do I add a new administrator to my team account?', 'account'],
    ];
    for (const [text, label] of unseen) {
      const result = classifyText(model, text);
      assert.equal(result.length, 1);
      assert.equal(result[0]!.label, label, `${text} → ${JSON.stringify(labelPosteriors(model, text))}`);
      assert.ok(result[0]!.score > 0.34 && result[0]!.score <= 1);
    }
  });

  it('gives posteriors that sum to 1', () => {
    const posteriors = labelPosteriors(model, 'refund my card payment');
    assert.deepEqual(posteriors.map((p) => p.label).sort(), ['account', 'billing', 'technical']);
    assert.ok(Math.abs(posteriors.reduce((sum, p) => sum + p.score, 0) - 1) < 1e-9);
  });

  it('trains to identical JSON from identical data', () => {
    assert.equal(JSON.stringify(trainNaiveBayes(tickets, 'MULTI_CLASS')), JSON.stringify(model));
  });
});

describe('naive Bayes (MULTI_LABEL)', () => {
  const examples = [
    ...tickets,
    { text: 'I was charged after my account was deleted', labels: ['billing', 'account'] },
    { text: 'The payment page crashes so I cannot pay my invoice', labels: ['billing', 'technical'] },
    { text: 'Login page shows error 500 and my account is locked', labels: ['account', 'technical'] },
  ];
  const model = trainNaiveBayes(examples, 'MULTI_LABEL');

  it('returns every label whose one-vs-rest posterior reaches the threshold', () => {
    const result = classifyText(model, 'My invoice shows a duplicate charge and the refund failed');
    assert.ok(result.some((entry) => entry.label === 'billing'));
    for (const entry of result) assert.ok(entry.score >= 0.5);
  });

  it('returns the best label when none reaches the threshold', () => {
    const result = classifyText(model, 'zzz qqq');
    assert.equal(result.length, 1);
  });
});

describe('pre-trained classifier', () => {
  it('is trained once and reused', () => {
    assert.equal(pretrainedClassifier(), pretrainedClassifier());
  });

  it('labels everyday texts with the taxonomy', () => {
    const model = pretrainedClassifier();
    const cases: [string, string][] = [
      ['The goalkeeper saved a penalty and the club won the championship.', 'Sports'],
      ['Install the software update to patch the server and the database.', 'Science and Technology/Computers'],
      ['The company raised revenue guidance after strong quarterly profits.', 'Business and Industrial'],
      ['The doctor prescribed medicine for the infection and fever.', 'Health'],
      ['The band played songs from their new album at the concert.', 'Arts and Entertainment'],
      ['Our flight was delayed so we missed the hotel check-in.', 'Travel'],
      ['Bake the bread with flour, water and salt, then serve with butter.', 'Food and Drink'],
    ];
    for (const [text, label] of cases) assert.equal(classifyText(model, text)[0]?.label, label, text);
  });
});

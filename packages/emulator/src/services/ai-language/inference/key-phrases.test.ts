import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractKeyPhrases } from './key-phrases';

describe('extractKeyPhrases (RAKE)', () => {
  it('ranks multi-word content phrases first, as in the RAKE paper example', () => {
    const text =
      'Compatibility of systems of linear constraints over the set of natural numbers. Criteria of compatibility ' +
      'of a system of linear Diophantine equations, strict inequations, and nonstrict inequations are considered.';
    const phrases = extractKeyPhrases(text);
    assert.equal(phrases[0]?.text, 'linear Diophantine equations');
    const texts = phrases.map((phrase) => phrase.text);
    assert.ok(texts.includes('linear constraints'));
    assert.ok(texts.includes('natural numbers'));
    assert.ok(!texts.some((phrase) => /\b(of|the|a|and|are)\b/i.test(phrase)), texts.join(' | '));
  });

  it('scores in (0, 1], best first, and keeps the original spelling', () => {
    const text =
      'Oracle Cloud Infrastructure offers managed Kubernetes clusters. Managed Kubernetes clusters simplify deployments.';
    const phrases = extractKeyPhrases(text);
    assert.equal(phrases[0]?.score, 1);
    for (const phrase of phrases) {
      assert.ok(phrase.score > 0 && phrase.score <= 1);
      assert.ok(text.includes(phrase.text), phrase.text);
    }
    for (let i = 1; i < phrases.length; i++) assert.ok(phrases[i - 1]!.score >= phrases[i]!.score);
    // A repeated phrase is listed once.
    assert.equal(phrases.filter((phrase) => phrase.text.toLowerCase() === 'managed kubernetes clusters').length, 1);
  });

  it('uses the stop words of the document language', () => {
    const phrases = extractKeyPhrases(
      'El servicio de atención al cliente resolvió el problema de facturación con rapidez.',
      'es',
    );
    const texts = phrases.map((phrase) => phrase.text);
    assert.ok(texts.includes('servicio'), texts.join(' | '));
    assert.ok(!texts.some((phrase) => /\b(el|de|al|con)\b/.test(phrase)), texts.join(' | '));
  });

  it('returns nothing when there are only stop words', () => {
    assert.deepEqual(extractKeyPhrases('It is what it is, and so on.'), []);
  });
});

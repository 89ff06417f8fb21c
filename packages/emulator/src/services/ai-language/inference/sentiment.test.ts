import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { analyzeSentiment, scoresFrom, type SentimentScores } from './sentiment';

function sumsToOne(scores: SentimentScores): void {
  const total = scores.Positive + scores.Negative + scores.Neutral + scores.Mixed;
  assert.ok(Math.abs(total - 1) < 0.001, `scores sum to ${total}`);
}

describe('analyzeSentiment', () => {
  it('tells positive from negative from neutral', () => {
    const positive = analyzeSentiment('The staff were friendly and the room was spotless. We loved our stay!');
    const negative = analyzeSentiment('The delivery was late and the package arrived damaged. Terrible service.');
    const neutral = analyzeSentiment('The meeting is scheduled for Tuesday in room 4.');
    assert.equal(positive.documentSentiment, 'Positive');
    assert.equal(negative.documentSentiment, 'Negative');
    assert.equal(neutral.documentSentiment, 'Neutral');
    assert.deepEqual(neutral.documentScores, { Positive: 0, Negative: 0, Neutral: 1, Mixed: 0 });
    assert.ok(positive.documentScores.Positive > 0.5);
    assert.ok(negative.documentScores.Negative > 0.5);
    for (const result of [positive, negative, neutral]) sumsToOne(result.documentScores);
  });

  it('handles negation', () => {
    assert.equal(analyzeSentiment('The product is good.').documentSentiment, 'Positive');
    assert.equal(analyzeSentiment('The product is not good.').documentSentiment, 'Negative');
    assert.equal(analyzeSentiment("The update didn't work well, it never helps.").documentSentiment, 'Negative');
    assert.equal(analyzeSentiment('The hotel was not bad at all.').documentSentiment, 'Positive');
  });

  it('scales with intensifiers', () => {
    const plain = analyzeSentiment('The support was helpful.').documentScores.Positive;
    const boosted = analyzeSentiment('The support was extremely helpful.').documentScores.Positive;
    const dampened = analyzeSentiment('The support was slightly helpful.').documentScores.Positive;
    assert.ok(boosted > plain && plain > dampened, `${boosted} > ${plain} > ${dampened}`);
  });

  it('gives sentence-level results with offsets into the document', () => {
    const text = 'I love the new camera. The battery life is awful.';
    const result = analyzeSentiment(text);
    assert.equal(result.sentences.length, 2);
    assert.deepEqual(
      result.sentences.map((sentence) => sentence.sentiment),
      ['Positive', 'Negative'],
    );
    for (const sentence of result.sentences) {
      assert.equal(text.slice(sentence.offset, sentence.offset + sentence.length), sentence.text);
      sumsToOne(sentence.scores);
    }
    assert.equal(result.documentSentiment, 'Mixed');
  });

  it('finds aspects near opinion words', () => {
    const text = 'The camera is great, but the battery life is awful. I had a good day at work today.';
    const aspects = analyzeSentiment(text).aspects;
    const byText = Object.fromEntries(aspects.map((aspect) => [aspect.text, aspect.sentiment]));
    assert.deepEqual(byText, { camera: 'Positive', 'battery life': 'Negative', day: 'Positive' });
    for (const aspect of aspects) {
      assert.equal(text.slice(aspect.offset, aspect.offset + aspect.length), aspect.text);
      sumsToOne(aspect.scores);
    }
  });

  it('weighs the clause after "but" more', () => {
    assert.equal(analyzeSentiment('The food was good but the service was terrible.').documentSentiment, 'Negative');
    assert.equal(analyzeSentiment('The food was bad but the service was excellent.').documentSentiment, 'Positive');
  });

  it('is deterministic', () => {
    const text = 'Great phone, awful battery, decent screen.';
    assert.deepEqual(analyzeSentiment(text), analyzeSentiment(text));
  });
});

describe('scoresFrom', () => {
  it('turns balanced evidence into Mixed and none into Neutral', () => {
    const mixed = scoresFrom(3, 3);
    assert.ok(mixed.Mixed > mixed.Positive && mixed.Mixed > mixed.Negative);
    assert.deepEqual(scoresFrom(0, 0), { Positive: 0, Negative: 0, Neutral: 1, Mixed: 0 });
  });
});

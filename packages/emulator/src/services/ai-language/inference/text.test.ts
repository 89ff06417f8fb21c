import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { codePointLength, fromCodePointOffset, splitSentences, stem, tokenize, toCodePointOffsets } from './text';

describe('tokenize', () => {
  it('keeps offsets that slice back to each token', () => {
    const text = "Don't reset the Wi-Fi module: v2.1 costs $40!";
    const tokens = tokenize(text);
    for (const token of tokens) assert.equal(text.slice(token.start, token.end), token.text);
    assert.deepEqual(
      tokens.map((token) => token.text),
      ["Don't", 'reset', 'the', 'Wi-Fi', 'module', ':', 'v2.1', 'costs', '$', '40', '!'],
    );
    assert.deepEqual(
      tokens.filter((token) => token.kind === 'number').map((token) => token.text),
      ['40'],
    );
  });
});

describe('splitSentences', () => {
  it('splits on terminal punctuation and line breaks but not after abbreviations or initials', () => {
    const text = 'Dr. Smith met Acme Inc. staff today. It went well!\nNext steps: J. Doe will call. Done?';
    const sentences = splitSentences(text);
    assert.deepEqual(
      sentences.map((sentence) => sentence.text),
      ['Dr. Smith met Acme Inc. staff today.', 'It went well!', 'Next steps: J. Doe will call.', 'Done?'],
    );
    for (const sentence of sentences) assert.equal(text.slice(sentence.start, sentence.end), sentence.text);
  });

  it('returns nothing for blank text', () => {
    assert.deepEqual(splitSentences('   \n  '), []);
  });
});

describe('stem', () => {
  it('lets inflections share a stem', () => {
    assert.equal(stem('charges'), stem('charge'));
    assert.equal(stem('charged'), 'charg');
    assert.equal(stem('charging'), 'charg');
    assert.equal(stem('refunds'), 'refund');
    assert.equal(stem('batteries'), 'battery');
    assert.equal(stem('stopped'), 'stop');
    assert.equal(stem('class'), 'class');
  });
});

describe('code points', () => {
  it('counts astral characters once and converts offsets both ways', () => {
    const text = 'I 😀 love Paris';
    assert.equal(text.length, 15);
    assert.equal(codePointLength(text), 14);
    const jsOffset = text.indexOf('Paris');
    assert.deepEqual(toCodePointOffsets(text, jsOffset, 5), { offset: 9, length: 5 });
    assert.equal(fromCodePointOffset(text, 9), jsOffset);
    assert.equal(fromCodePointOffset(text, 14), text.length);
    assert.equal(fromCodePointOffset(text, 15), -1);
  });
});

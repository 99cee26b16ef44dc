// A recovery phrase copied from a screen that numbers its words (this wallet's own backup screens
// list them "1. abandon", "2. ability", …; so do most wallets and printed backup cards) restores as
// the words, in the order the numbers give; numbers that do not count 1, 2, 3… are not dropped.
import { describe, expect, it } from 'vitest';
import { generateMnemonic, normalizeMnemonic } from '../../src/core/keys.js';
import { phraseWords } from '../../src/core/phrase-words.js';
import { checkPhrase } from '../../src/popup/checks.js';

const PHRASE = generateMnemonic(24);
const WORDS = PHRASE.split(' ');

describe('a numbered recovery phrase', () => {
  it('as copied from the backup screen (one "n. word" a line), or numbered with ")" or nothing, reads as its words', () => {
    for (const numbered of [WORDS.map((w, i) => `${i + 1}. ${w}`).join('\n'), WORDS.map((w, i) => `${i + 1}) ${w}`).join(' '), WORDS.map((w, i) => `${i + 1}\t${w.toUpperCase()}`).join('  ')]) {
      expect(normalizeMnemonic(numbered)).toBe(PHRASE);
      expect(checkPhrase(numbered)).toEqual({ ok: true, value: PHRASE });
    }
  });

  it('keeps numbers that do not count the words in order (refused as they were), and leaves plain phrases alone', () => {
    const swapped = WORDS.map((w, i) => `${i === 0 ? 2 : i === 1 ? 1 : i + 1}. ${w}`).join(' ');
    expect(phraseWords(swapped)).toHaveLength(48);
    expect(checkPhrase(swapped).ok).toBe(false);
    expect(() => normalizeMnemonic(swapped)).toThrow();
    expect(phraseWords(PHRASE)).toEqual(WORDS);
    expect(phraseWords('')).toEqual([]);
  });
});

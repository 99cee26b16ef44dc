// src/core/wordlist-english.ts: the packed BIP-39 English list unpacks to the package's list, word for word.
import { wordlist as reference } from '@scure/bip39/wordlists/english.js';
import { describe, expect, it } from 'vitest';
import { wordlist } from '../../src/core/wordlist-english.js';

describe('the packed BIP-39 English word list', () => {
  it('is @scure/bip39’s English list, word for word and in order', () => {
    expect(wordlist).toHaveLength(2048);
    expect(wordlist).toEqual(reference);
    expect(Object.isFrozen(wordlist)).toBe(true);
  });
});

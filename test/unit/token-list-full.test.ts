// The token list of a network holds at most MAX_TOKENS: one more is refused in words the user can
// act on (a typed error), never as the background's "something went wrong", and the list is unchanged.
// A token a site listed becomes the user's when the user adds it.
import { describe, expect, it } from 'vitest';
import { memoryStores } from '../../src/background/storage.js';
import { MAX_TOKENS, type StoredToken, TokenStore } from '../../src/background/token-store.js';

const token = (i: number): StoredToken => ({ address: `0x${i.toString(16).padStart(40, '0')}`, standard: 'erc20', name: `T${i}`, symbol: `T${i}`, decimals: 6, addedBy: 'wallet', addedAt: 0 });

describe('a full token list', () => {
  it(`a token past the ${MAX_TOKENS} a list holds is refused with a typed error saying what to do; the list stays as it was`, async () => {
    const store = new TokenStore(memoryStores().local);
    for (let i = 1; i <= MAX_TOKENS; i++) await store.add('net', token(i));
    await expect(store.add('net', token(MAX_TOKENS + 1))).rejects.toMatchObject({ code: 'validation', message: `your list on this network already holds ${MAX_TOKENS} tokens, the most it can: remove one first` });
    expect(await store.list('net')).toHaveLength(MAX_TOKENS);
    // One already listed (another spelling of its address) is still answered with its entry; another network has its own list.
    expect(await store.add('net', { ...token(7), address: token(7).address.toUpperCase().replace('0X', '0x') })).toMatchObject({ name: 'T7' });
    expect(await store.add('other', token(MAX_TOKENS + 1))).toMatchObject({ name: `T${MAX_TOKENS + 1}` });
  });
});

describe('a token a site listed', () => {
  it("becomes the user's when the user adds it, with the words the user saw (not the site's); a site's add never takes one from the user", async () => {
    const store = new TokenStore(memoryStores().local);
    await store.add('net', { ...token(1), addedBy: 'https://site.example' });
    const mine = { ...token(1), name: 'the words read now', addedBy: 'wallet', addedAt: 5 };
    expect(await store.add('net', mine)).toEqual(mine);
    expect(await store.add('net', { ...token(1), addedBy: 'https://other.example' })).toEqual(mine);
    expect(await store.list('net')).toEqual([mine]);
  });
});

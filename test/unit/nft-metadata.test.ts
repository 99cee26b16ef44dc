// An NFT's metadata: a data: URI is read in place; no other address is ever fetched, whatever its
// scheme or host (the wallet talks to no server but the user's node).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { nftMetadataFrom } from '../../src/background/nft-metadata.js';

afterEach(() => vi.unstubAllGlobals());

/** Every network request made while `run` runs (none is answered). */
async function requestsDuring(run: () => Promise<unknown>): Promise<string[]> {
  const asked: string[] = [];
  vi.stubGlobal('fetch', (async (url: unknown) => {
    asked.push(String(url));
    return new Response('{"name":"From the web"}');
  }) as typeof fetch);
  await run();
  return asked;
}

describe('NFT metadata', () => {
  it('never contacts a web server, a gateway or the local network: it says the metadata is elsewhere', async () => {
    const addresses = [
      'https://meta.example/1.json',
      'https://127.0.0.1.nip.io/a.json', // a public name for a loopback address: no literal check can catch it
      'https://localhost/a.json',
      'http://example.org/1.json',
      'ipfs://QmSomething',
      'ar://abc',
    ];
    for (const uri of addresses) {
      const asked = await requestsDuring(async () => {
        const r = await nftMetadataFrom(uri);
        expect(r.fetched, uri).toBeUndefined();
        expect(r.error, uri).toMatch(/on another server, and the wallet talks only to your node/);
      });
      expect(asked, uri).toEqual([]);
    }
    expect((await nftMetadataFrom('not an address')).error).toMatch(/not a URL/);
  });

  it('reads a data: URI in place: base64, percent-encoded, raw JSON with its parameters (;utf8), text fields only', async () => {
    const asked = await requestsDuring(async () => {
      expect(await nftMetadataFrom('data:application/json;base64,' + btoa('{"name":"Pic","image":"ipfs://x","extra":1}'))).toEqual({ fetched: { name: 'Pic', image: 'ipfs://x' } });
      expect(await nftMetadataFrom('data:application/json,' + encodeURIComponent('{"name":"A\u202ename","description":7}'))).toEqual({ fetched: { name: 'Aname' } });
      expect(await nftMetadataFrom('data:application/json;utf8,{"name":"Raw","description":"100% on chain"}')).toEqual({ fetched: { name: 'Raw', description: '100% on chain' } });
      expect(await nftMetadataFrom('data:application/json;charset=utf-8;base64,' + btoa('{"name":"Cs"}'))).toEqual({ fetched: { name: 'Cs' } });
    });
    expect(asked).toEqual([]);
  });

  it('refuses more than 64 KB, before decoding a body that is plainly too long', async () => {
    expect((await nftMetadataFrom('data:application/json,' + JSON.stringify({ name: 'x'.repeat(70 * 1024) }))).error).toMatch(/larger than 64 KB/);
    expect((await nftMetadataFrom('data:application/json;base64,' + 'A'.repeat(4 * 64 * 1024))).error).toMatch(/larger than 64 KB/);
    expect((await nftMetadataFrom('data:application/json,[1]')).error).toMatch(/not a JSON object/);
  });
});

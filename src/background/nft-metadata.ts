// An NFT's metadata, only when the user asks for it: a data: URI is read in place; an https:// URI
// is fetched (no cookies, at most 64 KB, JSON only) and only its name, description and image
// address are kept, as text. Nothing it points to (its image) is loaded. Other schemes (ipfs://,
// ar://) need a gateway, a third party: the wallet says so instead. docs/tokens.md.
import { shownName } from './chain-name.js';

export const MAX_METADATA_BYTES = 64 * 1024;
const TIMEOUT_MS = 10_000;

type Fetched = { fetched?: { name?: string; description?: string; image?: string }; error?: string };

async function readAtMost(response: Response, limit: number): Promise<string | undefined> {
  const reader = response.body?.getReader();
  if (!reader) {
    const text = await response.text();
    return text.length > limit ? undefined : text;
  }
  const chunks: Uint8Array[] = [];
  let read = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    read += value.byteLength;
    if (read > limit) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  const all = new Uint8Array(read);
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.byteLength;
  }
  return new TextDecoder().decode(all);
}

function fieldsOf(json: unknown): Fetched {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return { error: 'the metadata is not a JSON object' };
  const o = json as Record<string, unknown>;
  const text = (v: unknown, max: number): string | undefined => (typeof v === 'string' ? shownName(v, max).text : undefined);
  const fetched: NonNullable<Fetched['fetched']> = {};
  const name = text(o['name'], 80);
  const description = text(o['description'], 500);
  const image = text(o['image'], 300);
  if (name !== undefined) fetched.name = name;
  if (description !== undefined) fetched.description = description;
  if (image !== undefined) fetched.image = image;
  return { fetched };
}

function parse(text: string): Fetched {
  try {
    return fieldsOf(JSON.parse(text));
  } catch {
    return { error: 'the metadata is not JSON' };
  }
}

export async function nftMetadataFrom(uri: string, fetchFn: typeof fetch = fetch): Promise<Fetched> {
  const data = /^data:application\/json(;charset=[^;,]+)?(;base64)?,(.*)$/is.exec(uri);
  if (data) {
    try {
      const body = data[2] ? new TextDecoder().decode(Uint8Array.from(atob(data[3]!), (c) => c.charCodeAt(0))) : decodeURIComponent(data[3]!);
      return body.length > MAX_METADATA_BYTES ? { error: 'the metadata is larger than 64 KB' } : parse(body);
    } catch {
      return { error: 'the metadata cannot be read' };
    }
  }
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return { error: 'the metadata address is not a URL' };
  }
  if (url.protocol !== 'https:') return { error: `the wallet fetches only https:// metadata; this one is ${url.protocol}// (it would need a gateway run by someone else)` };
  try {
    const response = await fetchFn(url.href, { credentials: 'omit', referrerPolicy: 'no-referrer', redirect: 'error', signal: AbortSignal.timeout(TIMEOUT_MS) });
    if (!response.ok) return { error: `the metadata server answered HTTP ${response.status}` };
    const text = await readAtMost(response, MAX_METADATA_BYTES);
    return text === undefined ? { error: 'the metadata is larger than 64 KB' } : parse(text);
  } catch {
    return { error: 'the metadata could not be fetched' };
  }
}

// An NFT's metadata, only when the user asks for it: a data: URI is read in place; an https:// URI
// is fetched (no cookies, at most 64 KB, JSON only) and only its name, description and image
// address are kept, as text. Nothing it points to (its image) is loaded. Other schemes (ipfs://,
// ar://) need a gateway, a third party: the wallet says so instead. docs/tokens.md.
import { readAtMost } from '../core/rpc.js';
import { shownName } from './chain-name.js';

export const MAX_METADATA_BYTES = 64 * 1024;
const TIMEOUT_MS = 10_000;

type Fetched = { fetched?: { name?: string; description?: string; image?: string }; error?: string };

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

/** Whether IPv4 a.b.c.d is not a public address: this network, private, loopback, link-local, shared (CGNAT), multicast or reserved. */
function privateV4(a: number, b: number): boolean {
  return a === 0 || a === 10 || a === 127 || a >= 224 || (a === 169 && b === 254) || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 100 && b >= 64 && b <= 127);
}

/** The eight 16-bit groups of an IPv6 address as the URL parser writes it (compressed, lower case, no embedded dotted IPv4). */
function v6Groups(text: string): number[] | undefined {
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const fill = tail === undefined ? 0 : 8 - left.length - right.length;
  const groups = [...left, ...Array<string>(fill).fill('0'), ...right].map((g) => parseInt(g, 16));
  return groups.length === 8 && groups.every((g) => g >= 0 && g <= 0xffff) ? groups : undefined;
}

/**
 * A host on the user's own machine or network, which a token's metadata address must not make the
 * wallet reach: `localhost` and `*.localhost`, and IP literals that are loopback, private,
 * link-local, unique-local or unspecified, in IPv4 or IPv6 (IPv4 inside IPv6 too). The URL parser
 * has already turned decimal, hex and octal IPv4 forms into a.b.c.d.
 */
export function isLocalHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  const v4 = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(host);
  if (v4) return privateV4(Number(v4[1]), Number(v4[2]));
  if (!host.startsWith('[')) return false;
  const g = v6Groups(host.slice(1, -1));
  if (!g) return true;
  const embedded = (hi: number): boolean => privateV4(hi >> 8, hi & 0xff);
  const zerosTo = (n: number): boolean => g.slice(0, n).every((x) => x === 0);
  if (zerosTo(6)) return true; // ::, ::1 and the old IPv4-compatible ::a.b.c.d
  if (zerosTo(5) && g[5] === 0xffff) return embedded(g[6]!); // IPv4-mapped
  if (g[0] === 0x64 && g[1] === 0xff9b) return embedded(g[6]!); // NAT64
  if (g[0] === 0x2002) return embedded(g[1]!); // 6to4
  return (g[0]! & 0xfe00) === 0xfc00 || (g[0]! & 0xffc0) === 0xfe80 || (g[0]! & 0xffc0) === 0xfec0 || (g[0]! & 0xff00) === 0xff00;
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
  if (isLocalHost(url.hostname)) return { error: 'the metadata address points into your own computer or local network: the wallet does not fetch it' };
  try {
    const response = await fetchFn(url.href, { credentials: 'omit', referrerPolicy: 'no-referrer', redirect: 'error', signal: AbortSignal.timeout(TIMEOUT_MS) });
    if (!response.ok) return { error: `the metadata server answered HTTP ${response.status}` };
    const text = await readAtMost(response, MAX_METADATA_BYTES);
    return text === undefined ? { error: 'the metadata is larger than 64 KB' } : parse(text);
  } catch {
    return { error: 'the metadata could not be fetched' };
  }
}

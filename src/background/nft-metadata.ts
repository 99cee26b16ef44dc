// An NFT's metadata, when the user asks for its details: a data: URI is read in place and only its
// name, description and image address are kept, as text. Any other address (https://, ipfs://,
// ar://) is on a server other than the user's node, and the wallet talks to no other server: it
// says so and loads nothing (the user can copy the address and open it). docs/tokens.md.
import { isRecord } from '../core/rpc.js';
import { shownName } from './chain-name.js';

export const MAX_METADATA_BYTES = 64 * 1024;

type Fetched = { fetched?: { name?: string; description?: string; image?: string }; error?: string };

function fieldsOf(json: unknown): Fetched {
  if (!isRecord(json)) return { error: 'the metadata is not a JSON object' };
  const text = (v: unknown, max: number): string | undefined => (typeof v === 'string' ? shownName(v, max).text : undefined);
  const fetched: NonNullable<Fetched['fetched']> = {};
  const name = text(json['name'], 80);
  const description = text(json['description'], 500);
  const image = text(json['image'], 300);
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

/** A percent-encoded body, or the body as written when it is raw JSON with a bare `%` in it. */
function unescaped(body: string): string {
  try {
    return decodeURIComponent(body);
  } catch {
    return body;
  }
}

/** What a data: URI of JSON says (any parameters: `;charset=…`, `;utf8`, `;base64`). Never a network request. */
export async function nftMetadataFrom(uri: string): Promise<Fetched> {
  const data = /^data:application\/json((?:;[^;,]*)*),(.*)$/is.exec(uri);
  if (data) {
    // A byte takes at most 3 characters percent-encoded (4/3 in base64): a longer body is too large before it is decoded.
    if (data[2]!.length > 3 * MAX_METADATA_BYTES) return { error: 'the metadata is larger than 64 KB' };
    try {
      const body = /;base64$/i.test(data[1]!) ? new TextDecoder().decode(Uint8Array.from(atob(data[2]!), (c) => c.charCodeAt(0))) : unescaped(data[2]!);
      return body.length > MAX_METADATA_BYTES ? { error: 'the metadata is larger than 64 KB' } : parse(body);
    } catch {
      return { error: 'the metadata cannot be read' };
    }
  }
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(uri.trim())?.[1]?.toLowerCase();
  if (scheme === undefined) return { error: 'the metadata address is not a URL' };
  return { error: 'its name and description are on another server, and the wallet talks only to your node, so it does not load them. Copy the address to open it yourself.' };
}

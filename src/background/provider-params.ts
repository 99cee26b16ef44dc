// Checks of what a page sends with a provider request. Each failure is an InvalidParamsError
// naming the field (answered as -32602); nothing a check refuses reaches a handler.
import { fromHex, INVISIBLE_TEXT, toHex as toHexString } from '../core/bytes.js';
import { ValidationError } from '../core/errors.js';
import { formatEvmAddress, parseEvmAddress } from '../core/evm-address.js';
import type { TypedDataInput } from '../core/message.js';
import { isRecord } from '../core/rpc.js';

export class InvalidParamsError extends ValidationError {}

function fail(field: string, message: string): never {
  throw new InvalidParamsError(`${field} ${message}`, field);
}

/** Positional params: an array of `min`…`max` items (absent params count as []). */
export function positional(params: unknown, min: number, max: number): unknown[] {
  const list = params === undefined ? [] : params;
  if (!Array.isArray(list)) fail('params', 'must be an array');
  if (list.length < min || list.length > max) {
    fail('params', min === max ? `must hold ${min} item${min === 1 ? '' : 's'}` : `must hold ${min} to ${max} items`);
  }
  return list;
}

/**
 * The one object an X/P method takes, given either as `[object]` or, as Core's extension accepts it,
 * as the bare object itself.
 */
export function soleObjectParam(params: unknown): Record<string, unknown> {
  if (isRecord(params)) return params;
  const [arg] = positional(params, 1, 1);
  return objectParam(arg, 'params[0]');
}

export function objectParam(value: unknown, field: string): Record<string, unknown> {
  if (!isRecord(value)) fail(field, 'must be an object');
  return value;
}

/** Only these keys may appear: a typo in a signing request must not be silently ignored. */
export function onlyKeys(o: Record<string, unknown>, field: string, allowed: readonly string[]): void {
  for (const k of Object.keys(o)) if (!allowed.includes(k)) fail(`${field}.${k}`, 'is not a known field');
}

export function stringParam(value: unknown, field: string, max: number): string {
  if (typeof value !== 'string') fail(field, 'must be a string');
  if (value.length === 0) fail(field, 'must not be empty');
  if (value.length > max) fail(field, `must be at most ${max} characters`);
  if (!value.isWellFormed()) fail(field, 'contains malformed text');
  return value;
}

/** A 0x EVM address, returned EIP-55 checksummed; a mixed-case address must carry a valid checksum. */
export function evmAddressParam(value: unknown, field: string): string {
  const text = stringParam(value, field, 42);
  try {
    return formatEvmAddress(parseEvmAddress(text));
  } catch (e) {
    fail(field, `is not an EVM address (${(e as Error).message})`);
  }
}

const QUANTITY = /^0x(0|[1-9a-fA-F][0-9a-fA-F]*)$/;
const PADDED_QUANTITY = /^0x[0-9a-fA-F]+$/;
const UINT256_MAX = (1n << 256n) - 1n;

/** A JSON-RPC quantity: 0x hex without leading zeros (unless `padded`), at most `max`. */
export function quantityParam(value: unknown, field: string, max: bigint = UINT256_MAX, padded = false): bigint {
  const text = stringParam(value, field, 66);
  if (!(padded ? PADDED_QUANTITY : QUANTITY).test(text)) fail(field, padded ? 'must be a 0x hexadecimal quantity' : 'must be a 0x hexadecimal quantity without leading zeros');
  const n = BigInt(text);
  if (n > max) fail(field, `must be at most 0x${max.toString(16)}`);
  return n;
}

/**
 * A quantity field of a transaction (value, gas, fees, nonce): leading zeros are taken, as MetaMask
 * takes them ('0x016345785d8a0000', as some libraries' toHexString writes it), and read as the
 * number they write. '0x' alone, non-hex, negatives and values past `max` are still refused.
 */
export function txQuantityParam(value: unknown, field: string, max: bigint = UINT256_MAX): bigint {
  return quantityParam(value, field, max, true);
}

const HEX_DATA = /^0x([0-9a-fA-F]{2})*$/;

/** 0x-prefixed bytes of at most `maxBytes`, returned lower-case. */
export function hexDataParam(value: unknown, field: string, maxBytes: number): string {
  if (typeof value !== 'string') fail(field, 'must be a 0x hexadecimal string');
  if (value.length > 2 + 2 * maxBytes) fail(field, `must be at most ${maxBytes} bytes`);
  if (!HEX_DATA.test(value)) fail(field, 'must be 0x followed by an even number of hexadecimal digits');
  return value.toLowerCase();
}

export function hexBytesParam(value: unknown, field: string, maxBytes: number): Uint8Array {
  return fromHex(hexDataParam(value, field, maxBytes).slice(2));
}

/** EIP-155 chain IDs fit in 2^53 for every tool that handles them as JSON numbers. */
export const MAX_CHAIN_ID = BigInt(Number.MAX_SAFE_INTEGER);

export function chainIdParam(value: unknown, field: string): bigint {
  const id = quantityParam(value, field, MAX_CHAIN_ID);
  if (id === 0n) fail(field, 'must not be 0');
  return id;
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** An RPC or explorer URL: https, or http only on this machine. */
export function urlParam(value: unknown, field: string): string {
  const text = stringParam(value, field, 2000);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    fail(field, 'is not a URL');
  }
  const ok = url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname));
  if (!ok) fail(field, 'must use https (plain http only on localhost)');
  if (url.username !== '' || url.password !== '') fail(field, 'must not carry a user name or password');
  return url.href;
}

/** A message for personal_sign: 0x hex is bytes, anything else is UTF-8 text. */
export function messageParam(value: unknown, field: string, maxBytes: number): { bytes: Uint8Array; encoding: 'text' | 'hex'; shown: string } {
  if (typeof value !== 'string') fail(field, 'must be a string');
  if (HEX_DATA.test(value)) {
    const bytes = hexBytesParam(value, field, maxBytes);
    // '0x' is the empty message (viem sends it for ''), not the two characters.
    if (bytes.length === 0) return { bytes, encoding: 'hex', shown: '0x' };
    // Hex that decodes to readable UTF-8 is shown as that text; the bytes signed stay the same.
    const text = readableText(bytes);
    return text === undefined ? { bytes, encoding: 'hex', shown: value.toLowerCase() } : { bytes, encoding: 'text', shown: text };
  }
  if (!value.isWellFormed()) fail(field, 'contains malformed text');
  const bytes = new TextEncoder().encode(value);
  if (bytes.length > maxBytes) fail(field, `must be at most ${maxBytes} bytes`);
  // Text with invisible or direction-changing characters is shown as its bytes, in hex.
  return readableText(bytes) === undefined ? { bytes, encoding: 'hex', shown: `0x${toHexString(bytes)}` } : { bytes, encoding: 'text', shown: value };
}


function readableText(bytes: Uint8Array): string | undefined {
  let text: string;
  try {
    // ignoreBOM: a leading byte-order mark is part of what is signed and must not vanish.
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
  // Tabs and line breaks are ordinary, and so are the joiners and variation selector inside emoji.
  const plain = text
    .replace(/[\t\n\r]/g, '')
    .replace(/(\p{Extended_Pictographic}[\u{1F3FB}-\u{1F3FF}]?)\uFE0F/gu, '$1')
    .replace(/(\p{Extended_Pictographic}[\u{1F3FB}-\u{1F3FF}]?)\u200D(?=\p{Extended_Pictographic})/gu, '$1');
  return INVISIBLE_TEXT.test(plain) ? undefined : text;
}

const MAX_TYPED_DATA_JSON = 256 * 1024;
const SOLIDITY_NAME = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const FIELD_TYPE = /^[A-Za-z_$][A-Za-z0-9_$]*(\[[0-9]*\])*$/;

/** EIP-712 typed data, as a JSON string (v4) or an object; the structure is checked here. */
export function typedDataParam(value: unknown, field: string): TypedDataInput {
  let data: unknown = value;
  if (typeof value === 'string') {
    if (value.length > MAX_TYPED_DATA_JSON) fail(field, `must be at most ${MAX_TYPED_DATA_JSON} characters of JSON`);
    try {
      data = JSON.parse(value);
    } catch {
      fail(field, 'is not valid JSON');
    }
  } else if (JSON.stringify(value ?? null).length > MAX_TYPED_DATA_JSON) {
    fail(field, `must be at most ${MAX_TYPED_DATA_JSON} characters of JSON`);
  }
  const o = objectParam(data, field);
  const types = objectParam(o.types, `${field}.types`);
  for (const [name, fields] of Object.entries(types)) {
    if (!SOLIDITY_NAME.test(name)) fail(`${field}.types`, `has an invalid type name ${JSON.stringify(name.slice(0, 40))}`);
    if (!Array.isArray(fields)) fail(`${field}.types.${name}`, 'must be an array');
    fields.forEach((f: unknown, i) => {
      const entry = objectParam(f, `${field}.types.${name}[${i}]`);
      if (typeof entry.name !== 'string' || !SOLIDITY_NAME.test(entry.name)) fail(`${field}.types.${name}[${i}].name`, 'must be a field name');
      if (typeof entry.type !== 'string' || !FIELD_TYPE.test(entry.type)) fail(`${field}.types.${name}[${i}].type`, 'must be a type name');
    });
  }
  const primaryType = stringParam(o.primaryType, `${field}.primaryType`, 100);
  if (!Object.hasOwn(types, primaryType) || primaryType === 'EIP712Domain') fail(`${field}.primaryType`, 'must name a type in types (not EIP712Domain)');
  const domain = objectParam(o.domain, `${field}.domain`);
  const message = objectParam(o.message, `${field}.message`);
  return { types: types as TypedDataInput['types'], primaryType, domain, message };
}

/**
 * Typed data for eth_signTypedData_v3, which v4's encoder then encodes to the same bytes: v3 has no
 * arrays, and leaves out a field that is absent where v4 encodes it (a struct as zero), so both are
 * refused rather than signed as v4 would sign them.
 */
export function typedDataV3Param(typed: TypedDataInput, field: string): TypedDataInput {
  // v3 hashes a domain with no declared type as an empty struct; v4's encoder builds its type from the fields given.
  if (!Object.hasOwn(typed.types, 'EIP712Domain')) fail(`${field}.types`, 'has no EIP712Domain, which eth_signTypedData_v3 would sign without the domain; declare it');
  for (const [name, fields] of Object.entries(typed.types)) {
    const array = fields.find((f) => f.type.endsWith(']'));
    if (array) fail(`${field}.types.${name}`, `has a list (${array.name}), which eth_signTypedData_v3 cannot sign; eth_signTypedData_v4 can`);
  }
  const given = (type: string, value: Record<string, unknown>, at: string, depth: number): void => {
    if (depth > 32) fail(at, 'is nested too deeply');
    for (const f of typed.types[type] ?? []) {
      const v = value[f.name];
      if (!Object.hasOwn(value, f.name) || v === undefined) fail(`${at}.${f.name}`, 'is missing (eth_signTypedData_v3 would leave it out)');
      if (Object.hasOwn(typed.types, f.type) && typeof v === 'object' && v !== null) given(f.type, v as Record<string, unknown>, `${at}.${f.name}`, depth + 1);
    }
  };
  given(typed.primaryType, typed.message, `${field}.message`, 0);
  given('EIP712Domain', typed.domain, `${field}.domain`, 0);
  return typed;
}

/** A chain alias for the X/P site methods. */
export function chainAliasParam(value: unknown, field: string, allowed: readonly ('X' | 'P' | 'C')[]): 'X' | 'P' | 'C' {
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) fail(field, `must be one of ${allowed.map((a) => `"${a}"`).join(', ')}`);
  return value as 'X' | 'P' | 'C';
}

/** An unsigned (or partly signed) X/P/atomic tx as 0x hex (Core and avalanchejs send it so). */
/** The X/P mempools take at most 64 KiB per signed tx, so a larger unsigned one is never valid. */
export const MAX_SITE_TX_BYTES = 64 * 1024;

export function txHexParam(value: unknown, field: string): Uint8Array {
  if (typeof value === 'string' && !value.startsWith('0x') && /^[0-9a-fA-F]*$/.test(value)) return hexBytesParam(`0x${value}`, field, MAX_SITE_TX_BYTES);
  return hexBytesParam(value, field, MAX_SITE_TX_BYTES);
}

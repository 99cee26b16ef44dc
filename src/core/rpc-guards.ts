// Shape guards for node answers: a guard takes an unknown value and the path used in error
// messages, and either returns the typed value or throws NodeResponseError. Apart from rpc.ts
// (the transport) because every node API file builds its answers' shapes from these.
import { NodeResponseError } from './errors.js';

export type Guard<T> = (value: unknown, path: string) => T;

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 40 ? value.slice(0, 40) + '…' : value)}`;
  return typeof value === 'object' ? 'an object' : `${typeof value} ${String(value)}`;
}

export function shapeError(path: string, expected: string, value: unknown): NodeResponseError {
  return new NodeResponseError(`node answered ${describe(value)} for ${path}, expected ${expected}`);
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export const g = {
  unknown: ((value: unknown) => value) as Guard<unknown>,

  string: ((value, path) => {
    if (typeof value !== 'string') throw shapeError(path, 'a string', value);
    return value;
  }) as Guard<string>,

  boolean: ((value, path) => {
    if (typeof value !== 'boolean') throw shapeError(path, 'a boolean', value);
    return value;
  }) as Guard<boolean>,

  /** One of a fixed set of strings. */
  oneOf<T extends string>(...allowed: T[]): Guard<T> {
    return (value, path) => {
      if (typeof value !== 'string' || !(allowed as string[]).includes(value)) {
        throw shapeError(path, `one of ${allowed.join(', ')}`, value);
      }
      return value as T;
    };
  },

  /**
   * A non-negative integer sent either as a JSON number (exact, ≤ 2^53−1) or as a decimal string
   * (the node's avajson.Uint64 form). Returned as bigint, so nothing is ever rounded.
   */
  uint: ((value, path) => {
    if (typeof value === 'number') {
      if (!Number.isSafeInteger(value) || value < 0) throw shapeError(path, 'a non-negative safe integer', value);
      return BigInt(value);
    }
    if (typeof value === 'string' && /^(0|[1-9][0-9]*)$/.test(value) && value.length <= 20) {
      const n = BigInt(value);
      if (n <= 0xffff_ffff_ffff_ffffn) return n;
    }
    throw shapeError(path, 'a non-negative integer (decimal string or number)', value);
  }) as Guard<bigint>,

  /** As `uint`, but must fit a JS number exactly. */
  uintNumber: ((value, path) => {
    const n = g.uint(value, path);
    if (n > BigInt(Number.MAX_SAFE_INTEGER)) throw shapeError(path, 'an integer below 2^53', value);
    return Number(n);
  }) as Guard<number>,

  /** An Ethereum QUANTITY: 0x-prefixed hex without leading zeros ("0x0" for zero). */
  quantity: ((value, path) => {
    if (typeof value !== 'string' || !/^0x(0|[1-9a-fA-F][0-9a-fA-F]*)$/.test(value) || value.length > 66) {
      throw shapeError(path, 'a 0x-prefixed hex quantity', value);
    }
    return BigInt(value);
  }) as Guard<bigint>,

  /** Ethereum DATA: 0x-prefixed even-length hex, optionally of a fixed byte length. */
  data(bytes?: number): Guard<string> {
    return (value, path) => {
      const ok = typeof value === 'string' && /^0x([0-9a-fA-F]{2})*$/.test(value);
      if (!ok || (bytes !== undefined && (value as string).length !== 2 + 2 * bytes)) {
        throw shapeError(path, bytes === undefined ? '0x-prefixed hex data' : `${bytes} bytes of 0x-prefixed hex`, value);
      }
      return value as string;
    };
  },

  array<T>(item: Guard<T>): Guard<T[]> {
    return (value, path) => {
      if (!Array.isArray(value)) throw shapeError(path, 'an array', value);
      return value.map((v, i) => item(v, `${path}[${i}]`));
    };
  },

  nullable<T>(inner: Guard<T>): Guard<T | null> {
    return (value, path) => (value === null ? null : inner(value, path));
  },

  /** Absent or null → undefined. */
  optional<T>(inner: Guard<T>): Guard<T | undefined> {
    return (value, path) => (value === undefined || value === null ? undefined : inner(value, path));
  },

  record: ((value, path) => {
    if (!isRecord(value)) throw shapeError(path, 'an object', value);
    return value;
  }) as Guard<Record<string, unknown>>,

  /** An object with the given fields (extra fields are ignored). */
  object<S extends Record<string, Guard<unknown>>>(shape: S): Guard<{ [K in keyof S]: ReturnType<S[K]> }> {
    return (value, path) => {
      if (!isRecord(value)) throw shapeError(path, 'an object', value);
      const out: Record<string, unknown> = {};
      for (const key of Object.keys(shape)) {
        out[key] = shape[key]!(value[key], `${path}.${key}`);
      }
      return out as { [K in keyof S]: ReturnType<S[K]> };
    };
  },
};

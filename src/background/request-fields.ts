// Request fields (already validated for shape, src/shared/validate.ts) turned into protocol values,
// with a failure named after the field the user typed into.
import { parseAddressFor } from '../core/encoding.js';
import { FormatError, ValidationError } from '../core/errors.js';
import type { OutputOwners } from '../core/codec/types.js';
import { makeOwners } from '../core/tx/context.js';
import type { OwnerSet } from '../shared/messages.js';

/** Re-labels a validation failure with the request field the user typed into. */
export async function asField<T>(field: string, run: () => T | Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    if (e instanceof ValidationError || e instanceof FormatError) throw new ValidationError(e.message, field);
    throw e;
  }
}

/** An owner set of the request as the chain's output owners; a bad address names its index. */
export function ownersFrom(set: OwnerSet, chain: 'X' | 'P', hrp: string): OutputOwners {
  const addresses = set.addresses.map((a, i) => {
    try {
      return parseAddressFor(a, chain, hrp);
    } catch (e) {
      throw new ValidationError((e as Error).message, `to.addresses[${i}]`);
    }
  });
  return makeOwners(addresses, set.threshold, BigInt(set.locktime ?? '0'));
}

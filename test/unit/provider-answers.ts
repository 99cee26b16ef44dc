// What a site request answered, for the tests that drive the provider: its result, or its error.
import type { ProviderResponse } from '../../src/shared/provider-protocol.js';

/** The result of a request that must succeed. */
export async function resultOf(p: Promise<ProviderResponse>): Promise<unknown> {
  const r = await p;
  if (!r.ok) throw new Error(`expected a result, got ${JSON.stringify(r.error)}`);
  return r.result;
}

/** The error of a request that must fail. */
export async function errorOf(p: Promise<ProviderResponse>): Promise<{ code: number; message: string; data?: unknown }> {
  const r = await p;
  if (r.ok) throw new Error(`expected an error, got ${JSON.stringify(r.result)}`);
  return r.error;
}

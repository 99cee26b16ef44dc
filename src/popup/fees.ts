// Fees before signing. Sends and moves ask the background (send.estimate, transfers.estimate),
// which builds the very transaction it would sign and reports its fee and the largest amount that
// still pays it. The asset studio's fees are fixed per kind of X-Chain tx (assets.fees).
import { useEffect, useRef, useState } from 'preact/hooks';
import { BackgroundError } from '../shared/client.js';
import type { AssetBalanceView, RequestParams, RequestResult } from '../shared/messages.js';
import { errorField, errorText, useCall } from './api.js';
import { units } from './format.js';

/** How long typing must pause before an estimate is asked for. */
export const ESTIMATE_DELAY_MS = 250;

/** Max's note when the funds are in more UTXOs than one transaction holds (an estimate's maxOneTx). */
export const MAX_ONE_TX = 'Max is the most one transaction can carry: your funds are in too many pieces for one. The rest can go in another';

/**
 * How many of the account's other X-Chain assets a send of `amount` AVAX (and its `fee`) would leave
 * without the AVAX to pay one send of them: every X-Chain tx pays its fee in AVAX. 0 for any other send.
 */
export function assetsLeftWithoutFee(assets: readonly AssetBalanceView[], sent: AssetBalanceView, amount: bigint, fee: bigint, hidden: ReadonlySet<string> = new Set()): number {
  if (sent.chain !== 'X' || !sent.verified || units(sent.spendable) - amount - fee >= fee) return 0;
  // Assets the user hid (unasked-for airdrops) are none of this note's concern.
  return assets.filter((b) => b.chain === 'X' && b.assetID !== sent.assetID && !hidden.has(b.assetID) && units(b.spendable) > 0n).length;
}

/** What to say when a send leaves `count` other X-Chain assets without the AVAX for their fee. */
export function noFeeLeftText(count: number): string {
  const them = count === 1 ? 'your other asset there' : `your ${count} other assets there`;
  return `This leaves too little AVAX on the X-Chain to pay the fee for sending ${them}, until more AVAX arrives.`;
}

export type EstimateType = 'send.estimate' | 'transfers.estimate';

export interface Estimate<T extends EstimateType> {
  /** The answer for exactly the params asked now; undefined while it is on its way or failed. */
  exact: RequestResult<T> | undefined;
  /** The latest answer for the same `group` (same chain and asset), possibly for other params. */
  latest: RequestResult<T> | undefined;
  /** Why the estimate for the params asked now failed; `field`: the form field it names, if any. */
  error: EstimateError | undefined;
  pending: boolean;
}

interface Answer<T extends EstimateType> {
  key: string;
  group: string;
  result?: RequestResult<T>;
  error?: EstimateError;
}

export interface EstimateError {
  code: string;
  message: string;
  field?: string | undefined;
}

/**
 * Asks for an estimate whenever `params` or `group` change (after a short pause in typing); `null`
 * asks nothing. Answers to params no longer current are dropped. `group` names what the max amount
 * depends on (chain, asset, balances snapshot), so an older answer's max stays usable while only
 * the amount or the address changes.
 */
export function useEstimate<T extends EstimateType>(type: T, params: RequestParams<T> | null, group: string, delayMs = ESTIMATE_DELAY_MS): Estimate<T> {
  const call = useCall();
  const key = params ? JSON.stringify(params) : '';
  const paramsRef = useRef(params);
  paramsRef.current = params;
  const [answer, setAnswer] = useState<Answer<T> | null>(null);
  const [latest, setLatest] = useState<{ group: string; result: RequestResult<T> } | null>(null);
  const [pending, setPending] = useState(false);

  useEffect(() => {
    const asked = paramsRef.current;
    if (!asked) {
      setPending(false);
      return;
    }
    let stale = false;
    setPending(true);
    const timer = setTimeout(() => {
      call(type, asked).then(
        (result) => {
          if (stale) return;
          setAnswer({ key, group, result });
          setLatest({ group, result });
        },
        (e: unknown) => {
          if (!stale) setAnswer({ key, group, error: { code: e instanceof BackgroundError ? e.code : 'internal', message: errorText(e), field: errorField(e) } });
        },
      ).finally(() => {
        if (!stale) setPending(false);
      });
    }, delayMs);
    return () => {
      stale = true;
      clearTimeout(timer);
    };
  }, [call, type, key, group, delayMs]);

  const current = answer !== null && answer.key === key && answer.group === group && key !== '';
  return {
    exact: current ? answer.result : undefined,
    latest: latest && latest.group === group && key !== '' ? latest.result : undefined,
    error: current ? answer.error : undefined,
    pending,
  };
}

/** The largest amount an estimate allows, or null when there is none to offer (unknown, or nothing). */
export function maxOf(estimate: { maxAmount: string } | undefined): bigint | null {
  const max = estimate ? BigInt(estimate.maxAmount) : 0n;
  return max > 0n ? max : null;
}

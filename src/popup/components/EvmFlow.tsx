// The estimate → review → confirm → status steps every EVM tx the popup builds goes through (token
// sends, revokes, speed-ups and cancels): the fee quoted with nothing signed, the review of it, the
// send with the reviewed fee as the most the background may sign for, then the tx followed until
// the C-Chain decides. A fee that rose in between is quoted again and reviewed again.
import { useState } from 'preact/hooks';
import { BackgroundError } from '../../shared/client.js';
import { errorInfo } from '../api.js';
import { FEE_WENT_UP, type PlainError } from '../errors.js';
import { WEI_DECIMALS } from '../format.js';
import type { Amount, EvmFeeQuote } from '../../shared/messages.js';
import { AmountText } from './AmountText.js';
import { MutedText } from './Field.js';

export type EvmStage<Q> = { k: 'idle' } | { k: 'estimating' } | { k: 'review' | 'sending'; quote: Q } | { k: 'done'; txHash: string; fee?: Amount };

export interface EvmFlow<Q> {
  stage: EvmStage<Q>;
  error: PlainError | undefined;
  /** Quotes the fee and opens the review. */
  review: () => Promise<void>;
  /** Sends with the reviewed quote. */
  confirm: () => Promise<void>;
  /** Back to the form (or the list), the review dropped. */
  edit: () => void;
}

export function useEvmFlow<Q extends EvmFeeQuote>(estimate: () => Promise<Q>, submit: (quote: Q) => Promise<{ txHash: string; fee?: Amount }>): EvmFlow<Q> {
  const [stage, setStage] = useState<EvmStage<Q>>({ k: 'idle' });
  const [error, setError] = useState<PlainError | undefined>(undefined);
  const review = async () => {
    setError(undefined);
    setStage({ k: 'estimating' });
    try {
      setStage({ k: 'review', quote: await estimate() });
    } catch (e) {
      setError(errorInfo(e));
      setStage({ k: 'idle' });
    }
  };
  const confirm = async () => {
    if (stage.k !== 'review') return;
    const quote = stage.quote;
    setError(undefined);
    setStage({ k: 'sending', quote });
    try {
      const r = await submit(quote);
      setStage({ k: 'done', txHash: r.txHash, ...(r.fee !== undefined ? { fee: r.fee } : {}) });
    } catch (e) {
      if (e instanceof BackgroundError && e.code === 'fee-above-approved') {
        // Nothing was signed: the new fee is shown for review, with the reason.
        try {
          const fresh = await estimate();
          setError({ text: FEE_WENT_UP });
          setStage({ k: 'review', quote: fresh });
        } catch (again) {
          setError({ text: `${FEE_WENT_UP} ${errorInfo(again).text}` });
          setStage({ k: 'idle' });
        }
        return;
      }
      setError(errorInfo(e));
      setStage({ k: 'review', quote });
    }
  };
  const edit = () => {
    setError(undefined);
    setStage({ k: 'idle' });
  };
  return { stage, error, review, confirm, edit };
}

/** An EVM tx's fee: the most it can cost (what confirming approves), and what it likely costs; each exact one click (or key) away. */
export function EvmFee({ quote }: { quote: EvmFeeQuote }) {
  return (
    <>
      <AmountText up prefix="at most " value={quote.maxFee} denomination={WEI_DECIMALS} symbol="AVAX" />
      <MutedText>
        {' '}
        (likely <AmountText label="Likely fee" value={quote.likelyFee} denomination={WEI_DECIMALS} symbol="AVAX" />; gas limit {BigInt(quote.gasLimit).toLocaleString('en-US')})
      </MutedText>
    </>
  );
}

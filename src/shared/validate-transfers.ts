// The validators of the cross-chain moves' requests (transfers.*: src/shared/messages-transfers.ts), built from validate-fields.ts.
import type { RequestParams, RequestType } from './messages.js';
import { amount, chainName, fail, type Fields, localId, none, present, record, U64_MAX } from './validate-fields.js';
import { maxFee } from './validate-fees.js';

type TransferType = Extract<RequestType, `transfers.${string}`>;

function transferRoute(f: Fields): RequestParams<'transfers.estimate'> {
  const from = chainName(f.from, 'from');
  const to = chainName(f.to, 'to');
  if (from === to) fail('to', 'must be a different chain from "from"');
  return { from, to, amount: amount(f.amount, 'amount', U64_MAX, true) };
}

function transferEstimateParams(params: unknown): RequestParams<'transfers.estimate'> {
  return transferRoute(record(params, '', ['from', 'to', 'amount']));
}

/** transfers.start: the route plus `maxFee`, the export and import fees together as approved. */
function transferParams(params: unknown): RequestParams<'transfers.start'> {
  const f = record(params, '', ['from', 'to', 'amount', 'maxFee'], ['maxExportFee']);
  return {
    ...transferRoute(f),
    maxFee: maxFee(f),
    ...(present(f, 'maxExportFee') ? { maxExportFee: amount(f.maxExportFee, 'maxExportFee', U64_MAX, false) } : {}),
  };
}

export const TRANSFER_VALIDATORS: { [T in TransferType]: (params: unknown) => RequestParams<T> } = {
  'transfers.start': transferParams,
  'transfers.estimate': transferEstimateParams,
  'transfers.list': none,
  'transfers.estimateImportWaiting': none,
  'transfers.importWaiting': (params) => {
    const f = record(params, '', ['planID', 'maxFee']);
    return { planID: localId(f.planID, 'planID'), maxFee: maxFee(f) };
  },
};

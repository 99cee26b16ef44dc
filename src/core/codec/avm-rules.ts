// The X-Chain's syntactic rules that a tx a site hands the wallet must pass before the user is asked
// (what the node's syntactic check refuses first): its transferable inputs and outputs as on the
// P-Chain (checkInputs, checkOutputs in transfer-rules.ts), a memo within bounds, and an import or export
// that moves something. An asset's creation and an operation's own rules are left to the node.
import { ValidationError } from '../errors.js';
import { checkInputs, checkOutputs } from './transfer-rules.js';
import type { XTx } from './types.js';

/** The most bytes an X-Chain tx's memo may hold. */
export const MAX_MEMO_SIZE = 256;

/** Throws ValidationError, naming the field, for an X-Chain tx the node would refuse on its form alone. */
export function verifyXTx(tx: XTx): void {
  if (tx.memo.length > MAX_MEMO_SIZE) throw new ValidationError(`${tx.kind} (X-Chain): a memo holds at most ${MAX_MEMO_SIZE} bytes, not ${tx.memo.length}`, 'memo');
  checkOutputs(tx, tx.outputs, 'outputs');
  checkInputs(tx, tx.inputs, 'inputs');
  if (tx.kind === 'ImportTx') {
    if (tx.importedInputs.length === 0) throw new ValidationError('ImportTx (X-Chain): nothing imported', 'importedInputs');
    checkInputs(tx, tx.importedInputs, 'importedInputs');
  }
  if (tx.kind === 'ExportTx') {
    if (tx.exportedOutputs.length === 0) throw new ValidationError('ExportTx (X-Chain): nothing exported', 'exportedOutputs');
    checkOutputs(tx, tx.exportedOutputs, 'exportedOutputs');
  }
}

// X/P requests of sites (xpc_* and Core's avalanche_* names): addresses, signing and sending a tx
// the site built (decoded and shown from the exact bytes signed), and Avalanche signed messages.
import { fromHex, toHex } from '../core/bytes.js';
import { formatAddress } from '../core/encoding.js';
import { timeText } from '../core/describe-pvm.js';
import { type ExternalTx, selectableInputs } from '../core/external-tx.js';
import { isLockedError, WalletError } from '../core/errors.js';
import { avalancheMessageDigest, signAvalancheMessage } from '../core/message.js';
import type { ActivityItem, ChainName } from '../shared/messages.js';
import { ProviderErrorCode as Code } from '../shared/provider-protocol.js';
import { type Call, MAX_MESSAGE_BYTES, messageShown, ProviderError, SiteHandler, type Site } from './provider-context.js';
import { chainAliasParam, InvalidParamsError, messageParam, onlyKeys, positional, soleObjectParam, txHexParam } from './provider-params.js';
import { autoRenewTiming, delegationTerms, siteStakeOf } from './site-stakes.js';
import { switchedSinceApproval } from './delivery.js';

/** A site's tx none of whose inputs this account's keys sign: refused, before its approval and again at signing. */
const signsNothingError = (): InvalidParamsError => new InvalidParamsError('params[0].transactionHex: no key of this account signs any input of this transaction', 'params[0].transactionHex');

export class SiteAvalanche extends SiteHandler {
  private async avalancheOnly(site: Site): Promise<void> {
    const chain = await this.conn.activeChain(site);
    if (chain.kind !== 'avalanche') {
      throw new ProviderError(Code.chainDisconnected, `X/P methods need an Avalanche network; this site is on ${chain.name} (EVM only)`);
    }
  }

  async xpAddresses(site: Site): Promise<{ X: string; P: string; C: string; CBech32: string }> {
    await this.avalancheOnly(site);
    // A lock landing during the read is waited out as the gate waits one out (at most twice more: nothing spins).
    for (let pass = 0; ; pass++) {
      try {
        const account = await this.conn.actingAccount(site);
        return { X: account.xAddress, P: account.pAddress, C: account.cAddress, CBech32: account.cBech32Address };
      } catch (e) {
        if (pass >= 2 || !isLockedError(e)) throw e;
      }
    }
  }

  siteTxParams(params: unknown): { chain: ChainName; bytes: Uint8Array } {
    const o = soleObjectParam(params);
    onlyKeys(o, 'params[0]', ['transactionHex', 'chainAlias']);
    return { chain: chainAliasParam(o.chainAlias, 'params[0].chainAlias', ['X', 'P', 'C']), bytes: txHexParam(o.transactionHex, 'params[0].transactionHex') };
  }

  /**
   * Signs (and, for 'send' when the wallet's signatures complete it, issues) a tx the site built.
   * Answer: { txID } once issued, else { signedTransactionHex, txID, complete }.
   */
  async siteTx(call: Call, action: 'sign' | 'send', p: { chain: ChainName; bytes: Uint8Array }): Promise<unknown> {
    await this.avalancheOnly(call.site);
    return this.gate.approved(call, 'site-tx', async () => {
      const account = await this.conn.actingAccount(call.site);
      const { engine, networkId } = await this.deps.wallet.siteEngine(account.id);
      const ext = await engine.resolveExternal(p.chain, p.bytes);
      // Whether this wallet signs anything is told in the approval, never before it: an error here
      // would tell a site which UTXOs and addresses are this account's without the user's leave.
      const signsNothing = !engine.signsAnyOf(ext);
      const complete = engine.signExternal(ext).complete;
      const base = await this.deps.wallet.approvalSummaryForTx(account.id, ext);
      const { cycleEnd } = await autoRenewTiming(engine, ext.tx);
      const validator = await delegationTerms(engine, ext.tx);
      if (validator.length > 0) base.view.details = [...(base.view.details ?? []), ...validator];
      // No start and no end: the site can send it whenever the funds it spends are still there.
      if (ext.tx.kind === 'AddAutoRenewedValidatorTx' && (action === 'sign' || !complete)) {
        base.view.details = [...(base.view.details ?? []), { label: 'Starts', value: 'when the site sends it: at any time while the funds it spends are unspent, locking them for a whole cycle from then' }];
      }
      if (cycleEnd !== undefined) {
        base.view.details?.push({ label: 'Current cycle ends', value: timeText(BigInt(cycleEnd)) });
        // Not sent by the wallet: the site sends it when it likes, and one the chain takes after that end waits a further cycle.
        if (action === 'sign' || !complete) base.view.details?.push({ label: 'If the chain takes it after that', value: 'it applies from a later cycle' });
      }
      return {
        summary: { ...base, action, complete, ...(signsNothing ? { signsNothing: true as const } : {}) },
        payload: { kind: 'site-tx', accountId: account.id, networkId, chain: p.chain, txHex: toHex(p.bytes), action, shown: engine.fingerprintOf(ext), signsNothing, cycleEnd },
      };
    }, async (payload) => {
      // What the user approved is what is signed: "signs nothing" stays so, and the node's word on
      // what the tx spends and who authorizes it must not have changed since the approval.
      if (typeof payload.shown !== 'string') throw new WalletError('stale-approval', 'this request was approved in an earlier version of the wallet; nothing was signed: ask again');
      if (payload.signsNothing) throw signsNothingError();
      const { engine, networkId } = await this.deps.wallet.siteEngine(payload.accountId);
      // Signed and sent only on the network it was approved on (its outbox, its Activity, its stake book).
      if (networkId !== payload.networkId) throw switchedSinceApproval();
      const ext: ExternalTx = await engine.resolveExternal(payload.chain, fromHex(payload.txHex));
      if (engine.fingerprintOf(ext) !== payload.shown) {
        throw new WalletError('node-response', "the node's answer on what this transaction spends or who authorizes it changed after you approved it; nothing was signed: ask again");
      }
      if (!engine.signsAnyOf(ext)) throw signsNothingError();
      // A change of an auto-renewed validator is signed only in the cycle it was approved in.
      const { sendBefore } = await autoRenewTiming(engine, ext.tx, payload.cycleEnd ?? 0);
      const signed = engine.signExternal(ext);
      const hex = `0x${toHex(signed.signedBytes)}`;
      if (payload.action === 'sign' || !signed.complete) {
        await this.deps.wallet.checkSiteSigning(payload.accountId, payload.chain, signed.signedBytes, payload.networkId, signed.complete ? signed.txID : undefined);
        return { signedTransactionHex: hex, txID: signed.txID, complete: signed.complete };
      }
      const stake = siteStakeOf(ext.tx, engine.ctx.hrp, engine.ctx.avaxAssetID, Math.floor(Date.now() / 1000), new Set(engine.addresses('P')));
      const record = stake?.record;
      const item: ActivityItem = { txID: signed.txID, chain: payload.chain, kind: activityKind(ext), ...stake?.activity, ...(sendBefore !== undefined ? { sendBefore } : {}), status: 'pending', createdAt: Date.now() };
      // In the stake book as it goes out, as the wallet's own stakes are: never for a tx stopped before.
      const recorded = record && ((networkId: string) => this.deps.wallet.recordSiteStake(payload.accountId, networkId, { ...record, txID: signed.txID }));
      // Which of its inputs a send could select too: refused, it is kept in the way of later sends only if one is (keptInTheWay), else only watched (watchedOnly).
      const selectable = payload.chain === 'C' ? undefined : selectableInputs(ext, engine.owned, engine.listedKeys);
      await this.deps.wallet.sendSiteTx(payload.accountId, { chain: payload.chain, txID: signed.txID, signedBytes: signed.signedBytes, ...(selectable ? { selectable } : {}) }, item, payload.networkId, recorded);
      return { txID: signed.txID };
    });
  }

  siteMessageParams(params: unknown): { chain: 'X' | 'P'; message: ReturnType<typeof messageParam> } {
    const o = soleObjectParam(params);
    onlyKeys(o, 'params[0]', ['message', 'chainAlias']);
    return {
      chain: chainAliasParam(o.chainAlias ?? 'X', 'params[0].chainAlias', ['X', 'P']) as 'X' | 'P',
      message: messageParam(o.message, 'params[0].message', MAX_MESSAGE_BYTES),
    };
  }

  /** The Avalanche signed-message format with the account's X/P key; answers { signature, address }. */
  async avalancheMessage(call: Call, p: { chain: 'X' | 'P'; message: ReturnType<typeof messageParam> }): Promise<{ signature: string; address: string }> {
    await this.avalancheOnly(call.site);
    return (await this.gate.approved(call, 'avalanche-message', async () => {
      const account = await this.conn.actingAccount(call.site);
      return {
        summary: {
          kind: 'sign-message',
          format: 'avalanche',
          ...messageShown(p.message),
          digestHex: `0x${toHex(avalancheMessageDigest(p.message.bytes))}`,
          signer: p.chain === 'X' ? account.xAddress : account.pAddress,
        },
        payload: { kind: 'avalanche-message', accountId: account.id, messageHex: toHex(p.message.bytes) },
      };
    }, async (payload) => {
      const hrp = (await this.deps.wallet.siteNetwork()).network.hrp;
      return this.deps.wallet.withXpKey(payload.accountId, (key) => ({
        signature: signAvalancheMessage(key.secret, fromHex(payload.messageHex)),
        address: formatAddress(p.chain, hrp, key.shortId),
      }));
    })) as { signature: string; address: string };
  }

  async coreAccounts(site: Site): Promise<unknown[]> {
    await this.avalancheOnly(site);
    const accounts = await this.conn.connectedAccounts(site);
    return accounts.map((a, i) => ({
      index: a.index ?? i,
      name: a.name,
      active: i === 0,
      addressC: a.cAddress,
      addressAVM: a.xAddress,
      addressPVM: a.pAddress,
      addressCoreEth: a.cBech32Address,
    }));
  }

  async coreSendTransaction(call: Call, action: 'sign' | 'send'): Promise<unknown> {
    const o = soleObjectParam(call.params);
    // Core's extra fields are accepted and not used: the wallet reads the UTXOs from its own node
    // and signs with every key of the account it knows, whatever indices a site names.
    onlyKeys(o, 'params[0]', ['transactionHex', 'chainAlias', 'externalIndices', 'internalIndices', 'utxos', 'feeTolerance']);
    const p = { chain: chainAliasParam(o.chainAlias, 'params[0].chainAlias', ['X', 'P', 'C']), bytes: txHexParam(o.transactionHex, 'params[0].transactionHex') };
    const result = (await this.siteTx(call, action, p)) as { txID?: string; signedTransactionHex?: string };
    // Core answers a send with the tx ID alone and a sign with the signed hex.
    if (action === 'send' && result.signedTransactionHex === undefined) return result.txID;
    return action === 'send' ? result : { signedTransactionHex: result.signedTransactionHex };
  }

  async coreSignMessage(call: Call): Promise<string> {
    const list = positional(call.params, 1, 2);
    const message = messageParam(list[0], 'params[0]', MAX_MESSAGE_BYTES);
    const result = await this.avalancheMessage(call, { chain: 'X', message });
    return result.signature;
  }
}

/** What a site tx shows as in Activity: an operation by what it does, an NFT sent first (it leaves the wallet). */
export function activityKind(ext: ExternalTx): ActivityItem['kind'] {
  if (ext.tx.kind === 'ExportTx') return 'export';
  if (ext.tx.kind === 'ImportTx') return 'import';
  if (ext.tx.kind === 'CreateAssetTx') return 'create-asset';
  if (ext.tx.kind !== 'OperationTx') return 'send';
  const ops = ext.tx.operations.map((o) => o.op.kind);
  return ops.includes('NftTransferOperation') ? 'nft-transfer' : ops.includes('NftMintOperation') ? 'nft-mint' : 'mint';
}


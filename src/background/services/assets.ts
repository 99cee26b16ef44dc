// The X-Chain asset studio: create fixed-cap, variable-cap and NFT assets, mint, send NFTs, and
// list what this wallet holds rights to. Built by the core engine; sent through Delivery.
import { sha256 } from '@noble/hashes/sha2.js';
import { byteKey, fromHex, toHex } from '../../core/bytes.js';
import { parseUtxoId, utxoId } from '../../core/codec/ids.js';
import type { Utxo } from '../../core/codec/types.js';
import { cb58Encode, formatAddress, parseAddress, parseId } from '../../core/encoding.js';
import type { WalletEngine } from '../../core/engine.js';
import { ValidationError } from '../../core/errors.js';
import { chainContextOf } from '../../core/network.js';
import type { ProvenAsset } from '../../core/proof.js';
import { othersCanSpend, ownedAddressSet, type OwnedAddresses, signingIndices } from '../../core/tx/utxos.js';
import { fixedCapState, nftFamilyState, variableCapState } from '../../core/tx/x.js';
import type { MintRightView, NftView, RequestParams as P } from '../../shared/messages.js';
import type { AccountEngines } from '../account-engines.js';
import type { Delivery } from '../delivery.js';
import { ownersFrom } from '../request-fields.js';
import { mapLimited } from '../map-limited.js';
import type { NetworksService, Preset } from './networks.js';

export class AssetsService {
  constructor(
    private readonly engines: AccountEngines,
    private readonly networks: NetworksService,
    private readonly delivery: Delivery,
  ) {}

  /** The network's fixed X-Chain fees, the same the builders charge (they read the same context). */
  async assetsFees() {
    const { preset } = await this.engines.selected();
    const ctx = chainContextOf(await this.networks.identity(preset));
    return { createAsset: ctx.xCreateAssetTxFee.toString(), operation: ctx.xTxFee.toString() };
  }

  async assetsCreate(p: P<'assets.create'>) {
    const ctx = await this.engines.open();
    const { engine } = ctx;
    const hrp = engine.ctx.hrp;
    const holders = () => (p.holders ?? []).map((h) => ({ owners: ownersFrom(h.owners, 'X', hrp), amount: BigInt(h.amount) }));
    const minters = () => (p.minters ?? []).map((m) => ownersFrom(m, 'X', hrp));
    const states = p.kind === 'fixed' ? [fixedCapState(holders())] : p.kind === 'variable' ? [variableCapState(minters(), holders())] : [nftFamilyState(minters())];
    const built = await engine.buildXCreateAsset({ name: p.name, symbol: p.symbol, denomination: p.denomination, initialStates: states });
    const issued = await this.delivery.issue(ctx, 'create-asset', built, p.maxFee, { created: { name: p.name, symbol: p.symbol } });
    return { txID: issued.txID, assetID: issued.txID, fee: issued.fee.toString() };
  }

  async assetsMint(p: P<'assets.mint'>) {
    const ctx = await this.engines.open();
    const { engine } = ctx;
    const mintUtxo = await assetUtxo(engine, p.assetID, p.utxoID, (u) => u.output.kind === 'MintOutput', 'mint right');
    const built = await engine.buildXMint(mintUtxo, BigInt(p.amount), ownersFrom(p.to, 'X', engine.ctx.hrp));
    const issued = await this.delivery.issue(ctx, 'mint', built, p.maxFee, { assetID: p.assetID, amount: p.amount, to: p.to.addresses.join(', ') });
    return { txID: issued.txID, fee: issued.fee.toString() };
  }

  async assetsMintNft(p: P<'assets.mintNft'>) {
    const ctx = await this.engines.open();
    const { engine } = ctx;
    const mintUtxo = await assetUtxo(engine, p.assetID, p.utxoID, (u) => u.output.kind === 'NftMintOutput' && u.output.groupID === p.groupID, `NFT mint right for group ${p.groupID}`);
    const to = p.to.map((o) => ownersFrom(o, 'X', engine.ctx.hrp));
    const built = await engine.buildXNftMint(mintUtxo, fromHex(p.payloadHex), to);
    // Its owner and payload recorded: the review of the same mint again says so ('Minted before').
    const extra = { assetID: p.assetID, to: p.to.flatMap((o) => o.addresses).join(', '), payloadHash: toHex(sha256(fromHex(p.payloadHex))) };
    const issued = await this.delivery.issue(ctx, 'nft-mint', built, p.maxFee, extra);
    return { txID: issued.txID, fee: issued.fee.toString() };
  }

  async assetsTransferNft(p: P<'assets.transferNft'>) {
    const ctx = await this.engines.open();
    const { engine } = ctx;
    const ref = parseUtxoId(p.utxoID);
    const nft = (await engine.utxos('X')).find((u) => utxoId(u) === utxoId(ref));
    // One no tx proves is never listed; named by its ID anyway, it is not signed for either.
    if (!nft || engine.isUnproven(nft)) throw new ValidationError('this wallet does not hold that NFT', 'utxoID');
    if (nft.output.kind === 'NftTransferOutput' && nft.output.owners.locktime > (await engine.now('X'))) {
      throw new ValidationError('this NFT is still time-locked: it can be sent once it unlocks (your NFT list says when); nothing was signed', 'utxoID');
    }
    const built = await engine.buildXNftTransfer(nft, ownersFrom(p.to, 'X', engine.ctx.hrp));
    const issued = await this.delivery.issue(ctx, 'nft-transfer', built, p.maxFee, { assetID: cb58Encode(nft.assetID), to: p.to.addresses.join(', ') });
    return { txID: issued.txID, fee: issued.fee.toString() };
  }

  /**
   * NFTs on X this wallet's keys meet the owners' threshold of; one still time-locked says until when
   * (`lockedUntil`), one another key can also send alone (a stranger in a 1-of-2) says so (`shared`).
   */
  async assetsListNfts() {
    const { engine, preset } = await this.engines.open();
    const owned = ownedOf(engine);
    const now = await engine.now('X');
    const held = (await engine.utxos('X')).filter((u) => u.output.kind === 'NftTransferOutput' && canSign(engine, u, owned));
    const names = await this.namesOf(preset, held);
    const nfts: NftView[] = [];
    for (const u of held) {
      if (u.output.kind !== 'NftTransferOutput') continue;
      const assetID = cb58Encode(u.assetID);
      const { name, symbol } = names.get(assetID)!;
      const { owners } = u.output;
      const lock = owners.locktime;
      const shared = othersCanSpend(owners, owned, signingIndices(owners, owned)!);
      nfts.push({ utxoID: utxoId(u), assetID, groupID: u.output.groupID, payloadHex: toHex(u.output.payload), name, symbol, ...(lock > now ? { lockedUntil: Number(lock) } : {}), ...(shared ? { shared } : {}) });
    }
    return { nfts };
  }

  /**
   * Mint rights on X (variable-cap assets and NFT groups) this wallet can sign for, one per asset
   * and group: the one its mint spends (its `utxoID` comes back with the mint), so the review names
   * that right's minter set. Preferred: one the account's keys hold alone, then the lowest UTXO ID.
   */
  async assetsMintRights() {
    const { engine, preset } = await this.engines.open();
    const owned = ownedOf(engine);
    const alone = (u: Utxo) => ('owners' in u.output && u.output.owners.addresses.every((a) => owned.has(byteKey(a))) ? 0 : 1);
    const now = await engine.now('X');
    const isRight = (u: Utxo) => (u.output.kind === 'MintOutput' || u.output.kind === 'NftMintOutput') && canSign(engine, u, owned, now);
    const utxos = (await engine.utxos('X')).filter(isRight).sort((a, b) => alone(a) - alone(b) || (utxoId(a) < utxoId(b) ? -1 : 1));
    const names = await this.namesOf(preset, utxos);
    const rights: MintRightView[] = [];
    const listed = new Set<string>();
    for (const u of utxos) {
      const out = u.output;
      if (out.kind !== 'MintOutput' && out.kind !== 'NftMintOutput') continue;
      const assetID = cb58Encode(u.assetID);
      const key = `${assetID}/${out.kind === 'NftMintOutput' ? out.groupID : ''}`;
      if (listed.has(key)) continue;
      listed.add(key);
      rights.push({
        assetID,
        utxoID: utxoId(u),
        ...names.get(assetID)!,
        kind: out.kind === 'MintOutput' ? 'variable' : 'nft',
        ...(out.kind === 'NftMintOutput' ? { groupID: out.groupID } : {}),
        threshold: out.owners.threshold,
        addresses: out.owners.addresses.map((a) => formatAddress('X', engine.ctx.hrp, a)),
      });
    }
    return { rights };
  }

  /**
   * The names of the assets of `utxos`, each asked once and a few at a time: anyone can send NFTs or
   * mint rights of hundreds of families, and one by one their lookups would hold the list for minutes.
   */
  private async namesOf(preset: Preset, utxos: readonly Utxo[]): Promise<Map<string, ProvenAsset>> {
    const ids = [...new Set(utxos.map((u) => cb58Encode(u.assetID)))];
    const names = await mapLimited(ids, NAME_READS_AT_ONCE, (id) => this.networks.assetDescriptionOrUnknown(preset, id));
    return new Map(ids.map((id, i) => [id, names[i]!]));
  }
}

/** How many assets' creating txs the lists above ask the node for at once. */
const NAME_READS_AT_ONCE = 8;

/**
 * The mint right the review named (`id`, from assets.mintRights), if it is still one of this asset
 * this wallet can spend (proven, signable, of the kind asked). Spent elsewhere since, or never one:
 * refused in words before anything is signed.
 */
async function assetUtxo(engine: WalletEngine, assetID: string, id: string, match: (u: Utxo) => boolean, what: string): Promise<Utxo> {
  const owned = ownedOf(engine);
  const key = utxoId(parseUtxoId(id));
  const now = await engine.now('X');
  const found = (await engine.assetUtxos(parseId(assetID))).find((u) => utxoId(u) === key && match(u) && canSign(engine, u, owned, now));
  if (!found) throw new ValidationError(`this wallet cannot sign for that ${what} of this asset (it may have been used since the review); nothing was signed`, 'utxoID');
  return found;
}

/** Short IDs (hex) of the account's X/P keys, as read off the engine's addresses. */
function ownedOf(engine: WalletEngine): OwnedAddresses {
  return ownedAddressSet(engine.addresses('X').map((a) => parseAddress(a).bytes));
}

/**
 * An X UTXO the wallet's keys meet the owners' threshold of and, given the chain's `now`, whose
 * locktime has passed (the chain's rule: spendable once locktime ≤ now). One no tx proves (it may
 * be the node's invention) is neither listed nor used.
 */
function canSign(engine: WalletEngine, u: Utxo, owned: OwnedAddresses, now?: bigint): boolean {
  const out = u.output;
  if (out.kind === 'StakeableLockOut' || engine.isUnproven(u)) return false;
  return (now === undefined || out.owners.locktime <= now) && signingIndices(out.owners, owned) !== undefined;
}

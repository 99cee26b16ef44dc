// Networks: the presets and the user's own, which one is selected, and who each node is. A node's
// identity is checked (discoverNetwork) before it is used, once per worker life, and a custom
// network's identity is pinned when it is added: a node that later tells another story is refused.
import { NetworkMismatchError, NodeUnreachableError, RpcError, ValidationError, WalletError } from '../../core/errors.js';
import { cb58Encode } from '../../core/encoding.js';
import { customPreset, discoverNetwork, hrpForNetworkId, PRESETS, type NetworkIdentity, type NetworkPreset } from '../../core/network.js';
import { NodeClient } from '../../core/node.js';
import { provenAsset, type ProvenAsset } from '../../core/proof.js';
import { isRecord } from '../../core/rpc.js';
import { type ActivityItem, type NetworkView, type RequestParams as P, UNKNOWN_ASSET_SYMBOL, type WalletStatus } from '../../shared/messages.js';
import { AccountCaches, accountStorageKeys, chainsKey, entryJournalKey, entryOutboxKey, hiddenAssetsKey, journalKey, takeIndices, tokensKey } from '../account-cache.js';
import { openOutbox, sendsInTheWay } from '../outbox.js';
import { openJournal } from '../transfer-journal.js';
import { assertNameFreeAmong, type CustomNetwork, networkIdsOf, newId, type PersistedState, pinOf, type SettingsStore } from '../settings.js';
import type { StorageArea } from '../storage.js';

/** A network preset with its wallet ID; custom ones carry the hrp saved when they were added. */
export type Preset = NetworkPreset & { id: string; savedHrp?: string };

/** The chains each entry its settings do not fix served when last checked (chainsLastKnown). */
const LAST_CHAINS_KEY = 'xpc.lastchains';
/** How long Activity waits for the node to name the assets this worker has not named yet. */
const NAMING_WAIT_MS = 3_000;
/** How long an asset Activity could not name is left unnamed before it is asked for again. */
const NAMING_RETRY_MS = 5 * 60_000;

/** What is shown for an asset whose creating tx the wallet cannot prove: its amounts in base units. */
export const UNKNOWN_ASSET: ProvenAsset = { name: 'Unknown asset (no creating transaction)', symbol: UNKNOWN_ASSET_SYMBOL, denomination: 0 };

export class NetworksService {
  #identities = new Map<string, NetworkIdentity>();
  #assetNames = new Map<string, ProvenAsset>();
  /** Assets Activity could not name, by network and asset: when it last tried. */
  #namingMissed = new Map<string, number>();

  constructor(
    private readonly settings: SettingsStore,
    private readonly local: StorageArea,
    private readonly options: {
      /** The wallet's status after a switch (the accounts service answers it). */
      status: () => Promise<WalletStatus>;
      /** The moves between chains unfinished in these journals (TransfersService.unfinishedIn). */
      unfinishedMoves?: (journalKeys: readonly string[]) => Promise<string[]>;
      fetch?: typeof fetch;
    },
  ) {}

  presetOf(s: PersistedState, id: string): Preset {
    const builtIn = (PRESETS as Record<string, NetworkPreset>)[id];
    if (builtIn) return { ...builtIn, id };
    const custom = s.customNetworks.find((n) => n.id === id);
    if (!custom) throw new ValidationError(`no network ${id}`, 'id');
    return presetOfCustom(custom);
  }

  /** `hrp` when the caller already knows it; else from the node's identity, the preset, or what was saved. */
  networkView(preset: Preset, hrp?: string): NetworkView {
    return {
      id: preset.id,
      kind: preset.kind,
      name: preset.name,
      url: preset.url,
      atomicNamespace: preset.atomicApi.namespace,
      hrp: hrp ?? this.#identities.get(preset.id)?.hrp ?? preset.hrp ?? preset.savedHrp ?? '',
      ...(preset.explorerUrl ? { explorerUrl: preset.explorerUrl } : {}),
    };
  }

  client(preset: NetworkPreset): NodeClient {
    return new NodeClient({ url: preset.url, atomicApi: preset.atomicApi, ...(this.options.fetch ? { fetch: this.options.fetch } : {}) });
  }

  /** The node's identity, checked against the preset once per worker life. */
  async identity(preset: Preset): Promise<NetworkIdentity> {
    let id = this.#identities.get(preset.id);
    if (!id) {
      id = await discoverNetwork(this.client(preset), preset);
      this.#identities.set(preset.id, id);
      if (preset.kind === 'custom' && !preset.known) await this.pinOnFirstUse(preset.id, id);
      else if (!preset.known) await this.rememberChains(preset.id, chainsKey(id.networkID, id.xChainID)).catch(() => undefined);
    }
    return id;
  }

  /** Notes the chains an entry its settings do not fix (the Local network) was last found serving (chainsLastKnown). */
  private async rememberChains(networkId: string, chains: string): Promise<void> {
    const map = await this.lastChains();
    if (map[networkId] !== chains) await this.local.set({ [LAST_CHAINS_KEY]: { ...map, [networkId]: chains } });
  }

  /** What LAST_CHAINS_KEY holds: by entry, the chains it last served (anything else reads as none). */
  private async lastChains(): Promise<Record<string, unknown>> {
    const stored = (await this.local.get([LAST_CHAINS_KEY]))[LAST_CHAINS_KEY];
    return isRecord(stored) ? stored : {};
  }

  /**
   * The chains `preset` serves as far as known without its node: chainsKnown, else what it served
   * when last checked (the Local network after a restart), for showing what is kept per chains.
   */
  async chainsLastKnown(preset: Preset): Promise<string | undefined> {
    const known = this.chainsKnown(preset);
    if (known !== undefined) return known;
    const last = (await this.lastChains())[preset.id];
    return typeof last === 'string' ? last : undefined;
  }

  /** A custom network added before identities were pinned is pinned by its first checked answer. */
  private async pinOnFirstUse(networkId: string, id: NetworkIdentity): Promise<void> {
    await this.settings.update((s) => ({
      ...s,
      customNetworks: s.customNetworks.map((n) => (n.id === networkId && !n.pinned ? { ...n, pinned: pinOf(id) } : n)),
    }));
  }

  /** The chains `preset` serves (chainsKey) when known without its node: fixed by a known or pinned network, or checked in this worker's life. */
  chainsKnown(preset: Preset): string | undefined {
    const id = preset.networkID !== undefined && preset.known ? { networkID: preset.networkID, xChainID: preset.known.xChainID } : this.#identities.get(preset.id);
    return id && chainsKey(id.networkID, id.xChainID);
  }

  /** The chains `preset` serves (chainsKey), asked of its node when not known without it. */
  async chainsOf(preset: Preset): Promise<string> {
    const known = this.chainsKnown(preset);
    if (known !== undefined) return known;
    const id = await this.identity(preset);
    return chainsKey(id.networkID, id.xChainID);
  }

  /** The network entries known to serve `chains` (chainsKnown). */
  entriesOf(s: PersistedState, chains: string): string[] {
    return networkIdsOf(s).filter((id) => this.chainsKnown(this.presetOf(s, id)) === chains);
  }

  /** entriesOf, with those whose chains are known only from when last checked (chainsLastKnown). */
  async entriesLastKnown(s: PersistedState, chains: string): Promise<string[]> {
    const found: string[] = [];
    for (const id of networkIdsOf(s)) if ((await this.chainsLastKnown(this.presetOf(s, id)).catch(() => undefined)) === chains) found.push(id);
    return found;
  }

  /**
   * The hrp, without a network round trip when the preset already fixes it or it was saved with the
   * network (an entry from before pinning: the wallet's status must not wait on its node).
   */
  async hrpOf(preset: Preset): Promise<string> {
    return this.#identities.get(preset.id)?.hrp ?? preset.hrp ?? preset.savedHrp ?? (await this.identity(preset)).hrp;
  }

  /** The selected network's hrp. */
  hrpNow(s: PersistedState): Promise<string> {
    return this.hrpOf(this.presetOf(s, s.selectedNetworkId));
  }

  /**
   * assetDescription, or UNKNOWN_ASSET for an asset the wallet cannot prove (the node will not show
   * its CreateAssetTx, or it cannot be read): a list goes on without it rather than failing whole.
   */
  assetDescriptionOrUnknown(preset: Preset, assetID: string): Promise<ProvenAsset> {
    return this.assetDescription(preset, assetID).catch((e: unknown) => {
      if (e instanceof ValidationError) return UNKNOWN_ASSET;
      throw e;
    });
  }

  /**
   * Activity's items, each asset (AVAX and tokens aside) with its symbol and decimals from its
   * proven CreateAssetTx, so one no longer held still reads in its own unit. One the node cannot
   * show, or not within NAMING_WAIT_MS, stays unnamed.
   */
  async nameAssets(preset: Preset, items: ActivityItem[]): Promise<ActivityItem[]> {
    const now = Date.now();
    // One the node could not show, or not in time, is not asked again for a while: each Activity
    // opening would wait for it again.
    const missed = (id: string) => now - (this.#namingMissed.get(`${preset.id}:${id}`) ?? -Infinity) < NAMING_RETRY_MS;
    const ids = [...new Set(items.flatMap((a) => (a.assetID && !a.token && a.assetID !== preset.known?.avaxAssetID ? [a.assetID] : [])))];
    const named = new Map<string, ProvenAsset>();
    for (const id of ids) {
      const known = this.#assetNames.get(`${preset.id}:${id}`);
      if (known) named.set(id, known);
    }
    const asking = ids.filter((id) => !named.has(id) && !missed(id));
    const until = now + NAMING_WAIT_MS;
    // A few at a time: spam can bring hundreds of assets, each a read of the node (then cached).
    for (let i = 0; i < asking.length && Date.now() < until; i += 8) {
      const batch = asking.slice(i, i + 8);
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise((r) => (timer = setTimeout(r, until - Date.now())));
      await Promise.race([Promise.all(batch.map((id) => this.assetDescription(preset, id).then((info) => void named.set(id, info), () => undefined))), late]);
      clearTimeout(timer);
      // Asked and not named (refused, or not in time): not asked again for a while.
      for (const id of batch) if (!named.has(id)) this.#namingMissed.set(`${preset.id}:${id}`, now);
    }
    return items.map((a) => {
      const info = named.get(a.assetID ?? '');
      return info ? { ...a, assetInfo: { symbol: info.symbol, denomination: info.denomination } } : a;
    });
  }

  /** An asset's name, symbol and decimals, read from its CreateAssetTx once per network and worker. */
  async assetDescription(preset: Preset, assetID: string): Promise<ProvenAsset> {
    const key = `${preset.id}:${assetID}`;
    let info = this.#assetNames.get(key);
    if (!info) {
      info = await provenAsset(this.client(preset), assetID);
      this.#assetNames.set(key, info);
    }
    return info;
  }

  // ---- requests ----

  async networksList() {
    const s = await this.settings.read();
    return { networks: networkIdsOf(s).map((id) => this.networkView(this.presetOf(s, id))), selectedId: s.selectedNetworkId };
  }

  async networksSelect(p: P<'networks.select'>): Promise<WalletStatus> {
    const preset = this.presetOf(await this.settings.read(), p.id);
    // Check the node is what it claims before switching: a mismatch leaves the selection as it was.
    this.#identities.delete(preset.id);
    await this.identity(preset);
    await this.settings.update((now) => {
      this.presetOf(now, p.id); // still there: it may have been removed while the node was asked
      return { ...now, selectedNetworkId: p.id };
    });
    return this.options.status();
  }

  async networksAddCustom(p: P<'networks.addCustom'>) {
    // Each network has a name of its own (the header's badge and each row's buttons name it): asked
    // before the node, and again as it is saved (another window may have added one since).
    const namesIn = (s: PersistedState) => networkIdsOf(s).map((id) => this.presetOf(s, id).name);
    assertNameFreeAmong(namesIn(await this.settings.read()), p.name, 'network');
    const record: CustomNetwork = { id: `custom-${newId()}`, name: p.name, url: p.url, atomicNamespace: p.atomicNamespace ?? 'avax' };
    // Saved only once discoverNetwork checked it (a public network's EVM chain ID, self-consistency).
    const identity = await this.identity(presetOfCustom(record));
    await this.checkAtomicApi(presetOfCustom(record));
    record.hrp = identity.hrp;
    record.pinned = pinOf(identity);
    await this.settings.update((s) => {
      assertNameFreeAmong(namesIn(s), record.name, 'network');
      return { ...s, customNetworks: [...s.customNetworks, record] };
    });
    return this.networkView(presetOfCustom(record));
  }

  /**
   * The C-Chain atomic API answers under the namespace given (real nodes: `avax`): asked for a tx
   * no chain has, a node that serves it says "not found"; a wrong name gets no such API at all (404,
   * or no such method), which would otherwise show later as a node that cannot be reached.
   */
  private async checkAtomicApi(preset: Preset): Promise<void> {
    try {
      await this.client(preset).atomic.findExecutedAtomicTx(cb58Encode(new Uint8Array(32)));
    } catch (e) {
      const missing = e instanceof NodeUnreachableError || (e instanceof RpcError && (e.rpcCode === -32601 || /method .*not (found|exist)|does not exist/i.test(e.rpcMessage)));
      if (!missing) throw e;
      throw new ValidationError(`the node has no C-Chain atomic API named ${preset.atomicApi.namespace} (real nodes call it avax)`, 'atomicNamespace');
    }
  }

  async networksRemove(p: P<'networks.remove'>) {
    const before = await this.settings.read();
    const preset = before.customNetworks.some((n) => n.id === p.id) ? this.presetOf(before, p.id) : undefined;
    // Its outboxes and move journals are kept per chains (outboxKey, journalKey), not with it:
    // removed and added again (the way to change a node's address), it finds the sends the next
    // one there must conflict with, and its moves go on. Those an older version kept with it are
    // moved there first, when its chains are known (chainsKnown).
    const chains = preset && this.chainsKnown(preset);
    if (chains !== undefined) {
      // One that cannot be read stays with it, and is asked about below.
      for (const a of before.accounts) {
        await openOutbox(this.local, chains, a.id, [entryOutboxKey(p.id, a.id)]).catch(() => undefined);
        await openJournal(this.local, chains, a.id, [entryJournalKey(p.id, a.id)]).catch(() => undefined);
      }
    }
    if (p.confirmLoss !== true) {
      // Moves no other entry for its chains runs stop: those of its chains until it is added again;
      // one kept with it (not yet moved: its chains unknown) goes with it, its funds shown as waiting then.
      const othersRun = chains !== undefined && this.entriesOf(before, chains).some((id) => id !== p.id);
      const journals = before.accounts.flatMap((a) => [entryJournalKey(p.id, a.id), ...(chains !== undefined && !othersRun ? [journalKey(chains, a.id)] : [])]);
      const moves = (await this.options.unfinishedMoves?.(journals))?.length ?? 0;
      // An outbox kept with it (not yet moved: its chains unknown, or unreadable) goes with it too, and
      // a later send on the same chains, under any entry, could run beside one of it: a second payment.
      const sends = (await sendsInTheWay(this.local, before.accounts.map((a) => entryOutboxKey(p.id, a.id)))).length;
      const said = [
        ...(moves > 0 ? [`${moves} move(s) between chains on this network are not finished; removing it stops them. The funds stay on chain, and ${chains !== undefined ? 'adding the network again picks them up' : 'show as waiting to import if you add the network again'}.`] : []),
        ...(sends > 0 ? [`${sends} transaction(s) on this network are not decided yet, or were refused but could still go through; removing it forgets them: a later send on the same network, under any entry, would not be kept from paying twice.`] : []),
      ];
      if (said.length > 0) throw new WalletError(moves > 0 ? 'network-has-moves' : 'network-has-sends', `${said.join(' ')} Remove it anyway?`);
    }
    const s = await this.settings.update((s) => {
      if (!s.customNetworks.some((n) => n.id === p.id)) throw new ValidationError('only custom networks can be removed', 'id');
      if (s.selectedNetworkId === p.id) throw new ValidationError('switch to another network before removing this one', 'id');
      return { ...s, customNetworks: s.customNetworks.filter((n) => n.id !== p.id) };
    });
    // The addresses it handed out stay known to the other entries for its chains (takeIndices), the
    // Local network's too when not yet asked in this worker's life (a stale guess only adds addresses).
    const caches = new AccountCaches(this.local);
    for (const id of chains === undefined ? [] : await this.entriesLastKnown(s, chains)) {
      for (const a of s.accounts) {
        const mine = await caches.get(p.id, a.id).catch(() => undefined);
        await caches.update(id, a.id, (c) => takeIndices(c, mine)).catch(() => undefined);
      }
    }
    await this.local.remove([...s.accounts.flatMap((a) => accountStorageKeys(p.id, a.id)), hiddenAssetsKey(p.id), tokensKey(p.id)]);
    return { ok: true as const };
  }

  async networksHealth(p: P<'networks.health'>) {
    const s = await this.settings.read();
    try {
      const preset = this.presetOf(s, p.id);
      const report = await this.client(preset).health.health();
      // A node of another network (its address now serves another) is of no use: said as such, not
      // "healthy" beside a banner saying the wallet refuses it. Asked afresh, nothing cached, whatever
      // its health (one chain of many not bootstrapped makes a node unhealthy); of an unhealthy node
      // only that answer counts, as one still bootstrapping may not answer the rest.
      const identity = await discoverNetwork(this.client(preset), preset).then(
        () => undefined,
        (e: unknown) => e,
      );
      if (identity !== undefined && (report.healthy || identity instanceof NetworkMismatchError)) throw identity;
      // A node's check carries an `error` only when it fails: those are the ones to name.
      const failed = Object.keys(report.checks).filter((k) => (report.checks[k] as { error?: unknown } | null)?.error != null);
      // Names are shown as they are: only those that read as a check's name (a node could name one "move your funds to …").
      return { healthy: report.healthy, checks: failed.filter((k) => /^[\w.-]{1,40}$/.test(k)), passed: Object.keys(report.checks).length - failed.length };
    } catch (e) {
      return { healthy: false, checks: [], passed: 0, error: (e as Error).message, errorCode: e instanceof WalletError ? e.code : '' };
    }
  }

  // ---- for site requests (src/background/provider.ts) ----

  /** The selected network, and its C-Chain's EVM chain ID (from the preset while locked or offline). */
  async siteNetwork(): Promise<{ network: NetworkView; evmChainId: bigint }> {
    const s = await this.settings.read();
    const preset = this.presetOf(s, s.selectedNetworkId);
    const known = preset.evmChainID ?? this.#identities.get(preset.id)?.evmChainID;
    const evmChainId = BigInt(known ?? (await this.identity(preset)).evmChainID);
    return { network: this.networkView(preset), evmChainId };
  }

  /** The Avalanche networks the wallet knows, the user's own first, with their EVM chain IDs where known without a call. */
  async siteNetworks(): Promise<{ id: string; name: string; evmChainId?: bigint }[]> {
    const s = await this.settings.read();
    return networkIdsOf(s, true).map((id) => {
      const preset = this.presetOf(s, id);
      const chainId = preset.evmChainID ?? this.#identities.get(id)?.evmChainID;
      return { id, name: preset.name, ...(chainId !== undefined ? { evmChainId: BigInt(chainId) } : {}) };
    });
  }
}

function presetOfCustom(n: CustomNetwork): Preset {
  return {
    ...customPreset(n.url, { name: n.name }),
    atomicApi: { namespace: n.atomicNamespace, path: `/ext/bc/C/${n.atomicNamespace}` },
    id: n.id,
    ...(n.hrp ? { savedHrp: n.hrp } : {}),
    ...(n.pinned
      ? {
          networkID: n.pinned.networkID,
          hrp: hrpForNetworkId(n.pinned.networkID),
          evmChainID: n.pinned.evmChainID,
          known: { xChainID: n.pinned.xChainID, cChainID: n.pinned.cChainID, avaxAssetID: n.pinned.avaxAssetID },
        }
      : {}),
  };
}

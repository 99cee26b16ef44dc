// What the staking service (src/background/services/staking.ts, which extends StakingReads) reads
// before it builds anything: the account's stake book; the selected account at work on staking,
// with the network's rules and the chain's time; the validator list (read at most every
// LIST_TTL_MS); one validator; a listed validator's terms checked against its own staking tx; and
// what a staking tx is funded from and paid to.
import { pClock } from '../core/engine.js';
import { stakingRulesFor, type StakingRules } from '../core/network.js';
import type { NodeClient } from '../core/node.js';
import type { CurrentValidator } from '../core/node/validators.js';
import { checkClocks } from '../core/staking/rules.js';
import { checkListedValidator, readValidatorTerms, type ValidatorTerms } from '../core/staking/validator-proof.js';
import type { OwnerSet } from '../shared/messages.js';
import { refuseRewardLocktime } from '../shared/validate-staking.js';
import { stakesKey } from './account-cache.js';
import type { AccountContext, AccountEngines } from './account-engines.js';
import { asField, ownersFrom } from './request-fields.js';
import { StakeBook } from './stake-book.js';
import type { StorageArea } from './storage.js';

/** How long a read of the whole validator list serves the list screens (a send clears it). */
const LIST_TTL_MS = 15_000;

/** The selected account at work on staking: its engine, the network's rules, chain time, its P addresses. */
export interface StakingContext extends AccountContext {
  rules: StakingRules;
  /** The P-Chain's last block time, Unix seconds: what the chain has done (stakes followed by it). */
  chainTime: bigint;
  /**
   * Unix seconds a stake sent now counts from (pClock): the later of the last block's time and this
   * computer's clock. Its maximum length is checked from `chainTime`: a computer clock ahead of the
   * node's must not pass a stake too long.
   */
  now: bigint;
  /** This computer's clock, Unix seconds. */
  clock: bigint;
  /** The account's P addresses; `pAddress` the first, where its stakes and rewards go by default. */
  mine: ReadonlySet<string>;
  pAddress: string;
  book: StakeBook;
}
/** The staking service's reads, with what it keeps of them: the list, each node's Helicon time, validators' terms. */
export class StakingReads {
  protected readonly lists = new Map<string, { at: number; list: CurrentValidator[] }>();
  /** Each node's Helicon time (by its URL), asked once: a network's upgrades are fixed at its start. */
  readonly #heliconTimes = new Map<string, Promise<bigint | undefined>>();
  /** Validators' terms by network and staking tx ID: a tx never changes, so one read serves its review and confirm. */
  readonly #terms = new Map<string, ValidatorTerms>();

  constructor(
    protected readonly engines: AccountEngines,
    protected readonly local: StorageArea,
  ) {}

  book(networkId: string, accountId: string): StakeBook {
    return new StakeBook(this.local, stakesKey(networkId, accountId));
  }

  /** `newStake`: for a stake's pick, review or confirm, refused when the node's clock is far ahead (checkClocks). */
  protected async context(newStake = false): Promise<StakingContext> {
    const ctx = await this.engines.open();
    const { engine, preset, account } = ctx;
    const [clock, min, heliconTime] = await Promise.all([pClock(engine), engine.node.platform.getMinStake(), this.heliconTime(ctx.preset.url, engine.node)]);
    if (newStake) checkClocks(clock.chainTime, clock.clock);
    const addresses = engine.addresses('P');
    return {
      ...ctx,
      rules: { ...stakingRulesFor(engine.ctx.networkID, heliconTime), ...min },
      ...clock,
      mine: new Set(addresses),
      pAddress: addresses[0]!,
      book: this.book(preset.id, account.id),
    };
  }

  /** The node's Helicon time; a node that does not say keeps the network's known rules. */
  protected heliconTime(url: string, node: NodeClient): Promise<bigint | undefined> {
    let asked = this.#heliconTimes.get(url);
    if (!asked) {
      asked = node.info.heliconTime().catch(() => {
        this.#heliconTimes.delete(url);
        return undefined;
      });
      this.#heliconTimes.set(url, asked);
    }
    return asked;
  }

  /** Every current validator, read at most every LIST_TTL_MS (or now, when `fresh`). */
  protected async validators(c: StakingContext, fresh = false): Promise<CurrentValidator[]> {
    const cached = this.lists.get(c.preset.id);
    if (!fresh && cached && Date.now() - cached.at < LIST_TTL_MS) return cached.list;
    const list = await c.engine.node.platform.getCurrentValidators();
    this.lists.set(c.preset.id, { at: Date.now(), list });
    return list;
  }

  protected async oneValidator(c: StakingContext, nodeID: string): Promise<CurrentValidator | undefined> {
    return (await c.engine.node.platform.getCurrentValidators([nodeID]))[0];
  }

  /** The listed fee, end and kind, checked against the validator's own staking tx (the list is the node's word). */
  protected async proveListed(c: StakingContext, v: CurrentValidator): Promise<void> {
    const key = `${c.preset.id} ${v.txID}`;
    let terms = this.#terms.get(key);
    if (!terms) {
      terms = await readValidatorTerms((txID) => c.engine.node.platform.getTx(txID), c.engine.ctx, v);
      if (this.#terms.size >= 64) this.#terms.clear();
      this.#terms.set(key, terms);
    }
    checkListedValidator(v, terms);
  }

  protected me(c: StakingContext): OwnerSet {
    return { addresses: [c.pAddress], threshold: 1 };
  }

  /** Refused with a lock time, whoever asks: no staking review shows one. */
  protected owners(c: StakingContext, set: OwnerSet, field: string) {
    refuseRewardLocktime(set, field);
    return asField(field, () => ownersFrom(set, 'P', c.engine.ctx.hrp));
  }

  protected async spendParams(c: StakingContext) {
    const [pool, fee] = await Promise.all([c.engine.spendable('P'), c.engine.pFeeContext()]);
    return { ctx: c.engine.ctx, fee, pool, changeOwners: c.engine.changeOwners };
  }
}

// 6: the staking screen's validator list. A generated, mainnet-sized answer of
// platform.getCurrentValidators (about 1,500 validators holding 30,000 delegations; a few
// auto-renewed; weights, fees, uptimes and ends spread as on mainnet), then what the background does
// for the first screen: the JSON read, parsed and checked, every validator's model (free space,
// score, whose it is), filtered, sorted and cut to the top 20, as views. (The node lists delegators
// one by one only when asked about a single NodeID; for the whole network it gives their totals.)
import { sha256 } from '@noble/hashes/sha2.js';
import { toHex, utf8 } from '../src/core/bytes.js';
import { cb58Encode, formatAddress, formatNodeId } from '../src/core/encoding.js';
import { stakingRulesFor } from '../src/core/network.js';
import { parseCurrentValidators } from '../src/core/node/validators.js';
import { freeSpaceOf } from '../src/core/staking/rules.js';
import { validatorModels, validatorPage } from '../src/core/staking/validator-list.js';
import { validatorView } from '../src/background/staking-views.js';
import { compare, fmtStats } from './measure.js';
import type { Row } from './report.js';

const AVAX = 1_000_000_000n;
const rules = { ...stakingRulesFor(1), minValidatorStake: 2_000n * AVAX, minDelegatorStake: 25n * AVAX };
/** Chain time of the fixture: every validator is current at it. */
export const FIXTURE_NOW = 1_800_000_000n;

/** A deterministic stream of numbers in [0, 1): the fixture is the same every run. */
function random(seed: string): () => number {
  let counter = 0;
  return () => {
    const h = sha256(utf8.encode(`${seed}:${counter++}`));
    return new DataView(h.buffer).getUint32(0) / 2 ** 32;
  };
}

const bytes = (label: string, n: number) => sha256(utf8.encode(label)).slice(0, n);
const owner = (label: string) => ({ locktime: '0', threshold: '1', addresses: [formatAddress('P', 'avax', bytes(label, 20))] });
const percent = (millionths: number) => `${Math.floor(millionths / 10_000)}.${(millionths % 10_000).toString().padStart(4, '0')}`;

export interface FixtureOptions {
  validators?: number;
  delegators?: number;
}

/** platform.getCurrentValidators' result, as JSON text, the way the node would send it. */
export function validatorFixture(o: FixtureOptions = {}): string {
  const n = o.validators ?? 1_500;
  const rnd = random('xpc-wallet bench validators');
  const validators = Array.from({ length: n }, (_, i) => {
    // Heavy-tailed own stakes from 2,000 AVAX to 3,000,000 AVAX; most charge the minimum fee.
    const weight = (2_000n + BigInt(Math.floor(2_000 * (1 / (rnd() + 0.0007) - 1)))) * AVAX;
    const fee = rnd() < 0.6 ? 20_000 : 20_000 + Math.floor(rnd() * 180_000);
    const uptime = rnd() < 0.9 ? 95 + rnd() * 5 : rnd() * 95;
    const start = FIXTURE_NOW - BigInt(Math.floor(rnd() * 300 * 86_400));
    const end = FIXTURE_NOW + BigInt(Math.floor(1 + rnd() * 360 * 86_400));
    const autoRenewed = rnd() < 0.05;
    return { i, weight: weight > 3_000_000n * AVAX ? 3_000_000n * AVAX : weight, fee, uptime, start, end, autoRenewed, connected: rnd() < 0.97, delegators: [] as { weight: bigint; end: bigint }[] };
  });
  // Delegations go where there is room, more of them to the bigger validators.
  const total = o.delegators ?? 30_000;
  for (let d = 0; d < total; d++) {
    const v = validators[Math.floor(rnd() ** 2 * n)]!;
    const taken = v.delegators.reduce((s, x) => s + x.weight, 0n);
    const room = freeSpaceOf({ weight: v.weight, delegatorWeight: taken }, rules);
    const want = (25n + BigInt(Math.floor(rnd() * 500))) * AVAX;
    const weight = want < room ? want : room;
    if (weight < 25n * AVAX) {
      d--;
      continue;
    }
    v.delegators.push({ weight, end: FIXTURE_NOW + BigInt(Math.floor(1 + rnd() * Number(v.end - FIXTURE_NOW))) });
  }
  const answer = validators.map((v) => {
    const nodeID = formatNodeId(bytes(`node ${v.i}`, 20));
    const delegatorWeight = v.delegators.reduce((s, x) => s + x.weight, 0n);
    return {
      txID: cb58Encode(bytes(`validator tx ${v.i}`, 32)),
      startTime: v.start.toString(),
      endTime: v.end.toString(),
      weight: v.weight.toString(),
      nodeID,
      validationRewardOwner: owner(`reward ${v.i}`),
      delegationRewardOwner: owner(`fees ${v.i}`),
      potentialReward: ((v.weight * 7n) / 100n).toString(),
      accruedDelegateeReward: '0',
      delegationFee: percent(v.fee),
      uptime: v.uptime.toFixed(4),
      connected: v.connected,
      signer: { publicKey: `0x${toHex(new Uint8Array(48).fill(v.i % 251))}`, proofOfPossession: `0x${toHex(new Uint8Array(96).fill(7))}` },
      ...(v.autoRenewed ? { validatorAuthority: owner(`authority ${v.i}`), nextPeriod: '1209600', autoCompoundRewardShares: '500000' } : {}),
      delegatorCount: String(v.delegators.length),
      delegatorWeight: delegatorWeight.toString(),
    };
  });
  return JSON.stringify({ validators: answer });
}

/** What staking.validators does for the first screen, from the node's JSON text to the views. */
export function firstScreen(json: string) {
  const list = parseCurrentValidators(JSON.parse(json) as unknown);
  const models = validatorModels(list, rules, FIXTURE_NOW, new Set([formatAddress('P', 'avax', bytes('reward 7', 20))]));
  const { matching, page } = validatorPage(models, { now: FIXTURE_NOW, filter: { minUptime: 90, maxFee: 100_000 }, sort: 'score', limit: 20 });
  return { total: list.length, matching, delegators: list.reduce((s, v) => s + v.delegatorCount, 0), validators: page.map(validatorView) };
}

export const LIMIT_MS = 150;

export async function validatorListSection(log: (m: string) => void): Promise<{ rows: Row[]; problems: string[] }> {
  const rows: Row[] = [];
  const problems: string[] = [];
  const json = validatorFixture();
  const check = firstScreen(json);
  if (check.total !== 1_500 || check.delegators !== 30_000 || check.validators.length !== 20) problems.push(`validator list fixture: ${JSON.stringify({ ...check, validators: check.validators.length })}`);
  const kb = Math.round(json.length / 1024);
  log(`validator list: ${check.total} validators, ${check.delegators} delegations, ${kb} KB of JSON`);
  const { stats } = await compare({ ours: () => firstScreen(json) });
  rows.push({
    section: '6',
    case: `validator list parsed and first screen's model (filtered, sorted, top 20): 1,500 validators, 30,000 delegations, ${kb} KB`,
    ours: fmtStats(stats.ours),
    reference: '—',
    ratio: '—',
    limit: `≤ ${LIMIT_MS} ms`,
    met: stats.ours.p90 <= LIMIT_MS ? 'yes' : 'no',
    note: 'From the JSON text the node sends (JSON.parse included) to the 20 views of the first screen (uptime ≥ 90%, fee ≤ 10%, by score). "Met" requires p90 ≤ 150 ms. The popup\'s render of that screen is not in this row.',
  });
  return { rows, problems };
}

// Section 1's runner: each case of tx-cases.ts timed ours vs avalanchejs vs the floor (and the
// floor plus the signer's own checks, and the case's building alone), in the same rounds; its rows.
import { sha256 } from '@noble/hashes/sha2.js';
import type { Bytes } from '../src/core/bytes.js';
import { signDigest, type KeyPair } from '../src/core/keys.js';
import { checkOwnSignatures } from '../src/core/sign-check.js';
import { KEYS } from './fixtures.js';
import { compare, fmtBytes, fmtMs, fmtRatio, fmtStats, type Job, type Stats } from './measure.js';
import type { Row } from './report.js';
import { checkOfflineBuilder, checkSameBytes, signedBy, txCases } from './tx-cases.js';

export interface FloorDetail {
  name: string;
  floor: Stats;
  floorChecked: Stats;
  /** Floor + check + the tx ID's hash of the credentials (signerFloorJob). */
  signerFloor: Stats;
  /** The case's `prepare` alone: building, timed in the same rounds. */
  building: Stats;
  ours: Stats;
  /** Ours ÷ floor per round: its median is the judged ratio. */
  oursOverFloor: Stats;
  /** Per round, like oursOverFloor (so the parts of one case share its rounds' machine state). */
  checkedOverFloor: Stats;
  signerOverFloor: Stats;
  buildingOverFloor: Stats;
  oursOverSigner: Stats;
}

export interface TxSectionResult {
  rows: Row[];
  floors: FloorDetail[];
  problems: string[];
}

/**
 * The floor plus what our signer adds on purpose: one check per distinct signature that it
 * verifies against the key that must sign (checkOwnSignatures). Shows how much of ours ÷ floor
 * that check accounts for.
 */
function floorCheckedJob(floor: Job, keys: KeyPair[], distinct: number): Job {
  const digest = sha256(Uint8Array.of(1, 2, 3));
  const signed = keys.slice(0, distinct).map((key) => ({ key, signature: signDigest(key.secret, digest) }));
  return () => {
    const bytes = floor();
    checkOwnSignatures(digest, signed);
    return bytes;
  };
}

/**
 * The floor, the check and the tx ID: everything our signer does beyond building. The ID is a
 * sha256 of the signed bytes; signTx keeps the hash state of the unsigned bytes (the signing
 * digest's), so what it hashes again is the credentials, as here.
 */
function signerFloorJob(floorChecked: Job, unsignedLength: number): Job {
  return () => {
    const bytes = floorChecked() as Bytes;
    sha256(bytes.subarray(unsignedLength));
    return bytes;
  };
}

/** Ours may cost at most this many floors (issue #19). */
export const MAX_OVER_FLOOR = 2;

export async function txSection(log: (msg: string) => void): Promise<TxSectionResult> {
  const rows: Row[] = [];
  const floors: FloorDetail[] = [];
  const problems: string[] = [];
  const offline = checkOfflineBuilder();
  if (offline) problems.push(offline);
  for (const c of txCases()) {
    const differs = await checkSameBytes(c);
    if (differs) problems.push(differs);
    const floorChecked = floorCheckedJob(c.floor, KEYS, c.distinctKeys);
    const jobs = {
      ours: signedBy(c.prepare),
      ref: c.ref,
      floor: c.floor,
      floorChecked,
      signerFloor: signerFloorJob(floorChecked, c.unsignedLength),
      building: c.prepare,
    };
    const r = await compare(jobs, c.budget);
    // Judged on the ratios the rows show: the median of per-round ratios (contenders interleaved).
    const speedups = r.pairRatios('ref', 'ours');
    const oursOverFloor = r.pairRatios('ours', 'floor');
    const speedup = speedups.median;
    const overFloor = oursOverFloor.median;
    log(`${c.name}: ours ${fmtMs(r.stats.ours.median)}, avalanchejs ${fmtMs(r.stats.ref.median)} (${fmtRatio(speedup)}), floor ${fmtMs(r.stats.floor.median)} [${r.rounds} rounds, ${fmtMs(r.wallMs)}]`);
    const name = `${c.name} (${fmtBytes(c.signedSize)} signed)`;
    rows.push({
      section: '1',
      case: `${name}: build + sign + serialize`,
      ours: fmtStats(r.stats.ours),
      reference: `avalanchejs ${fmtStats(r.stats.ref)}`,
      ratio: speedupText(speedups),
      limit: c.minSpeedup >= 1 ? `≥ ${c.minSpeedup}× faster` : `≥ ${c.minSpeedup}× (not slower beyond noise)`,
      met: speedup >= c.minSpeedup ? 'yes' : 'no',
      ...(c.note ? { note: c.note } : {}),
    });
    rows.push({
      section: '1',
      case: `${name}: ours vs floor (${c.distinctKeys} sig${c.distinctKeys === 1 ? '' : 's'} + sha256 + serialize)`,
      ours: fmtMs(r.stats.ours.median),
      reference: `floor ${fmtStats(r.stats.floor)}`,
      ratio: `ours = ${fmtRatio(oursOverFloor)} floor`,
      limit: `≤ ${MAX_OVER_FLOOR}× floor`,
      met: overFloor <= MAX_OVER_FLOOR ? 'yes' : 'no',
    });
    floors.push({
      name: c.name,
      floor: r.stats.floor,
      floorChecked: r.stats.floorChecked,
      signerFloor: r.stats.signerFloor,
      building: r.stats.building,
      ours: r.stats.ours,
      oursOverFloor,
      checkedOverFloor: r.pairRatios('floorChecked', 'floor'),
      signerOverFloor: r.pairRatios('signerFloor', 'floor'),
      buildingOverFloor: r.pairRatios('building', 'floor'),
      oursOverSigner: r.pairRatios('ours', 'signerFloor'),
    });
  }
  return { rows, floors, problems };
}

function speedupText(r: Stats): string {
  return r.median >= 1 ? `${fmtRatio(r)} faster` : `${fmtRatio(r)}: SLOWER`;
}

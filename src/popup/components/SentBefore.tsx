// The review of a send says when the same send was made a little while ago. A popup closed while a
// send ran opens again on an empty form (the background finishes the send), and the user who sends
// again would pay twice: the same chain, asset, amount and recipient, not failed, still waiting or
// accepted within the hour, is named on the review before Confirm. A mint and an asset's creation
// are checked the same way (a second asset of the same name and symbol is a second fee, for good;
// a second NFT of the same payload uses up another group's mint right, for good).
import { useEffect, useMemo, useState } from 'preact/hooks';
import { fromHex, toHex } from '../../core/bytes.js';
import { useCall } from '../api.js';
import { MutedText } from './Field.js';
import type { Fact } from './Review.js';
import type { ActivityItem, ChainName } from '../../shared/messages.js';

/** How long an accepted send still counts as "just made". */
export const SENT_BEFORE_WINDOW_MS = 60 * 60_000;

/**
 * A send as reviewed: on the C-Chain a token's sends are told by `token` (its contract) and an NFT's
 * ID, AVAX's by their absence. A mint of the asset (to `to`) is looked for among mints; an asset's
 * creation by its name and symbol.
 */
export type SendShape = (
  | { kind?: 'mint'; chain: ChainName; assetID?: string; token?: string; tokenId?: string; amount: bigint; to: string }
  | { kind: 'create-asset'; chain: 'X'; created: { name: string; symbol: string } }
  | { kind: 'nft-mint'; chain: 'X'; assetID: string; payloadHex: string; to: string }
) & {
  /** Its Confirm under way: once it fails, Activity is read again (the send it tried may be there). */
  sending?: boolean;
};

const same = (a: string | undefined, b: string | undefined) => a?.toLowerCase() === b?.toLowerCase();

/** What tells one send (mint, creation) of the shape from another. */
const shapeKey = (s: SendShape): string =>
  s.kind === 'create-asset'
    ? `create|${s.created.name}|${s.created.symbol}`
    : s.kind === 'nft-mint'
      ? `nft|${s.assetID}|${s.payloadHex}|${s.to.toLowerCase()}`
      : `${s.kind ?? ''}|${s.chain}|${s.assetID ?? s.token ?? ''}|${s.tokenId ?? ''}|${s.amount}|${s.to.toLowerCase()}`;

/** An NFT mint's payload as Activity records it (ActivityItem.payloadHash): SHA-256, hex. */
export async function payloadHash(payloadHex: string): Promise<string> {
  // fromHex makes its bytes in a fresh ArrayBuffer, as digest wants.
  return toHex(new Uint8Array(await crypto.subtle.digest('SHA-256', fromHex(payloadHex) as Uint8Array<ArrayBuffer>)));
}

function alike(i: ActivityItem, s: SendShape, hash?: string): boolean {
  if (s.kind === 'create-asset') return i.created?.name === s.created.name && i.created.symbol === s.created.symbol;
  if (s.kind === 'nft-mint') return i.assetID === s.assetID && same(i.to, s.to) && hash !== undefined && i.payloadHash === hash;
  return i.amount === s.amount.toString() && same(i.to, s.to) && (s.chain === 'C' ? same(i.token?.address, s.token) && i.token?.tokenId === s.tokenId : i.assetID === s.assetID);
}

/**
 * The newest send of the list like `s` made before `now`, not failed, waiting or accepted within
 * SENT_BEFORE_WINDOW_MS of `now`. `hash`: an NFT mint's payloadHash.
 */
export function sentBefore(items: readonly ActivityItem[], s: SendShape, now: number, hash?: string): ActivityItem | undefined {
  return items.find(
    (i) =>
      i.kind === (s.kind ?? 'send') &&
      i.createdAt < now &&
      i.chain === s.chain &&
      i.status !== 'failed' &&
      !i.replaced &&
      (i.status === 'pending' || now - i.createdAt < SENT_BEFORE_WINDOW_MS) &&
      alike(i, s, hash),
  );
}

/** What was done; what Confirm would do, while the first waits and once it is accepted. */
const WORDS = {
  send: ['sent the same amount to this address', 'send it a second time', 'send it again'],
  mint: ['minted the same amount to this address', 'mint it a second time', 'mint it again'],
  'nft-mint': ['minted an NFT of this family with the same payload to this address', 'mint another', 'mint another'],
  'create-asset': ['created an asset of this name and symbol', 'create a second one', 'create another'],
  move: ['started the same move', 'move it a second time', 'move it again'],
};

/** `kind` done at `createdAt`, in words: `pending`, the chain has not accepted it (a move: not finished) yet. */
export function doneBeforeText(kind: keyof typeof WORDS, createdAt: number, pending: boolean, now: number): string {
  const minutes = Math.floor(Math.max(0, now - createdAt) / 60_000);
  const ago = minutes === 0 ? 'less than a minute ago' : minutes === 1 ? '1 minute ago' : `${minutes} minutes ago`;
  const [did, secondTime, again] = WORDS[kind];
  return pending ? `You ${did} ${ago}, and ${kind === 'move' ? 'it has not finished' : 'the chain has not accepted it'} yet. Confirm only to ${secondTime}.` : `You ${did} ${ago}. Confirm only to ${again}.`;
}

export function sentBeforeText(item: ActivityItem, now: number): string {
  return doneBeforeText(item.kind === 'mint' || item.kind === 'nft-mint' || item.kind === 'create-asset' ? item.kind : 'send', item.createdAt, item.status === 'pending', now);
}

/** How many checks were made: each one its own. */
let checks = 0;

/**
 * The review's "Sent before" line for `shape` (none while `shape` is undefined): Activity is read
 * when its review first shows, and again when it shows after a Confirm that failed (a send whose
 * answer was lost may have gone out). Until it has answered (naming new assets can take it a few
 * seconds) the line says so and holds Confirm: a quick Confirm must not beat the warning.
 */
export function useSentBefore(shape: SendShape | undefined): Fact[] {
  const call = useCall();
  const key = shape ? shapeKey(shape) : '';
  const busy = shape?.sending === true;
  const [found, setFound] = useState<{ check: string; item?: ActivityItem | undefined } | null>(null);
  // When the review showed: a send listed after it is the one being confirmed, however fast.
  const shownAt = useMemo(() => Date.now(), [key, busy]);
  // Each showing its own check, even one within the millisecond of the last (a Confirm refused at once).
  const check = useMemo(() => `${key}#${++checks}`, [key, busy]);
  useEffect(() => {
    if (!shape || busy) return;
    let live = true;
    Promise.all([call('activity.list', {}), shape.kind === 'nft-mint' ? payloadHash(shape.payloadHex) : undefined]).then(
      ([{ items }, hash]) => live && setFound({ check, item: sentBefore(items, shape, shownAt, hash) }),
      // Activity unread: the review goes on without the line, as it did before.
      () => live && setFound({ check }),
    );
    return () => {
      live = false;
    };
    // The check stands for the shape and when it showed: a new object of the same send asks nothing again.
  }, [call, check]);
  if (!shape) return [];
  const [term, recent] = shape.kind === 'mint' || shape.kind === 'nft-mint' ? ['Minted before', 'mints'] : shape.kind ? ['Created before', 'assets created'] : ['Sent before', 'sends'];
  // While it is sent, the line stays as it was confirmed.
  return doneBeforeFacts(term, recent, !busy && found?.check !== check, found?.item && sentBeforeText(found.item, Date.now()));
}

/** A review's "… before" line: while `checking`, it says so and holds Confirm; then the warning, if any. */
export function doneBeforeFacts(term: string, recent: string, checking: boolean, warning: string | undefined): Fact[] {
  if (checking) return [{ term, value: <MutedText>Checking recent {recent}…</MutedText>, testid: 'review-sent-before', hold: true }];
  return warning ? [{ term, value: <span class="badge warn">{warning}</span>, testid: 'review-sent-before' }] : [];
}

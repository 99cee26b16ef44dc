// Holding the wallet at one exact point, so that a race between two windows is played in one order:
// a node call held before it goes out, and the moment a lock is asked for.
import type { Session } from '../../src/background/session.js';

/**
 * A fetch for the wallet that holds the next call of `method` (before it goes to the node) until
 * `release`; `held` resolves once it is held. Armed at once, or when `arm` is called.
 */
export function holdNext(method: string, { armed = true } = {}) {
  let reached!: () => void;
  let release!: () => void;
  const held = new Promise<void>((r) => (reached = r));
  const released = new Promise<void>((r) => (release = r));
  let waiting = armed;
  const gated: typeof fetch = async (input, init) => {
    if (waiting && typeof init?.body === 'string' && init.body.includes(`"${method}"`)) {
      waiting = false;
      reached();
      await released;
    }
    return fetch(input, init);
  };
  return { fetch: gated, held, release: () => release(), arm: () => void (waiting = true) };
}

/** Resolves when `session.lock` is next called (the lock goes on as usual). */
export function lockAsked(session: Session): Promise<void> {
  return new Promise<void>((asked) => {
    const lock = session.lock.bind(session);
    session.lock = () => (asked(), lock());
  });
}

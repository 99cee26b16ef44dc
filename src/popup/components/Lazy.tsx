// A component loaded when first shown (a dynamic import: its own chunk), so the popup's first load
// holds only what its first screen needs. `preload` fetches it ahead (the app does, once its first
// screen is painted), so opening it later shows it at once. A failed load says so and offers to try again.
import type { ComponentType, FunctionComponent } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { Muted, SmallButton } from './Field.js';

export interface LazyComponent<P extends object> extends FunctionComponent<P> {
  /** Loads the component now; resolves either way (a failure shows when the component is shown). */
  preload(): Promise<void>;
}

/** `title`: the screen's heading, shown while it loads (a screen always has its one heading). */
export function lazyComponent<P extends object>(load: () => Promise<ComponentType<P>>, title?: string): LazyComponent<P> {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<ComponentType<P>> | undefined;
  const start = (): Promise<ComponentType<P>> =>
    (loading ??= load().then(
      (c) => (loaded = c),
      (e: unknown) => {
        loading = undefined; // the next try loads again
        throw e;
      },
    ));
  function Lazy(props: P) {
    const [, setReady] = useState(0);
    const [failed, setFailed] = useState(false);
    useEffect(() => {
      if (loaded || failed) return;
      let stale = false;
      start().then(
        () => {
          if (!stale) setReady((n) => n + 1);
        },
        () => {
          if (!stale) setFailed(true);
        },
      );
      return () => {
        stale = true;
      };
    }, [failed]);
    if (loaded) {
      const C = loaded;
      return <C {...props} />;
    }
    return (
      <>
        {title && <h1>{title}</h1>}
        {failed ? (
          <p class="form-error" role="alert">
            This part of the wallet could not be loaded.{' '}
            <SmallButton onClick={() => setFailed(false)}>
              Try again
            </SmallButton>
          </p>
        ) : (
          <Muted>Loading…</Muted>
        )}
      </>
    );
  }
  Lazy.preload = () => start().then(
    () => undefined,
    () => undefined,
  );
  return Lazy;
}

// A component loaded when first shown (a dynamic import: its own chunk), so screens most sessions
// never open stay out of the popup's first load. A failed load says so and offers to try again.
import type { ComponentType, FunctionComponent } from 'preact';
import { useEffect, useState } from 'preact/hooks';

export function lazyComponent<P extends object>(load: () => Promise<ComponentType<P>>): FunctionComponent<P> {
  let loaded: ComponentType<P> | undefined;
  return function Lazy(props: P) {
    const [, setReady] = useState(0);
    const [failed, setFailed] = useState(false);
    useEffect(() => {
      if (loaded || failed) return;
      let stale = false;
      load().then(
        (c) => {
          loaded = c;
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
    if (failed) {
      return (
        <p class="form-error" role="alert">
          This part of the wallet could not be loaded.{' '}
          <button type="button" class="small" onClick={() => setFailed(false)}>
            Try again
          </button>
        </p>
      );
    }
    return <p class="muted">Loading…</p>;
  };
}

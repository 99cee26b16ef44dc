// A <dt>/<dd> pair of a fact list, written once: the popup has about a hundred of them.
import type { ComponentChildren, JSX } from 'preact';

/** The term goes in the dt; every other prop goes on the dd, around the children. */
export function Term({ term, children, ...dd }: { term: ComponentChildren; children?: ComponentChildren } & Omit<JSX.IntrinsicElements['dd'], 'children'>) {
  return (
    <>
      <dt>{term}</dt>
      <dd {...dd}>{children}</dd>
    </>
  );
}

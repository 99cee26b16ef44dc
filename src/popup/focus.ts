// When the focused control goes away with the view it belonged to (the action that opened a screen,
// a form's button once its next step shows, a screen swapped in once loaded), the browser leaves
// focus on <body>, and keyboard and screen-reader users start again from the top of the popup.
// Focus goes to the new view's heading instead. A click on plain text (focus on <body>, the last
// focused control still there) moves nothing.
export function keepFocusOnScreen(doc: Document): () => void {
  let focused: Element | null = null;
  const onFocus = (e: FocusEvent) => {
    focused = e.target as Element;
  };
  const observer = new MutationObserver(() => {
    if (!focused || focused.isConnected || (doc.activeElement && doc.activeElement !== doc.body)) return;
    focused = null;
    const heading = doc.querySelector<HTMLElement>('h1');
    if (!heading) return;
    if (!heading.hasAttribute('tabindex')) heading.tabIndex = -1;
    heading.focus();
  });
  doc.addEventListener('focusin', onFocus);
  observer.observe(doc.body, { childList: true, subtree: true });
  return () => {
    doc.removeEventListener('focusin', onFocus);
    observer.disconnect();
  };
}

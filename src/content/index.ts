// Isolated-world content script: the relay between the page's provider (src/inpage, MAIN world)
// and the background. It only accepts window messages that the page's own window posted with
// `target: 'xpc-wallet-content'`; everything else on the window message bus is ignored.
// The provider issue fills in the relay (forwarding to the background and posting replies back
// with a distinct target); until then accepted messages are dropped.

const CONTENT_TARGET = 'xpc-wallet-content';

type ContentBound = { target: typeof CONTENT_TARGET };

function isForContent(event: MessageEvent<unknown>): event is MessageEvent<ContentBound> {
  if (event.source !== window || event.origin !== window.location.origin) return false;
  const data = event.data;
  return (
    typeof data === 'object' &&
    data !== null &&
    (data as { target?: unknown }).target === CONTENT_TARGET
  );
}

window.addEventListener('message', (event: MessageEvent<unknown>) => {
  if (!isForContent(event)) return;
  // Relay goes here (provider issue).
});

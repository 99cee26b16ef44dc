import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import browser from 'webextension-polyfill';

type PingState =
  | { kind: 'pending' }
  | { kind: 'ok'; version: string }
  | { kind: 'failed'; message: string };

function readPingReply(reply: unknown): PingState {
  if (typeof reply === 'object' && reply !== null) {
    const r = reply as { ok?: unknown; version?: unknown; error?: { message?: unknown } };
    if (r.ok === true && typeof r.version === 'string') return { kind: 'ok', version: r.version };
    if (r.ok === false && typeof r.error?.message === 'string') {
      return { kind: 'failed', message: r.error.message };
    }
  }
  return { kind: 'failed', message: 'unexpected reply from the background' };
}

function App() {
  const [ping, setPing] = useState<PingState>({ kind: 'pending' });

  useEffect(() => {
    browser.runtime
      .sendMessage({ type: 'ping' })
      .then((reply) => setPing(readPingReply(reply)))
      .catch((err: unknown) =>
        setPing({ kind: 'failed', message: err instanceof Error ? err.message : String(err) }),
      );
  }, []);

  return (
    <main>
      <h1>XPC Wallet</h1>
      {ping.kind === 'pending' && <p class="muted">Contacting background…</p>}
      {ping.kind === 'ok' && <p data-testid="ping">Background ready (v{ping.version})</p>}
      {ping.kind === 'failed' && (
        <p class="error" data-testid="ping">
          Background unavailable: {ping.message}
        </p>
      )}
    </main>
  );
}

const root = document.getElementById('app');
if (root) render(<App />, root);

import { render } from 'preact';

// Approval window: the background opens it when a site asks for a connection or a signature.
// Until the request queue exists there is never anything to approve.
function Approval() {
  return (
    <main>
      <h1>XPC Wallet</h1>
      <p data-testid="approval-empty">No pending request</p>
    </main>
  );
}

const root = document.getElementById('app');
if (root) render(<Approval />, root);

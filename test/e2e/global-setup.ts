// The e2e run uses the same single local node as the integration project (see that file): it
// provides 'nodeUrl' to the tests and stops the node when the run ends.
export { default } from '../integration/global-setup.js';

// The approval window's page: the background opens it when a site asks for a connection or a
// signature (see approval-window.tsx for what it shows).
import { render } from 'preact';
import { ApprovalWindow } from './approval-window.js';
import './styles.css';

const root = document.getElementById('app');
if (root) render(<ApprovalWindow />, root);

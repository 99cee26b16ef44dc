// The popup page: mounts the app (see app.tsx for the screens).
import { render } from 'preact';
import { App } from './app.js';
import './styles.css';

const root = document.getElementById('app');
if (root) render(<App />, root);

// Vite's client types: lets the popup import its stylesheet (`import './styles.css'`).
/// <reference types="vite/client" />

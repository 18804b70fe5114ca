/// <reference types="vite/client" />

// Made at build time from the server's network modules (see vite.config.ts); typed in networks.ts.
declare module 'virtual:network-text' {
  const networks: unknown;
  export default networks;
}

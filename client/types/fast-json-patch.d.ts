// fast-json-patch has no "exports" map: its ESM build is index.mjs (what Vite bundles and what Node
// can import by name), but its typings are declared for the CommonJS entry only.
declare module 'fast-json-patch/index.mjs' {
  export * from 'fast-json-patch'
}

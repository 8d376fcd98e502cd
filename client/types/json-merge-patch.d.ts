// Only the RFC 7396 apply is imported in the client (the package's index also loads generate and its
// deep-equal dependency, which the browser does not need).
declare module 'json-merge-patch/lib/apply.js' {
  /** Apply an RFC 7396 merge patch to `target` (mutated and returned). */
  export default function apply(target: unknown, patch: unknown): unknown
}

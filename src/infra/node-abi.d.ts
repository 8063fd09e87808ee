// node-abi ships no types; Engram uses one function of it (native-check.ts).
declare module 'node-abi' {
  /** The runtime version of a NODE_MODULE_VERSION, e.g. getTarget('127', 'node') === '22.0.0'; throws when unknown. */
  export function getTarget(abi: string, runtime: 'node'): string;
}

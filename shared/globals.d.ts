// The few platform APIs shared/ relies on that exist identically in Node and in browsers.
// shared/ is compiled without DOM or Node types, so they are declared here.
declare class TextDecoder {
  constructor(label?: string, options?: { fatal?: boolean; ignoreBOM?: boolean });
  decode(input?: ArrayBufferView | ArrayBuffer): string;
}
declare class TextEncoder {
  encode(input?: string): Uint8Array;
}
declare function queueMicrotask(cb: () => void): void;

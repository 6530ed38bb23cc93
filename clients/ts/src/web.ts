/**
 * The browser transport: Connect over fetch to the HTTP door (the page's own origin, or one the
 * server lists in --allowed-origins). JSON on the wire unless `binary` (smaller, faster).
 */
import { createConnectTransport, createGrpcWebTransport } from "@connectrpc/connect-web";
import type { Transport } from "@connectrpc/connect";
import { StichClient } from "./index.js";

export * from "./index.js";

export function webTransport(baseUrl: string = globalThis.location?.origin ?? "", binary = true): Transport {
  return createConnectTransport({ baseUrl, useBinaryFormat: binary });
}

export function grpcWebTransport(baseUrl: string = globalThis.location?.origin ?? ""): Transport {
  return createGrpcWebTransport({ baseUrl });
}

export function stichClient(baseUrl?: string, options: { timeoutMs?: number } = {}): StichClient {
  return new StichClient(webTransport(baseUrl), options);
}

/**
 * Node transports: `grpcTransport("127.0.0.1:50051")` speaks gRPC (HTTP/2) to the gRPC door
 * directly; `connectTransport("http://127.0.0.1:8080")` speaks Connect to the HTTP door.
 */
import { createConnectTransport, createGrpcTransport } from "@connectrpc/connect-node";
import type { Transport } from "@connectrpc/connect";
import { StichClient } from "./index.js";

export * from "./index.js";

export function grpcTransport(address: string): Transport {
  return createGrpcTransport({ baseUrl: address.includes("://") ? address : `http://${address}` });
}

export function connectTransport(baseUrl: string, binary = true): Transport {
  return createConnectTransport({
    baseUrl: baseUrl.includes("://") ? baseUrl : `http://${baseUrl}`,
    httpVersion: "1.1",
    useBinaryFormat: binary,
  });
}

/** A client of the gRPC door (`address` host:port) or, with `connect: true`, of the HTTP door. */
export function stichClient(address: string, options: { connect?: boolean; timeoutMs?: number } = {}): StichClient {
  return new StichClient(options.connect ? connectTransport(address) : grpcTransport(address), options);
}

import { fileURLToPath } from 'node:url';
import { loadPackageDefinition, type ServiceClientConstructor } from '@grpc/grpc-js';
import { load } from '@grpc/proto-loader';

/** The folder of the platform's .proto files, shipped with the package next to src/ and dist/. */
export const PROTO_DIR = fileURLToPath(new URL('../proto/', import.meta.url));

/** A tool as ListTools returns it (field names as in tools.proto). */
export interface ProtoTool {
  name: string;
  description: string;
  input_schema_json: string;
  output_schema_json: string;
}

export interface ToolProtocol {
  ToolService: ServiceClientConstructor;
  Health: ServiceClientConstructor;
}

let loaded: Promise<ToolProtocol> | undefined;

/** The tool protocol and the standard health service, for clients and servers alike. */
export function toolProtocol(): Promise<ToolProtocol> {
  loaded ??= load(['tools.proto', 'grpc/health/v1/health.proto'], {
    includeDirs: [PROTO_DIR],
    keepCase: true,
    enums: String,
    defaults: true,
  }).then((definition) => {
    const root = loadPackageDefinition(definition) as unknown as {
      paddock: { tools: { v1: { ToolService: ServiceClientConstructor } } };
      grpc: { health: { v1: { Health: ServiceClientConstructor } } };
    };
    return { ToolService: root.paddock.tools.v1.ToolService, Health: root.grpc.health.v1.Health };
  });
  return loaded;
}

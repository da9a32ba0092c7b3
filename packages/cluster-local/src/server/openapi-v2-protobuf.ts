import { BinaryWriter, WireType } from '@bufbuild/protobuf/wire';
import { stringify } from 'yaml';

/**
 * A Swagger 2.0 document in the protobuf form kubectl reads: client-go asks /openapi/v2 for
 * `application/com.github.proto-openapi.spec.v2@v1.0+protobuf` only and decodes gnostic's
 * `openapi.v2.Document` message, so JSON alone does not serve kubectl. Only what this server's
 * documents hold is encoded (field numbers are those of gnostic's OpenAPIv2.proto).
 */

type Json = Record<string, unknown>;

const LEN = WireType.LengthDelimited;

function text(w: BinaryWriter, field: number, value: unknown): void {
  if (typeof value === 'string' && value !== '') w.tag(field, LEN).string(value);
}

function texts(w: BinaryWriter, field: number, values: unknown): void {
  if (Array.isArray(values)) for (const value of values) text(w, field, value);
}

function message(w: BinaryWriter, field: number, write: (w: BinaryWriter) => void): void {
  w.tag(field, LEN).fork();
  write(w);
  w.join();
}

const entries = (value: unknown): [string, unknown][] =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? Object.entries(value) : [];

/** `x-...` fields as NamedAny messages whose Any holds the value as YAML. */
function vendorExtensions(w: BinaryWriter, field: number, object: Json): void {
  for (const [name, value] of Object.entries(object)) {
    if (!name.startsWith('x-')) continue;
    message(w, field, (named) => {
      text(named, 1, name);
      message(named, 2, (any) => text(any, 2, stringify(value)));
    });
  }
}

function schema(w: BinaryWriter, node: Json): void {
  text(w, 1, node.$ref);
  text(w, 2, node.format);
  text(w, 4, node.description);
  texts(w, 19, node.required);
  const additional = node.additionalProperties;
  if (typeof additional === 'object' && additional !== null) {
    message(w, 21, (item) => message(item, 1, (s) => schema(s, additional as Json)));
  }
  if (typeof node.type === 'string') message(w, 22, (type) => text(type, 1, node.type));
  const items = node.items;
  if (typeof items === 'object' && items !== null && !Array.isArray(items)) {
    message(w, 23, (item) => message(item, 1, (s) => schema(s, items as Json)));
  }
  const properties = entries(node.properties);
  if (properties.length > 0) {
    message(w, 25, (props) => {
      for (const [name, value] of properties) namedSchema(props, 1, name, value as Json);
    });
  }
  vendorExtensions(w, 31, node);
}

function namedSchema(w: BinaryWriter, field: number, name: string, value: Json): void {
  message(w, field, (named) => {
    text(named, 1, name);
    message(named, 2, (s) => schema(s, value));
  });
}

function queryParameter(w: BinaryWriter, parameter: Json): void {
  // ParametersItem.parameter → Parameter.non_body_parameter → NonBodyParameter.query_parameter_sub_schema
  message(w, 1, (p) =>
    message(p, 2, (nonBody) =>
      message(nonBody, 3, (query) => {
        text(query, 2, parameter.in);
        text(query, 3, parameter.description);
        text(query, 4, parameter.name);
        text(query, 6, parameter.type);
        if (parameter.uniqueItems === true) query.tag(20, WireType.Varint).bool(true);
      }),
    ),
  );
}

function operation(w: BinaryWriter, op: Json): void {
  text(w, 3, op.description);
  text(w, 5, op.operationId);
  texts(w, 6, op.produces);
  texts(w, 7, op.consumes);
  for (const parameter of Array.isArray(op.parameters) ? op.parameters : []) {
    if ((parameter as Json).in === 'query')
      message(w, 8, (p) => queryParameter(p, parameter as Json));
  }
  message(w, 9, (responses) => {
    for (const [code, response] of entries(op.responses)) {
      message(responses, 1, (named) => {
        text(named, 1, code);
        message(named, 2, (value) =>
          message(value, 1, (r) => text(r, 1, (response as Json).description)),
        );
      });
    }
  });
  vendorExtensions(w, 13, op);
}

const PATH_ITEM_FIELDS: Record<string, number> = { get: 2, put: 3, post: 4, delete: 5, patch: 8 };

/** Encodes a Swagger 2.0 document (as this server builds it) as gnostic's Document message. */
export function encodeOpenApiV2(document: Json): Uint8Array {
  const w = new BinaryWriter();
  text(w, 1, document.swagger);
  const info = (document.info ?? {}) as Json;
  message(w, 2, (i) => {
    text(i, 1, info.title);
    text(i, 2, info.version);
  });
  message(w, 8, (paths) => {
    for (const [path, item] of entries(document.paths)) {
      message(paths, 2, (named) => {
        text(named, 1, path);
        message(named, 2, (pathItem) => {
          for (const [verb, op] of entries(item)) {
            const field = PATH_ITEM_FIELDS[verb];
            if (field !== undefined) message(pathItem, field, (o) => operation(o, op as Json));
          }
        });
      });
    }
  });
  message(w, 9, (definitions) => {
    for (const [name, value] of entries(document.definitions)) {
      namedSchema(definitions, 1, name, value as Json);
    }
  });
  return w.finish();
}

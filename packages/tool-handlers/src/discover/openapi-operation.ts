import { acyclicSchema, isRecord } from '../json-schema.js';
import type { OpenApiParameterLocation, OpenApiTarget } from '../target.js';

/** An OpenAPI 3 or Swagger 2 parameter, after dereferencing. */
export interface ParameterObject {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  /** OpenAPI 3, and Swagger 2 body parameters. */
  schema?: unknown;
  [key: string]: unknown;
}

/** The fields of an operation that its tool is made from. */
export interface OperationObject {
  operationId?: string;
  summary?: string;
  description?: string;
  parameters?: ParameterObject[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: unknown }> };
}

export interface OperationInput {
  name: string;
  method: string;
  path: string;
  url: string;
  operation: OperationObject;
  pathParameters?: ParameterObject[] | undefined;
}

export interface OperationTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  call: Pick<OpenApiTarget, 'method' | 'urlTemplate' | 'parameters' | 'body'>;
}

/** The argument that carries a body that is not a JSON object. */
export const BODY_ARGUMENT = 'body';

const LOCATIONS: readonly string[] = ['path', 'query', 'header'];
/** Swagger 2 parameter fields that describe the parameter, not its value. */
const PARAMETER_FIELDS = new Set([
  'name',
  'in',
  'required',
  'description',
  'collectionFormat',
  'allowEmptyValue',
]);

/**
 * An operation as a tool: its path, query and header parameters and its body's fields are the
 * arguments (a parameter wins over a body field of the same name); a body that is not an object
 * is the `body` argument. Cookie parameters are not offered.
 */
export function operationTool(input: OperationInput): OperationTool {
  const parameters = mergedParameters(input.pathParameters ?? [], input.operation.parameters ?? []);
  const properties: Record<string, unknown> = {};
  const required = new Set<string>();
  const located: OpenApiTarget['parameters'] = [];
  const formFields: ParameterObject[] = [];
  let bodySchema: unknown;
  let bodyRequired = false;

  for (const parameter of parameters) {
    if (parameter.in === 'body') {
      bodySchema = parameter.schema ?? {};
      bodyRequired = parameter.required === true;
    } else if (parameter.in === 'formData') {
      formFields.push(parameter);
    } else if (LOCATIONS.includes(parameter.in)) {
      located.push({ name: parameter.name, in: parameter.in as OpenApiParameterLocation });
      properties[parameter.name] = parameterSchema(parameter);
      if (parameter.required === true || parameter.in === 'path') required.add(parameter.name);
    }
  }
  const requestBody = input.operation.requestBody;
  if (requestBody !== undefined) {
    bodySchema = contentSchema(requestBody.content) ?? {};
    bodyRequired = requestBody.required === true;
  }
  if (formFields.length > 0) {
    bodySchema = {
      type: 'object',
      properties: Object.fromEntries(formFields.map((f) => [f.name, parameterSchema(f)])),
      required: formFields.filter((f) => f.required === true).map((f) => f.name),
    };
  }

  let body: OpenApiTarget['body'] = 'none';
  if (bodySchema !== undefined) {
    const schema = acyclicSchema(bodySchema);
    if (isObjectSchema(schema)) {
      body = 'object';
      const fields = isRecord(schema.properties) ? schema.properties : {};
      for (const [name, field] of Object.entries(fields)) {
        if (name in properties) continue;
        properties[name] = field;
        if (bodyRequired && Array.isArray(schema.required) && schema.required.includes(name)) {
          required.add(name);
        }
      }
    } else {
      body = 'wrapped';
      properties[BODY_ARGUMENT] = schema;
      if (bodyRequired) required.add(BODY_ARGUMENT);
    }
  }

  const { summary, description } = input.operation;
  return {
    name: input.name,
    description:
      [summary, description].filter((text) => text !== undefined && text !== '').join('\n\n') ||
      `${input.method} ${input.path}`,
    inputSchema: {
      type: 'object',
      properties,
      ...(required.size > 0 ? { required: [...required] } : {}),
    },
    call: { method: input.method, urlTemplate: input.url, parameters: located, body },
  };
}

/** The path's parameters overridden by the operation's (same name and location). */
function mergedParameters(
  path: readonly ParameterObject[],
  operation: readonly ParameterObject[],
): ParameterObject[] {
  const key = (p: ParameterObject) => `${p.in}:${p.name}`;
  const overridden = new Set(operation.map(key));
  return [...path.filter((p) => !overridden.has(key(p))), ...operation].filter(
    (p) => typeof p.name === 'string' && typeof p.in === 'string',
  );
}

function parameterSchema(parameter: ParameterObject): unknown {
  const schema =
    parameter.schema !== undefined
      ? parameter.schema
      : Object.fromEntries(Object.entries(parameter).filter(([key]) => !PARAMETER_FIELDS.has(key)));
  const copy = acyclicSchema(schema);
  return parameter.description !== undefined && isRecord(copy)
    ? { ...copy, description: parameter.description }
    : copy;
}

/** The JSON body's schema: application/json's, else another JSON type's, else the first. */
function contentSchema(content: Record<string, { schema?: unknown }> | undefined): unknown {
  if (content === undefined) return undefined;
  const types = Object.keys(content);
  const chosen =
    types.find((type) => type === 'application/json') ??
    types.find((type) => type.includes('json')) ??
    types[0];
  return chosen === undefined ? undefined : content[chosen]?.schema;
}

function isObjectSchema(schema: unknown): schema is Record<string, unknown> {
  if (!isRecord(schema)) return false;
  return schema.type === 'object' || (schema.type === undefined && isRecord(schema.properties));
}

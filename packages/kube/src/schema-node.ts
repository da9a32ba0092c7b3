/**
 * The part of OpenAPI v3 that a structural CustomResourceDefinition schema may use, read-only so the
 * kinds can write their schemas `as const` and keep every literal for the derived types.
 */
export interface SchemaNode {
  readonly type?: 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean';
  readonly description?: string;
  readonly format?: string;
  readonly enum?: readonly (string | number | boolean)[];
  readonly default?: unknown;
  readonly pattern?: string;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly maxProperties?: number;
  readonly required?: readonly string[];
  readonly properties?: { readonly [name: string]: SchemaNode };
  readonly additionalProperties?: SchemaNode;
  readonly items?: SchemaNode;
  /** Only in the form Kubernetes allows for int-or-string: `[{type: integer}, {type: string}]`. */
  readonly anyOf?: readonly SchemaNode[];
  readonly 'x-kubernetes-int-or-string'?: true;
  readonly 'x-kubernetes-preserve-unknown-fields'?: true;
  readonly 'x-kubernetes-list-type'?: 'atomic' | 'set' | 'map';
  readonly 'x-kubernetes-list-map-keys'?: readonly string[];
  readonly 'x-kubernetes-validations'?: readonly ValidationRule[];
}

/** A CEL rule the API server evaluates with `self` bound to the node that carries it. */
export interface ValidationRule {
  readonly rule: string;
  readonly message: string;
}

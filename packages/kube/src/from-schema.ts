import type { FromSchema as FromJsonSchema, JSONSchema } from 'json-schema-to-ts';

/**
 * The TypeScript type of the values a kind's schema accepts, so each kind's types come from its one
 * schema. Two departures from plain JSON Schema match what the API server does: an object listing
 * properties is closed (unknown fields are pruned, so a misspelt field should not type-check), and a
 * field with a default stays optional in what users write.
 */
export type FromSchema<S> = FromJsonSchema<
  Closed<S> extends infer C extends JSONSchema ? C : never,
  { keepDefaultedPropertiesOptional: true }
>;

/** The schema with `additionalProperties: false` on every object node that lists properties. */
type Closed<S> = S extends { readonly properties: object }
  ? {
      readonly [K in keyof S | 'additionalProperties']: K extends 'properties'
        ? { readonly [N in keyof S[K]]: Closed<S[K][N]> }
        : K extends 'additionalProperties'
          ? false
          : K extends keyof S
            ? S[K]
            : never;
    }
  : S extends { readonly items: unknown }
    ? { readonly [K in keyof S]: K extends 'items' ? Closed<S[K]> : S[K] }
    : S extends { readonly additionalProperties: unknown }
      ? { readonly [K in keyof S]: K extends 'additionalProperties' ? Closed<S[K]> : S[K] }
      : S;

import { Type } from 'typebox';
import { MAX_KEY_NAME_CHARS } from '../../auth/apikeys/service.js';
import { named, Nullable } from './common.js';

/** Longest expiry a key may be given, in days (ten years). */
export const MAX_EXPIRY_DAYS = 3650;

export const ApiKey = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    prefix: Type.String({ description: 'The first characters of the key' }),
    created: Type.String({ format: 'date-time' }),
    expires: Nullable(Type.String({ format: 'date-time', description: 'null: never' })),
    lastUsed: Nullable(Type.String({ format: 'date-time', description: 'To the minute' })),
    userId: Type.String({ description: 'The owner' }),
  },
  named('ApiKey', 'An API key as listed: never its secret'),
);

export const NewApiKey = Type.Object(
  {
    // Printable and 1 to MAX_KEY_NAME_CHARS characters once trimmed: checked by the route.
    name: Type.String({
      description: `1 to ${MAX_KEY_NAME_CHARS} printable characters; trimmed`,
    }),
    expiresInDays: Type.Optional(
      Nullable(
        Type.Integer({
          minimum: 0,
          maximum: MAX_EXPIRY_DAYS,
          description:
            'Days until the key expires; 0 never. Absent or null: SVC_AUTH_API_KEYS_DEFAULT_EXPIRATION',
        }),
      ),
    ),
  },
  named('NewApiKey'),
);

export const NewApiKeyAnswer = Type.Object({
  key: Type.String({ pattern: '^svc_sk_', description: 'The key, shown only here' }),
  apiKey: ApiKey,
});

export const ApiKeyList = Type.Object({ keys: Type.Array(ApiKey) });

export const ApiKeyId = Type.Object({ id: Type.String({ description: 'The key’s `id`.' }) });

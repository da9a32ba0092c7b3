export { openStore, type StoreOptions } from './open.js';
export {
  UniqueViolation,
  type ApiKeyRecord,
  type ApiKeyStore,
  type ExternalProfile,
  type LoginFailureStore,
  type NewUser,
  type RevokedSessionStore,
  type Store,
  type StoredProvider,
  type TokenPurpose,
  type TokenStore,
  type UserPatch,
  type UserRecord,
  type UserStore,
} from './types.js';

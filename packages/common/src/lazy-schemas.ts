import type { FastifyInstance, FastifySchemaCompiler, FastifySerializerCompiler } from 'fastify';
import type { TSchema } from 'typebox';
import type * as SchemaSerialization from './schema-serialization.js';
import type * as SchemaValidation from './schema-validation.js';
import { loadOnce } from './load-once.js';

/** The services' schema compilers: common's validation (TypeBox) and serialization. */
export interface SchemaCompilers {
  validation: typeof SchemaValidation;
  serialization: typeof SchemaSerialization;
}

type Check = ReturnType<FastifySchemaCompiler<TSchema>>;
type Serialize = ReturnType<FastifySerializerCompiler<unknown>>;

/** The schema compilers, loaded once on first need; what loads them is injectable for tests. */
export interface LazySchemaCompilers {
  /** Loads them (once; a failed load is tried again by the next call). */
  load: () => Promise<SchemaCompilers>;
  /** The loaded compilers; throws when nothing has loaded them yet (a wiring mistake). */
  loaded: () => SchemaCompilers;
  /**
   * Makes `app` validate and serialize with them, each loaded by the first request of a route
   * with a schema and each route's function compiled on its first use. Call before any other
   * onRequest hook, so that a reply sent from one (a 401) finds them loaded.
   */
  install: (app: FastifyInstance) => void;
}

const importCompilers = async (): Promise<SchemaCompilers> => {
  const [validation, serialization] = await Promise.all([
    import('./schema-validation.js'),
    import('./schema-serialization.js'),
  ]);
  return { validation, serialization };
};

/**
 * Schema compilers that load on first use. They are TypeBox's compiler and fast-json-stringify,
 * several hundred modules and some MiB of resident memory that an idle service (as most per-agent
 * processes are) never needs: health checks have no schema. Validation and serialization are
 * exactly common's, as strict.
 */
export function lazySchemaCompilers(
  importThem: () => Promise<SchemaCompilers> = importCompilers,
): LazySchemaCompilers {
  let compilers: SchemaCompilers | undefined;
  const importOnce = loadOnce(() =>
    importThem().then(
      (loaded) => (compilers = loaded),
      (err: unknown) => {
        throw new Error(`the schema compilers could not be loaded: ${(err as Error).message}`, {
          cause: err,
        });
      },
    ),
  );
  const load = (): Promise<SchemaCompilers> =>
    compilers !== undefined ? Promise.resolve(compilers) : importOnce();
  const loaded = (): SchemaCompilers => {
    if (compilers === undefined) throw new Error('the schema compilers are not loaded yet');
    return compilers;
  };
  const install = (app: FastifyInstance): void => {
    // Validation and serialization run after onRequest: by then the compilers are loaded.
    app.addHook('onRequest', (req, _reply, done) => {
      if (compilers !== undefined || req.routeOptions.schema === undefined) return done();
      load().then(() => done(), done);
    });
    app.setValidatorCompiler<TSchema>((route) => {
      let check: Check | undefined;
      return (value) => {
        check ??= loaded().validation.validatorCompiler(route);
        return check(value);
      };
    });
    app.setSerializerCompiler((route) => {
      let serialize: Serialize | undefined;
      return (value) => {
        serialize ??= loaded().serialization.serializerCompiler(route);
        return serialize(value);
      };
    });
  };
  return { load, loaded, install };
}

/** The process's schema compilers, loaded on first use. */
export const schemaCompilers: LazySchemaCompilers = lazySchemaCompilers();

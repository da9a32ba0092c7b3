// The package boundaries, checked by `npm run lint` (docs/development.md, "Package boundaries").
// Workspace packages are resolved through their node_modules links (preserveSymlinks), so an import
// of @paddock/<name> is an npm dependency like any other: it must be declared in the importing
// package's package.json, and it may only go through that package's declared exports.

/** Services: each runs on its own and reaches the others over the network only. */
const SERVICES = 'dashboard|sandbox|operator|cluster-local|forward|agent';
/** Kubernetes code: our kinds and client, the embedded API server, the upstream libraries. */
const KUBERNETES =
  '^node_modules/(@paddock/(kube|cluster-local)|@kubernetes/client-node|kubernetes-models)/';

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'Modules of a package form no loop: split what both sides need into a module of its own.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment:
        'The import resolves to no file: a typo, a package not installed, or a path into a package that its exports do not declare.',
      from: {},
      to: { couldNotResolve: true },
    },
    {
      name: 'no-non-package-json',
      severity: 'error',
      comment:
        'The package imports what its package.json does not declare (workspace packages included): add it, to dependencies for src, to devDependencies for what only tests use.',
      from: {},
      to: { dependencyTypes: ['npm-no-pkg', 'npm-unknown'] },
    },
    {
      name: 'not-to-dev-dep',
      severity: 'error',
      comment:
        "A package's src imports what it declares as a devDependency only, which an install of the package leaves out: declare it in dependencies. (The web interface is bundled at build time: its packages are all devDependencies.)",
      from: { path: '^packages/[^/]+/src/', pathNot: '^packages/dashboard-web/' },
      to: { dependencyTypes: ['npm-dev'], dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'no-reaching-into-packages',
      severity: 'error',
      comment:
        "A relative path into another package's folder: import the package by its name, through what its package.json exports.",
      from: { path: '^packages/([^/]+)/' },
      to: {
        path: '^packages/',
        pathNot: '^packages/$1/',
      },
    },
    {
      name: 'common-depends-on-nothing-of-ours',
      severity: 'error',
      comment: '@paddock/common is what every package shares: it imports none of them.',
      from: { path: '^packages/common/src/' },
      to: { path: '^node_modules/@paddock/' },
    },
    {
      name: 'kube-depends-on-common-only',
      severity: 'error',
      comment:
        '@paddock/kube is the Kubernetes layer the services build on: it imports none of them.',
      from: { path: '^packages/kube/src/' },
      to: { path: '^node_modules/@paddock/', pathNot: '^node_modules/@paddock/common/' },
    },
    {
      name: 'sandbox-no-kubernetes',
      severity: 'error',
      comment:
        'The sandbox runs in a pod, on a laptop or anywhere: it knows nothing of Kubernetes (the operator and the node that runs it do).',
      from: { path: '^packages/sandbox/' },
      to: { path: KUBERNETES },
    },
    {
      name: 'services-not-each-other',
      severity: 'error',
      comment:
        'A service imports no other service: they talk over HTTP, and the platform composes them by running their commands. What one shares without loading itself goes through a declared narrow entry (@paddock/dashboard/shared).',
      from: { path: `^packages/(${SERVICES})/` },
      to: {
        path: `^node_modules/@paddock/(${SERVICES})/`,
        pathNot: [
          '^node_modules/@paddock/$1/',
          '^node_modules/@paddock/dashboard/src/shared[.]ts$',
        ],
      },
    },
    {
      name: 'web-interface-speaks-http-only',
      severity: 'error',
      comment:
        "The web interface reaches the dashboard over HTTP only: none of the server's packages and none of Node's modules; only @paddock/common's browser-safe return-path.",
      from: { path: '^packages/dashboard-web/src/' },
      to: {
        path: ['^node_modules/@paddock/', KUBERNETES],
        pathNot: '^node_modules/@paddock/common/src/return-path[.]ts$',
      },
    },
    {
      name: 'web-interface-no-node-modules',
      severity: 'error',
      comment: 'The web interface runs in the browser: no Node.js built-in modules.',
      from: { path: '^packages/dashboard-web/src/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'no-test-helpers-in-src',
      severity: 'error',
      comment: '@paddock/testing is for tests and benchmarks: no package source imports it.',
      from: { path: '^packages/[^/]+/src/', pathNot: '^packages/testing/' },
      to: { path: '^node_modules/@paddock/testing/' },
    },
    {
      name: 'dashboard-domain-not-http',
      severity: 'error',
      comment:
        "The dashboard's domain throws its coded errors (src/errors.ts) and knows nothing of HTTP: only http/, door/, the composition roots and the shared entry (its signer) import the HTTP layer (decision 0026).",
      from: {
        path: '^packages/dashboard/src/',
        pathNot: '^packages/dashboard/src/(http/|door/|main[.]ts$|assemble[.]ts$|shared[.]ts$)',
      },
      to: { path: '^packages/dashboard/src/(http|door)/' },
    },
  ],
  options: {
    // Only the packages' own files: the compiled output and the one-line bin launchers (which
    // import the compiled output) are left out; installed packages are seen, not followed.
    exclude: { path: '^packages/[^/]+/(dist|bin)/' },
    doNotFollow: { path: 'node_modules' },
    preserveSymlinks: true,
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      // paddock-source: our packages resolve to their TypeScript sources, built or not.
      conditionNames: ['paddock-source', 'import', 'require', 'node', 'types', 'default'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
  },
};

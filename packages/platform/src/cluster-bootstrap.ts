import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  CORE_KINDS,
  installCrds,
  KINDS,
  Kube,
  NotFoundError,
  type ApiResource,
  type KubeObject,
} from '@paddock/kube';
import { parseAllDocuments } from 'yaml';
import {
  followAddresses,
  forPlatform,
  type PlatformAddresses,
  type Sample,
} from './sample-addresses.js';
import {
  SAMPLE_AGENT_RUNTIME,
  SAMPLE_MODEL_SECRET,
  sampleModelLine,
  type SampleModel,
} from './sample-model.js';

/** Where the platform's own components keep their state in the cluster. */
export const PLATFORM_NAMESPACE = 'paddock-system';

/** The object of that name, or undefined. */
async function existing(
  kube: Kube,
  kind: ApiResource,
  object: KubeObject,
): Promise<Sample | undefined> {
  try {
    return await kube
      .resource<KubeObject>(kind)
      .get(object.metadata?.name ?? '', object.metadata?.namespace);
  } catch (err) {
    if (err instanceof NotFoundError) return undefined;
    throw err;
  }
}

/** Creates the object unless one of that name exists: a restart never clobbers a user's edits. */
async function createIfAbsent(kube: Kube, kind: ApiResource, object: KubeObject): Promise<boolean> {
  if ((await existing(kube, kind, object)) !== undefined) return false;
  await kube.resource<KubeObject>(kind).create(object);
  return true;
}

/** The kind an object of a sample file is, among Paddock's and the core kinds. */
function kindOf(object: KubeObject): ApiResource {
  const all: ApiResource[] = [...KINDS, ...Object.values(CORE_KINDS)];
  const found = all.find(
    (k) =>
      k.kind === object.kind &&
      (k.group === '' ? k.version : `${k.group}/${k.version}`) === object.apiVersion,
  );
  if (!found) throw new Error(`no kind ${object.apiVersion}/${object.kind} to apply`);
  return found;
}

/**
 * Readies the embedded cluster for the local platform: Paddock's CRDs, then the sample resources
 * of a folder (a workspace, its tool registry, an agent and its prompt pack). Returns what it did,
 * for the banner.
 */
export async function bootstrapCluster(
  kubeconfig: string,
  samplesDir: string,
  addresses: PlatformAddresses,
  sampleModel?: SampleModel,
): Promise<string[]> {
  const kube = Kube.connect({ kubeconfig });
  try {
    const lines = await bootstrapWith(kube, samplesDir, addresses);
    if (sampleModel !== undefined) await applySampleModel(kube, sampleModel);
    return [...lines, sampleModelLine(sampleModel)];
  } finally {
    kube.close();
  }
}

/**
 * Gives the sample agent the model of PADDOCK_MODEL_*: its key in a Secret, its provider and model
 * in the AgentRuntime. Applied at each start that gives them; a start without them leaves the
 * cluster as it is.
 */
async function applySampleModel(kube: Kube, sample: SampleModel): Promise<void> {
  const { namespace, name } = SAMPLE_AGENT_RUNTIME;
  if (sample.apiKey !== undefined) {
    const secret: KubeObject & { stringData: Record<string, string> } = {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: SAMPLE_MODEL_SECRET, namespace },
      stringData: { apiKey: sample.apiKey },
    };
    if (!(await createIfAbsent(kube, CORE_KINDS.secret, secret))) {
      await kube
        .resource<KubeObject>(CORE_KINDS.secret)
        .patch(SAMPLE_MODEL_SECRET, { stringData: secret.stringData }, { namespace });
    }
  }
  const agentKind = KINDS.find((k) => k.kind === 'AgentRuntime')!;
  await kube.resource<KubeObject>(agentKind).patch(
    name,
    {
      spec: {
        provider: sample.provider,
        ...(sample.model === undefined ? {} : { model: sample.model }),
      },
    },
    { namespace },
  );
}

async function bootstrapWith(
  kube: Kube,
  samplesDir: string,
  addresses: PlatformAddresses,
): Promise<string[]> {
  // The platform's own namespace: the operator's leader-election Lease lives there.
  await createIfAbsent(kube, CORE_KINDS.namespace, {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: PLATFORM_NAMESPACE },
  });
  const installed = await installCrds(kube);
  const files = (await readdir(samplesDir)).filter((f) => f.endsWith('.yaml')).sort();
  // Workspaces first: the namespaces of the others come from them.
  const objects = (
    await Promise.all(
      files.map(async (f) =>
        parseAllDocuments(await readFile(join(samplesDir, f), 'utf8')).map((d) =>
          forPlatform(d.toJSON() as Sample, addresses),
        ),
      ),
    )
  )
    .flat()
    .sort((a, b) => Number(b.kind === 'Workspace') - Number(a.kind === 'Workspace'));
  let applied = 0;
  let moved = 0;
  for (const object of objects) {
    const namespace = object.metadata?.namespace;
    if (namespace !== undefined) {
      await createIfAbsent(kube, CORE_KINDS.namespace, {
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: { name: namespace },
      });
    }
    const kind = kindOf(object);
    const found = await existing(kube, kind, object);
    if (found === undefined) {
      await kube.resource<KubeObject>(kind).create(object);
      applied++;
      continue;
    }
    // A sample written for other ports than this start's follows them, unless someone edited it.
    const followed = followAddresses(found, object, addresses);
    if (followed !== undefined) {
      await kube
        .resource<KubeObject>(kind)
        .patch(
          object.metadata?.name ?? '',
          { metadata: { annotations: followed.metadata?.annotations }, spec: followed.spec },
          { namespace },
        );
      moved++;
    }
  }
  return [
    `CRDs installed:           ${installed} new of ${KINDS.length}`,
    `sample resources:         ${applied} new of ${objects.length} (examples/resources)` +
      (moved === 0 ? '' : `, ${moved} moved to this start's ports`),
  ];
}
